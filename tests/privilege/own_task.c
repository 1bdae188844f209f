// SPDX-License-Identifier: GPL-2.0
/*
 * Counting one's own task, in every cell of identity x perf_event_paranoid.
 *
 * perf_event_open(2): "-1 Allow use of (almost) all events by all users.
 * >= 0 Disallow ftrace function tracepoint by users without CAP_PERFMON.
 * >= 1 Disallow CPU event access by users without CAP_PERFMON. >= 2
 * Disallow kernel profiling by users without CAP_PERFMON." So counting
 * user space of one's own task is open to all (up to level 2; Debian's 3
 * closes it), counting the kernel's part needs level <= 1 or
 * perfmon_capable() (EACCES from perf_allow_kernel() otherwise). Where the
 * open is allowed, the event counts the work exactly.
 */
#include "cells.h"
#include "work/measure.h"

#define N 32

/* exclude_kernel = 1: user-space page faults of this task. */
CELL_CASE(user_only)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t count = UINT64_MAX;

	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	int err = pc_count_work(&attr, pc_user_faults_work, PC_N(N), &count);
	if (CELL_ALLOWS(-err, PC_GATE_USER))
		EXPECT_EQ(N, count);
}

/* exclude_kernel = 0: the page faults the kernel takes writing to this task's memory. */
CELL_CASE(with_kernel)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t count = UINT64_MAX;

	attr.exclude_hv = 1;
	int err = pc_count_work(&attr, pc_kernel_faults_work, PC_N(N), &count);
	if (CELL_ALLOWS(-err, PC_GATE_KERNEL))
		EXPECT_EQ(N, count);
}

TEST_HARNESS_MAIN
