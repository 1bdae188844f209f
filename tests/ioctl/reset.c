// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_RESET (since 2.6.31): sets the count of the event the fd
 * names to zero (with PERF_IOC_FLAG_GROUP, of its whole group:
 * tests/ioctl/flag_group.c). Only the count: the event stays enabled or
 * disabled as it was, and time_enabled and time_running are not reset
 * (nothing resets them).
 *
 * Counted with the syscalls:sys_enter_getppid tracepoint: only the case's
 * own getppid() calls fire it.
 */
#include "perfconf.h"

#include <sys/ioctl.h>

#include "work/clock.h"

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)

#define CALLS 7

FIXTURE(reset) {
	int fd;
	struct pc_perf_clock clk;
};

FIXTURE_VARIANT(reset) {
	int running;	/* reset while the event is enabled */
};

FIXTURE_VARIANT_ADD(reset, enabled) { .running = 1 };
FIXTURE_VARIANT_ADD(reset, disabled) { .running = 0 };

FIXTURE_SETUP(reset)
{
	struct perfconf_attr attr;

	self->fd = -1;
	self->clk.fd = -1;
	GETPPID_TRACEPOINT(&attr);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	self->fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(self->fd);
	/* the enabled window lasts until perf's clock has moved (work/clock.h) */
	ASSERT_EQ(0, pc_perf_clock_open(&self->clk));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, pc_perf_clock_wait(&self->clk));
	if (!variant->running) {
		ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	}
}

FIXTURE_TEARDOWN(reset)
{
	if (self->fd >= 0)
		close(self->fd);
	pc_perf_clock_close(&self->clk);
}

/* value, time_enabled, time_running. */
static int read_values(int fd, uint64_t *v)
{
	return read(fd, v, 3 * sizeof(*v)) == 3 * sizeof(*v) ? 0 : -1;
}

/* The count goes to 0; the event counts on if it was enabled, not if it was off. */
TEST_F(reset, count_is_zeroed_state_kept)
{
	uint64_t v[3];

	ASSERT_EQ(0, read_values(self->fd, v));
	ASSERT_EQ(CALLS, v[0]);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, read_values(self->fd, v));
	EXPECT_EQ(0, v[0]);
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, read_values(self->fd, v));
	EXPECT_EQ(variant->running ? CALLS : 0, v[0]);
}

/* time_enabled and time_running are not reset: they never go back. */
TEST_F(reset, times_are_not_reset)
{
	uint64_t before[3], after[3];

	ASSERT_EQ(0, read_values(self->fd, before));
	EXPECT_LT(0, before[1]);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, pc_perf_clock_wait(&self->clk));
	ASSERT_EQ(0, read_values(self->fd, after));
	EXPECT_EQ(0, after[0]);
	EXPECT_LE(before[1], after[1]) TH_LOG("time_enabled went back");
	EXPECT_LE(before[2], after[2]) TH_LOG("time_running went back");
	if (!variant->running) {
		EXPECT_EQ(before[1], after[1]);
		EXPECT_EQ(before[2], after[2]);
	}
}

TEST_HARNESS_MAIN
