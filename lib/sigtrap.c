// SPDX-License-Identifier: GPL-2.0
/* A SIGTRAP catcher that keeps the perf fields of each siginfo. */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sigtrap.h"

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

static void on_sigtrap(int sig, siginfo_t *si, void *uc)
{
	unsigned int n = ncaught;

	(void)sig;
	(void)uc;
	if (n < PC_SIGTRAP_LOG) {
		pc_siginfo_perf(si, &caught[n]);
		caught[n].tid = (pid_t)syscall(SYS_gettid);
	}
	__atomic_store_n(&ncaught, n + 1, __ATOMIC_RELEASE);
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
	/*
	 * Run the handler once now: the page faults of its first run (code,
	 * stack) must not land in a test that samples page faults.
	 */
	raise(SIGTRAP);
	ncaught = 0;
	memset(caught, 0, sizeof(caught));
	return 0;
}

unsigned int pc_sigtrap_count(void)
{
	return __atomic_load_n(&ncaught, __ATOMIC_ACQUIRE);
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
}
