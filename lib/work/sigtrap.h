/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Catching the synchronous SIGTRAP of a sigtrap=1 event, with the perf
 * fields of its siginfo.
 *
 *	ASSERT_EQ(0, pc_sigtrap_catch());
 *	... the event overflows ...
 *	ASSERT_EQ(1, pc_sigtrap_count());
 *	const struct pc_sigtrap *t = pc_sigtrap_get(0);
 *	EXPECT_EQ(PC_TRAP_PERF, t->code);
 *
 * The kernel (5.13+) sends SIGTRAP with si_code TRAP_PERF, si_addr, and in
 * the _sigfault member after si_addr: { unsigned long data; u32 type;
 * u32 flags; } = si_perf_data (attr.sig_data), si_perf_type (attr.type),
 * si_perf_flags (5.18+: TRAP_PERF_FLAG_ASYNC when SIGTRAP was blocked).
 * glibc's siginfo_t has no names for them, so they are read at the
 * kernel's offsets (pc_siginfo_perf).
 *
 * The source of the signals, where the case's subject is not the event
 * kind: a uprobe on a noinline function (pc_sigtrap_uprobe). It hits on
 * every call, in whichever thread calls it, on every machine and kernel
 * that has sigtrap; its si_perf_type is the uprobe PMU's type and its
 * si_addr 0 (a uprobe sample has no data address). The signal is sent
 * once the probed instruction was stepped (out of line) or emulated: the
 * handler returns past it, on arm64 as on x86.
 */
#ifndef PERFCONF_SIGTRAP_H
#define PERFCONF_SIGTRAP_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "abi/uapi.h"
#include "host/observe.h"
#include "host/kernel.h"
#include "event/event.h"

#define PC_TRAP_PERF		6	/* si_code of a perf SIGTRAP */
#define PC_TRAP_PERF_FLAG_ASYNC	1u	/* si_perf_flags: sent while SIGTRAP was blocked */

/* One caught SIGTRAP. */
struct pc_sigtrap {
	int signo, code, err;		/* si_signo, si_code, si_errno */
	uint64_t addr;			/* si_addr */
	uint64_t perf_data;		/* si_perf_data: the event's sig_data */
	uint32_t perf_type;		/* si_perf_type: the event's attr.type */
	uint32_t perf_flags;		/* si_perf_flags */
	pid_t tid;			/* the thread that ran the handler */
};

/* The perf fields of a siginfo, read at the kernel's offsets. */
void pc_siginfo_perf(const siginfo_t *si, struct pc_sigtrap *out);

/*
 * Install a SA_SIGINFO handler for SIGTRAP that logs every signal (the
 * first PC_SIGTRAP_LOG in full), run it once (so that its first run's page
 * faults happen now), and clear the log. 0 or -errno.
 */
#define PC_SIGTRAP_LOG 64
int pc_sigtrap_catch(void);
/* SIGTRAPs caught since pc_sigtrap_catch() (all of them, logged or not). */
unsigned int pc_sigtrap_count(void);
/*
 * SIGTRAPs whose handler ran in the calling thread: since the thread
 * began, or for the thread that called pc_sigtrap_catch(), since then.
 */
unsigned int pc_sigtrap_count_thread(void);
/* The nth caught SIGTRAP (from 0), or NULL if not logged. */
const struct pc_sigtrap *pc_sigtrap_get(unsigned int n);
/* Put back the disposition SIGTRAP had before pc_sigtrap_catch(). */
void pc_sigtrap_release(void);

/*
 * Every sigtrap event a test opens is registered (OPEN_SIGTRAP does it) so
 * that the handler can stop it:
 *
 * - After PC_SIGTRAP_LIMIT signals the handler disables every registered
 *   event, so an event that keeps trapping ends as a count that fails the
 *   test's assertion, never as a hang.
 * - On arm64 a breakpoint (PERF_TYPE_BREAKPOINT) SIGTRAP returns from the
 *   handler to the instruction that hit it with the breakpoint armed again:
 *   the kernel's step over it is spent entering the handler, and the same
 *   instruction traps again, forever. There the handler disables the
 *   registered events on each such signal ("disarms"), and a test calls
 *   pc_sigtrap_rearm() before the next call that is to trap. Elsewhere
 *   (x86: the resume flag steps over the instruction) the handler leaves
 *   the events alone and pc_sigtrap_rearm() does nothing. Signals of any
 *   other type (uprobes, software events) never disarm: they arrive past
 *   the instruction that caused them (a page fault is not taken again once
 *   its page is there), so a case measured with them needs no rearm.
 */
