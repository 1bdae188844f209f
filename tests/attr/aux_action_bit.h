/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cases of aux_pause and aux_resume, the two aux_action bits that act
 * on the group leader's AUX tracing when an event overflows. The field
 * file defines, then includes this:
 *	FIELD		the bit (aux_pause), as the attr probes name it
 *	ON_OVERFLOW	what its overflow does to the leader's AUX tracing
 * and ends with TEST_HARNESS_MAIN.
 */
#include "perfconf.h"
#include "work/attr_probe.h"
#include "aux_field_cases.h"
#include "fragment.h"

/* Alone, on software, breakpoint, tracepoint and uprobe events alike. */
TEST(refused_without_an_aux_group_leader)
{
	REQUIRE_ATTR_FIELD(FIELD_NAME);
	EXPECT_EACH_KIND_ERRNO(FIELD_NAME, 1, EINVAL);
}

TEST(software_group_leader_is_not_enough)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	REQUIRE_ATTR_FIELD(FIELD_NAME);
	EXPECT_ERRNO(EINVAL, pc_field_in_software_group_errno(&attr, FIELD_NAME, 1));
}

/* Refused with aux_output, before any group leader is looked at. */
TEST(not_with_aux_output)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	REQUIRE_ATTR_FIELD(FIELD_NAME);
	attr.aux_output = 1;
	int err = pc_field_probe(&attr, FIELD_NAME, 1).err;
	pc_observe_errno("errno", err);
	EXPECT_ERRNO_SINCE(FIELD_NAME, EOPNOTSUPP, EINVAL, err);
}

AUX_FIELD_CASES(FIELD_NAME, pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS), 1, true,
		"the leader's AUX tracing " ON_OVERFLOW " when a member overflows")
