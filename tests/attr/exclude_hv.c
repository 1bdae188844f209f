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

#include "measure.h"
#include "perfconf.h"

#define N 64

static uint64_t count_with_hv_excluded(struct __test_metadata *_metadata, struct perfconf_attr attr,
				       pc_work_fn work, unsigned long n)
{
	uint64_t count = UINT64_MAX;

	attr.exclude_hv = 1;
	int err = pc_count_work(&attr, work, PC_N(n), &count);
	EXPECT_ERRNO(0, err);
	return count;
}

TEST(user_faults_counted)
{
	EXPECT_EQ(N, count_with_hv_excluded(_metadata, pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS),
					    pc_user_faults_work, N));
}

TEST(kernel_faults_counted)
{
	EXPECT_EQ(N, count_with_hv_excluded(_metadata, pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS),
					    pc_kernel_faults_work, N));
}

TEST(breakpoint_hits_counted)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);

	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "an execute breakpoint");
	EXPECT_EQ(100, count_with_hv_excluded(_metadata, attr, pc_calls_work, 100));
}

/* Every fault is still sampled, each in the mode it was taken in. */
TEST(samples_unchanged)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	struct pc_capture cap;

	attr.exclude_hv = 1;
	ASSERT_ERRNO(0, pc_capture_open(&cap, &attr, 0, -1));
	pc_work_page_faults(1);
	pc_kernel_faults(1);
	ASSERT_EQ(0, pc_enable(cap.fd));
	pc_work_page_faults(N);
	pc_kernel_faults(N / 2);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LE(0, pc_capture_read(&cap)) TH_LOG("%s", cap.error);

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
