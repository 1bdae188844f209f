/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cases of exclude_guest and exclude_hv: each leaves out events that
 * happen in a mode this task never runs in, so with the bit page faults
 * (user and kernel) and breakpoint hits all count in full. The field file
 * defines FIELD (the bit, exclude_guest), then includes this.
 */
#include <linux/hw_breakpoint.h>

#include "work/measure.h"
#include "perfconf.h"

#define N 64
#include "exclude_faults.h"

TEST(user_faults_counted)
{
	EXPECT_EQ(N, faults_counted(pc_user_faults_work, 1));
}

TEST(kernel_faults_counted)
{
	EXPECT_EQ(N, faults_counted(pc_kernel_faults_work, 1));
}

TEST(breakpoint_hits_counted)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "an execute breakpoint");
	attr.FIELD = 1;
	EXPECT_EQ(100, pc_count_of_work(&attr, pc_calls_work, PC_N(100)));
}
