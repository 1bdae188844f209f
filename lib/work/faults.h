/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page faults at known addresses, one at a time: for tests that need to
 * tell which event a sample came from (PERF_SAMPLE_ADDR is the faulting
 * address, PERF_SAMPLE_IP lies in pc_fault_write()) or that act between
 * two events (poll after each sample).
 *
 *	struct pc_faults f;
 *	ASSERT_EQ(0, pc_faults_map(&f, 64));
 *	pc_enable(fd);
 *	pc_faults_next(&f, 64);		// exactly 64 user-mode faults
 *	pc_disable(fd);
 *	... sample k has addr == pc_faults_addr(&f, k) ...
 *	pc_faults_unmap(&f);
 *
 * A test that counts faults in user mode should use exclude_kernel = 1 and
 * have done one round of its own loop before enabling, so that the code,
 * stack and PLT pages it runs through are already there.
 */
#ifndef PERFCONF_FAULTS_H
#define PERFCONF_FAULTS_H

#include <stddef.h>
#include <stdint.h>

struct pc_perf_clock;

struct pc_faults {
	unsigned char *base;	/* first page */
	size_t pages;		/* how many were mapped */
	size_t page_size;
	size_t next;		/* the next page to fault */
};

/* Map `pages` fresh anonymous pages (no huge pages), none touched yet. 0 or -errno. */
int pc_faults_map(struct pc_faults *f, size_t pages);
/*
 * Write the next n pages once each, in order: n minor faults in user mode,
 * each at pc_faults_addr(f, k) for the k-th page. Returns how many pages
 * were faulted (fewer if the mapping ran out).
 */
size_t pc_faults_next(struct pc_faults *f, size_t n);
/*
 * pc_faults_next(), with perf time moving (pc_perf_clock_wait() on clk, an
 * open work/clock.h witness) between one fault and the next, so that their
 * samples' PERF_SAMPLE_TIMEs must differ on a coarse clock too. The wait
 * takes no fault. How many pages were faulted, or -errno of a wait
 * (-ETIME: perf's clock stood still).
 */
long pc_faults_next_paced(struct pc_faults *f, size_t n, struct pc_perf_clock *clk);
/* The address of the k-th page (the faulting address of its fault). */
uint64_t pc_faults_addr(const struct pc_faults *f, size_t k);
void pc_faults_unmap(struct pc_faults *f);
/*
 * One fault to warm the path up (and the enabling and disabling calls, fd
 * being disabled first), then n with the event fd enabled: the k-th of
 * those at pc_faults_addr(f, 1 + k). 0, or -errno if enabling or disabling
 * failed.
 */
int pc_faults_enabled(struct pc_faults *f, int fd, size_t n);
/* The same with nfds events enabled in order and disabled in reverse. */
int pc_faults_enabled_all(struct pc_faults *f, const int *fds, int nfds, size_t n);
/*
 * pc_faults_enabled(), where perf time must pass in the window (the
 * events' time_enabled, PERF_SAMPLE_READ's times): it moves (work/clock.h)
 * after the enabling, before the first fault, and again after the last.
 * 0, or -errno (-ETIME: perf's clock stood still).
 */
int pc_faults_enabled_timed(struct pc_faults *f, int fd, size_t n);
/*
 * pc_faults_enabled(), the faults paced as pc_faults_next_paced() paces
 * them (the wait warmed up too, unmeasured). 0, or -errno (-ETIME: perf's
 * clock stood still).
 */
int pc_faults_enabled_paced(struct pc_faults *f, int fd, size_t n);

/*
 * The noinline function whose store takes each fault: the sampled IP of a
 * fault lies in [pc_fault_write, pc_fault_write + PC_FAULT_WRITE_MAX).
 */
void pc_fault_write(volatile unsigned char *p);
#define PC_FAULT_WRITE_MAX 64
/* True when ip lies inside pc_fault_write(). */
int pc_fault_ip(uint64_t ip);

/*
 * The data address a page-fault sample reports (PERF_SAMPLE_ADDR, and
 * PERF_SAMPLE_PHYS_ADDR, which the kernel derives from it) for a fault on
 * the byte at p: the arch's fault handler passes perf_sw_event() the
 * address the CPU reported. x86, arm64 and riscv report the byte; s390
 * reports the page: its translation-exception identification holds only
 * the page's address (arch/s390/mm/fault.c: get_fault_address() masks
 * the TEID with PAGE_MASK, and do_exception() samples that address), so
 * there it is p's page.
 */
uint64_t pc_fault_sample_addr(const volatile void *p);
/*
 * For a case that compares such addresses: where the arch reports less
 * than the byte, the observation "fault_addr=page" (nothing elsewhere).
 */
void pc_fault_sample_addr_observe(void);

/*
 * Write faults on present pages. pc_faults_guard() makes [base, base +
 * len) read-only and installs a SIGSEGV handler (on a stack of its own,
 * every page present, so it faults nowhere else): a write there then takes
 * a user-mode fault with the page still mapped (a sample of it sees the
 * page's frame and size), and the handler makes the `unit` bytes around
 * the address writable again (a page; or len, so that a huge page is
 * never split), so the write completes. One region per process at a
 * time. 0 or -errno.
 */
int pc_faults_guard(void *base, size_t len, size_t unit);
/* The whole region read-only again, for the next writes. 0 or -errno. */
int pc_faults_reguard(void);
/* The handler off (the region stays as it is). */
void pc_faults_unguard(void);

#endif
