// SPDX-License-Identifier: GPL-2.0
/* The rules of perf_event_paranoid and perf's capabilities (see paranoid.h). */
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>

#include "abi/abi.h"
#include "host/kernel.h"
#include "host/observe.h"
#include "host/paranoid.h"
#include "host/sysctl.h"

bool pc_paranoid_perfmon_capable(const struct pc_identity *id, int kver)
{
	if (pc_identity_has(id, CAP_SYS_ADMIN))
		return true;
	return kver >= PC_KVER(5, 8) && pc_identity_has(id, CAP_PERFMON);
}

static bool sys_admin(const struct pc_identity *id, int kver)
{
	(void)kver;
	return pc_identity_has(id, CAP_SYS_ADMIN);
}

/*
 * perf_check_permission() (5.13; open-coded from 5.8): perfmon_capable() or
 * ptrace_may_access(PTRACE_MODE_READ_REALCREDS), whose answer for another
 * uid or an undumpable task is CAP_SYS_PTRACE. Before 5.8 the ptrace rule
 * alone.
 */
static bool ptrace_or_perfmon(const struct pc_identity *id, int kver)
{
	return pc_identity_has(id, CAP_SYS_PTRACE) ||
	       (kver >= PC_KVER(5, 8) && pc_paranoid_perfmon_capable(id, kver));
}

static bool ipc_lock(const struct pc_identity *id, int kver)
{
	(void)kver;
	return pc_identity_has(id, CAP_IPC_LOCK);
}

/* bpf_prog_load(): bpf_capable() for any type but socket filters, perfmon_capable() for tracing ones. */
static bool bpf_and_perfmon(const struct pc_identity *id, int kver)
{
	bool bpf_capable = pc_identity_has(id, CAP_SYS_ADMIN) ||
			   (kver >= PC_KVER(5, 8) && pc_identity_has(id, CAP_BPF));

	return bpf_capable && pc_paranoid_perfmon_capable(id, kver);
}

/* kernel/events/core.c, kernel/trace/trace_event_perf.c, kernel/events/hw_breakpoint.c, kernel/bpf/syscall.c. */
const struct pc_gate_rule pc_gate_rules[PC_GATE_COUNT] = {
	[PC_GATE_USER] = { "user", "none below Debian's level 3", 2, NULL, EACCES },
	[PC_GATE_KERNEL] = { "kernel", "perf_allow_kernel()", 1, pc_paranoid_perfmon_capable, EACCES },
	[PC_GATE_CPU] = { "cpu", "perf_allow_cpu()", 0, pc_paranoid_perfmon_capable, EACCES },
	[PC_GATE_RAW] = { "raw", "perf_allow_tracepoint() in perf_trace_event_perm()", -1,
			  pc_paranoid_perfmon_capable, EPERM },
	[PC_GATE_KPROBE] = { "kprobe", "perfmon_capable() in perf_kprobe_event_init()", INT_MIN,
			     pc_paranoid_perfmon_capable, EACCES },
	[PC_GATE_UPROBE] = { "uprobe", "capable(CAP_SYS_ADMIN) in perf_uprobe_event_init()", INT_MIN,
			     sys_admin, EACCES },
	[PC_GATE_PTRACE] = { "ptrace", "perf_check_permission()", INT_MIN, ptrace_or_perfmon, EACCES },
	[PC_GATE_KERNEL_BP] = { "kernel_bp", "capable(CAP_SYS_ADMIN) in hw_breakpoint_parse()", INT_MIN,
				sys_admin, EPERM },
	[PC_GATE_MLOCK] = { "mlock", "perf_is_paranoid() && !capable(CAP_IPC_LOCK) in perf_mmap()", -1,
			    ipc_lock, EPERM },
	[PC_GATE_BPF] = { "bpf", "bpf_capable() and perfmon_capable() in bpf_prog_load()", INT_MIN,
			  bpf_and_perfmon, EPERM },
	[PC_GATE_SAMPLE_RATE] = { "sample_rate", "sample_freq > perf_event_max_sample_rate", INT_MIN, NULL,
				  EINVAL },
	[PC_GATE_MAX_STACK] = { "max_stack", "sample_max_stack > perf_event_max_stack in get_callchain_buffers()",
				INT_MIN, NULL, EOVERFLOW },
};

/* The first refusal; uprobe_perfmon: the uprobe PMU as it was before its 2025 fix. */
static int first_refusal(const enum pc_gate *gates, size_t n, int level, const struct pc_identity *id,
			 int kver, bool uprobe_perfmon)
{
	if (level > 2)
		level = 2;
	for (size_t i = 0; i < n; i++) {
		const struct pc_gate_rule *r = &pc_gate_rules[gates[i]];
		bool (*exempt)(const struct pc_identity *, int) = r->exempt;

		if (gates[i] == PC_GATE_UPROBE && uprobe_perfmon)
			exempt = pc_paranoid_perfmon_capable;
		if (level <= r->open_to || (exempt && exempt(id, kver)))
			continue;
		return r->err;
	}
	return 0;
}

int pc_paranoid_errno(const enum pc_gate *gates, size_t n, int level, const struct pc_identity *id, int kver)
{
	return first_refusal(gates, n, level, id, kver, false);
}

bool pc_paranoid_errno_ok(const enum pc_gate *gates, size_t n, int level, const struct pc_identity *id,
			  int kver, int err)
{
	if (err == first_refusal(gates, n, level, id, kver, false) ||
	    err == first_refusal(gates, n, level, id, kver, true))
		return true;
	return level >= 3 && !pc_identity_has(id, CAP_SYS_ADMIN) && err == EACCES;	/* Debian */
}

int pc_paranoid(void)
{
	long v;

	/* A case that reads the machine's own level depends on it (and on what 3 means). */
	pc_depends("paranoid");
	if (pc_sysctl_get(PC_PARANOID_SYSCTL, &v))
		return INT_MIN;
	if (v >= 3)
		pc_depends("paranoid3");
	return (int)v;
}
