// SPDX-License-Identifier: GPL-2.0
/*
 * exclude_hv: "If this bit is set, the count excludes events that happen
 * in the hypervisor. This is mainly for PMUs that have built-in support
 * for handling this (such as POWER). Extra support is needed for handling
 * hypervisor measurements on most machines."
 *
 * Software events and breakpoints happen in this task, in user or kernel
 * mode, never in a hypervisor: the bit is accepted and takes nothing away
 * from their counts or samples. Its effect needs a PMU that counts in a
 * hypervisor mode, which none of the PMUs here does.
 */
#include <linux/hw_breakpoint.h>

#include "work/measure.h"
#include "perfconf.h"
#include "ring/sample_site.h"

#define N 64

TEST(user_faults_counted)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.exclude_hv = 1;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_user_faults_work, PC_N(N)));
}

TEST(kernel_faults_counted)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.exclude_hv = 1;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_kernel_faults_work, PC_N(N)));
}

TEST(breakpoint_hits_counted)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "an execute breakpoint");
	attr.exclude_hv = 1;
	EXPECT_EQ(100, pc_count_of_work(&attr, pc_calls_work, PC_N(100)));
}

/* Every fault is still sampled, each in the mode it was taken in. */
TEST(samples_unchanged)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	struct pc_capture cap;

	attr.exclude_hv = 1;
	int err = pc_capture_run_warm(&cap, &attr, pc_mixed_faults_work, PC_N(N));
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(err), cap.error);

	size_t user = 0, kernel = 0;
	for (size_t i = 0; i < cap.nr; i++) {
		const struct pc_record *r = &cap.recs[i].rec;
		uint16_t mode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;

		if (r->type != PERF_RECORD_SAMPLE)
			continue;
		user += mode == PERF_RECORD_MISC_USER;
		kernel += mode == PERF_RECORD_MISC_KERNEL;
		EXPECT_NE(PERF_RECORD_MISC_HYPERVISOR, mode);
	}
	EXPECT_EQ(N, user);
	EXPECT_EQ(N / 2, kernel);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
