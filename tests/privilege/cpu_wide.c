// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU-wide event (pid -1, cpu >= 0) counts every task on that CPU, so
 * it is "CPU event access": refused with EACCES (perf_allow_cpu()) at
 * perf_event_paranoid >= 1 to users who are not perfmon_capable(). The
 * event here counts user space only, so that the kernel rule
 * (perf_allow_kernel(), level 2) is not what decides. Where allowed, it
 * counts at least this task's page faults on that CPU (others may add).
 */
#include "cells.h"
#include "work/affinity.h"
#include "work/measure.h"

#define N 32

CELL_CASE(user_only_on_this_cpu)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t count = 0;

	int cpu = pc_pin_self();
	ASSERT_LE(0, cpu) TH_LOG("pinning: %s", pc_errno_name(-cpu));
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	pc_work_page_faults(1);
	int fd = pc_open(&attr, -1, cpu, -1, 0);
	if (!CELL_ALLOWS(fd < 0 ? -fd : 0, PC_GATE_CPU))
		return;
	ASSERT_EQ(0, pc_count_fd_work(fd, pc_user_faults_work, PC_N(N), &count));
	EXPECT_LE(N, count);
	close(fd);
}

TEST_HARNESS_MAIN
