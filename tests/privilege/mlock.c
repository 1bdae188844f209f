// SPDX-License-Identifier: GPL-2.0
/*
 * The memory a ring buffer locks, in every cell of identity x
 * perf_event_paranoid.
 *
 * perf_event_open(2): perf_event_mlock_kb is the "Maximum number of pages
 * an unprivileged user can mlock(2)". perf_mmap() charges a ring's pages
 * (its data pages and the control page) to the user's perf_mlock, up to
 * perf_event_mlock_kb (in pages) times the number of online CPUs; the
 * rest, the extra pages, to the process's pinned_vm (VmPin in
 * /proc/PID/status), which may not exceed RLIMIT_MEMLOCK: EPERM, unless
 * perf_event_paranoid is -1 or the caller has CAP_IPC_LOCK.
 *
 * The ring is the smallest one (2^k data pages + 1) that is larger than
 * that allowance, whatever the CPU count; its event samples this task's
 * user-mode page faults, which everyone may open up to level 2 (Debian's
 * 3 closes it with EACCES). Where the ring maps it works: each fault is
 * one sample, at the page it touched, and VmPin grew by the extra pages:
 * exactly for the identities of uid 65534, whose perf_mlock starts at 0
 * (one count for every process of that user: so this binary runs no
 * phases, and no other binary's cells run beside it, nor does any binary
 * that becomes another identity, as they all read perf_event_paranoid); at least that
 * for root, whose other processes may hold rings (and at most the whole
 * ring).
 *
 * past_mlock_kb: with RLIMIT_MEMLOCK 0 (lowering a limit needs no
 * privilege), only CAP_IPC_LOCK or level -1 maps it. The control, in the
 * same case: a ring of one data page is within the allowance, so it maps
 * wherever the event opens, and pins nothing (root: at most its 2 pages).
 *
 * within_rlimit: RLIMIT_MEMLOCK is exactly the extra pages (set by the
 * identity itself, below the hard limit, which root raises beforehand if
 * it must): the limit covers them, so the ring maps wherever the event
 * opens.
 */
#include <stdio.h>
#include <sys/resource.h>

#define CELL_PREPARE(_metadata) cover_with_hard_limit(_metadata)

#define CELL_READS " reads=perf_event_mlock_kb"
#define CELL_PHASES ""		/* above: uid 65534's perf_mlock is this binary's alone */
#include "cells.h"
#include "work/faults.h"

#define N 16
#define MAX_PAGES_LOG2 16	/* 256 MiB of 4 KiB pages: past that, an allowance too large to pass */

/* The smallest ring past the user's allowance, and what it costs. */
struct big_ring {
	unsigned int pages_log2;	/* 2^pages_log2 data pages */
	long pages;			/* the whole ring: those and the control page */
	long allowance;			/* perf_event_mlock_kb in pages, times the online CPUs */
	long extra;			/* charged to pinned_vm when perf_mlock starts at 0 */
};

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

static struct big_ring big_ring(struct __test_metadata *_metadata)
{
	long mlock_kb;
	struct big_ring r = { 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	ASSERT_EQ(0, pc_sysctl_get(PC_MLOCK_KB_SYSCTL, &mlock_kb));
	ASSERT_LT(0, cpus);
	r.allowance = mlock_kb / (page_size() / 1024) * cpus;	/* mlock_kb >> (PAGE_SHIFT - 10) */
	while (r.pages_log2 < MAX_PAGES_LOG2 && (1L << r.pages_log2) + 1 <= r.allowance)
		r.pages_log2++;
	r.pages = (1L << r.pages_log2) + 1;
	r.extra = r.pages - r.allowance;
	return r;
}

/* The big ring into r, or SKIP where the allowance is too large for any. */
#define REQUIRE_BIG_RING(r) do { \
	(r) = big_ring(_metadata); \
	if ((r).extra <= 0) \
		SKIP(return, "perf_event_mlock_kb allows %ld pages: no ring of 2^%d pages passes it", \
		     (r).allowance, MAX_PAGES_LOG2); \
} while (0)

/* As root, before the case: a hard RLIMIT_MEMLOCK that can cover the extra pages, where root may raise it. */
static void cover_with_hard_limit(struct __test_metadata *_metadata)
{
	struct big_ring r = big_ring(_metadata);
	rlim_t need = (rlim_t)r.extra * page_size();
	struct rlimit rl;

	ASSERT_EQ(0, getrlimit(RLIMIT_MEMLOCK, &rl));
	if (r.extra > 0 && rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		rl.rlim_max = need;
		setrlimit(RLIMIT_MEMLOCK, &rl);	/* without CAP_SYS_RESOURCE within_rlimit is BLOCKED */
	}
}

