// SPDX-License-Identifier: GPL-2.0
/*
 * namespaces (since Linux 4.11): "This enables the generation of
 * PERF_RECORD_NAMESPACES records when a task enters a new namespace. Each
 * namespace has a combination of device and inode numbers." The record
 * carries the task's pid and tid and nr_namespaces { dev, inode } pairs in
 * fixed positions: NET_NS_INDEX=0, UTS=1, IPC=2, PID=3, USER=4, MNT=5,
 * CGROUP=6 -- the same device and inode stat(2) gives for
 * /proc/<pid>/ns/<name>, the device in the kernel's dev_t encoding.
 * A fork reports the new task's namespaces, unshare(2) the caller's new
 * ones. The bit needs CAP_PERFMON (CAP_SYS_ADMIN before 5.8): EACCES
 * without.
 */
#include <sched.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "work/affinity.h"
#include "work/child.h"
#include "ring/sideband.h"

PERFCONF_META("reads=perf_event_paranoid");

#define NR_NS 7
static const char *const ns_names[NR_NS] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

struct ns_ids {
	uint64_t dev[NR_NS], ino[NR_NS];
};

/* The kernel's new_encode_dev(): how a dev_t is written into records. */
static uint64_t encode_dev(dev_t dev)
{
	uint64_t maj = major(dev), min = minor(dev);

	return (min & 0xff) | (maj << 8) | ((min & ~0xffull) << 12);
}

/* What stat(2) says of /proc/<pid>/ns/<name>: (0, 0) for a kind this kernel lacks. */
static void ns_ids_of(pid_t pid, struct ns_ids *ids)
{
	for (int i = 0; i < NR_NS; i++) {
		char path[64];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, ns_names[i]);
		ids->dev[i] = ids->ino[i] = 0;
		if (stat(path, &st) == 0) {
			ids->dev[i] = encode_dev(st.st_dev);
			ids->ino[i] = st.st_ino;
		}
	}
}

static void expect_ids(struct __test_metadata *_metadata, const struct pc_record *r,
		       const struct ns_ids *ids)
{
	ASSERT_LE(NR_NS, r->namespaces.nr_namespaces);
	for (int i = 0; i < NR_NS; i++) {
		EXPECT_EQ(ids->dev[i], r->namespaces.link_info[2 * i])
			TH_LOG("%s namespace: device", ns_names[i]);
		EXPECT_EQ(ids->ino[i], r->namespaces.link_info[2 * i + 1])
			TH_LOG("%s namespace: inode", ns_names[i]);
	}
}

static struct perfconf_attr ns_attr(int inherit)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.namespaces = 1;
	attr.inherit = inherit;
	return attr;
}

TEST(accepted)
{
	struct perfconf_attr attr = ns_attr(0);

	EXPECT_ERRNO_SINCE("namespaces", 0, EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST(unprivileged_is_refused)
{
	struct perfconf_attr attr = ns_attr(0);
	int paranoid = pc_paranoid();

	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	BECOME_NOBODY();
	attr.namespaces = 0;
	int control = pc_open_errno(&attr, 0, -1, -1, 0);
	if (control)
		SKIP(return, "no perf_event_open at all for an unprivileged user here (%s, paranoid %d)",
		     pc_errno_name(control), paranoid);
	attr.namespaces = 1;
	EXPECT_ERRNO(EACCES, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST(unshare_reports_the_new_namespace)
{
	struct perfconf_attr attr = ns_attr(0);
	struct ns_ids before, after;
	struct pc_capture cap;

	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ns_ids_of(getpid(), &before);
	ASSERT_EQ(0, pc_enable(cap.fd));
	int err = unshare(CLONE_NEWUTS) ? errno : 0;
	ASSERT_EQ(0, pc_disable(cap.fd));
	if (err == EPERM)
		SKIP(return, "this process may not unshare a UTS namespace");
	ASSERT_ERRNO(0, err);
	ns_ids_of(getpid(), &after);
	ASSERT_NE(before.ino[1], after.ino[1]) TH_LOG("unshare kept the UTS namespace");
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(1, pc_tid_count(&cap, PERF_RECORD_NAMESPACES, gettid()));
	const struct pc_record *r = pc_find_tid(&cap, PERF_RECORD_NAMESPACES, gettid(), 0);

	EXPECT_EQ(getpid(), r->namespaces.pid);
	EXPECT_EQ(0, r->misc);
	pc_observe("nr_namespaces", "%llu", (unsigned long long)r->namespaces.nr_namespaces);
	expect_ids(_metadata, r, &after);
	pc_capture_close(&cap);
}

/* A fork reports the child, in the parent's namespaces (no inherit needed). */
TEST(fork_reports_the_child)
{
	struct perfconf_attr attr = ns_attr(0);
	struct pc_capture cap;
	struct ns_ids ours;

	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	pid_t child = pc_work_fork_exit(0);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LT(0, child);
	ns_ids_of(getpid(), &ours);
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(1, pc_tid_count(&cap, PERF_RECORD_NAMESPACES, child));
	const struct pc_record *r = pc_find_tid(&cap, PERF_RECORD_NAMESPACES, child, 0);

	EXPECT_EQ(child, r->namespaces.pid);
	expect_ids(_metadata, r, &ours);
	pc_capture_close(&cap);
}

/*
 * A child that unshares UTS and IPC: first its fork (our namespaces), then
 * its unshare (the new UTS and IPC ones, as /proc/<child>/ns shows them
 * while it waits). Inherited, so on one CPU (see lib/work/affinity.h).
 */
TEST(child_unshare_after_fork)
{
	struct perfconf_attr attr = ns_attr(1);
	struct ns_ids ours, theirs;
	struct pc_child child;
	struct pc_capture cap;
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu);
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, cpu));
	ASSERT_EQ(0, pc_enable(cap.fd));
	int err = pc_child_start(&child, CLONE_NEWUTS | CLONE_NEWIPC);
	ASSERT_EQ(0, pc_disable(cap.fd));
	if (err == -EPERM)
		SKIP(return, "this process may not unshare namespaces");
	ASSERT_ERRNO(0, -err);
	pid_t pid = child.pid;
	ns_ids_of(getpid(), &ours);
	ns_ids_of(pid, &theirs);
	ASSERT_EQ(0, pc_child_finish(&child));
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(2, pc_tid_count(&cap, PERF_RECORD_NAMESPACES, pid));

	const struct pc_record *at_fork = pc_find_tid(&cap, PERF_RECORD_NAMESPACES, pid, 0);
	const struct pc_record *at_unshare = pc_find_tid(&cap, PERF_RECORD_NAMESPACES, pid, 1);
	expect_ids(_metadata, at_fork, &ours);
	expect_ids(_metadata, at_unshare, &theirs);
	EXPECT_NE(ours.ino[1], theirs.ino[1]);
	EXPECT_NE(ours.ino[2], theirs.ino[2]);
	EXPECT_EQ(ours.ino[0], theirs.ino[0]);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
