// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_ENABLE (since 2.6.31): turns on the event the fd names
 * (with PERF_IOC_FLAG_GROUP, its whole group: tests/ioctl/flag_group.c).
 * An event opened with attr.disabled counts nothing and accumulates no
 * enabled time until then; enabling an event that is already on changes
 * nothing, its count goes on. An fd that is not a perf event does not know
 * the ioctl (ENOTTY), and one that is not open is EBADF.
 *
 * Counted with the syscalls:sys_enter_getppid tracepoint: only the case's
 * own getppid() calls fire it.
 */
#include "perfconf.h"
#include "work/clock.h"

#include <sys/ioctl.h>

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)

#define CALLS 7

/*
 * fd: the tracepoint counter, disabled, with time_enabled in its reads;
 * SKIP where the tracepoint is not here.
 */
#define OPEN_COUNTER(fd) do { \
	struct perfconf_attr attr_; \
	GETPPID_TRACEPOINT(&attr_); \
	attr_.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED; \
	fd = pc_open(&attr_, 0, -1, -1, 0); \
	ASSERT_OPEN(fd); \
} while (0)

TEST(disabled_event_counts_from_enable)
{
	struct pc_perf_clock clk;
	uint64_t value, enabled;
	int fd;

	OPEN_COUNTER(fd);
	/* each window lasts until perf's clock has moved (work/clock.h) */
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(0, pc_read_count_enabled(fd, &value, &enabled));
	EXPECT_EQ(0, value);
	EXPECT_EQ(0, enabled) TH_LOG("a disabled event accumulated enabled time");

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(0, pc_read_count_enabled(fd, &value, &enabled));
	EXPECT_EQ(CALLS, value);
	EXPECT_LT(0, enabled);
	pc_perf_clock_close(&clk);
	close(fd);
}

TEST(enable_twice_keeps_the_count)
{
	uint64_t value, enabled;
	int fd;

	OPEN_COUNTER(fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, pc_read_count_enabled(fd, &value, &enabled));
	EXPECT_EQ(2 * CALLS, value);
	close(fd);
}

/* Not a perf event: ENOTTY (a pipe) and EBADF (a closed fd); a perf fd is the control. */
TEST(not_a_perf_fd_is_enotty)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	int p[2], fd;

	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(-1, ioctl(p[0], PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_ERRNO(ENOTTY, errno);
	close(p[1]);
	close(p[0]);
	EXPECT_EQ(-1, ioctl(p[0], PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_ERRNO(EBADF, errno);
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	close(fd);
}

TEST_HARNESS_MAIN