/* Lower or raise the soft RLIMIT_MEMLOCK to `pages` pages, within the hard limit. 0 or -errno. */
static int set_memlock(long pages)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		return -errno;
	rl.rlim_cur = (rlim_t)pages * page_size();
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
		return -EPERM;
	return setrlimit(RLIMIT_MEMLOCK, &rl) ? -errno : 0;
}

/* VmPin of this process, in pages. */
static long vm_pin(struct __test_metadata *_metadata)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	ASSERT_NE(NULL, f);
	while (kb < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) != 1)
			kb = -1;
	fclose(f);
	ASSERT_LE(0, kb) TH_LOG("no VmPin in /proc/self/status");
	return kb * 1024 / page_size();
}

/* A ring of samples of this task's faults, and how far VmPin grew with it mapped. */
struct sampled_ring {
	struct pc_capture cap;
	struct pc_faults f;
	long pinned;
};

/*
 * Sample N user-mode page faults of s->f in a ring of 1 + 2^pages_log2
 * pages into s->cap. 0, or the errno of the open or the mmap (s->cap.fd
 * is -1 then).
 */
static int sample_in_ring(struct __test_metadata *_metadata, struct sampled_ring *s, unsigned int pages_log2)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	long before = vm_pin(_metadata);

	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	int err = pc_capture_open_pages(&s->cap, &attr, 0, -1, pages_log2);
	if (err)
		return -err;
	s->pinned = vm_pin(_metadata) - before;
	ASSERT_EQ(0, pc_faults_map(&s->f, N + 1));
	ASSERT_EQ(0, pc_faults_enabled(&s->f, s->cap.fd, N));
	ASSERT_CAPTURE_READ(&s->cap);
	return 0;
}

static void sampled_ring_close(struct sampled_ring *s)
{
	pc_capture_close(&s->cap);
	pc_faults_unmap(&s->f);
}

/*
 * The ring works (one sample per fault, at the page it touched) and
 * pinned `extra` of its `pages` pages: exactly, or at least for root.
 */
static void expect_ring(struct __test_metadata *_metadata, const struct cell *cell,
			const struct sampled_ring *s, long extra, long pages)
{
	ASSERT_EQ(N, pc_capture_count(&s->cap, PERF_RECORD_SAMPLE));
	for (size_t k = 0; k < N; k++) {
		EXPECT_EQ(pc_faults_addr(&s->f, 1 + k), pc_capture_sample(&s->cap, k)->addr) TH_LOG("sample %zu", k);
	}
	if (cell->id->root) {
		EXPECT_LE(extra, s->pinned) TH_LOG("VmPin grew by %ld of the ring's %ld pages", s->pinned, pages);
		EXPECT_GE(pages, s->pinned);
	} else {
		EXPECT_EQ(extra, s->pinned) TH_LOG("VmPin grew by %ld of the ring's %ld pages", s->pinned, pages);
	}
}

CELL_CASE(past_mlock_kb)
{
	struct sampled_ring s = { 0 };
	struct big_ring r;

	REQUIRE_BIG_RING(r);
	ASSERT_EQ(0, set_memlock(0));
	int err = sample_in_ring(_metadata, &s, r.pages_log2);
	if (CELL_ALLOWS(err, PC_GATE_USER, PC_GATE_MLOCK))
		expect_ring(_metadata, cell, &s, r.extra, r.pages);
	sampled_ring_close(&s);

	/* The control: refused only where the event itself is (with the same errno). */
	int ctl = sample_in_ring(_metadata, &s, 0);
	EXPECT_ERRNO(err == EPERM ? 0 : err, ctl) TH_LOG("a ring of one data page");
	if (ctl == 0)
		expect_ring(_metadata, cell, &s, 0, 2);
	sampled_ring_close(&s);
}

CELL_CASE(within_rlimit)
{
	struct sampled_ring s = { 0 };
	struct big_ring r;

	REQUIRE_BIG_RING(r);
	int e = set_memlock(r.extra);
	if (e)
		BLOCKED("cannot set RLIMIT_MEMLOCK to %ld pages (%s): root could not raise the hard limit", r.extra,
			pc_errno_name(-e));
	int err = sample_in_ring(_metadata, &s, r.pages_log2);
	if (CELL_ALLOWS(err, PC_GATE_USER))
		expect_ring(_metadata, cell, &s, r.extra, r.pages);
	sampled_ring_close(&s);
}

TEST_HARNESS_MAIN
