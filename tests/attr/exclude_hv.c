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
#define FIELD exclude_hv
#include "exclude_nothing_here.h"
#include "ring/sample_site.h"

/* Every fault is still sampled, each in the mode it was taken in. */
TEST(samples_unchanged)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	struct pc_capture cap;

	attr.exclude_hv = 1;
	int err = pc_capture_run_warm(&cap, &attr, pc_mixed_faults_work, PC_N(N));
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap.error);

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
