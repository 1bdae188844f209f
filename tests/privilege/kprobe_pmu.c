// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe PMU (kprobe_func, since 4.17) places a probe in the kernel
 * for its event, so it asks for privilege at every level: "Only a
 * CAP_PERFMON (or CAP_SYS_ADMIN) task may create a kprobe"
 * (perf_kprobe_event_init(): perfmon_capable(), EACCES otherwise). A kprobe
 * fires in the kernel, and counts only for an event that does not exclude
 * it, so the request is exclude_kernel = 0 too, which perf_event_open()
 * asks perf_allow_kernel() for first (EACCES at level >= 2 to users who are
 * not perfmon_capable()). The request is the same in every cell: a kprobe
 * on the function each getppid() enters, counting this task; where
 * allowed, it counts each call exactly. Where there is no kprobe PMU
 * (CONFIG_KPROBE_EVENTS), the case SKIPs.
 */
#define CELL_SERIAL " serial=probes"	/* each allowed cell creates a probe */
#include "cells.h"
#include "event/kprobe.h"
#include "work/measure.h"

#define N 16

CELL_CASE(probe_kernel_function)
{
	struct perfconf_attr attr;
	uint64_t count = UINT64_MAX;

	REQUIRE_GETPPID_SYMBOL();
	REQUIRE_KPROBE_PMU();
	ASSERT_EQ(0, pc_attr_kprobe(&attr, pc_kprobe_getppid_symbol(), 0, pc_kprobe_entry_offset()));
	int err = pc_count_work(&attr, pc_getppid_work, PC_N(N), &count);
	if (CELL_ALLOWS(-err, PC_GATE_KERNEL, PC_GATE_KPROBE))
		EXPECT_EQ(N, count);
}

TEST_HARNESS_MAIN
