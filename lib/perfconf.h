/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a perfconf test includes: the kselftest harness, the lib, and the
 * few macros that make a test read like the man page paragraph it checks.
 */
#ifndef PERFCONF_H
#define PERFCONF_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <limits.h>
#include <linux/hw_breakpoint.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "abi/abi.h"
#include "ring/capture.h"
#include "event/event.h"
#include "work/faults.h"
#include "work/instrument.h"
#include "work/sigtrap.h"
#include "host/kernel.h"
#include "host/observe.h"
#include "event/pmu.h"
#include "host/paranoid.h"
#include "host/privilege.h"
#include "ring/record.h"
#include "ring/ring.h"
#include "ring/synth.h"
#include "host/sysctl.h"
#include "abi/uapi.h"
#include "work/workload.h"

#include "kselftest_harness.h"

/*
 * Metadata the runner reads from the binary before running it, as
 * space-separated words: "writes=KEY[,KEY]" and "reads=KEY[,KEY]" (the
 * global state it changes and reads, host/sysctl.h: the runner runs beside
 * it only what does not conflict, and fails it for a state it touched
 * without declaring it), "serial=KEY" (one at a time among the binaries
 * naming KEY: "probes" for those whose cases create and destroy probe
 * events), "exclusive" (runs alone), "timeout=SECONDS", and
 * "phases=SYSCTL:VARIANT=VALUE,..." (each harness variant's cases need
 * that value: the runner may hold it for every such binary's cases of the
 * variant at once, and run them side by side; tests/privilege/cells.h).
 *	PERFCONF_META("writes=perf_event_paranoid timeout=60");
 */
#define PERFCONF_META(words) \
	__attribute__((used, section(".rodata.perfconf"))) \
	static const char perfconf_meta_[] = "perfconf-meta: " words

/*
 * Facts (the runner's runners/facts.c, `perfconf info`): what a verdict
 * depends on besides the kernel's ABI, such as the CPUs online, what
 * perf_event_paranoid 3 means, a config option, a PMU. A case declares
 * each one: its observations are then judged only against baselines
 * recorded under the same value, and where none was, the runner says "not
 * judged here: <fact> differs", never a regression. A REQUIRE_* declares
 * its fact too, so a need unmet here is never a PASS->SKIP regression.
 *	DEPENDS_ON("paranoid3");
 */
#define DEPENDS_ON(fact) pc_depends("%s", fact)

/* SKIP when fewer than n CPUs are online (fact cpus_online). */
#define REQUIRE_CPUS(n) do { \
	int c_ = pc_cpus_online(); \
	pc_depends("cpus_online"); \
	if (c_ < (n)) \
		SKIP(return, "needs %d CPUs online (fact cpus_online: %d here)", (n), c_); \
} while (0)

/* SKIP when this machine has no PMU of that name (fact pmu.<name>; never a failure). */
#define REQUIRE_PMU(name) do { \
	pc_depends("pmu.%s", name); \
	if (!pc_pmu_exists(name)) \
		SKIP(return, "no %s PMU on this machine", name); \
	if (!strcmp(name, "breakpoint")) \
		REQUIRE_BREAKPOINTS(HW_BREAKPOINT_W); \
} while (0)

/*
 * SKIP where the breakpoint PMU is there but makes no breakpoint of
 * bp_type at all (pc_breakpoint_refused(): ENODEV, EOPNOTSUPP), depending
 * on the fact instrument.breakpoints. REQUIRE_PMU("breakpoint") checks
 * data breakpoints (HW_BREAKPOINT_W) so.
 */
#define REQUIRE_BREAKPOINTS(bp_type) do { \
	const char *r_ = pc_breakpoint_refused(bp_type); \
	if (r_) { \
		pc_depends("instrument.breakpoints"); \
		SKIP(return, "%s", r_); \
	} \
} while (0)

/* SKIP when a kernel config option is known to be off (fact config.<option>). */
#define REQUIRE_CONFIG(option) do { \
	const char *o_ = (option); \
	char v_ = pc_kernel_config(o_); \
	pc_depends("config.%s", strncmp(o_, "CONFIG_", 7) ? o_ : o_ + 7); \
	if (v_ == 'n' || (v_ == 0 && pc_kernel_config_available())) \
		SKIP(return, "%s is not set in this kernel", o_); \
} while (0)

/*
 * This machine cannot test the case: the environment refuses what it needs
 * (a permission, a file the kernel build did not ship). The runner reads
 * the reason's "blocked" as the status BLOCKED: a warning, never the
 * kernel's regression. Not for a feature the kernel lacks (that is a SKIP).
 */
