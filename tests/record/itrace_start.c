// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_ITRACE_START (since 4.1): an instruction-tracing event
 * started tracing a task; pid and tid name that task. The kernel writes it
 * from perf_log_itrace_start() when an event is scheduled in, only for a
 * PMU with PERF_PMU_CAP_ITRACE (intel_pt, intel_bts, arm_spe, cs_etm;
 * 6.12 kernel/events/core.c:9654), at every schedule-in until the driver
 * calls perf_event_itrace_started() (PERF_ATTACH_ITRACE: intel_pt does
 * at its first start, so once per event there).
 *
 * An event of a PMU without PERF_PMU_CAP_ITRACE, scheduled in and out
 * many times, writes its other records (the control) and never an
 * ITRACE_START. The contents come from the suite's own ITRACE PMU
 * (perfconf_aux, ring/synth.h), which never calls
 * perf_event_itrace_started(): one record per schedule-in.
 */
#include <sys/mman.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "ring/sideband.h"

#define NAME "pc-itrace"

/* A software event with every side-band bit, switched in and out, renamed, forking. */
TEST(none_from_a_software_event)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	struct pc_capture cap;

	attr.comm = 1;
	attr.task = 1;
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	ASSERT_EQ(0, pc_work_set_comm(NAME));
	pid_t child = pc_work_fork_exit(0);
	usleep(1000);
	usleep(1000);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LT(0, child);
	ASSERT_CAPTURE_READ(&cap);
	/* The control: it was scheduled in and out, and wrote its records. */
	EXPECT_LE(4, pc_capture_count(&cap, PERF_RECORD_SWITCH));
	EXPECT_NE(NULL, pc_find_tid(&cap, PERF_RECORD_COMM, gettid(), 0));
	EXPECT_NE(NULL, pc_find_tid(&cap, PERF_RECORD_FORK, child, 0));
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_ITRACE_START));
	pc_capture_close(&cap);
}

/*
 * perfconf_aux's event, switched in and out by sleeps: an ITRACE_START
 * (this task's pid and tid, in the record and its sample_id) at the
 * ENABLE and right before each SWITCH into the task, and nowhere else.
 */
TEST(itrace_start_contents)
{
	struct pc_capture cap;
	size_t starts = 0, ins = 0;

	REQUIRE_SYNTH_PMU();
	struct perfconf_attr attr = pc_attr_synth_aux(0);
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	for (int i = 0; i < 20; i++)
		usleep(1000);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_LT(0, cap.nr);
	EXPECT_EQ(PERF_RECORD_ITRACE_START, cap.recs[0].rec.type) TH_LOG("the ENABLE's");
	for (size_t i = 0; i < cap.nr; i++) {
		const struct pc_record *r = &cap.recs[i].rec;

		if (r->type == PERF_RECORD_ITRACE_START) {
			starts++;
			EXPECT_EQ((uint32_t)getpid(), r->itrace_start.pid);
			EXPECT_EQ((uint32_t)gettid(), r->itrace_start.tid);
			EXPECT_EQ((uint32_t)gettid(), r->sample_id.tid);
		} else if (r->type == PERF_RECORD_SWITCH &&
			   !(r->misc & PERF_RECORD_MISC_SWITCH_OUT)) {
			ins++;
			EXPECT_TRUE(i > 0 && cap.recs[i - 1].rec.type == PERF_RECORD_ITRACE_START)
				TH_LOG("SWITCH in %zu without an ITRACE_START before it", i);
		}
	}
	EXPECT_LE(1, ins) TH_LOG("never switched out and in");
	EXPECT_EQ(ins + 1, starts);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
