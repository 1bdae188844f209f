// SPDX-License-Identifier: GPL-2.0
/*
 * ESRCH from perf_event_open(): the pid names no process to attach to.
 *
 * In kernel/events/core.c (6.12) find_lively_task_by_vpid() looks the pid
 * up in the caller's pid namespace and answers ESRCH when there is no such
 * task (line 4915); a task that has already exited, a zombie not yet
 * reaped, is still found, but find_get_context() refuses it with ESRCH
 * once it is past perf_event_exit_task() (PF_EXITING, line 4970).
 *
 * A pid that does not exist is found safely: a child is forked, reaped,
 * and its pid is used only while /proc/<pid> is absent. The control: the
 * same open on a live child succeeds.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

#include "work/child.h"
#include "perfconf.h"

static struct perfconf_attr counter(void)
{
	return pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
}

static int pid_visible(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return access(path, F_OK) == 0;
}

/* The control: a live child of this test. */
TEST(live_process_opens)
{
	struct perfconf_attr attr = counter();
	struct pc_child child;

	ASSERT_EQ(0, pc_child_start(&child, 0));
	EXPECT_ERRNO(0, pc_open_errno(&attr, child.pid, -1, -1, 0));
	EXPECT_EQ(0, pc_child_finish(&child));
}

TEST(reaped_pid_is_esrch)
{
	struct perfconf_attr attr = counter();

	for (int tries = 0; tries < 10; tries++) {
		pid_t pid = pc_work_fork_exit(0);

		ASSERT_LT(0, pid);
		if (pid_visible(pid))
			continue;	/* reused already: try another */
		EXPECT_ERRNO(ESRCH, pc_open_errno(&attr, pid, -1, -1, 0)) TH_LOG("pid %d", (int)pid);
		return;
	}
	BLOCKED("every reaped child's pid was reused at once");
}

/* -1 is "any process" (with a CPU); no other negative number is a pid. */
TEST(negative_pid_is_esrch)
{
	struct perfconf_attr attr = counter();

	EXPECT_ERRNO(ESRCH, pc_open_errno(&attr, -2, -1, -1, 0));
	EXPECT_ERRNO(ESRCH, pc_open_errno(&attr, -2, 0, -1, 0));
}

/* A child that exited and is not reaped yet: found, but past its exit. */
TEST(zombie_is_esrch)
{
	struct perfconf_attr attr = counter();
	siginfo_t info = { 0 };
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(0);
	/* Wait until it has exited, leaving it a zombie. */
	ASSERT_EQ(0, waitid(P_PID, pid, &info, WEXITED | WNOWAIT));
	ASSERT_EQ(pid, info.si_pid);
	ASSERT_TRUE(pid_visible(pid));
	EXPECT_ERRNO(ESRCH, pc_open_errno(&attr, pid, -1, -1, 0));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
}

TEST_HARNESS_MAIN
