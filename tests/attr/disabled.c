// SPDX-License-Identifier: GPL-2.0
/*
 * disabled: "The disabled bit specifies whether the counter starts out
 * disabled or enabled. If disabled, the event can later be enabled by
 * ioctl(2), prctl(2), or enable_on_exec." A disabled event counts nothing;
 * PERF_EVENT_IOC_ENABLE starts it, PERF_EVENT_IOC_DISABLE stops it with its
 * count kept, PERF_EVENT_IOC_RESET zeroes the count. "When creating an
 * event group, typically the group leader is initialized with disabled set
 * to 1 and any child events are initialized with disabled set to 0.
 * Despite disabled being 0, the child events will not start until the
 * group leader is enabled."
 *
 * Measured with page faults: touching n fresh pages is exactly n faults.
 */
#include <sys/ioctl.h>
#include <sys/prctl.h>

#include "work/clock.h"
#include "work/measure.h"
#include "perfconf.h"

#define FAULTS 64

/* A page-fault counter on this task, disabled or not at open. */
static int open_faults(int disabled, int group_fd, uint64_t read_format)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.disabled = disabled;
	attr.read_format = read_format;
	return pc_open(&attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

struct group {
	int leader, sibling;
};

/* A disabled leader and a sibling, disabled or not, after the workload's own first faults. */
static void open_group(struct __test_metadata *_metadata, struct group *g, int sibling_disabled)
{
	pc_work_page_faults(1);
	g->leader = open_faults(1, -1, 0);
	ASSERT_OPEN(g->leader);
	g->sibling = open_faults(sibling_disabled, g->leader, 0);
	ASSERT_OPEN(g->sibling);
}

static void close_group(const struct group *g)
{
	close(g->sibling);
	close(g->leader);
}

FIXTURE(faults) {
	int fd;
};

FIXTURE_SETUP(faults)
{
	pc_work_page_faults(1);		/* the workload's own first faults */
	self->fd = open_faults(1, -1, 0);
	ASSERT_OPEN(self->fd);
}

FIXTURE_TEARDOWN(faults)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(faults, nothing_until_enabled)
{
	pc_work_page_faults(FAULTS);
	EXPECT_EQ(0, pc_count_of(self->fd));
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(FAULTS, pc_count_of(self->fd));
}

TEST_F(faults, disable_keeps_the_count)
{
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, pc_disable(self->fd));
	pc_work_page_faults(FAULTS);
	EXPECT_EQ(FAULTS, pc_count_of(self->fd));
	/* Enabled again, it goes on from where it stopped. */
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_work_page_faults(FAULTS / 2);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(FAULTS + FAULTS / 2, pc_count_of(self->fd));
}

TEST_F(faults, reset_zeroes_the_count)
{
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, pc_reset(self->fd));
	pc_work_page_faults(FAULTS / 4);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(FAULTS / 4, pc_count_of(self->fd));
	/* A reset of a disabled event zeroes it too, and it stays disabled. */
	ASSERT_EQ(0, pc_reset(self->fd));
	pc_work_page_faults(FAULTS);
	EXPECT_EQ(0, pc_count_of(self->fd));
}

/* prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE) acts on the events this task opened. */
TEST_F(faults, prctl_enables_and_disables)
{
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	pc_work_page_faults(FAULTS);
	EXPECT_EQ(FAULTS, pc_count_of(self->fd));
}

TEST(enabled_at_open_counts_at_once)
{
	/* Everything between the open and the work, and the disable, has run once already. */
	pc_work_page_faults(1);
	int warm = open_faults(0, -1, 0);

	ASSERT_OPEN(warm);
	ASSERT_EQ(0, pc_disable(warm));
	close(warm);
	int fd = open_faults(0, -1, 0);
	ASSERT_OPEN(fd);
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_EQ(FAULTS, pc_count_of(fd));
	close(fd);
}

/*
 * Time does not run for a disabled event: time_enabled is 0 until ENABLE,
 * then frozen by DISABLE. Each window lasts until perf's clock has moved
 * (work/clock.h), so time counted, or not, shows on a coarse clock too.
 */
TEST(time_enabled_only_while_enabled)
{
	const uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct pc_read_values v;
	struct pc_perf_clock clk;
	uint64_t buf[3];
	int fd = open_faults(1, -1, rf);

	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	pc_work_loop(100000);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(sizeof(buf), read(fd, buf, sizeof(buf)));
	ASSERT_LT(0, pc_read_values_decode(rf, buf, sizeof(buf), &v, NULL));
	EXPECT_EQ(0, v.time_enabled);
	EXPECT_EQ(0, v.time_running);

	ASSERT_EQ(0, pc_enable(fd));
	pc_work_loop(100000);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(sizeof(buf), read(fd, buf, sizeof(buf)));
	ASSERT_LT(0, pc_read_values_decode(rf, buf, sizeof(buf), &v, NULL));
	uint64_t enabled = v.time_enabled;
	EXPECT_LT(0, enabled);

	pc_work_loop(100000);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(sizeof(buf), read(fd, buf, sizeof(buf)));
	ASSERT_LT(0, pc_read_values_decode(rf, buf, sizeof(buf), &v, NULL));
	EXPECT_EQ(enabled, v.time_enabled) TH_LOG("time_enabled moved while disabled");
	pc_perf_clock_close(&clk);
	close(fd);
}

/* A sibling opened with disabled = 0 waits for its disabled leader. */
TEST(sibling_waits_for_its_leader)
{
	struct group g;

	open_group(_metadata, &g, 0);
	pc_work_page_faults(FAULTS);
	EXPECT_EQ(0, pc_count_of(g.sibling));
	ASSERT_EQ(0, pc_enable(g.leader));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, pc_disable(g.leader));
	EXPECT_EQ(FAULTS, pc_count_of(g.leader));
	EXPECT_EQ(FAULTS, pc_count_of(g.sibling));
	close_group(&g);
}

/* With PERF_IOC_FLAG_GROUP, one ENABLE on the leader starts disabled siblings too. */
TEST(group_flag_enables_disabled_siblings)
{
	struct group g;

	open_group(_metadata, &g, 1);
	ASSERT_EQ(0, ioctl(g.leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, ioctl(g.leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	pc_work_page_faults(FAULTS);
	EXPECT_EQ(FAULTS, pc_count_of(g.leader));
	EXPECT_EQ(FAULTS, pc_count_of(g.sibling));
	close_group(&g);
}

TEST_HARNESS_MAIN
