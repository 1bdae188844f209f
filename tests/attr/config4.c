// SPDX-License-Identifier: GPL-2.0
/*
 * config4 (since 6.19, PERF_ATTR_SIZE_VER9, 144 bytes) extends config3 for
 * PMUs whose format/ entries name it ("config4:..."). A kernel older than
 * 6.19 does not know it: its attr ends before config4, so a non-zero value
 * there is E2BIG, with attr.size overwritten by the kernel's own size. A
 * kernel that knows it hands it to the PMU, and PMUs that give it no
 * meaning (software, tracepoint, breakpoint, uprobe) ignore it. An attr
 * whose size ends before config4 (VER8) is never read that far.
 */
#include "perfconf.h"
#include "work/attr_probe.h"
#include "work/measure.h"
#include "event/pmu_formats.h"

#define N 16

TEST(e2big_only_past_the_kernel_size)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	pc_observe_errno("errno", pc_attr_probe(&attr, "config4", ~0ULL).err);
	EXPECT_ATTR_SIZE_RULE(&attr, "config4", ~0ULL);
}

/* Where the kernel knows config4, a software event counts as without it. */
TEST(software_event_ignores_config4)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	REQUIRE_ATTR_FIELD("config4");
	attr.exclude_user = 1;
	attr.config4 = ~0ULL;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_kernel_faults_work, PC_N(N)))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

/*
 * Every kind of event here: E2BIG past the kernel's size, with its size
 * written back; accepted where the kernel knows config4.
 */
TEST(each_kind_of_event)
{
	EXPECT_EACH_KIND_ERRNO("config4", 0x4444444444444444ULL, pc_attr_field_errno("config4", 0));
}

/* An attr of size VER8 ends before config4: whatever lies there is not read. */
TEST(size_ver8_is_not_read_that_far)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.size = PC_ATTR_SIZE_VER8;
	attr.exclude_user = 1;
	attr.config4 = ~0ULL;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_kernel_faults_work, PC_N(N)))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
	EXPECT_EQ(PC_ATTR_SIZE_VER8, attr.size);
}

/* The PMUs here that define formats in config4 are pinned, each parsed. */
TEST(formats_in_config4)
{
	EXPECT_LE(0, pc_observe_formats_in_word(4)) TH_LOG("a format entry cannot be parsed");
}

TEST_HARNESS_MAIN
