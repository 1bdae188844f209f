// SPDX-License-Identifier: GPL-2.0
/*
 * aux_pause (since Linux 6.13, bit 1 of aux_action): "on overflow, pause AUX
 * area tracing" (UAPI). The event that overflows pauses the tracing of its
 * group leader, which must be an AUX area event whose PMU can pause:
 * without such a leader the event is refused with EINVAL. It is not for
 * aux_output events (EOPNOTSUPP), nor together with aux_resume (see
 * aux_action). Before 6.13 the bit was __reserved_3: EINVAL.
 *
 * The effect, on the suite's perfconf_aux (ring/synth.h), which writes
 * CHUNK bytes each time its tracing starts and commits them when it
 * stops: a context-switches member with aux_pause pauses the leader at
 * the first switch, and the leader stays paused through every later
 * schedule-in, until a page-faults member with aux_resume resumes it.
 */
#define FIELD		aux_pause
#define ON_OVERFLOW	"paused"
#include "aux_action_bit.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

#define CHUNK 256

/*
 * aux_head after the task was switched out 3 times more, as the
 * context-switches member `switches` counts them (a short sleep need not
 * switch: its timer may fire first). A switch pauses the leader, and what
 * a pause stops is committed then.
 */
static uint64_t head_after_switches(const struct pc_ring *r, int switches)
{
	uint64_t start = 0, now = 0;

	pc_read_count(switches, &start);
	for (int i = 0; i < 1000 && now < start + 3; i++) {
		usleep(1000);
		pc_read_count(switches, &now);
	}
	return __atomic_load_n(&r->page->aux_head, __ATOMIC_ACQUIRE);
}

TEST(overflow_pauses_until_a_resume)
{
	struct pc_capture cap;

	REQUIRE_ATTR_FIELD(FIELD_NAME);
	REQUIRE_SYNTH_PAUSE();
	struct perfconf_attr leader = pc_attr_synth_aux(CHUNK);
	ASSERT_ERRNO(0, -pc_synth_capture(&cap, &leader, 4, PC_RING_READWRITE));
	struct perfconf_attr pause = pc_attr_sw_sampling(PERF_COUNT_SW_CONTEXT_SWITCHES, 1, PERF_SAMPLE_TID);
	struct perfconf_attr resume = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_TID);
	pause.aux_pause = 1;
	pause.disabled = 0;
	resume.aux_resume = 1;
	resume.exclude_kernel = 1;
	resume.disabled = 0;		/* members follow the leader */
	int p = pc_open(&pause, 0, -1, cap.fd, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(p);
	int r = pc_open(&resume, 0, -1, cap.fd, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(r);
	pc_work_page_faults(1);		/* the workload's own first faults */
	usleep(1000);

	ASSERT_EQ(0, pc_enable(cap.fd));
	EXPECT_EQ(CHUNK, head_after_switches(&cap.ring, p)) TH_LOG("the ENABLE's interval, paused at a switch");
	EXPECT_EQ(CHUNK, head_after_switches(&cap.ring, p)) TH_LOG("paused through schedule-ins");
	ASSERT_EQ(0, pc_work_page_faults(1));
	EXPECT_EQ(2 * CHUNK, head_after_switches(&cap.ring, p)) TH_LOG("resumed by a fault, paused again");
	EXPECT_EQ(2 * CHUNK, head_after_switches(&cap.ring, p));
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(2, pc_capture_count(&cap, PERF_RECORD_AUX));
	EXPECT_EQ(2 * CHUNK, pc_synth_mismatch(&cap.ring, 0, 2 * CHUNK));
	close(r);
	close(p);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
