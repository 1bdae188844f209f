// SPDX-License-Identifier: GPL-2.0
/*
 * A tracepoint event (PERF_TYPE_TRACEPOINT, config = the id from tracefs)
 * counts each time the tracepoint fires in the monitored task: n getppid()
 * calls fire syscalls:sys_enter_getppid exactly n times.
 */
#include <sys/syscall.h>

#include "perfconf.h"

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)

TEST(sys_enter_getppid)
{
	struct perfconf_attr attr;
	uint64_t count;

	GETPPID_TRACEPOINT_SUBJECT(&attr);
	int fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_enable(fd));
	for (int i = 0; i < 300; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(0, pc_read_count(fd, &count));
	EXPECT_EQ(300, count);
	close(fd);
}

TEST(bad_id_is_refused)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_TRACEPOINT, UINT64_MAX);
	int err = pc_open_errno(&attr, 0, -1, -1, 0);

	pc_observe_errno("errno", err);
	EXPECT_NE(0, err);
}

TEST_HARNESS_MAIN
