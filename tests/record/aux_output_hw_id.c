// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_AUX_OUTPUT_HW_ID (since 5.16): the hardware id (hw_id) under
 * which an event's output appears in its AUX leader's trace, so that a
 * decoder can tell whose data it is. A driver writes it with
 * perf_report_aux_output_id() (6.12 kernel/events/core.c:9689): Intel
 * PEBS-via-PT (intel_pmu_enable_event, for an event with aux_output) and
 * CoreSight ETM (the trace id). Both need aux_output, which perf_event_open
 * refuses with EOPNOTSUPP on a PMU without PERF_PMU_CAP_AUX_OUTPUT (6.12
 * core.c:12448; since 5.4), and an AUX group leader.
 *
 * No PMU here has an AUX area (tests/record/aux.c): on each PMU whose
 * event opens, aux_output is refused with EOPNOTSUPP, the plain event
 * being the control. (tests/attr/aux_output.c observes the software,
 * breakpoint and tracepoint answers; here every PMU, the arm64 guests'
 * PMUv3 and msr included.) The record's contents are a SKIP.
 */
#include <sys/mman.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "aux_pmus.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

TEST(aux_output_refused_on_every_pmu_here)
{
	char names[512];
	size_t checked = 0;

	if (aux_pmus(names, sizeof(names)))
		SKIP(return, "AUX PMUs here (%s): some PMU may take aux_output", names);
	char **pmus = pc_pmu_list();
	for (size_t i = 0; pmus && pmus[i]; i++) {
		int type = pc_pmu_type(pmus[i]);

		if (type < 0)
			continue;
		struct perfconf_attr attr = pc_attr((uint32_t)type, 0);
		if (pc_open_errno(&attr, 0, -1, -1, 0))
			continue;	/* config 0 means nothing there */
		attr.aux_output = 1;
		EXPECT_ERRNO(EOPNOTSUPP, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("PMU %s", pmus[i]);
		checked++;
	}
	pc_strv_free(pmus);
	EXPECT_LE(1, checked);
}

/* The record's contents need aux_output into an AUX leader. */
TEST(hw_id_contents)
{
	SKIP_AUX_RECORD_CONTENTS("AUX_OUTPUT_HW_ID", "AUX_OUTPUT_HW_ID (hw_id) is written only "
				 "for an aux_output event in an AUX PMU's group");
}

TEST_HARNESS_MAIN
