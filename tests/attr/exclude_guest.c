// SPDX-License-Identifier: GPL-2.0
/*
 * exclude_guest (since Linux 3.2): "When conducting measurements that
 * include processes running VM instances (i.e., have executed a KVM_RUN
 * ioctl(2)), do not measure events happening inside guest instances. This
 * is only meaningful outside the guests; this setting does not change
 * counts gathered inside of a guest. Currently, this functionality is x86
 * only."
 *
 * Everything a test does here happens in the host: with the bit, page
 * faults (user and kernel) and breakpoint hits all count in full, and a
 * hardware event, where there is one, still counts. Showing what it leaves
 * out needs a process in KVM_RUN, which perfconf does not run.
 */
#define FIELD exclude_guest
#include "exclude_nothing_here.h"

/* On a hardware PMU, whether the bit is accepted is pinned; host cycles are counted. */
TEST(hardware_cycles)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	uint64_t count = 0;

	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	if (pc_errno_is_unsupported(err))
		SKIP(return, "no hardware PMU (%s)", pc_errno_name(err));
	attr.exclude_guest = 1;
	err = pc_count_work(&attr, pc_loop_work, PC_N(1000000), &count);
	pc_observe_errno("errno", pc_last_open_errno());	/* the open's, 0 if it opened */
	if (pc_last_open_errno())
		return;
	ASSERT_EQ(0, err);
	EXPECT_LT(0, count);
}

TEST_HARNESS_MAIN
