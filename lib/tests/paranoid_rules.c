// SPDX-License-Identifier: GPL-2.0
/*
 * host/paranoid.h: the rules table answers what the man page and the
 * kernel source say for the cells where kernels agree, and the first
 * refusing check decides a request that passes several.
 */
#include <limits.h>

#include "perfconf.h"
#include "host/paranoid.h"

#define K510 PC_KVER(5, 10)
#define K54 PC_KVER(5, 4)

static int want(enum pc_gate g, int level, const char *who, int kver)
{
	return pc_paranoid_errno(&g, 1, level, pc_identity(who), kver);
}

TEST(kernel_profiling_needs_perfmon_above_level_1)
{
	EXPECT_EQ(0, want(PC_GATE_KERNEL, 1, "unprivileged", K510));
	EXPECT_EQ(EACCES, want(PC_GATE_KERNEL, 2, "unprivileged", K510));
	EXPECT_EQ(0, want(PC_GATE_KERNEL, 2, "perfmon", K510));
	EXPECT_EQ(EACCES, want(PC_GATE_KERNEL, 2, "perfmon", K54));	/* no CAP_PERFMON yet */
	EXPECT_EQ(0, want(PC_GATE_KERNEL, 2, "sys_admin", K54));
	EXPECT_EQ(EACCES, want(PC_GATE_KERNEL, 3, "syslog", K510));	/* upstream: 3 is 2 */
}

TEST(raw_tracepoint_data_is_eperm_above_level_m1)
{
	EXPECT_EQ(0, want(PC_GATE_RAW, -1, "unprivileged", K510));
	EXPECT_EQ(EPERM, want(PC_GATE_RAW, 0, "unprivileged", K510));
	EXPECT_EQ(0, want(PC_GATE_RAW, 2, "bpf_perfmon", K510));
}

TEST(another_users_task_needs_ptrace_or_perfmon)
{
	EXPECT_EQ(EACCES, want(PC_GATE_PTRACE, -1, "unprivileged", K510));
	EXPECT_EQ(0, want(PC_GATE_PTRACE, 2, "sys_ptrace", K54));
	EXPECT_EQ(0, want(PC_GATE_PTRACE, 2, "perfmon", K510));
	EXPECT_EQ(EACCES, want(PC_GATE_PTRACE, 2, "sys_admin", K54));
}

TEST(the_limits_hold_for_everyone)
{
	EXPECT_EQ(EINVAL, want(PC_GATE_SAMPLE_RATE, -1, "root", K510));
	EXPECT_EQ(EOVERFLOW, want(PC_GATE_MAX_STACK, -1, "root", K510));
	EXPECT_EQ(0, want(PC_GATE_MLOCK, -1, "unprivileged", K510));
	EXPECT_EQ(EPERM, want(PC_GATE_MLOCK, 0, "perfmon", K510));
	EXPECT_EQ(0, want(PC_GATE_MLOCK, 2, "ipc_lock", K510));
}

TEST(bpf_programs_need_bpf_and_perfmon)
{
	EXPECT_EQ(EPERM, want(PC_GATE_BPF, -1, "bpf", K510));
	EXPECT_EQ(EPERM, want(PC_GATE_BPF, -1, "perfmon", K510));
	EXPECT_EQ(0, want(PC_GATE_BPF, 2, "bpf_perfmon", K510));
	EXPECT_EQ(0, want(PC_GATE_BPF, 2, "sys_admin", K54));
}

TEST(the_first_refusing_check_decides)
{
	enum pc_gate bp[] = { PC_GATE_KERNEL, PC_GATE_KERNEL_BP };
	const struct pc_identity *perfmon = pc_identity("perfmon");

	EXPECT_EQ(EACCES, pc_paranoid_errno(bp, 2, 2, pc_identity("unprivileged"), K510));
	EXPECT_EQ(EPERM, pc_paranoid_errno(bp, 2, 2, perfmon, K510));
	EXPECT_EQ(0, pc_paranoid_errno(bp, 2, 2, pc_identity("root"), K510));
}

TEST(debian_level_3_and_the_old_uprobe_rule_are_accepted)
{
	enum pc_gate user = PC_GATE_USER, uprobe = PC_GATE_UPROBE;
	const struct pc_identity *perfmon = pc_identity("perfmon");

	EXPECT_TRUE(pc_paranoid_errno_ok(&user, 1, 3, perfmon, K510, 0));
	EXPECT_TRUE(pc_paranoid_errno_ok(&user, 1, 3, perfmon, K510, EACCES));
	EXPECT_FALSE(pc_paranoid_errno_ok(&user, 1, 2, perfmon, K510, EACCES));
	EXPECT_FALSE(pc_paranoid_errno_ok(&user, 1, 3, pc_identity("sys_admin"), K510, EACCES));
	EXPECT_TRUE(pc_paranoid_errno_ok(&uprobe, 1, 2, perfmon, K510, 0));
	EXPECT_TRUE(pc_paranoid_errno_ok(&uprobe, 1, 2, perfmon, K510, EACCES));
	EXPECT_FALSE(pc_paranoid_errno_ok(&uprobe, 1, 2, pc_identity("unprivileged"), K510, 0));
}

TEST_HARNESS_MAIN
