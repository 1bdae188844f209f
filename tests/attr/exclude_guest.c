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
#include "exclude_hw_cycles.h"

/* On a hardware PMU, whether the bit is accepted is pinned; host cycles are counted. */
TEST(hardware_cycles)
{
	uint64_t count = 0;

	if (hw_cycles_with_bit(_metadata, &count))
		EXPECT_LT(0, count);
}

TEST_HARNESS_MAIN
