// SPDX-License-Identifier: GPL-2.0
/*
 * pinned: "The pinned bit specifies that the counter should always be on
 * the CPU if at all possible. It applies only to hardware counters and
 * only to group leaders. If a pinned counter cannot be put onto the CPU
 * (e.g., because there are not enough hardware counters or because of a
 * conflict with some other event), then the counter goes into an 'error'
 * state, where reads return end-of-file (i.e., read(2) returns 0) until
 * the counter is subsequently enabled or disabled." A sibling that sets it
 * is refused with EINVAL ("exclusive or pinned set and the event is not a
 * group leader").
 *
 * Software events never lack a counter, so a pinned software group always
 * runs. The error state needs a PMU with counters to fight over; it is
 * made with two hardware groups, where the second is exclusive as well
 * and so cannot go on beside the first.
 */
#include "perfconf.h"
#include "work/measure.h"
#include "work/clock.h"

#define FAULTS 64

static int open_sw(uint64_t config, int pinned, int group_fd, uint64_t read_format)
{
	struct perfconf_attr attr = pc_attr_sw(config);

	attr.pinned = pinned;
	attr.read_format = read_format;
	attr.disabled = group_fd >= 0 ? 0 : 1;
	return pc_open(&attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

TEST(leader_counts_and_always_runs)
{
	const uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct pc_read_values v;
	uint64_t buf[3];

	pc_work_page_faults(1);
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1, -1, rf);
	struct pc_perf_clock clk;
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));	/* time must pass (work/clock.h) */
	ASSERT_EQ(0, pc_disable(fd));
	pc_perf_clock_close(&clk);
	ASSERT_EQ(sizeof(buf), read(fd, buf, sizeof(buf)));
	ASSERT_LT(0, pc_read_values_decode(rf, buf, sizeof(buf), &v, NULL));
	EXPECT_EQ(FAULTS, v.values[0].value);
	EXPECT_LT(0, v.time_enabled);
	EXPECT_EQ(v.time_enabled, v.time_running);
	close(fd);
}

TEST(sibling_refused)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	int leader = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 0);

	ASSERT_OPEN(leader);
	attr.pinned = 1;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, leader, 0));
	/* Also under a pinned leader. */
	int pinned_leader = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1, -1, 0);
	ASSERT_OPEN(pinned_leader);
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, pinned_leader, 0));
	close(pinned_leader);
	close(leader);
}

/* A pinned leader takes its (unpinned) siblings with it. */
TEST(leader_with_siblings)
{
	const uint64_t rf = PERF_FORMAT_GROUP;
	struct pc_read_values v;
	uint64_t buf[4];

	pc_work_page_faults(1);
	int leader = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1, -1, rf);
	ASSERT_OPEN(leader);
	int minor = open_sw(PERF_COUNT_SW_PAGE_FAULTS_MIN, 0, leader, rf);
	ASSERT_OPEN(minor);
	int major = open_sw(PERF_COUNT_SW_PAGE_FAULTS_MAJ, 0, leader, rf);
	ASSERT_OPEN(major);
	ASSERT_EQ(0, pc_enable(leader));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, pc_disable(leader));
	ASSERT_EQ(pc_read_values_size(rf, 3), read(leader, buf, sizeof(buf)));
	ASSERT_LT(0, pc_read_values_decode(rf, buf, sizeof(buf), &v, NULL));
	ASSERT_EQ(3, v.nr);
	EXPECT_EQ(FAULTS, v.values[0].value);
	EXPECT_EQ(FAULTS, v.values[1].value);
	EXPECT_EQ(0, v.values[2].value);
	close(major);
	close(minor);
	close(leader);
}

/* However many pinned software groups a task has, every one runs and counts. */
TEST(software_groups_always_fit)
{
	enum { GROUPS = 32 };
	int fds[GROUPS];

	for (int i = 0; i < GROUPS; i++) {
		fds[i] = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1, -1, 0);
		ASSERT_OPEN(fds[i]);
	}
	ASSERT_EQ(0, pc_count_faults_with_task_events(FAULTS));
	for (int i = 0; i < GROUPS; i++) {
		uint64_t count = UINT64_MAX;

		EXPECT_EQ(0, pc_read_count(fds[i], &count)) TH_LOG("group %d: %s", i, pc_errno_name(errno));
		EXPECT_EQ(FAULTS, count);
		close(fds[i]);
	}
}

/*
 * Two pinned hardware groups of this task, the second exclusive: it
 * cannot go on beside the first, so it is in error and reads return 0.
 * Once the first is gone, enabling it again lets it run and read.
 * Hardware events are opened on this task only, so other tests' events
 * never meet the exclusive group.
 */
TEST(error_state_reads_eof)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	uint64_t count;

	attr.pinned = 1;
	attr.disabled = 0;
	int first = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (first < 0) {
		int err = errno;

		if (pc_errno_is_unsupported(err))
			SKIP(return, "no hardware PMU (%s): software, breakpoint, tracepoint, "
			     "uprobe and msr groups always go on, so none can be put in error",
			     pc_errno_name(err));
		ASSERT_OPEN(first);
	}
	attr.exclusive = 1;
	int second = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(second);
	pc_work_loop(100000);

	EXPECT_EQ(sizeof(count), read(first, &count, sizeof(count)));
	EXPECT_EQ(0, read(second, &count, sizeof(count))) TH_LOG("the exclusive group went on");
	/*
	 * The man page has DISABLE end the error state too; the kernel has
	 * long ignored DISABLE on an event in error. What a read gives then
	 * is pinned.
	 */
	ASSERT_EQ(0, pc_disable(second));
	pc_observe("read_after_disable", "%s",
		   read(second, &count, sizeof(count)) == 0 ? "eof" : "value");

	close(first);
	ASSERT_EQ(0, pc_enable(second));
	pc_work_loop(100000);
	EXPECT_EQ(sizeof(count), read(second, &count, sizeof(count)));
	close(second);
}

TEST_HARNESS_MAIN
