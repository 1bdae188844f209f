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
 * Where no PMU has an AUX area (tests/record/aux.c): on each PMU whose
 * event opens, aux_output is refused with EOPNOTSUPP, the plain event
 * being the control. (tests/attr/aux_output.c observes the software,
 * breakpoint and tracepoint answers; here every PMU, the arm64 guests'
 * PMUv3 and msr included.) The record's contents come from the suite's
 * own PMUs, on kernels that export perf_report_aux_output_id().
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

/*
 * The contents, from the suite's PMUs (ring/synth.h): a perfconf_out
 * member with aux_output in a perfconf_aux group reports attr.config1 as
 * its hw_id when it starts. The record lands in the member's own ring,
 * once per start, with the member's sample_id.
 */
#define HW_ID 0x5eedcafe0042ULL

TEST(hw_id_contents)
{
	struct pc_capture cap;

	REQUIRE_SYNTH_PMU();
	if (!pc_synth_param("aux_output_id"))
		SKIP(return, "this kernel does not export perf_report_aux_output_id() to modules "
		     "(6.12 does, 6.1 does not): perfconf_out cannot report a hw_id");
	struct perfconf_attr leader = pc_attr_synth_aux(0);
	int fd = pc_open(&leader, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	struct perfconf_attr member = pc_attr_synth_out(0);
	member.disabled = 0;		/* the leader's ENABLE starts it */
	member.aux_output = 1;
	member.config1 = HW_ID;
	member.sample_id_all = 1;
	member.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_IDENTIFIER;
	ASSERT_ERRNO(0, -pc_capture_open_member(&cap, &member, fd));
	uint64_t id = pc_event_id(cap.fd);
	ASSERT_EQ(0, pc_enable(fd));
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_CAPTURE_READ(&cap);
	size_t n = pc_capture_count(&cap, PC_RECORD_AUX_OUTPUT_HW_ID);
	EXPECT_LE(1, n) TH_LOG("no AUX_OUTPUT_HW_ID from a start");
	for (size_t i = 0; i < n; i++) {
		const struct pc_record *r = pc_capture_find(&cap, PC_RECORD_AUX_OUTPUT_HW_ID, i);

		EXPECT_EQ(HW_ID, r->aux_output_hw_id.hw_id) TH_LOG("record %zu", i);
		EXPECT_EQ(id, r->sample_id.id) TH_LOG("record %zu", i);
		EXPECT_EQ((uint32_t)gettid(), r->sample_id.tid) TH_LOG("record %zu", i);
	}
	pc_capture_close(&cap);
	close(fd);
}

TEST_HARNESS_MAIN
