// SPDX-License-Identifier: GPL-2.0
/*
 * aux_start_paused (since Linux 6.13, bit 0 of aux_action): "start AUX area
 * tracing paused" (UAPI). It is set on the AUX area event itself, and only
 * a PMU that can pause its tracing takes it: any other event is refused
 * with EOPNOTSUPP. Before 6.13 the bit was __reserved_3: EINVAL.
 *
 * The effect, on the suite's perfconf_aux (ring/synth.h), which writes
 * CHUNK bytes each time its tracing starts: nothing through the ENABLE
 * and every schedule-in, until a member with aux_resume overflows.
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

#define CHUNK 256

TEST(starts_paused_until_resumed)
{
	struct pc_capture cap;

	REQUIRE_ATTR_FIELD(FIELD);
	REQUIRE_SYNTH_PAUSE();
	struct perfconf_attr leader = pc_attr_synth_aux(CHUNK);
	leader.aux_start_paused = 1;
	ASSERT_ERRNO(0, -pc_synth_capture(&cap, &leader, 4, PC_RING_READWRITE));
	struct perfconf_attr resume = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_TID);
	resume.aux_resume = 1;
	resume.exclude_kernel = 1;
	resume.disabled = 0;		/* members follow the leader */
	int r = pc_open(&resume, 0, -1, cap.fd, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(r);
	pc_work_page_faults(1);		/* the workload's own first faults */
	usleep(1000);

	ASSERT_EQ(0, pc_enable(cap.fd));
	for (int i = 0; i < 3; i++)
		usleep(1000);
	EXPECT_EQ(0, cap.ring.page->aux_head) TH_LOG("traced before a resume");
	ASSERT_EQ(0, pc_work_page_faults(1));
	ASSERT_EQ(0, pc_disable(cap.fd));
	uint64_t head = cap.ring.page->aux_head;
	EXPECT_LE(CHUNK, head) TH_LOG("not traced after the resume");
	EXPECT_EQ(0, head % CHUNK);
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(head / CHUNK, pc_capture_count(&cap, PERF_RECORD_AUX));
	close(r);
	pc_capture_close(&cap);
}

AUX_FIELD_CASES(FIELD, pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS), 1, false,
		"no AUX data until an aux_resume event overflows")

TEST_HARNESS_MAIN
