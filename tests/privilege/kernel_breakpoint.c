// SPDX-License-Identifier: GPL-2.0
/*
 * A breakpoint on a kernel address, in every cell of identity x
 * perf_event_paranoid.
 *
 * A breakpoint in the kernel must not exclude it (EINVAL), so the request
 * is exclude_kernel = 0, which perf_event_open() asks perf_allow_kernel()
 * for first (EACCES at level >= 2 to users who are not perfmon_capable()).
 * Then hw_breakpoint_parse() refuses a kernel address to anyone without
 * CAP_SYS_ADMIN, at every level and whatever CAP_PERFMON says: "Don't let
 * unprivileged users set a breakpoint in the trap path to avoid trap
 * recursion attacks" (EPERM).
 *
 * arm64 refuses a per-task breakpoint on a kernel address to everyone
 * (EINVAL from hw_breakpoint_arch_parse(), before that check), so the
 * breakpoint here watches the CPU this task is pinned to (pid -1), which
 * perf_allow_cpu() is asked for last (passed by whoever has CAP_SYS_ADMIN).
 * It is an execute breakpoint (HW_BREAKPOINT_X, sizeof(long)) on the
 * function each getppid() enters, its address read from /proc/kallsyms as
 * root, with exclude_user = 1. Where allowed, it samples (sample_period 1)
 * each call: among the samples of every task on the CPU, this task's are
 * N (see expect_own_hits), each at the function's address. On a machine whose
 * breakpoints do not fire, the allowed cells are BLOCKED after the errno
 * is checked. x86 refuses every execute breakpoint in the kernel (EINVAL)
 * on a kernel without kprobes, whose blacklist decides where one may go:
 * the case SKIPs there.
 */
#include <linux/hw_breakpoint.h>

/* As root: the function's address (kallsyms hides it from the unprivileged). */
#define CELL_PREPARE(_metadata) find_function(_metadata)

#include "cells.h"
#include "event/kprobe.h"
#include "work/affinity.h"

#define N 16

static uint64_t function;

static void find_function(struct __test_metadata *_metadata)
{
	GETPPID_ADDRESS(&function);
}

/*
 * This task's samples: each at the function, N of them, or a few more: a
 * kernel breakpoint's hit may be reported again when an interrupt lands
 * before its single step (once in 45 cells, 17 for 16, on arm64 5.10
 * under qemu); a breakpoint that missed calls, or one that fired on
 * others', is what fails.
 */
static void expect_own_hits(struct __test_metadata *_metadata, const struct pc_capture *cap)
{
	size_t own = 0;

	for (size_t i = 0; i < pc_capture_count(cap, PERF_RECORD_SAMPLE); i++) {
		const struct pc_sample *s = pc_capture_sample(cap, i);

		if (s->pid != (uint32_t)getpid())
			continue;
		own++;
		EXPECT_EQ(function, s->ip) TH_LOG("sample %zu", i);
	}
	EXPECT_LE(N, own);
	EXPECT_GE(N + N / 4, own);
}

CELL_CASE(execute_kernel_function)
{
	struct perfconf_attr attr = pc_attr_breakpoint_at(HW_BREAKPOINT_X, function, 0);
	struct pc_capture cap;

	REQUIRE_PMU("breakpoint");
#if defined(__x86_64__) || defined(__i386__)
	REQUIRE_CONFIG("KPROBES");
#endif
	int cpu = pc_pin_self();
	ASSERT_LE(0, cpu) TH_LOG("pinning: %s", pc_errno_name(-cpu));
	attr.exclude_user = 1;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	int err = -pc_capture_open(&cap, &attr, -1, cpu);
	if (CELL_ALLOWS(err, PC_GATE_KERNEL, PC_GATE_KERNEL_BP, PC_GATE_CPU)) {
		REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
		ASSERT_EQ(0, pc_enable(cap.fd));
		pc_work_getppid_calls(N);
		ASSERT_EQ(0, pc_disable(cap.fd));
		ASSERT_CAPTURE_READ(&cap);
		expect_own_hits(_metadata, &cap);
	}
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
