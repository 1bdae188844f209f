// SPDX-License-Identifier: GPL-2.0
/*
 * task: "If this bit is set, then fork/exit notifications are included in
 * the ring buffer." PERF_RECORD_FORK and PERF_RECORD_EXIT carry
 * { pid, ppid, tid, ptid, time }:
 *  - FORK is written by the parent as it forks: pid/tid are the new
 *    task's, ppid/ptid the forking task's pid and tid;
 *  - EXIT is written by the exiting task, so only an event that task
 *    carries sees it (an inherited one, or one opened on its pid): pid/tid
 *    are the exiting task's, ppid/ptid its parent's pid (since 5.7; before,
 *    the exiting task's own).
 */
#include <sys/wait.h>

#define FIELD task
#include "record_bit.h"
#include "work/child.h"

/* A child that exits with status 0, as record_around() runs work. */
static pid_t fork_exit(const char *unused)
{
	(void)unused;
	return pc_work_fork_exit(0);
}

TEST(fork_names_child_and_parent)
{
	struct pc_capture cap;

	pid_t child = record_around(_metadata, &cap, 0, fork_exit, NULL);
	ASSERT_LT(0, child);
	const struct pc_record *r = only_record(_metadata, &cap, PERF_RECORD_FORK, child);

	EXPECT_EQ(child, r->task.pid);
	EXPECT_EQ(getpid(), r->task.ppid);
	EXPECT_EQ(gettid(), r->task.ptid);
	EXPECT_NE(0, r->task.time);
	EXPECT_EQ(0, r->misc);
	/* The child never carried this event: whether its exit shows is pinned. */
	pc_observe("child_exit_records", "%zu", pc_tid_count(&cap, PERF_RECORD_EXIT, child));
	pc_capture_close(&cap);
}

TEST(inherited_child_exit)
{
	struct pc_capture cap;

	pid_t child = record_around(_metadata, &cap, 1, fork_exit, NULL);
	ASSERT_LT(0, child);
	const struct pc_record *exit = only_record(_metadata, &cap, PERF_RECORD_EXIT, child);
	const struct pc_record *fork = pc_find_tid(&cap, PERF_RECORD_FORK, child, 0);

	ASSERT_NE(NULL, fork);
	EXPECT_EQ(child, exit->task.pid);
	EXPECT_EQ(getpid(), exit->task.ppid);
	EXPECT_EQ(getpid(), exit->task.ptid);
	EXPECT_LE(fork->task.time, exit->task.time);
	EXPECT_LT(pc_capture_index(&cap, fork), pc_capture_index(&cap, exit));
	pc_capture_close(&cap);
}

/* A thread: the process's pid, the thread's tid; the creating thread as ptid. */
TEST(thread_fork_and_exit)
{
	struct pc_capture cap;

	pid_t tid = record_around(_metadata, &cap, 1, pc_work_in_thread, "exit");
	ASSERT_LT(0, tid);
	const struct pc_record *fork = pc_find_tid(&cap, PERF_RECORD_FORK, tid, 0);
	const struct pc_record *exit = pc_find_tid(&cap, PERF_RECORD_EXIT, tid, 0);

	ASSERT_NE(NULL, fork) TH_LOG("no FORK record for thread %d", tid);
	ASSERT_NE(NULL, exit) TH_LOG("no EXIT record for thread %d", tid);
	EXPECT_EQ(getpid(), fork->task.pid);
	EXPECT_EQ(getpid(), fork->task.ppid);
	EXPECT_EQ(gettid(), fork->task.ptid);
	EXPECT_EQ(getpid(), exit->task.pid);
	/*
	 * A thread's parent (real_parent) is its process's parent, not the
	 * thread that created it: which pid the kernel puts here is pinned.
	 */
	pid_t ppid = (pid_t)exit->task.ppid;
	pc_observe("exit_ppid", "%s", ppid == getppid() ? "process_parent" :
		   ppid == getpid() ? "process" : ppid == tid ? "self" : "other");
	EXPECT_EQ(exit->task.ppid, exit->task.ptid);
	pc_capture_close(&cap);
}

/* An event opened on another task's pid sees that task's own exit. */
TEST(exit_of_the_monitored_task)
{
	struct perfconf_attr attr = bit_attr(0);
	struct pc_child child;
	struct pc_capture cap;

	ASSERT_EQ(0, pc_child_start(&child, 0));
	int err = pc_capture_open(&cap, &attr, child.pid, -1);
	if (!err)
		err = pc_enable(cap.fd);
	pid_t pid = child.pid;
	int finished = pc_child_finish(&child);
	ASSERT_ERRNO(0, -err);
	ASSERT_EQ(0, finished);
	ASSERT_CAPTURE_READ(&cap);
	const struct pc_record *exit = only_record(_metadata, &cap, PERF_RECORD_EXIT, pid);

	EXPECT_EQ(pid, exit->task.pid);
	EXPECT_EQ(getpid(), exit->task.ppid);
	EXPECT_EQ(getpid(), exit->task.ptid);
	EXPECT_NE(0, exit->task.time);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
