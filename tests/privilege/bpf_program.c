// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF program on a tracepoint event, in every cell of identity x
 * perf_event_paranoid.
 *
 * perf_event_open(2): PERF_EVENT_IOC_SET_BPF "allows attaching a Berkeley
 * Packet Filter (BPF) program to an existing kprobe tracepoint event. You
 * need CAP_PERFMON (since Linux 5.8) or CAP_SYS_ADMIN privileges to use
 * this ioctl." The privilege is asked for where the program is made:
 * bpf_prog_load() refuses any type but socket filters to a user who is not
 * bpf_capable() (CAP_BPF or CAP_SYS_ADMIN), and tracing types, tracepoint
 * programs among them, to one who is not perfmon_capable() too (EPERM,
 * whatever perf_event_paranoid says). The tracepoint event is then opened
 * with exclude_kernel = 0, which perf_event_open() asks
 * perf_allow_kernel() for (EACCES at level >= 2 to users who are not
 * perfmon_capable(), passed by whoever loaded the program).
 *
 * The request is the same in every cell: load "r0 = 0; exit" as a
 * tracepoint program, open a counter of syscalls:sys_enter_sched_getscheduler
 * on this task, count N sched_getscheduler() calls (the control: N), attach
 * the program, and make N calls more. A program that returns 0 tells the
 * kernel to drop the event (perf_syscall_enter(), trace_call_bpf()), so
 * where allowed the counter stays at N, and PERF_EVENT_IOC_QUERY_BPF (since
 * 4.16) lists the program's id as the one attached to the tracepoint. Where
 * tracefs or the tracepoint is missing (FTRACE_SYSCALLS), or the kernel
 * has no tracepoint programs (BPF_EVENTS), the case SKIPs.
 *
 * A program lives on the tracepoint, not on the event: while it is
 * attached, every counter of that tracepoint machine-wide drops its hits.
 * So the tracepoint is one no other binary counts (declared as the state
 * bpf.sys_enter_sched_getscheduler, which this binary alone writes).
 */
#include <sys/ioctl.h>
#include <sys/syscall.h>

/* As root: the tracepoint's id (tracefs). */
#define CELL_PREPARE(_metadata) find_tracepoint(_metadata)

#define CELL_WRITES ",bpf.sys_enter_sched_getscheduler"
#include "cells.h"
#include "work/bpf.h"
#include "work/measure.h"

#define N 16

static struct perfconf_attr counter;

static void find_tracepoint(struct __test_metadata *_metadata)
{
	SYSCALL_TRACEPOINT(&counter, "sys_enter_sched_getscheduler");
}

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_sched_getscheduler)

/* n hits of the tracepoint: the syscall itself, never a libc cache. */
static void scheduler_queries(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_sched_getscheduler, 0);
}

/* The counter counts until the program is attached, then drops every hit. */
static void expect_dropped(struct __test_metadata *_metadata, int fd, const struct pc_bpf_prog *prog)
{
	/* struct perf_event_query_bpf with room for one id */
	struct {
		uint32_t ids_len, prog_cnt, ids[1];
	} query = { .ids_len = 1 };

	ASSERT_EQ(0, pc_enable(fd));
	scheduler_queries(N);
	EXPECT_EQ(N, pc_count_of(fd)) TH_LOG("before the program");
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog->fd)) TH_LOG("%s", pc_errno_name(errno));
	scheduler_queries(N);
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_EQ(N, pc_count_of(fd)) TH_LOG("after the program");
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, &query)) TH_LOG("%s", pc_errno_name(errno));
	ASSERT_EQ(1, query.prog_cnt);
	EXPECT_EQ(prog->id, query.ids[0]);
}

CELL_CASE(tracepoint_program)
{
	struct pc_bpf_prog prog;
	int fd = -1;

	int err = -pc_bpf_load_trivial_tracepoint(&prog, "perfconf_tp");
	if (err == ENOSYS || err == EINVAL)
		SKIP(return, "no tracepoint programs on this kernel (%s)", pc_errno_name(err));
	if (!err) {
		fd = pc_open(&counter, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		err = fd < 0 ? -fd : 0;
	}
	if (CELL_ALLOWS(err, PC_GATE_BPF, PC_GATE_KERNEL))
		expect_dropped(_metadata, fd, &prog);
	if (fd >= 0)
		close(fd);
	pc_bpf_close(&prog);
}

TEST_HARNESS_MAIN
