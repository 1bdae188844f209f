// SPDX-License-Identifier: GPL-2.0
/* A SIGTRAP catcher that keeps the perf fields of each siginfo, and a uprobe that sends them. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "abi/abi.h"
#include "event/event.h"
#include "event/hw.h"
#include "host/kernel.h"
#include "work/sigtrap.h"

/*
 * The kernel's layout of the perf part of siginfo's _sigfault member (no
 * architecture perfconf runs on has __ARCH_SI_TRAPNO before it): it starts
 * at si_addr, and the union after si_addr is aligned like a long.
 */
struct sigfault_perf {
	void *addr;
	unsigned long data;
	uint32_t type;
	uint32_t flags;
};

_Static_assert(offsetof(struct sigfault_perf, data) == sizeof(void *),
	       "si_perf_data follows si_addr");

void pc_siginfo_perf(const siginfo_t *si, struct pc_sigtrap *out)
{
	struct sigfault_perf f;

	memcpy(&f, (const char *)si + offsetof(siginfo_t, si_addr), sizeof(f));
	out->signo = si->si_signo;
	out->code = si->si_code;
	out->err = si->si_errno;
	out->addr = (uint64_t)(uintptr_t)f.addr;
	out->perf_data = f.data;
	out->perf_type = f.type;
	out->perf_flags = f.flags;
}

_Static_assert(offsetof(siginfo_t, si_addr) + sizeof(struct sigfault_perf) <= sizeof(siginfo_t),
	       "the perf fields lie inside siginfo_t");

static struct pc_sigtrap caught[PC_SIGTRAP_LOG];
static volatile unsigned int ncaught;
static struct sigaction previous;
static int installed;
static int watched[PC_SIGTRAP_FDS];
static volatile unsigned int nwatched;
static volatile int disarmed, limited;
static __thread volatile unsigned int thread_caught;	/* by the thread's own handler runs */

/* Whether an arm64 kernel handles this task's breakpoints: an arm64 build, or an armhf one on its compat ABI. */
int pc_sigtrap_disarms(void)
{
#if defined(__aarch64__)
	return 1;
#elif defined(__arm__)
	return pc_kernel_compat();
#else
	return 0;
#endif
}
static volatile int disarms;	/* pc_sigtrap_disarms(), set before the handler runs */

static void disable_watched(void)
{
	for (unsigned int i = 0; i < nwatched; i++)
		ioctl(watched[i], PERF_EVENT_IOC_DISABLE, 0);
}

static void on_sigtrap(int sig, siginfo_t *si, void *uc)
{
	struct pc_sigtrap t;
	int saved = errno;
	unsigned int n;

	(void)sig;
	(void)uc;
	pc_siginfo_perf(si, &t);
	t.tid = (pid_t)syscall(SYS_gettid);
	/* threads may run it at once: each signal takes a slot of its own */
	n = __atomic_fetch_add(&ncaught, 1, __ATOMIC_ACQ_REL);
	if (n < PC_SIGTRAP_LOG)
		caught[n] = t;
	thread_caught = thread_caught + 1;
	if (n + 1 >= PC_SIGTRAP_LIMIT) {
		limited = 1;
		disable_watched();
	} else if (disarms && t.code == PC_TRAP_PERF && t.perf_type == PERF_TYPE_BREAKPOINT) {
		disarmed = 1;
		disable_watched();
	}
	errno = saved;
}

void pc_sigtrap_watch(int fd)
{
	if (fd >= 0 && nwatched < PC_SIGTRAP_FDS) {
		watched[nwatched] = fd;
		nwatched = nwatched + 1;
	}
}

int pc_sigtrap_rearm(void)
{
	int err = 0;

	if (!disarmed || limited)
		return 0;
	disarmed = 0;
	for (unsigned int i = 0; i < nwatched; i++)
		if (ioctl(watched[i], PERF_EVENT_IOC_ENABLE, 0) && !err)
			err = -errno;
	return err;
}

int pc_sigtrap_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigtrap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTRAP, &sa, installed ? NULL : &previous))
		return -errno;
	installed = 1;
	disarms = pc_sigtrap_disarms();
	/*
	 * Run the handler once now: the page faults of its first run (code,
	 * stack) must not land in a test that samples page faults.
	 */
	nwatched = 0;
	raise(SIGTRAP);
	ncaught = 0;
	thread_caught = 0;
	disarmed = limited = 0;
	memset(caught, 0, sizeof(caught));
	return 0;
}

unsigned int pc_sigtrap_count(void)
{
	return __atomic_load_n(&ncaught, __ATOMIC_ACQUIRE);
}

unsigned int pc_sigtrap_count_thread(void)
{
	return thread_caught;
}

const struct pc_sigtrap *pc_sigtrap_get(unsigned int n)
{
	return n < pc_sigtrap_count() && n < PC_SIGTRAP_LOG ? &caught[n] : NULL;
}

void pc_sigtrap_release(void)
{
	if (installed)
		sigaction(SIGTRAP, &previous, NULL);
	installed = 0;
	nwatched = 0;
	disarmed = limited = 0;
}

int pc_sigtrap_since(void)
{
	const struct pc_abi_field *f = pc_abi_find(&pc_abi_attr, "sigtrap");

	return f ? f->since : 0;	/* always there: lib/abi/abi_check.c pins the table */
}

int pc_sigtrap_uprobe(struct perfconf_attr *out, const void *func, uint64_t period)
{
	int err = pc_attr_calls(out, func);

	if (err)
		return err;
	out->sample_period = period;
	out->sigtrap = 1;
	out->remove_on_exec = 1;
	return 0;
}

struct perfconf_attr pc_sigtrap_breakpoint(unsigned int bp_type, const volatile void *addr, uint64_t len,
					   uint64_t period)
{
	struct perfconf_attr attr = pc_attr_breakpoint(bp_type, addr, len);

	attr.sample_period = period;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	return attr;
}

const char *pc_irq_work_late(void)
{
	if (pc_hw_qemu_tcg_power())
		return "qemu's TCG POWER emulates the decrementer that raises irq_work late: an overflow's "
		       "signal and a refresh's disable come after the task has run on";
	return NULL;
}

int pc_signals_wait(int sig, int want, int max, siginfo_t *last)
{
	/*
	 * A relative timeout for each signal, and no clock read: the vDSO's
	 * data page, first read, is a page fault of this task, which an
	 * event counting its faults would count.
	 */
	struct timespec wait = { PC_SIGNALS_WAIT_MS / 1000, (PC_SIGNALS_WAIT_MS % 1000) * 1000000L };
	sigset_t set;
	siginfo_t si;
	int n = 0, got;

	sigemptyset(&set);
	sigaddset(&set, sig);
	while (n < want && n < max) {
		got = sigtimedwait(&set, &si, &wait);
		if (got == sig) {
			if (last)
				*last = si;
			n++;
		} else if (!(got < 0 && errno == EINTR)) {
			break;	/* EAGAIN: none came in time */
		}
	}
	return n + pc_signals_take(sig, max - n, last);
}

int pc_signals_take(int sig, int max, siginfo_t *last)
{
	struct timespec zero = { 0 };
	sigset_t set;
	siginfo_t si;
	int n = 0;

	sigemptyset(&set);
	sigaddset(&set, sig);
	while (n < max && sigtimedwait(&set, &si, &zero) == sig) {
		if (last)
			*last = si;
		n++;
	}
	return n;
}
