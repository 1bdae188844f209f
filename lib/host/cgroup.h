/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup hierarchy that hosts the perf_event controller, found in
 * /proc/self/mountinfo (never a hard-coded path): a cgroup v1 mount with
 * the perf_event option if there is one, else the cgroup2 mount, where
 * perf_event is implicitly enabled in every cgroup.
 *
 * Tests make their own short-lived cgroups there and remove them, also on
 * failure (a fixture's teardown calls pc_cgroup_remove()).
 */
#ifndef PERFCONF_CGROUP_H
#define PERFCONF_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pc_cgroup_mount {
	char dir[PATH_MAX];	/* the mount point */
	char root[PATH_MAX];	/* the mount's root within the hierarchy: "/" mostly */
	bool v2;
};

/* Find the hierarchy. 0, or -ENOENT when no cgroup hierarchy is mounted. */
int pc_cgroup_perf_mount(struct pc_cgroup_mount *m);

/*
 * A name no other test process uses at the same time:
 * "perfconf-<pid>-<n>". Returns buf.
 */
char *pc_cgroup_unique_name(char *buf, size_t len);

/*
 * mkdir <mount>/<rel> (rel has no leading '/'); writes that path into
 * path[]. 0 or -errno.
 */
int pc_cgroup_create(const struct pc_cgroup_mount *m, const char *rel, char *path, size_t len);

/*
 * The cgroup's path as the kernel names it, from the root of the
 * hierarchy: the mount's root joined with rel ("/perfconf-1-0").
 */
void pc_cgroup_kernel_path(const struct pc_cgroup_mount *m, const char *rel, char *buf, size_t len);

/* rmdir, ignoring a path that is already gone. 0 or -errno. */
int pc_cgroup_remove(const char *path);
/*
 * The cgroup's id, as PERF_SAMPLE_CGROUP and PERF_RECORD_CGROUP carry it:
 * the 8-byte kernfs file handle name_to_handle_at() gives for its
 * directory. 0, or -errno (-EPROTO for a handle of another size).
 */
int pc_cgroup_id(const char *path, uint64_t *id);

/* Move the process pid into the cgroup at path (its cgroup.procs). 0 or -errno. */
int pc_cgroup_attach(const char *path, pid_t pid);

/*
 * For a machine where no cgroup hierarchy is mounted: the calling process
 * moves into a mount namespace of its own (so the mount is gone with it)
 * and mounts cgroup2 on a fresh directory under /tmp, described in *m.
 * 0 or -errno. Undo with pc_cgroup_unmount_private().
 */
int pc_cgroup_mount_private(struct pc_cgroup_mount *m);
/* Unmount such a mount and remove its directory. 0 or -errno. */
int pc_cgroup_unmount_private(const struct pc_cgroup_mount *m);

/*
 * A fresh, empty cgroup of a test: in the hierarchy that hosts perf_event,
 * or, where none is mounted, in a private cgroup2 mount.
 */
struct pc_cgroup_fresh {
	struct pc_cgroup_mount m;
	bool private_mount;
	char path[PATH_MAX];	/* "" when there is none */
};

/* Make one: 0, or -errno with nothing left behind. */
int pc_cgroup_fresh_make(struct pc_cgroup_fresh *c);
/* Remove it (its tasks must be gone), and the private mount. Safe to repeat. */
void pc_cgroup_fresh_remove(struct pc_cgroup_fresh *c);

/*
 * This process's own cgroup in that hierarchy (/proc/self/cgroup: the
 * "0::" line on cgroup2, the line that lists perf_event on v1), as a
 * directory under the mount; writes it into path[]. 0, or -errno: -ENOENT
 * when the process is listed in no such cgroup, or in one outside the
 * mount's root (not reachable through it).
 */
int pc_cgroup_self(const struct pc_cgroup_mount *m, char *path, size_t len);

#endif
