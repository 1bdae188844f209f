// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 "msr" PMU exposes free-running MSRs as events described in
 * sysfs; its "tsc" event (events/tsc) counts time-stamp-counter ticks while
 * the task runs: it only grows, and a busy loop makes it grow.
 */
#include "perfconf.h"

TEST(tsc_counts_up)
{
	struct perfconf_attr attr;
	uint64_t before, after;

	REQUIRE_PMU("msr");
	if (pc_attr_pmu_event(&attr, "msr", "tsc") == -ENOENT)
		SKIP(return, "the msr PMU has no tsc event here");
	int fd = pc_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		SKIP_IF_UNSUPPORTED(errno, "msr/tsc");
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_loop(100000);
	ASSERT_EQ(0, pc_read_count(fd, &before));
	pc_work_loop(100000);
	ASSERT_EQ(0, pc_read_count(fd, &after));
	EXPECT_LT(0, before);
	EXPECT_LT(before, after);
	close(fd);
}

TEST_HARNESS_MAIN
