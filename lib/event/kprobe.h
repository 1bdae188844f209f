/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kprobe PMU (since 4.17, with CONFIG_KPROBE_EVENTS): attrs that probe
 * a kernel function by name (kprobe_func + probe_offset) or by address
 * (kprobe_addr, kprobe_func NULL), and kernel symbol addresses from
 * /proc/kallsyms for the latter.
 *
 * Its REQUIRE_ macros end a case (SKIP): they expand in a test, where
 * perfconf.h brings the harness.
 */
#ifndef PERFCONF_KPROBE_H
#define PERFCONF_KPROBE_H

#include <stdint.h>

#include "abi/uapi.h"
#include "event/event.h"
#include "host/observe.h"
#include "event/pmu.h"

/* "set", "not set" or "unknown": CONFIG_KPROBE_EVENTS, for skip reasons. */
const char *pc_kprobe_events_config(void);

/*
 * The address of a global kernel text symbol in /proc/kallsyms. 0, -ENOENT
 * when it is not there, or -EPERM when kallsyms shows zero addresses
 * (kptr_restrict, no CAP_SYSLOG). What root found is kept for the binary's
 * life, its forks included, and answers root (uid 0 with CAP_SYSLOG) again.
 */
int pc_kallsyms_lookup(const char *name, uint64_t *addr);

/*
 * The kernel function each getppid() (pc_work_getppid_calls) enters, named by
 * the syscall wrapper convention of this arch (since 4.17 on x86_64, 4.19
 * on arm64): "__x64_sys_getppid", "__arm64_sys_getppid", "__ia32_sys_getppid"
 * (an i386 build: an x86_64 kernel's compat entry; an armhf build on an
 * arm64 kernel enters __arm64_sys_getppid); NULL for others.
 */
const char *pc_kprobe_getppid_symbol(void);
/* SKIP when this arch has no such symbol. */
#define REQUIRE_GETPPID_SYMBOL() do { \
	if (!pc_kprobe_getppid_symbol()) \
		SKIP(return, "no getppid syscall symbol known for this arch"); \
} while (0)
/*
 * Why this kernel refuses a kprobe on a function's first instruction, or
 * NULL. riscv64 puts a function's ftrace call site at its entry
 * (-fpatchable-function-entry, DYNAMIC_FTRACE), and a kprobe on an ftrace
 * site needs CONFIG_KPROBES_ON_FTRACE, without which
 * check_ftrace_location() (kernel/kprobes.c) refuses it: EINVAL. Debian's
 * riscv64 6.12 has no HAVE_KPROBES_ON_FTRACE. Declares
 * config.FUNCTION_TRACER where it decides.
 */
const char *pc_kprobe_entry_refused(void);
/*
 * Where a kprobe "at the entry" of such a function goes: 0, or where the
 * entry is refused, the first instruction past the ftrace call site (8
 * bytes on riscv64: MCOUNT_INSN_SIZE), which each call runs once too.
 */
uint64_t pc_kprobe_entry_offset(void);
/* SKIP a probe that must be at the entry itself (a kretprobe) where it cannot be. */
#define REQUIRE_KPROBE_AT_ENTRY() do { \
	const char *w_ = pc_kprobe_entry_refused(); \
	if (w_) \
		SKIP(return, "%s", w_); \
} while (0)
/* Its address in /proc/kallsyms into *addr, or SKIP with the reason. */
#define GETPPID_ADDRESS(addr) do { \
	REQUIRE_GETPPID_SYMBOL(); \
	int e_ = pc_kallsyms_lookup(pc_kprobe_getppid_symbol(), addr); \
	if (e_) \
		SKIP(return, "no address for %s in /proc/kallsyms (%s)", pc_kprobe_getppid_symbol(), \
		     pc_errno_name(-e_)); \
} while (0)

/* SKIP when there is no kprobe PMU, with the config as the reason. */
#define REQUIRE_KPROBE_PMU() do { \
	pc_depends("pmu.kprobe"); \
	if (!pc_pmu_exists("kprobe")) \
		SKIP(return, "no kprobe PMU on this kernel (CONFIG_KPROBE_EVENTS %s)", \
		     pc_kprobe_events_config()); \
} while (0)

#endif
