// SPDX-License-Identifier: GPL-2.0
/*
 * aux_pause (since Linux 6.13, bit 1 of aux_action): "on overflow, pause AUX
 * area tracing" (UAPI). The event that overflows pauses the tracing of its
 * group leader, which must be an AUX area event whose PMU can pause:
 * without such a leader the event is refused with EINVAL. It is not for
 * aux_output events (EOPNOTSUPP), nor together with aux_resume (see
 * aux_action). Before 6.13 the bit was __reserved_3: EINVAL.
 */
#include "perfconf.h"
#include "work/attr_probe.h"

#define FIELD "aux_pause"

/* Alone, on software, breakpoint, tracepoint and uprobe events alike. */
TEST(refused_without_an_aux_group_leader)
{
	REQUIRE_ATTR_FIELD(FIELD);
	EXPECT_EACH_KIND_ERRNO(FIELD, 1, EINVAL);
}

TEST(software_group_leader_is_not_enough)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	REQUIRE_ATTR_FIELD(FIELD);
	EXPECT_ERRNO(EINVAL, pc_attr_probe_in_software_group(&attr, FIELD, 1));
}

/* Refused with aux_output, before any group leader is looked at. */
TEST(not_with_aux_output)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	REQUIRE_ATTR_FIELD(FIELD);
	attr.aux_output = 1;
	int err = pc_attr_probe(&attr, FIELD, 1).err;
	pc_observe_errno("errno", err);
	EXPECT_ERRNO_SINCE(FIELD, EOPNOTSUPP, EINVAL, err);
}

TEST(on_an_aux_pmu)
{
	PROBE_ON_AUX_PMU(FIELD, 1, true, "the leader's AUX tracing paused when a member overflows");
}

TEST(attr_size_rule)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	EXPECT_ATTR_SIZE_RULE(&attr, FIELD, 1);
}

TEST_HARNESS_MAIN
