/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Identities a case runs as, built with libcap. The harness forks every
 * case, so a case may give up root for good and the others keep it.
 *
 *	const struct pc_identity *id = pc_identity("perfmon");
 *	ASSERT_EQ(0, pc_identity_become(id));
 *	char why[256];
 *	if (pc_identity_verify(id, why, sizeof(why)))
 *		CASE_ERROR("%s", why);		(perfconf.h: BECOME_IDENTITY does both)
 *
 * Every identity but root is uid/gid 65534 with no supplementary groups,
 * its capabilities (if any) effective and permitted, nothing inheritable,
 * nothing ambient. Root keeps uid 0 and every capability its bounding set
 * allows (a container or VM may have dropped some: CAP_SYS_RESOURCE on
 * some of our machines), with the inheritable and ambient sets emptied.
 *
 * pc_stranger is another user, uid/gid 65533 and no capabilities: the owner
 * of a task that belongs to none of the identities (ptrace's "another
 * user"). It is no cell of the matrix, so it is not in pc_identities[].
 */
#ifndef PERFCONF_PRIVILEGE_H
#define PERFCONF_PRIVILEGE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/capability.h>
#include <sys/types.h>

#define PC_NOBODY 65534
#define PC_STRANGER 65533

struct pc_identity {
	const char *name;	/* a word of the case ids: "root", "perfmon", "bpf_perfmon" */
	bool root;		/* uid 0 with every capability of the bounding set */
	uid_t uid;		/* otherwise this uid and gid (PC_NOBODY, or PC_STRANGER) */
	cap_value_t caps[2];	/* with exactly these capabilities */
	unsigned int ncaps;
	int since;		/* PC_KVER of the first kernel that knows them (0: any) */
};

/* root, unprivileged, perfmon, sys_admin, sys_ptrace, ipc_lock, bpf, bpf_perfmon, syslog. */
extern const struct pc_identity pc_identities[];
extern const size_t pc_identities_count;
/* Another user, with no capabilities; not found by pc_identity(). */
extern const struct pc_identity pc_stranger;
/* The identity of that name in pc_identities[], or NULL. */
const struct pc_identity *pc_identity(const char *name);
/* Whether the identity holds cap (root: whether the bounding set has it). */
bool pc_identity_has(const struct pc_identity *id, cap_value_t cap);

/*
 * Become the identity: the calling process for good. 0, or -errno of the
 * libcap call that the environment refused (-EPERM when not root to begin
 * with, -EINVAL for a capability this kernel does not know).
 */
int pc_identity_become(const struct pc_identity *id);
/*
 * Whether this process is the identity: real, effective, saved and
 * filesystem uid; dumpable; effective, permitted and inheritable sets
 * (cap_compare against the identity's); an empty ambient set. 0, or -EPERM with what
 * differs in why.
 */
int pc_identity_verify(const struct pc_identity *id, char *why, size_t len);

/* pc_identity_become(pc_identity("unprivileged")). 0 or -errno. */
int pc_become_nobody(void);

/*
 * Where this program's executable is one no identity but root can reach
 * (a tree cloned under root's 0700 home), a case that has another identity
 * probe its own code (a uprobe's path is looked up as the caller) could
 * not test anything. Run as root, this copies the executable to
 * PC_EXE_COPY_DIR/PC_EXE_COPY_PREFIX<pid>/ (mode 0755) and executes the
 * copy in its place, same pid and arguments; the copy removes itself when
 * that process exits, and the runner removes what a killed one left.
 * Returns 0 where nothing needs doing (reachable, not root, already the
 * copy), or -errno when no copy could be made (it goes on where it is).
 * perfconf.h: PERFCONF_REACHABLE_BY_EVERY_IDENTITY().
 */
#define PC_EXE_COPY_DIR "/run"
#define PC_EXE_COPY_PREFIX "perfconf-exe."
int pc_exe_reachable(void);

#endif
