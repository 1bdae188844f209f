// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_DISABLE (since 2.6.31): turns off the event the fd names
 * (with PERF_IOC_FLAG_GROUP, its whole group: tests/ioctl/flag_group.c).
 * A disabled event keeps its value, which reads the same however much
 * happens after, and accumulates no more enabled time; enabling it again
 * counts on from that value. Disabling an event that is off changes
 * nothing.
 *
 * Counted with the syscalls:sys_enter_getppid tracepoint: only the case's
 * own getppid() calls fire it.
 */
#include "perfconf.h"

#include <sys/ioctl.h>

#include "work/measure.h"

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)

#define CALLS 7

TEST(disable_stops_the_count_and_keeps_the_value)
{
	struct perfconf_attr attr;
	uint64_t value, enabled, value2, enabled2;
	int fd;

	GETPPID_TRACEPOINT(&attr);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, pc_read_count_enabled(fd, &value, &enabled));
	EXPECT_EQ(CALLS, value);
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, pc_read_count_enabled(fd, &value2, &enabled2));
	EXPECT_EQ(CALLS, value2) TH_LOG("a disabled event counted");
	EXPECT_EQ(enabled, enabled2) TH_LOG("a disabled event accumulated enabled time");

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, pc_read_count_enabled(fd, &value, &enabled));
	EXPECT_EQ(2 * CALLS, value) TH_LOG("enabled again, it counts on from its value");
	close(fd);
}

TEST(disable_twice_changes_nothing)
{
	struct perfconf_attr attr;
	int fd;

	GETPPID_TRACEPOINT(&attr);
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));	/* opened disabled */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pc_work_getppid_calls(CALLS);
	EXPECT_EQ(CALLS, pc_count_of(fd));
	close(fd);
}

TEST_HARNESS_MAIN
