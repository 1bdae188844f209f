// SPDX-License-Identifier: GPL-2.0
/*
 * exclude_host (since Linux 3.2): "When conducting measurements that
 * include processes running VM instances (i.e., have executed a KVM_RUN
 * ioctl(2)), only measure events happening inside a guest instance. This
 * is only meaningful outside the guests; this setting does not change
 * counts gathered inside of a guest. Currently, this functionality is x86
 * only."
 *
 * It is a hardware PMU feature. Software events and breakpoints do not
 * look at it: with the bit they still count the host's work here (that
 * they do is pinned, and either way user and kernel faults agree).
 * Showing what it keeps needs a process in KVM_RUN, which perfconf does
 * not run.
 */
#include <linux/hw_breakpoint.h>

#include "work/measure.h"
#include "perfconf.h"

#define N 64
#define FIELD exclude_host
#include "exclude_hw_cycles.h"

/* The count of the work with exclude_host; it is all or nothing. */
static uint64_t count_host_excluded(struct __test_metadata *_metadata, struct perfconf_attr attr,
				    pc_work_fn work, unsigned long n)
{
	uint64_t count = UINT64_MAX;

	attr.exclude_host = 1;
	EXPECT_ERRNO(0, -pc_count_work(&attr, work, PC_N(n), &count));
	EXPECT_TRUE(count == 0 || count == n) TH_LOG("%llu of %lu", (unsigned long long)count, n);
	return count;
}

TEST(software_events)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t user = count_host_excluded(_metadata, attr, pc_user_faults_work, N);
	uint64_t kernel = count_host_excluded(_metadata, attr, pc_kernel_faults_work, N);

	EXPECT_EQ(user, kernel);
	pc_observe("count", "%s", user ? "counted" : "excluded");
}

/*
 * A breakpoint with the bit: counted or excluded, pinned. Observation only:
 * the man page does not say whether breakpoints honour exclude_host.
 */
TEST(breakpoints)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "an execute breakpoint");
	pc_observe("count", "%s", count_host_excluded(_metadata, attr, pc_calls_work, 100) ?
		   "counted" : "excluded");
}

/*
 * With exclude_guest too, both worlds are excluded: what a software event
 * then counts is pinned. Observation only: the man page does not say how
 * software events treat exclude_host and exclude_guest together.
 */
TEST(with_exclude_guest)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.exclude_guest = 1;
	pc_observe("count", "%s", count_host_excluded(_metadata, attr, pc_user_faults_work, N) ?
		   "counted" : "excluded");
}

/*
 * On a hardware PMU: whether the bit is accepted, and whether host cycles
 * are then left out, are pinned (a kernel that has no hypervisor mode to
 * tell apart, such as arm64 at EL1, may count them). Observation only: the
 * man page says the bit excludes the VM host, not what a PMU that cannot
 * tell host from guest does with it.
 */
TEST(hardware_cycles)
{
	uint64_t count = UINT64_MAX;

	if (hw_cycles_with_bit(_metadata, &count))
		pc_observe("count", "%s", count ? "counted" : "zero");
}

TEST_HARNESS_MAIN
