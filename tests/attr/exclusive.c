// SPDX-License-Identifier: GPL-2.0
/*
 * exclusive: "The exclusive bit specifies that when this counter's group
 * is on the CPU, it should be the only group using the CPU's counters."
 * Like pinned it belongs to group leaders: a sibling that sets it is
 * refused with EINVAL ("exclusive or pinned set and the event is not a
 * group leader").
 *
 * Software events use no counters: an exclusive software group runs
 * beside any other. The effect needs a PMU with counters: while an
 * exclusive hardware group of this task is on, another hardware group of
 * the task does not run (time_running stays 0), and it runs once the
 * exclusive group is gone.
 */
#include <time.h>

#include "perfconf.h"
#include "work/measure.h"
#include "work/clock.h"

#define FAULTS 64
#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* A page-fault counter on this task, reading value + times. */
static int open_faults(int exclusive, int group_fd)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.exclusive = exclusive;
	attr.read_format = TIMES;
	return pc_open(&attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static int read_times(int fd, struct pc_read_values *v)
{
	uint64_t buf[3];

	if (read(fd, buf, sizeof(buf)) != sizeof(buf))
		return -1;
	return pc_read_values_decode(TIMES, buf, sizeof(buf), v, NULL) < 0 ? -1 : 0;
}

TEST(leader_counts)
{
	struct pc_read_values v;

	pc_work_page_faults(1);
	int fd = open_faults(1, -1);
	struct pc_perf_clock clk;
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));	/* time must pass (work/clock.h) */
	ASSERT_EQ(0, pc_disable(fd));
	pc_perf_clock_close(&clk);
	ASSERT_EQ(0, read_times(fd, &v));
	EXPECT_EQ(FAULTS, v.values[0].value);
	EXPECT_LT(0, v.time_running);
	close(fd);
}

TEST(sibling_refused)
{
	int leader = open_faults(0, -1);

	ASSERT_OPEN(leader);
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	attr.exclusive = 1;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, leader, 0));
	int exclusive_leader = open_faults(1, -1);
	ASSERT_OPEN(exclusive_leader);
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, exclusive_leader, 0));
	close(exclusive_leader);
	close(leader);
}

/* Two exclusive software groups and a plain one, all on at once: each counts every fault, all the time. */
TEST(software_groups_share_the_cpu)
{
	int fds[3];
	struct pc_read_values v;

	fds[0] = open_faults(1, -1);
	fds[1] = open_faults(0, -1);
	fds[2] = open_faults(1, -1);
	for (int i = 0; i < 3; i++) {
		ASSERT_OPEN(fds[i]);
	}
	/* An exclusive leader still takes siblings. */
	int sibling = open_faults(0, fds[0]);
	ASSERT_OPEN(sibling);

	ASSERT_EQ(0, pc_count_faults_with_task_events(FAULTS));
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(0, read_times(fds[i], &v));
		EXPECT_EQ(FAULTS, v.values[0].value) TH_LOG("group %d", i);
		EXPECT_LT(0, v.time_enabled);
		EXPECT_EQ(v.time_enabled, v.time_running) TH_LOG("group %d did not run all along", i);
	}
	ASSERT_EQ(0, read_times(sibling, &v));
	EXPECT_EQ(FAULTS, v.values[0].value);
	close(sibling);
	for (int i = 0; i < 3; i++)
		close(fds[i]);
}

/*
 * An exclusive pinned hardware group of this task, then a plain hardware
 * group: the plain one is enabled but never runs while the exclusive one
 * is on; closed, the exclusive group makes room. Both events are on this
 * task only, so no other test's events meet the exclusive group.
 */
TEST(hardware_group_runs_alone)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	struct pc_read_values v;

	attr.read_format = TIMES;
	attr.disabled = 0;
	attr.pinned = 1;
	attr.exclusive = 1;
	int alone = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (alone < 0) {
		int err = errno;

		if (pc_errno_is_unsupported(err))
			SKIP(return, "no hardware PMU (%s): software, breakpoint, tracepoint, "
			     "uprobe and msr groups use no counters and always run together",
			     pc_errno_name(err));
		ASSERT_OPEN(alone);
	}
	attr.pinned = 0;
	attr.exclusive = 0;
	int other = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(other);
	pc_work_loop(1000000);

	ASSERT_EQ(0, read_times(alone, &v));
	EXPECT_LT(0, v.values[0].value);
	EXPECT_EQ(v.time_enabled, v.time_running);
	ASSERT_EQ(0, read_times(other, &v));
	EXPECT_LT(0, v.time_enabled);
	EXPECT_EQ(0, v.time_running) TH_LOG("a group ran beside the exclusive one");
	EXPECT_EQ(0, v.values[0].value);

	close(alone);
	/*
	 * The room shows at the next schedule-in of this task (or the next
	 * rotation, whose 4 ms a TCG guest without -icount may not reach
	 * within the loop): sleep once so that the task is scheduled in again.
	 */
	ASSERT_EQ(0, nanosleep(&(struct timespec){ 0, 1000000 }, NULL));
	pc_work_loop(1000000);
	ASSERT_EQ(0, read_times(other, &v));
	EXPECT_LT(0, v.time_running);
	EXPECT_LT(0, v.values[0].value);
	close(other);
}

TEST_HARNESS_MAIN
