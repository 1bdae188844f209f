// SPDX-License-Identifier: GPL-2.0
/*
 * ENODEV from perf_event_open(): the event needs a feature this CPU does
 * not have; and, from kernel/events/core.c, a group leader that is gone
 * and a CPU that is offline.
 *
 * In 6.12 perf_event_open() refuses a group_fd whose event has exited
 * (state PERF_EVENT_STATE_EXIT: its task ran perf_event_exit_task(), or
 * remove_on_exec took it) with ENODEV (line 12916, rechecked under the
 * context's mutex at 13047), before it looks the pid up. Kernels without
 * that check refuse the open later, with EINVAL (seen on 5.10 and 6.1:
 * the leader's context is not the one the new event gets) or, had the pid
 * gone first, ESRCH: the errno is observed and pinned per kernel (the
 * check is in Debian's 6.12 and 7.2, not in its 6.1). For a CPU-wide
 * event it refuses a CPU whose perf context is offline (line 13013).
 *
 * Each refusal has its control: the same open while the leader's task
 * lives, or while the CPU is online.
 */
#include <stdio.h>
#include <fcntl.h>

#include "perfconf.h"
#include "host/sysctl.h"
#include "work/child.h"
#include "work/measure.h"

/* Exclusive: it may take a CPU offline for a moment, under any binary's CPU-wide event or affinity. */
PERFCONF_META("exclusive");

TEST(leader_of_exited_task_is_enodev)
{
	struct perfconf_attr attr = pc_attr_user_faults();
	struct pc_child child;

	attr.disabled = 0;
	ASSERT_EQ(0, pc_child_start(&child, 0));
	ASSERT_EQ(0, pc_child_do(&child, "faults 8"));	/* its code in, so that the counted faults are the work's */
	int leader = pc_open(&attr, child.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(leader);
	int member = pc_open(&attr, child.pid, -1, leader, PERF_FLAG_FD_CLOEXEC);

	EXPECT_LE(0, member) TH_LOG("the control: %s", pc_errno_name(pc_last_open_errno()));
	EXPECT_EQ(0, pc_child_do(&child, "faults 8"));
	EXPECT_EQ(8, pc_count_of(member));
	if (member >= 0)
		close(member);
	ASSERT_EQ(0, pc_child_finish(&child));
	int err = pc_open_errno(&attr, child.pid, -1, leader, 0);

	pc_observe("errno", "%s", pc_errno_name(err));
	EXPECT_TRUE(err == ENODEV || err == EINVAL || err == ESRCH) TH_LOG("got %s", pc_errno_name(err));
	close(leader);
}

/* The highest online CPU but 0 whose online switch can be written; -1 if none. */
static int hotpluggable_cpu(char *name, size_t len)
{
	for (int cpu = (int)sysconf(_SC_NPROCESSORS_CONF) - 1; cpu > 0; cpu--) {
		long online;

		pc_sysctl_cpu_online(cpu, name, len);
		if (access(name, W_OK) == 0 && pc_sysctl_get(name, &online) == 0 && online == 1)
			return cpu;
	}
	return -1;
}

/*
 * The CPU goes offline through pc_sysctl_set(), so that the runner puts
 * it back even after a SIGKILL, and is back online before anything is
 * asserted. Where no CPU can go offline (no hotplug, or one CPU), SKIP.
 */
TEST(offline_cpu_is_enodev)
{
	struct perfconf_attr attr = pc_attr_user_faults();
	char name[128];
	int cpu = hotpluggable_cpu(name, sizeof(name));

	DEPENDS_ON("cpu_offline");
	if (cpu < 0)
		SKIP(return, "no CPU here can go offline (no hotplug, or one CPU)");
	EXPECT_ERRNO(0, pc_open_errno(&attr, -1, cpu, -1, 0)) TH_LOG("the control: cpu %d online", cpu);
	int off = pc_sysctl_set(name, 0);

	if (off) {
		pc_sysctl_restore(name);
		BLOCKED("cannot take cpu %d offline (%s)", cpu, pc_errno_name(-off));
	}
	int err = pc_open_errno(&attr, -1, cpu, -1, 0);

	ASSERT_EQ(0, pc_sysctl_restore(name)) TH_LOG("cpu %d is left offline: echo 1 > %s", cpu, name);
	EXPECT_ERRNO(ENODEV, err) TH_LOG("cpu %d offline", cpu);
	EXPECT_ERRNO(0, pc_open_errno(&attr, -1, cpu, -1, 0)) TH_LOG("cpu %d back online", cpu);
}

TEST_HARNESS_MAIN