#define BLOCKED(fmt, ...) SKIP(return, "blocked: " fmt, ##__VA_ARGS__)

/*
 * BLOCKED unless this process may hold n file descriptors (the soft
 * RLIMIT_NOFILE raised to the hard one: pc_nofile_raise()).
 */
#define REQUIRE_NOFILE(n) do { \
	unsigned long n_ = (n); \
	int e_ = pc_nofile_raise(n_); \
	if (e_) \
		BLOCKED("needs %lu file descriptors; RLIMIT_NOFILE's hard limit is %lu (%s)", n_, \
			pc_nofile_hard(), pc_errno_name(-e_)); \
} while (0)

/*
 * BLOCKED where an overflow's deferred work (irq_work: its O_ASYNC
 * signal, a refresh's disable) comes late on this machine
 * (pc_irq_work_late()): for a case that needs it done before the task
 * runs on.
 */
#define REQUIRE_IRQ_WORK_PROMPT() do { \
	const char *late_ = pc_irq_work_late(); \
	if (late_) \
		BLOCKED("%s", late_); \
} while (0)

/*
 * The case cannot give a verdict because the suite itself went wrong (an
 * identity that is not the one it claims): "# ERROR <why>" and a failure,
 * which the runner reports as ERROR, a fault of the suite, never a pass
 * or the kernel's failure.
 */
#define CASE_ERROR(fmt, ...) do { \
	ksft_print_msg("ERROR " fmt "\n", ##__VA_ARGS__); \
	fflush(stdout); \
	_metadata->exit_code = KSFT_FAIL; \
	return; \
} while (0)

/*
 * Become the identity (host/privilege.h) and check that this process is
 * it before the case asserts anything: SKIP on a kernel older than its
 * capabilities, BLOCKED where the environment refuses it, ERROR when the
 * process is not what the identity claims.
 */
#define BECOME_IDENTITY(id) do { \
	const struct pc_identity *id_ = (id); \
	char why_[256]; \
	if (id_->since && pc_kernel()->kver < id_->since) \
		SKIP(return, "%s: this kernel (%s) predates its capabilities (%d.%d)", id_->name, \
		     pc_kernel()->release, id_->since / 1000, id_->since % 1000); \
	int e_ = pc_identity_become(id_); \
	if (e_) \
		BLOCKED("cannot become %s (%s)", id_->name, pc_errno_name(-e_)); \
	if (pc_identity_verify(id_, why_, sizeof(why_))) \
		CASE_ERROR("identity %s", why_); \
} while (0)

/* Become uid 65534 with no capabilities, verified. */
#define BECOME_NOBODY() BECOME_IDENTITY(pc_identity("unprivileged"))

/*
 * Set perf_event_paranoid to level with pc_sysctl_set() (a binary that
 * declares writes=perf_event_paranoid; its parent restores it), and check
 * that it took: SKIP where this kernel refuses the level, BLOCKED where it
 * cannot be written.
 */
#define SET_PARANOID(level) do { \
	long now_ = LONG_MIN; \
	if ((level) >= 3) \
		DEPENDS_ON("paranoid3"); \
	int e_ = pc_sysctl_set(PC_PARANOID_SYSCTL, (level)); \
	if (e_ == -EBUSY || e_ == -ESTALE) \
		CASE_ERROR("the runner holds perf_event_paranoid at another level (%s)", pc_errno_name(-e_)); \
	if (e_ == -EINVAL) \
		SKIP(return, "this kernel refuses perf_event_paranoid %d", (level)); \
	if (e_) \
		BLOCKED("cannot set perf_event_paranoid to %d (%s)", (level), pc_errno_name(-e_)); \
	ASSERT_EQ(0, pc_sysctl_get(PC_PARANOID_SYSCTL, &now_)); \
	ASSERT_EQ((level), now_); \
} while (0)

/*
 * A case that measures with an instrument (instrument.h) whose own subject
 * is something else: blocked when the instrument's probe found it broken
 * on this machine; the reason names what failed and where the root cause
 * shows.
 */
#define REQUIRE_INSTRUMENT(i) do { \
	const struct pc_instrument_probe *p_ = pc_instrument(i); \
	pc_depends("instrument.%s", pc_instrument_name(i)); \
	if (p_->state == PC_INSTR_BROKEN) \
		SKIP(return, "blocked by %s: %s", pc_instrument_name(i), p_->why); \
} while (0)

/* SKIP when an open failed because the feature or hardware is not here. */
#define SKIP_IF_UNSUPPORTED(err, what) do { \
	int e_ = (err); \
	if (pc_errno_is_unsupported(e_)) \
		SKIP(return, "%s not supported here (%s)", what, pc_errno_name(e_)); \
} while (0)

