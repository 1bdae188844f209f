// SPDX-License-Identifier: GPL-2.0
/* The rules of perf_event_paranoid (see paranoid.h). */
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>

#include "abi/abi.h"
#include "host/kernel.h"
#include "host/paranoid.h"

/* kernel/events/core.c and include/linux/perf_event.h, 5.8 and later. */
const struct pc_gate_rule pc_gate_rules[] = {
	[PC_GATE_USER] = { "user", "none below Debian's level 3", 2, EACCES },
	[PC_GATE_KERNEL] = { "kernel", "perf_allow_kernel()", 1, EACCES },
	[PC_GATE_CPU] = { "cpu", "perf_allow_cpu()", 0, EACCES },
	[PC_GATE_RAW] = { "raw", "perf_allow_tracepoint()", -1, EACCES },
	[PC_GATE_KPROBE] = { "kprobe", "perfmon_capable() in perf_kprobe_event_init()", INT_MIN, EACCES },
	[PC_GATE_UPROBE] = { "uprobe", "capable(CAP_SYS_ADMIN) in perf_uprobe_event_init()", INT_MIN, EACCES },
};

bool pc_paranoid_perfmon_capable(const struct pc_identity *id, int kver)
{
	if (pc_identity_has(id, CAP_SYS_ADMIN))
		return true;
	return kver >= PC_KVER(5, 8) && pc_identity_has(id, CAP_PERFMON);
}

int pc_paranoid_errno(enum pc_gate g, int level, const struct pc_identity *id, int kver)
{
	const struct pc_gate_rule *r = &pc_gate_rules[g];

	if (level > 2)
		level = 2;
	if (level <= r->open_to)
		return 0;
	if (g == PC_GATE_UPROBE ? pc_identity_has(id, CAP_SYS_ADMIN) : pc_paranoid_perfmon_capable(id, kver))
		return 0;
	return r->err;
}

bool pc_paranoid_errno_ok(enum pc_gate g, int level, const struct pc_identity *id, int kver, int err)
{
	if (err == pc_paranoid_errno(g, level, id, kver))
		return true;
	if (g == PC_GATE_UPROBE && err == 0 && pc_paranoid_perfmon_capable(id, kver))
		return true;	/* before the fix */
	return level >= 3 && !id->root && err == EACCES;
}

int pc_paranoid(void)
{
	long v;

	if (pc_kernel_read_long("/proc/sys/kernel/perf_event_paranoid", &v))
		return INT_MIN;
	return (int)v;
}
