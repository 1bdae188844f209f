/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cases of config3 and config4, the PMU config words that newer
 * kernels appended to the attr. The field file defines, then includes this:
 *	FIELD		the member (config3), in the case ids and probes
 *	FIELD_WORD	its number (3), for the format/ entries "config3:..."
 *	FIELD_PATTERN	a value with bits set all over it
 *	SIZE_BEFORE	the PERF_ATTR_SIZE_VER* number that ends just before it
 */
#include "perfconf.h"
#include "work/attr_probe.h"
#include "work/measure.h"
#include "event/pmu.h"
#include "fragment.h"

#define N 16
#define ATTR_SIZE_BEFORE	FRAGMENT_CAT(PC_ATTR_SIZE_VER, SIZE_BEFORE)

TEST(e2big_only_past_the_kernel_size)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	pc_observe_errno("errno", pc_field_probe(&attr, FIELD_NAME, ~0ULL).err);
	EXPECT_ATTR_SIZE_RULE(&attr, FIELD_NAME, ~0ULL);
}

/* Where the kernel knows the field, a software event counts as without it. */
TEST(FIELD_CASE(software_event_ignores_))
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	REQUIRE_ATTR_FIELD(FIELD_NAME);
	attr.exclude_user = 1;
	attr.FIELD = ~0ULL;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_kernel_faults_work, PC_N(N)))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

/*
 * Every kind of event here: E2BIG past the kernel's size, with its size
 * written back; accepted where the kernel knows the field.
 */
TEST(each_kind_of_event)
{
	EXPECT_EACH_KIND_ERRNO(FIELD_NAME, FIELD_PATTERN, pc_field_errno(FIELD_NAME, 0));
}

/* An attr of size SIZE_BEFORE ends before the field: whatever lies there is not read. */
TEST(FRAGMENT_CAT(FRAGMENT_CAT(size_ver, SIZE_BEFORE), _is_not_read_that_far))
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.size = ATTR_SIZE_BEFORE;
	attr.exclude_user = 1;
	attr.FIELD = ~0ULL;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_kernel_faults_work, PC_N(N)))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
	EXPECT_EQ(ATTR_SIZE_BEFORE, attr.size);
}

/* The PMUs here that define formats in the field are pinned, each parsed. */
TEST(FIELD_CASE(formats_in_))
{
	EXPECT_LE(0, pc_pmu_observe_formats_in_word(FIELD_WORD)) TH_LOG("a format entry cannot be parsed");
}

TEST_HARNESS_MAIN