/*
 * The syscalls:<name> tracepoint into *attr, to count this task's calls:
 * SKIP where it is not here (no tracefs, or no FTRACE_SYSCALLS), blocked
 * where syscall tracepoints do not count this task (a 32-bit build on a
 * 64-bit kernel: PC_INSTR_SYSCALL_TRACEPOINTS).
 */
#define SYSCALL_TRACEPOINT(attr, name) do { \
	SYSCALL_TRACEPOINT_ATTR_(attr, name); \
	REQUIRE_INSTRUMENT(PC_INSTR_SYSCALL_TRACEPOINTS); \
} while (0)
/* syscalls:sys_enter_getppid, which pc_work_getppid_calls fires. */
#define GETPPID_TRACEPOINT(attr) SYSCALL_TRACEPOINT(attr, "sys_enter_getppid")
/*
 * The same for a case whose subject is the syscall tracepoint itself: it
 * runs, and fails, where the instrument is broken (the cause noted once),
 * except for a compat task, whose syscalls the kernel does not trace by
 * design (ARCH_TRACE_IGNORE_COMPAT_SYSCALLS): SKIP.
 */
#define GETPPID_TRACEPOINT_SUBJECT(attr) do { \
	SYSCALL_TRACEPOINT_ATTR_(attr, "sys_enter_getppid"); \
	if (pc_kernel_compat()) \
		SKIP(return, "a 32-bit task on a 64-bit kernel: its syscalls are not traced"); \
	pc_instrument_note(PC_INSTR_SYSCALL_TRACEPOINTS); \
} while (0)
#define SYSCALL_TRACEPOINT_ATTR_(attr, name) do { \
	int e_ = pc_attr_tracepoint(attr, "syscalls", name); \
	if (e_ == -ENOENT) \
		SKIP(return, "no syscalls:%s tracepoint (tracefs or FTRACE_SYSCALLS missing)", name); \
	ASSERT_EQ(0, e_); \
} while (0)

/*
 * For a case whose subject is a uprobe on this task's code: SKIP where the
 * kernel cannot probe it by design (pc_kernel_uprobes_task); where uprobes
 * are broken here, the case runs and fails, the cause noted once.
 */
#define REQUIRE_UPROBES_ON_TASK() do { \
	if (!pc_kernel_uprobes_task()) \
		SKIP(return, "an AArch32 task on arm64: the kernel does not uprobe AArch32 code " \
		     "(arch_uprobe_analyze_insn: EOPNOTSUPP)"); \
	pc_instrument_note(PC_INSTR_UPROBES); \
} while (0)

/*
 * A uprobe counter on func, a noinline function of this test, into *attr
 * (pc_attr_uprobe_on), for a case whose subject is the uprobe; SKIP where
 * there is no uprobe PMU, or none for this task (REQUIRE_UPROBES_ON_TASK).
 */
#define UPROBE_ATTR(attr, func) do { \
	REQUIRE_UPROBES_ON_TASK(); \
	UPROBE_ATTR_WITH_(pc_attr_uprobe_on, attr, func); \
} while (0)
#define UPROBE_ATTR_WITH_(builder, attr, func) do { \
	int e_ = builder(attr, (const void *)(func)); \
	if (e_ == -ENOENT) \
		SKIP(return, "no uprobe PMU on this kernel"); \
	ASSERT_EQ(0, e_) TH_LOG("a uprobe on %s: %s", #func, pc_errno_name(-e_)); \
} while (0)
/*
 * pc_attr_calls counts with a uprobe, or a breakpoint where uprobes cannot
 * probe this task: that instrument must work. Asked before the case makes
 * its own event, so that the probe runs in a task that has none.
 */
#define CALLS_INSTRUMENT_() \
	REQUIRE_INSTRUMENT(pc_kernel_uprobes_task() ? PC_INSTR_UPROBES : PC_INSTR_BREAKPOINTS)

/*
 * At file scope, once per tracepoint a binary's cases open: the harness's
 * process keeps it registered with perf for the binary's life
 * (pc_tracepoint_keep), so that closing a case's last event on it does not
 * wait for an RCU grace period. Not in images exec'd as a workload, nor
 * without root.
 *	PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)
 */
