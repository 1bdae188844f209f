// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_ITRACE_START (since 4.1): an instruction-tracing event
 * started tracing a task; pid and tid name that task. The kernel writes it
 * from perf_log_itrace_start() when an event is scheduled in, only for a
 * PMU with PERF_PMU_CAP_ITRACE (intel_pt, intel_bts, arm_spe, cs_etm;
 * 6.12 kernel/events/core.c:9654), once per event (PERF_ATTACH_ITRACE).
 *
 * No PMU here has an AUX area, so none traces instructions (every
 * ITRACE PMU is an AUX PMU): an event of the PMUs here, scheduled in and
 * out many times, writes its other records (the control) and never an
 * ITRACE_START. The record's contents are a SKIP.
 */
#include <sys/mman.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "ring/sideband.h"
#include "aux_pmus.h"

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

/* The record's contents need an instruction-tracing PMU. */
TEST(itrace_start_contents)
{
	SKIP_AUX_RECORD_CONTENTS("ITRACE_START", "none traces instructions, and ITRACE_START "
				 "(pid, tid) is written only for a PERF_PMU_CAP_ITRACE PMU");
}

TEST_HARNESS_MAIN
