// SPDX-License-Identifier: GPL-2.0
/*
 * A data breakpoint (HW_BREAKPOINT_W) on a variable counts each write to it,
 * and a read-only breakpoint type is not a write watch: n writes count n.
 */
#include <linux/hw_breakpoint.h>

#include "perfconf.h"

static volatile uint64_t watched;

TEST(counts_each_write)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_W, &watched, sizeof(watched));
	uint64_t count;
	int fd = pc_open(&attr, 0, -1, -1, 0);

	if (fd < 0)
		SKIP_IF_UNSUPPORTED(errno, "a write breakpoint");
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_enable(fd));
	for (int i = 0; i < 500; i++)
		pc_work_touch(&watched);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(0, pc_read_count(fd, &count));
	EXPECT_EQ(500, count);
	EXPECT_EQ(500, watched);
	close(fd);
}

TEST(other_variable_not_counted)
{
	static volatile uint64_t other;
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_W, &watched, sizeof(watched));
	uint64_t count;
	int fd = pc_open(&attr, 0, -1, -1, 0);

	if (fd < 0)
		SKIP_IF_UNSUPPORTED(errno, "a write breakpoint");
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_enable(fd));
	for (int i = 0; i < 50; i++)
		pc_work_touch(&other);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(0, pc_read_count(fd, &count));
	EXPECT_EQ(0, count);
	close(fd);
}

TEST_HARNESS_MAIN
