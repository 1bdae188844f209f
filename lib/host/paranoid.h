/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules of perf_event_paranoid and of the capabilities perf asks for
 * (perf_event_open(2), "perf_event related configuration files";
 * Documentation/admin-guide/perf-security.rst), as kernel/events/core.c
 * and the code it calls apply them: which identity may do what at which
 * level, and the errno otherwise.
 *
 * A request passes one or more checks (gates) in the kernel's order; the
 * first that refuses gives the errno:
 *
 *	enum pc_gate g[] = { PC_GATE_KERNEL, PC_GATE_RAW };
 *	int want = pc_paranoid_errno(g, 2, level, id, kver);
 *
 * perfmon_capable() is CAP_PERFMON or CAP_SYS_ADMIN from 5.8, CAP_SYS_ADMIN
 * before; bpf_capable() likewise with CAP_BPF. Level 3 is Debian's (and
 * Android's) addition: those kernels refuse every perf_event_open() of a
 * process without CAP_SYS_ADMIN there (EACCES, CAP_PERFMON included);
 * upstream accepts the value and treats it as 2. Which one a kernel is
 * shows in the errno a case observes, pinned by its baseline.
 *
 * The uprobe PMU asked perfmon_capable() from 5.8 until a 2025 fix ("perf:
 * Revert to requiring CAP_SYS_ADMIN for uprobes", backported to the stable
 * lines) made it CAP_SYS_ADMIN again: a CAP_PERFMON process could place
 * uprobes in any file it can read. Both answers are accepted for an
 * identity with CAP_PERFMON but not CAP_SYS_ADMIN, and pinned per kernel.
 *
 * No check in kernel/events ties kernel addresses in records to
 * CAP_SYSLOG or kptr_restrict (6.12): the syslog identity is unprivileged
 * to perf, and its cells show it.
 */
#ifndef PERFCONF_PARANOID_H
#define PERFCONF_PARANOID_H

#include <stddef.h>

#include "host/privilege.h"

#define PC_PARANOID_SYSCTL "kernel/perf_event_paranoid"

/* The level now; INT_MIN if unreadable. */
int pc_paranoid(void);

enum pc_gate {
	PC_GATE_USER,		/* user-space events of one's own task */
	PC_GATE_KERNEL,		/* the kernel's part: exclude_kernel = 0, a kernel callchain, PHYS_ADDR,
				   branch_sample_type KERNEL or HV (perf_allow_kernel) */
	PC_GATE_CPU,		/* every task on a CPU, or a cgroup's: pid -1, cpu >= 0 (perf_allow_cpu) */
	PC_GATE_RAW,		/* raw data of a tracepoint not marked for any user (perf_allow_tracepoint) */
	PC_GATE_KPROBE,		/* the kprobe PMU: perfmon_capable() at any level */
	PC_GATE_UPROBE,		/* the uprobe PMU: CAP_SYS_ADMIN at any level (see above) */
	PC_GATE_PTRACE,		/* another uid's task, or an undumpable one: ptrace rules or perfmon_capable() */
	PC_GATE_KERNEL_BP,	/* a breakpoint on a kernel address: CAP_SYS_ADMIN at any level */
	PC_GATE_MLOCK,		/* ring pages past perf_event_mlock_kb and RLIMIT_MEMLOCK: CAP_IPC_LOCK, or -1 */
	PC_GATE_BPF,		/* loading a tracing BPF program: bpf_capable() and perfmon_capable() */
	PC_GATE_SAMPLE_RATE,	/* sample_freq above perf_event_max_sample_rate: nobody */
	PC_GATE_MAX_STACK,	/* sample_max_stack above perf_event_max_stack: nobody */
	PC_GATE_COUNT
};

struct pc_gate_rule {
	const char *name;	/* "kernel" */
	const char *check;	/* the kernel's check: "perf_allow_kernel()" */
	int open_to;		/* every identity may at paranoid <= this; INT_MIN: none at any level */
	/* who may at any level, on a kernel of release kver (PC_KVER); NULL: nobody */
	bool (*exempt)(const struct pc_identity *id, int kver);
	int err;		/* the errno otherwise */
};

extern const struct pc_gate_rule pc_gate_rules[PC_GATE_COUNT];

/* Whether the identity is perfmon_capable() on a kernel of release kver. */
bool pc_paranoid_perfmon_capable(const struct pc_identity *id, int kver);
/*
 * What the rules say for a request that passes the checks of gates[0..n)
 * in that order: 0 when the identity may, at this level, on a kernel of
 * release kver, otherwise the errno of the first gate that refuses. Level
 * 3 is answered as upstream does (as 2).
 */
int pc_paranoid_errno(const enum pc_gate *gates, size_t n, int level, const struct pc_identity *id, int kver);
/*
 * Whether err (0 or an errno) is what a kernel may answer: the rules, at
 * level 3 Debian's EACCES without CAP_SYS_ADMIN too, and the uprobe PMU's
 * answer before its fix.
 */
bool pc_paranoid_errno_ok(const enum pc_gate *gates, size_t n, int level, const struct pc_identity *id,
			  int kver, int err);

#endif