#define PERFCONF_KEEP_TRACEPOINT(sys, name) \
	__attribute__((constructor)) static void perfconf_keep_##sys##_##name(void) \
	{ \
		if (geteuid() == 0 && !getenv(PC_EXEC_WORK_ENV)) \
			pc_tracepoint_keep(pc_tracepoint_id(#sys, #name)); \
	}

/*
 * A counter of every call of func, a noinline function of this test, into
 * *attr (pc_attr_calls): for a case whose subject is something else, the
 * uprobe this binary keeps (PERFCONF_KEEP_CALLS), else a uprobe PMU event;
 * SKIP where there is neither; blocked where uprobes do not work here.
 * Where uprobes cannot probe this task, an execute breakpoint: blocked
 * where breakpoints do not count.
 */
#define CALLS_ATTR(attr, func) do { \
	CALLS_INSTRUMENT_(); \
	UPROBE_ATTR_WITH_(pc_attr_calls, attr, func); \
} while (0)

/*
 * At file scope, once per function a binary's cases count with CALLS_ATTR
 * or sample with FUNCTION_SAMPLING: the harness's process keeps one uprobe
 * on func for the binary's life (pc_calls_keep), so that no case pays for
 * creating and destroying one. Not in images exec'd as a workload, nor
 * without root (the cases then use the uprobe PMU). Not for a binary that
 * re-executes itself (PERFCONF_REACHABLE_BY_EVERY_IDENTITY).
 */
#define PERFCONF_KEEP_CALLS(func) \
	__attribute__((constructor)) static void perfconf_keep_calls_##func(void) \
	{ \
		if (geteuid() == 0 && !getenv(PC_EXEC_WORK_ENV)) \
			pc_calls_keep((const void *)(func)); \
	}

/*
 * For a binary whose cases have another identity probe its own code (a
 * uprobe's path is looked up as the caller): where the tree is one only
 * root can reach, it runs from a copy every identity reaches, before the
 * harness starts (host/privilege.h, pc_exe_reachable). Case ids and
 * assertions stay what they are.
 */
#define PERFCONF_REACHABLE_BY_EVERY_IDENTITY() \
	__attribute__((constructor)) static void perfconf_reachable_(void) \
	{ \
		pc_exe_reachable(); \
	}

/*
 * After giving up root: BLOCKED when this identity cannot reach the file a
 * uprobe attr names (the suite installed where uid 65534 cannot search),
 * since the kernel's path lookup would refuse what the case asserts about.
 */
#define REQUIRE_UPROBE_PATH_VISIBLE(attr) do { \
	const char *p_ = (const char *)(uintptr_t)(attr)->uprobe_path; \
	if (access(p_, F_OK)) \
		BLOCKED("uid %u cannot reach %s, the file to probe (%s)", (unsigned int)geteuid(), p_, \
			pc_errno_name(errno)); \
} while (0)

/* Read every record of a capture, or fail the case with the reader's message. */
#define ASSERT_CAPTURE_READ(cap) \
	ASSERT_LE(0, pc_capture_read(cap)) TH_LOG("%s", (cap)->error)

/*
 * n getppid() calls of this task with the capture's event (on
 * syscalls:sys_enter_getppid) enabled, read: exactly n samples.
 */
#define CAPTURE_GETPPID_SAMPLES(cap, n) do { \
	ASSERT_EQ(0, pc_enable((cap)->fd)); \
	pc_work_getppid_calls(n); \
	ASSERT_EQ(0, pc_disable((cap)->fd)); \
	ASSERT_CAPTURE_READ(cap); \
	ASSERT_EQ(n, pc_capture_count(cap, PERF_RECORD_SAMPLE)); \
} while (0)

/*
 * n faults of this task on fresh pages of *f (mapped here, n + 1 with the
 * warm-up) with the capture's event enabled, read: exactly n samples.
 */
#define CAPTURE_FAULT_SAMPLES(cap, f, n) do { \
	ASSERT_EQ(0, pc_faults_map(f, (n) + 1)); \
	ASSERT_EQ(0, pc_faults_enabled(f, (cap)->fd, n)); \
	ASSERT_CAPTURE_READ(cap); \
	ASSERT_EQ(n, pc_capture_count(cap, PERF_RECORD_SAMPLE)); \
} while (0)

/*
 * errno comparisons by name, so a failure reads "Expected 'EINVAL' == 'OK'".
 * Like the harness's own, they take a trailing TH_LOG(...).
 */
#define EXPECT_ERRNO(expected, observed) \
	EXPECT_STREQ(pc_errno_name(expected), pc_errno_name(observed))
#define ASSERT_ERRNO(expected, observed) \
	ASSERT_STREQ(pc_errno_name(expected), pc_errno_name(observed))

/* An open that must succeed; on failure the test fails with the errno's name. */
#define ASSERT_OPEN(fd) \
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open failed: %s", \
				pc_errno_name(pc_last_open_errno()))

#endif