#define PC_SIGTRAP_LIMIT 1000
#define PC_SIGTRAP_FDS 4
void pc_sigtrap_watch(int fd);
/* Enable again the events the handler disarmed (not after the limit). 0 or -errno. */
int pc_sigtrap_rearm(void);
/* 1 where the handler disarms breakpoint events (an arm64 kernel, also under an armhf build), else 0. */
int pc_sigtrap_disarms(void);

/* The release that brought sigtrap, from the ABI table (lib/abi/abi.h): PC_KVER(5, 13). */
int pc_sigtrap_since(void);

/*
 * A uprobe on func (a noinline, non-clonable function of this executable,
 * like pc_work_target) that traps every `period` hits: sample_period,
 * sigtrap and remove_on_exec set, sig_data 0, disabled. 0, or -errno
 * (-ENOENT: no uprobe PMU).
 */
int pc_sigtrap_uprobe(struct perfconf_attr *out, const void *func, uint64_t period);
/*
 * A breakpoint of bp_type on addr (len bytes; for an execute one, see
 * pc_attr_breakpoint) that traps every `period` hits, for the cases whose
 * subject is a breakpoint: sigtrap and remove_on_exec set, disabled.
 */
struct perfconf_attr pc_sigtrap_breakpoint(unsigned int bp_type, const volatile void *addr, uint64_t len,
					   uint64_t period);

/*
 * In a test (perfconf.h brings the harness): that uprobe into
 * *attr, or SKIP where there is no uprobe PMU; blocked where the kernel
 * cannot uprobe this task (pc_kernel_uprobes_task) or uprobes do not work
 * here (PC_INSTR_UPROBES).
 */
#define SIGTRAP_UPROBE(attr, func, period) do { \
	if (!pc_kernel_uprobes_task()) \
		BLOCKED("an AArch32 task on arm64: the kernel does not uprobe its code (EOPNOTSUPP), and a " \
			"breakpoint, which counts its calls instead, traps again after its SIGTRAP there"); \
	int uerr_ = pc_sigtrap_uprobe(attr, (const void *)(func), period); \
	if (uerr_) \
		SKIP_IF_UNSUPPORTED(-uerr_, "a uprobe"); \
	ASSERT_EQ(0, uerr_) TH_LOG("a uprobe on " #func ": %s", pc_errno_name(-uerr_)); \
	REQUIRE_INSTRUMENT(PC_INSTR_UPROBES); \
} while (0)

/*
 * In a test: open a sigtrap event on this task into fd, or SKIP where
 * sigtrap does not exist.
 */
#define OPEN_SIGTRAP(fd, attr) do { \
	fd = pc_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC); \
	if (fd < 0 && pc_kernel()->kver < pc_sigtrap_since()) \
		SKIP(return, "sigtrap is since Linux %d.%d (%s here)", pc_sigtrap_since() / 1000, \
		     pc_sigtrap_since() % 1000, pc_errno_name(errno)); \
	if (fd < 0) \
		SKIP_IF_UNSUPPORTED(errno, "a sigtrap event"); \
	ASSERT_OPEN(fd); \
	pc_sigtrap_watch(fd); \
} while (0)

/*
 * Take the pending signals numbered sig (blocked, queued for this thread
 * or the process) without waiting, at most max of them: how many; the last
 * one's siginfo in *last when last is not NULL.
 */
int pc_signals_take(int sig, int max, siginfo_t *last);
/*
 * The same, waiting up to PC_SIGNALS_WAIT_MS for each of the first `want`
 * (then taking what else is pending, up to max): for a signal the kernel
 * sends from irq_work, such as an overflow's SIGIO (kill_fasync()). That
 * runs on a self-IPI on x86 and arm64, before the task returns to user
 * space; powerpc raises it with the decrementer, which under qemu's TCG
 * fires some user instructions later. Returns how many were taken.
 */
#define PC_SIGNALS_WAIT_MS 2000
/*
 * Why an overflow's deferred work (irq_work: its O_ASYNC signal, the
 * disable after a refresh's last overflow) comes late on this machine, or
 * NULL. qemu's TCG pseries (pc_hw_qemu_tcg_power()): powerpc raises
 * irq_work with the decrementer, whose emulation fires after the task has
 * run on in user space, so overflows share one signal and the event
 * counts past its refresh limit. A case that needs that work done before
 * the task runs again is BLOCKED with it.
 */
const char *pc_irq_work_late(void);
int pc_signals_wait(int sig, int want, int max, siginfo_t *last);

#endif
