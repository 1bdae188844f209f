// SPDX-License-Identifier: GPL-2.0
/*
 * aux_start_paused (since Linux 6.13, bit 0 of aux_action): "start AUX area
 * tracing paused" (UAPI). It is set on the AUX area event itself, and only
 * a PMU that can pause its tracing takes it: any other event is refused
 * with EOPNOTSUPP. Before 6.13 the bit was __reserved_3: EINVAL.
 */
#include "perfconf.h"
#include "work/attr_probe.h"
#include "aux_field_cases.h"

#define FIELD "aux_start_paused"

/* On software, breakpoint, tracepoint and uprobe events alike. */
TEST(refused_without_an_aux_pmu)
{
	struct pc_field_event kinds[PC_FIELD_EVENTS_MAX];
	size_t n = pc_field_events(kinds, PC_FIELD_EVENTS_MAX);
	char key[64];

	REQUIRE_ATTR_FIELD(FIELD);
	ASSERT_LE(1, n);
	for (size_t i = 0; i < n; i++) {
		int err = pc_field_probe(&kinds[i].attr, FIELD, 1).err;

		snprintf(key, sizeof(key), "errno.%s", kinds[i].kind);
		pc_observe_errno(key, err);
		EXPECT_ERRNO_SINCE(FIELD, EOPNOTSUPP, EINVAL, err);
	}
}

/* It is the event's own PMU that must pause, whatever group it joins. */
TEST(refused_in_a_group_too)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	REQUIRE_ATTR_FIELD(FIELD);
	int err = pc_field_in_software_group_errno(&attr, FIELD, 1);
	EXPECT_ERRNO(pc_field_probe(&attr, FIELD, 1).err, err);
	EXPECT_ERRNO_SINCE(FIELD, EOPNOTSUPP, EINVAL, err);
}

AUX_FIELD_CASES(FIELD, pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS), 1, false,
		"no AUX data until an aux_resume event overflows")

TEST_HARNESS_MAIN
