// SPDX-License-Identifier: GPL-2.0
/* Page faults at known addresses. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "event/event.h"
#include "host/observe.h"
#include "work/clock.h"
#include "work/faults.h"

/* One store, nothing else: the faulting instruction is a few bytes in. */
__attribute__((__noinline__, __noipa__)) void pc_fault_write(volatile unsigned char *p)
{
	*p = 1;
}

int pc_fault_ip(uint64_t ip)
{
	uint64_t start = (uint64_t)(uintptr_t)pc_fault_write;

	return ip >= start && ip < start + PC_FAULT_WRITE_MAX;
}

int pc_faults_map(struct pc_faults *f, size_t pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *p;

	f->base = NULL;
	f->pages = f->next = 0;
	if (pg <= 0 || !pages)
		return -EINVAL;
	f->page_size = (size_t)pg;
	p = mmap(NULL, pages * f->page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* One fault per page: no transparent huge page may cover several. */
	madvise(p, pages * f->page_size, MADV_NOHUGEPAGE);
	f->base = p;
	f->pages = pages;
	return 0;
}

size_t pc_faults_next(struct pc_faults *f, size_t n)
{
	size_t done = 0;

	for (; done < n && f->next < f->pages; done++, f->next++)
		pc_fault_write(f->base + f->next * f->page_size);
	return done;
}

long pc_faults_next_paced(struct pc_faults *f, size_t n, struct pc_perf_clock *clk)
{
	size_t done = 0;

	for (; done < n && f->next < f->pages; done++) {
		if (done) {
			int err = pc_perf_clock_wait(clk);

			if (err)
				return err;
		}
		pc_faults_next(f, 1);
	}
	return (long)done;
}

/* The arch reports the faulting page, not the byte (see faults.h). */
#if defined(__s390x__) || defined(__s390__)
#define FAULT_ADDR_IS_THE_PAGE 1
#else
#define FAULT_ADDR_IS_THE_PAGE 0
#endif

uint64_t pc_fault_sample_addr(const volatile void *p)
{
	uint64_t a = (uintptr_t)p;

	return FAULT_ADDR_IS_THE_PAGE ? a & ~((uint64_t)sysconf(_SC_PAGESIZE) - 1) : a;
}

void pc_fault_sample_addr_observe(void)
{
	if (FAULT_ADDR_IS_THE_PAGE)
		pc_observe("fault_addr", "page");
}

uint64_t pc_faults_addr(const struct pc_faults *f, size_t k)
{
	return (uint64_t)(uintptr_t)(f->base + k * f->page_size);
}

/*
 * pc_faults_enabled_all(); with clk, perf time moves after the enabling and
 * after the faults (timed), or between one fault and the next (paced).
 */
static int faults_enabled(struct pc_faults *f, const int *fds, int nfds, size_t n, struct pc_perf_clock *clk,
			  bool paced)
{
	int err = 0, i;

	/*
	 * Page in the code that runs while the events count (a text page first
	 * touched then is a user-mode fault they count; a forked case maps its
	 * text anew, and a page evicted from the cache is not mapped around):
	 * the fault loop, enabling (no fd: the same calls) and disabling (an
	 * event that is not enabled: nothing changes).
	 */
	pc_faults_next(f, 1);
	if (clk)
		err = pc_perf_clock_wait(clk);
	pc_enable(-1);
	for (i = 0; i < nfds; i++)
		pc_disable(fds[i]);
	for (i = 0; i < nfds && !err; i++)
		err = pc_enable(fds[i]);
	if (!err && clk && !paced)
		err = pc_perf_clock_wait(clk);
	if (!err && paced) {
		long done = pc_faults_next_paced(f, n, clk);

		err = done < 0 ? (int)done : 0;
	} else if (!err) {
		pc_faults_next(f, n);
	}
	if (!err && clk && !paced)
		err = pc_perf_clock_wait(clk);
	while (i-- > 0) {
		int e = pc_disable(fds[i]);

		err = err ?: e;
	}
	return err;
}

int pc_faults_enabled(struct pc_faults *f, int fd, size_t n)
{
	return faults_enabled(f, &fd, 1, n, NULL, false);
}

int pc_faults_enabled_all(struct pc_faults *f, const int *fds, int nfds, size_t n)
{
	return faults_enabled(f, fds, nfds, n, NULL, false);
}

static int faults_enabled_clocked(struct pc_faults *f, int fd, size_t n, bool paced)
{
	struct pc_perf_clock clk;
	int err = pc_perf_clock_open(&clk);

	if (err)
		return err;
	err = faults_enabled(f, &fd, 1, n, &clk, paced);
	pc_perf_clock_close(&clk);
	return err;
}

int pc_faults_enabled_timed(struct pc_faults *f, int fd, size_t n)
{
	return faults_enabled_clocked(f, fd, n, false);
}

int pc_faults_enabled_paced(struct pc_faults *f, int fd, size_t n)
{
	return faults_enabled_clocked(f, fd, n, true);
}

void pc_faults_unmap(struct pc_faults *f)
{
	if (f->base)
		munmap(f->base, f->pages * f->page_size);
	f->base = NULL;
	f->pages = f->next = 0;
}

static struct {
	uintptr_t base;
	size_t len, unit;
} guarded;

static void unguard_write(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;
	uintptr_t start = guarded.base + (a - guarded.base) / guarded.unit * guarded.unit;

	(void)sig;
	(void)uc;
	if (guarded.len && a >= guarded.base && a < guarded.base + guarded.len &&
	    !mprotect((void *)start, guarded.unit, PROT_READ | PROT_WRITE))
		return;
	signal(SIGSEGV, SIG_DFL);	/* a real crash: the access faults again and kills */
}

/*
 * The handler's own stack, present from the start: its signal frame on the
 * thread's stack could reach a page never touched before, a fault of its
 * own in the counted window. The frame is not always the same size: on
 * arm64 it grows once the task has used SVE (seen once in a matrix:
 * record/sample_page_size's sample of a stack page, arm64-vhe).
 */
static unsigned char handler_stack[256 * 1024] __attribute__((aligned(16)));

int pc_faults_guard(void *base, size_t len, size_t unit)
{
	struct sigaction sa = { .sa_sigaction = unguard_write, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	stack_t ss = { .ss_sp = handler_stack, .ss_size = sizeof(handler_stack) };

	if (!len || !unit || len % unit)
		return -EINVAL;
	guarded.base = (uintptr_t)base;
	guarded.len = len;
	guarded.unit = unit;
	memset(handler_stack, 0, sizeof(handler_stack));	/* every page present */
	if (sigaltstack(&ss, NULL) || sigaction(SIGSEGV, &sa, NULL))
		return -errno;
	return pc_faults_reguard();
}

int pc_faults_reguard(void)
{
	return mprotect((void *)guarded.base, guarded.len, PROT_READ) ? -errno : 0;
}

void pc_faults_unguard(void)
{
	stack_t off = { .ss_flags = SS_DISABLE };

	guarded.len = 0;
	signal(SIGSEGV, SIG_DFL);
	sigaltstack(&off, NULL);
}
