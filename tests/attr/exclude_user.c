// SPDX-License-Identifier: GPL-2.0
/*
 * exclude_user: "If this bit is set, the count excludes events that happen
 * in user space." Software events and breakpoints filter on the mode the
 * task was in when the event happened: a page fault taken by user code is
 * not counted, one the kernel takes while writing to user memory is, and
 * every sample that does arrive was taken in the kernel
 * (PERF_RECORD_MISC_KERNEL, an IP in no user mapping).
 *
 * Tracepoints are the exception: the kernel filters them on exclude_kernel
 * only, so whether a uprobe (a user-space tracepoint) still counts is
 * pinned, beside a control without the bit that counts every hit.
 */
#include <linux/hw_breakpoint.h>

#include "work/measure.h"
#include "ring/sample_site.h"
#include "perfconf.h"

#define N 64
#define FIELD exclude_user
#include "exclude_faults.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

TEST(user_faults_not_counted)
{
	EXPECT_EQ(N, faults_counted(pc_user_faults_work, 0));
	EXPECT_EQ(0, faults_counted(pc_user_faults_work, 1));
}

TEST(kernel_faults_counted)
{
	EXPECT_EQ(N, faults_counted(pc_kernel_faults_work, 1));
}

/* Both kinds of fault in one sampled run: only the kernel's are sampled. */
TEST(samples_are_kernel_mode)
{
	struct perfconf_attr attr = pc_attr_kernel_sampling(PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	struct pc_capture cap;
	int err = pc_capture_run_warm(&cap, &attr, pc_mixed_faults_work, PC_N(N));

	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap.error);

	ASSERT_EQ(N / 2, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (size_t i = 0; i < N / 2; i++) {
		const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SAMPLE, i);

		EXPECT_EQ(PERF_RECORD_MISC_KERNEL, r->misc & PERF_RECORD_MISC_CPUMODE_MASK);
		EXPECT_EQ(PC_ADDR_UNMAPPED, pc_addr_class(r->sample.ip))
			TH_LOG("sample %zu: ip %#llx lies in a user mapping", i,
			       (unsigned long long)r->sample.ip);
		EXPECT_EQ(getpid(), r->sample.pid);
	}
	pc_capture_close(&cap);
}

/* An execute breakpoint on user code never fires in the kernel: with the bit it counts 0. */
TEST(breakpoint_hits_not_counted)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);
	uint64_t count = UINT64_MAX;

	attr.exclude_user = 1;
	int err = pc_count_work(&attr, pc_calls_work, PC_N(100), &count);
	SKIP_IF_UNSUPPORTED(-err, "an execute breakpoint");
	ASSERT_EQ(0, err);
	EXPECT_EQ(0, count);
}

/*
 * Not asserted: the man page's exclude_user sentence says nothing of
 * tracepoints, and the kernel filters a tracepoint hit on exclude_kernel
 * only (perf_tp_event_match(), kernel/events/core.c:10502 in 6.12), so a
 * uprobe hit with the bit is pinned (`count`). The control without the
 * bit counts every call, so "excluded" can only come from the bit.
 */
TEST(uprobe_hits)
{
	struct perfconf_attr attr;

	UPROBE_ATTR(&attr, pc_work_target);
	EXPECT_EQ(100, pc_count_of_work(&attr, pc_calls_work, PC_N(100)))
		TH_LOG("the uprobe without exclude_user: %s", pc_errno_name(pc_last_open_errno()));
	attr.exclude_user = 1;
	uint64_t count = pc_count_of_work(&attr, pc_calls_work, PC_N(100));
	ASSERT_TRUE(count == 0 || count == 100) TH_LOG("%llu of 100 calls", (unsigned long long)count);
	pc_observe("count", "%s", count ? "counted" : "excluded");
}

/* With exclude_kernel as well nothing is left to count. */
TEST(with_exclude_kernel_nothing_counts)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t count = UINT64_MAX;

	attr.exclude_user = 1;
	attr.exclude_kernel = 1;
	ASSERT_EQ(0, pc_count_work(&attr, pc_user_faults_work, PC_N(N), &count));
	EXPECT_EQ(0, count);
	ASSERT_EQ(0, pc_count_work(&attr, pc_kernel_faults_work, PC_N(N), &count));
	EXPECT_EQ(0, count);
}

TEST_HARNESS_MAIN
