// SPDX-License-Identifier: GPL-2.0
/* Identities built with libcap (see privilege.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "abi/abi.h"
#include "host/privilege.h"

#define NOBODY .uid = PC_NOBODY
#define CAPS(...) .caps = { __VA_ARGS__ }, .ncaps = sizeof((cap_value_t[]){ __VA_ARGS__ }) / sizeof(cap_value_t)

/* CAP_PERFMON and CAP_BPF came in 5.8; before, CAP_SYS_ADMIN stood for both. */
const struct pc_identity pc_identities[] = {
	{ .name = "root", .root = true },
	{ .name = "unprivileged", NOBODY },
	{ .name = "perfmon", NOBODY, CAPS(CAP_PERFMON), .since = PC_KVER(5, 8) },
	{ .name = "sys_admin", NOBODY, CAPS(CAP_SYS_ADMIN) },
	{ .name = "sys_ptrace", NOBODY, CAPS(CAP_SYS_PTRACE) },
	{ .name = "ipc_lock", NOBODY, CAPS(CAP_IPC_LOCK) },
	{ .name = "bpf", NOBODY, CAPS(CAP_BPF), .since = PC_KVER(5, 8) },
	{ .name = "bpf_perfmon", NOBODY, CAPS(CAP_BPF, CAP_PERFMON), .since = PC_KVER(5, 8) },
	{ .name = "syslog", NOBODY, CAPS(CAP_SYSLOG) },
};
const size_t pc_identities_count = sizeof(pc_identities) / sizeof(pc_identities[0]);

const struct pc_identity pc_stranger = { .name = "stranger", .uid = PC_STRANGER };

const struct pc_identity *pc_identity(const char *name)
{
	for (size_t i = 0; i < pc_identities_count; i++)
		if (!strcmp(pc_identities[i].name, name))
			return &pc_identities[i];
	return NULL;
}

bool pc_identity_has(const struct pc_identity *id, cap_value_t cap)
{
	if (id->root)
		return cap_get_bound(cap) == 1;
	for (unsigned int i = 0; i < id->ncaps; i++)
		if (id->caps[i] == cap)
			return true;
	return false;
}

/* The identity's sets: effective = permitted = its capabilities, nothing inheritable. */
static cap_t expected_caps(const struct pc_identity *id)
{
	cap_t c = cap_init();

	if (!c)
		return NULL;
	for (cap_value_t v = 0; v < (cap_value_t)cap_max_bits(); v++) {
		if (!pc_identity_has(id, v))
			continue;
		if (cap_set_flag(c, CAP_EFFECTIVE, 1, &v, CAP_SET) ||
		    cap_set_flag(c, CAP_PERMITTED, 1, &v, CAP_SET)) {
			cap_free(c);
			return NULL;
		}
	}
	return c;
}

int pc_identity_become(const struct pc_identity *id)
{
	cap_iab_t iab = NULL;
	cap_t want = NULL;
	int err = 0;

	if (geteuid() != 0)
		return -EPERM;
	want = expected_caps(id);
	iab = cap_iab_init();		/* nothing inheritable or ambient, the bounding set kept */
	if (!want || !iab) {
		err = -ENOMEM;
		goto out;
	}
	if (!id->root && (cap_setgroups(id->uid, 0, NULL) || cap_setuid(id->uid))) {
		err = -errno;
		goto out;
	}
	if (cap_iab_set_proc(iab) || cap_set_proc(want) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		err = -errno;
out:
	cap_free(iab);
	cap_free(want);
	return err;
}

int pc_identity_verify(const struct pc_identity *id, char *why, size_t len)
{
	uid_t want_uid = id->root ? 0 : id->uid, r, e, s;
	int fs = setfsuid(-1);
	cap_t have = cap_get_proc(), want = expected_caps(id);
	cap_iab_t iab = cap_iab_get_proc();
	int err = 0;

	if (!have || !want || !iab) {
		snprintf(why, len, "%s: cannot read this process's capabilities (%s)", id->name, strerror(errno));
		err = -EPERM;
		goto out;
	}
	if (getresuid(&r, &e, &s) || r != want_uid || e != want_uid || s != want_uid || (uid_t)fs != want_uid) {
		snprintf(why, len, "%s: uids %u/%u/%u/%d (real/effective/saved/fs), expected %u", id->name,
			 r, e, s, fs, want_uid);
		err = -EPERM;
		goto out;
	}
	if (prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 1) {
		snprintf(why, len, "%s: not dumpable", id->name);
		err = -EPERM;
		goto out;
	}
	int d = cap_compare(have, want);
	if (d) {
		char *text = cap_to_text(have, NULL);

		snprintf(why, len, "%s: capability sets differ in%s%s%s: \"%s\"", id->name,
			 CAP_DIFFERS(d, CAP_EFFECTIVE) ? " effective" : "",
			 CAP_DIFFERS(d, CAP_PERMITTED) ? " permitted" : "",
			 CAP_DIFFERS(d, CAP_INHERITABLE) ? " inheritable" : "", text ? text : "?");
		cap_free(text);
		err = -EPERM;
		goto out;
	}
	for (cap_value_t v = 0; v < (cap_value_t)cap_max_bits(); v++) {
		if (cap_iab_get_vector(iab, CAP_IAB_AMB, v) == CAP_SET) {
			char *name = cap_to_name(v);

			snprintf(why, len, "%s: %s is ambient", id->name, name ? name : "?");
			cap_free(name);
			err = -EPERM;
			goto out;
		}
	}
out:
	cap_free(iab);
	cap_free(want);
	cap_free(have);
	return err;
}

int pc_become_nobody(void)
{
	return pc_identity_become(pc_identity("unprivileged"));
}
