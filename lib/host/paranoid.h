/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules of perf_event_paranoid (perf_event_open(2), "perf_event related
 * configuration files"; Documentation/admin-guide/perf-security.rst), as
 * kernel/events/core.c applies them: which identity may do what at which
 * level, and the errno otherwise.
 *
 * perfmon_capable() is CAP_PERFMON or CAP_SYS_ADMIN from 5.8, CAP_SYS_ADMIN
 * before. Level 3 is Debian's (and Android's) addition: those kernels
 * refuse every perf_event_open() of an unprivileged user there; upstream
 * accepts the value and treats it as 2. Which one a kernel is shows in the
 * errno a case observes, pinned by its baseline.
 *
 * The uprobe PMU asked perfmon_capable() from 5.8 until a 2025 fix ("perf:
 * Revert to requiring CAP_SYS_ADMIN for uprobes", backported to the stable
 * lines) made it CAP_SYS_ADMIN again: a CAP_PERFMON process could place
 * uprobes in any file it can read. Both answers are accepted for an
 * identity with CAP_PERFMON but not CAP_SYS_ADMIN, and pinned per kernel.
 */
#ifndef PERFCONF_PARANOID_H
#define PERFCONF_PARANOID_H

#include "host/privilege.h"

#define PC_PARANOID_SYSCTL "kernel/perf_event_paranoid"

/* The level now; INT_MIN if unreadable. */
int pc_paranoid(void);

enum pc_gate {
	PC_GATE_USER,		/* user-space events of one's own task */
	PC_GATE_KERNEL,		/* kernel-space events: exclude_kernel = 0 (perf_allow_kernel) */
	PC_GATE_CPU,		/* every task on a CPU: pid -1, cpu >= 0 (perf_allow_cpu) */
	PC_GATE_RAW,		/* raw tracepoint data of other tasks (perf_allow_tracepoint) */
	PC_GATE_KPROBE,		/* the kprobe PMU: perfmon_capable() at any level */
	PC_GATE_UPROBE,		/* the uprobe PMU: CAP_SYS_ADMIN at any level (see below) */
};

struct pc_gate_rule {
	const char *name;	/* "kernel" */
	const char *check;	/* the kernel's check: "perf_allow_kernel()" */
	int open_to;		/* every user may at paranoid <= this; INT_MIN: never */
	int err;		/* the errno otherwise */
};

extern const struct pc_gate_rule pc_gate_rules[];

/* Whether the identity is perfmon_capable() on a kernel of release kver (PC_KVER). */
bool pc_paranoid_perfmon_capable(const struct pc_identity *id, int kver);
/*
 * What the rule says: 0 when the identity may, at this level, on a kernel of
 * release kver, otherwise the errno. Level 3 is answered as upstream does
 * (as 2); pc_paranoid_errno_ok() also allows Debian's refusal.
 */
int pc_paranoid_errno(enum pc_gate g, int level, const struct pc_identity *id, int kver);
/*
 * Whether err (0 or an errno) is what a kernel may answer: the rule, at
 * level 3 Debian's EACCES too, and the uprobe PMU's answer before its fix.
 */
bool pc_paranoid_errno_ok(enum pc_gate g, int level, const struct pc_identity *id, int kver, int err);

#endif
