/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cases of config1 and config2 that hold for both: PMUs that give the
 * word no meaning ignore it. The field file defines, then includes this:
 *	FIELD		the member (config1), in the case ids and the attr
 *	FIELD_WORD	its number (1), for the format/ entries "config1:..."
 *	FIELD_PATTERN	a value with bits set all over it
 * and ends with FORMATS_IN_FIELD_CASE, after its own cases.
 */
#include "perfconf.h"
#include "work/measure.h"
#include "event/pmu.h"
#include "fragment.h"

#define N 16

/* A software event with every bit of the field set counts as without. */
TEST(FIELD_CASE(software_event_ignores_))
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.FIELD = ~0ULL;
	attr.exclude_user = 1;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_kernel_faults_work, PC_N(N)))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

/* A tracepoint too: n getppid() calls still count n. */
TEST(FIELD_CASE(tracepoint_ignores_))
{
	struct perfconf_attr attr;

	GETPPID_TRACEPOINT(&attr);
	attr.FIELD = FIELD_PATTERN;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_getppid_work, PC_N(N)))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

/* The PMUs here that define formats in the field are pinned, each parsed. */
#define FORMATS_IN_FIELD_CASE						\
TEST(FIELD_CASE(formats_in_))						\
{									\
	EXPECT_LE(0, pc_pmu_observe_formats_in_word(FIELD_WORD))		\
		TH_LOG("a format entry cannot be parsed");		\
}
