// SPDX-License-Identifier: GPL-2.0
/*
 * The ring buffer and its mappings. An event has at most one ring; every
 * mmap() of the event of the same size is a view of that one ring: the
 * same control page (data_head, and the data_tail a reader stores through
 * either view) and the same data pages. The ring lives as long as some
 * mapping does: unmapping one view while the event is enabled leaves the
 * others written, every record; once the last view is gone the event keeps
 * counting, its records go nowhere, and a new mmap() makes a new, empty
 * ring. The mapping is not passed to a child by fork(), and it cannot be
 * split: munmap, mremap, a MAP_FIXED mapping or an mprotect of part of it
 * is EINVAL, and the whole mapping works after; moving or protecting all
 * of it is accepted. The data pages are never writable from user space:
 * a store into one is SIGBUS, even where mprotect made the mapping
 * writable. When the task an event monitors exits, poll() on the event
 * reports POLLHUP, and a reader blocked in poll() is woken for it.
 *
 * kernel/events/core.c (6.12): perf_mmap() (line 6642) attaches to the
 * event's rb when there is one (a size that differs is EINVAL, see
 * tests/errors/mmap.c), else allocates one (rb_alloc, line 6811) and
 * ring_buffer_attach()es it; it marks the vma VM_DONTCOPY (line 6861).
 * perf_mmap_close() (line 6515) detaches the rb from the event when the
 * event's mmap_count drops to 0 (ring_buffer_attach(event, NULL)), which
 * drops the last reference. perf_poll() (line 5884) answers EPOLLHUP when
 * is_event_hup() (line 5824: state EXIT or below and no inherited
 * children), and perf_event_exit_event() wakes the event's waiters
 * (perf_event_wakeup, line 13507) once the task is gone. The same code,
 * with these promises, is in 5.10 and 6.1 (is_event_hup since 4.0; the
 * mmap_count detach since 3.10). perf_mmap_fault() (line 6351) answers a
 * write fault, and page_mkwrite, of any page but the control page with
 * SIGBUS (the same in 5.10 and 6.1).
 *
 * perf_mmap_may_split() (line 6625) refuses every split with EINVAL since
 * b024d7b56c77 "perf/core: Prevent VMA split of buffer mappings" (v6.17,
 * and stable, 6.1.148 among them; Debian's 6.12.117 has it). Without it
 * the split goes through (errno OK, the observation): perf_mmap_open()
 * counts each piece, and for a ring without AUX area the pieces unmap and
 * the ring is freed, which every case checks (the region unmaps, and a
 * ring of another size maps and is written). An AUX area (an offset other
 * than 0) is refused the same way, but no PMU here has one: not tested. A
 * WARN the attempts would cause fails the binary in the runner (a new
 * kernel taint).
 *
 * Measured with this task's user-mode page faults at known addresses, one
 * sample each carrying the faulting address (PERF_SAMPLE_ADDR, 16 bytes).
 */
#include "perfconf.h"

#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "ring/capture.h"
#include "work/child.h"
#include "work/faults.h"
#include "work/measure.h"

#define PAGES_LOG2 2
#define MAX_SAMPLES 64

static struct perfconf_attr fault_sampler(void)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);

	attr.exclude_kernel = 1;
	return attr;
}

struct addrs {
	size_t n, other;
	uint64_t addr[MAX_SAMPLES];
};

static int collect(const void *rec, size_t len, void *arg)
{
	const struct perf_event_header *h = rec;
	struct addrs *a = arg;

	if (h->type != PERF_RECORD_SAMPLE || len != 16 || a->n == MAX_SAMPLES) {
		a->other++;
		return 0;
	}
	a->addr[a->n++] = *(const uint64_t *)(h + 1);
	return 0;
}

/* The sample addresses in a ring, from tail to head, without consuming. */
static void addrs_of(struct __test_metadata *_metadata, struct pc_ring *r, struct addrs *a)
{
	const char *err = NULL;

	memset(a, 0, sizeof(*a));
	ASSERT_LE(0, pc_ring_for_each(r, collect, a, &err)) TH_LOG("%s", err ? err : "?");
	EXPECT_EQ(0, a->other) TH_LOG("records other than 16-byte samples");
}

/* The ring's samples are exactly faults first .. first + n - 1 of f. */
static void expect_faults(struct __test_metadata *_metadata, struct pc_ring *r,
			  const struct pc_faults *f, size_t first, size_t n, const char *view)
{
	struct addrs a;

	addrs_of(_metadata, r, &a);
	ASSERT_EQ(n, a.n) TH_LOG("%s: samples", view);
	for (size_t k = 0; k < n; k++) {
		EXPECT_EQ(pc_faults_addr(f, first + k), a.addr[k]) TH_LOG("%s: sample %zu", view, k);
	}
}

/* Read every page of a mapped ring once, so that later reads take no fault. */
static void touch(const struct pc_ring *r)
{
	long pg = sysconf(_SC_PAGESIZE);

	for (uint64_t off = 0; off < r->data_size; off += (uint64_t)pg)
		(void)*(volatile const unsigned char *)(r->data + off);
	(void)__atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
}

FIXTURE(global) {
	int fd;
	struct pc_faults f;
	struct pc_ring a, b;
};

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr = fault_sampler();

	memset(&self->a, 0, sizeof(self->a));
	memset(&self->b, 0, sizeof(self->b));
	self->f.base = NULL;
	self->fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(self->fd);
	ASSERT_EQ(0, pc_faults_map(&self->f, 32));
	pc_faults_next(&self->f, 1);	/* the path the faults take is paged in */
}

FIXTURE_TEARDOWN(global)
{
	pc_ring_unmap(&self->a);
	pc_ring_unmap(&self->b);
	if (self->f.base)
		pc_faults_unmap(&self->f);
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Two mappings of one size: two addresses, one ring. Both show the same
 * data_head and the same 8 samples, in order; a data_tail stored through
 * one is what the other reads.
 */
TEST_F(global, two_mappings_share_one_ring)
{
	ASSERT_ERRNO(0, -pc_ring_map(&self->a, self->fd, PAGES_LOG2, PC_RING_READWRITE));
	ASSERT_ERRNO(0, -pc_ring_map(&self->b, self->fd, PAGES_LOG2, PC_RING_READWRITE));
	ASSERT_NE(self->a.map, self->b.map);
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_faults_next(&self->f, 8);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(8, pc_count_of(self->fd));

	EXPECT_EQ(8 * 16, pc_ring_head(&self->a));
	EXPECT_EQ(pc_ring_head(&self->a), pc_ring_head(&self->b));
	expect_faults(_metadata, &self->a, &self->f, 1, 8, "first mapping");
	expect_faults(_metadata, &self->b, &self->f, 1, 8, "second mapping");

	__atomic_store_n(&self->a.page->data_tail, 5 * 16, __ATOMIC_RELEASE);
	EXPECT_EQ(5 * 16, __atomic_load_n(&self->b.page->data_tail, __ATOMIC_ACQUIRE))
		TH_LOG("data_tail stored through one mapping is not seen through the other");
}

/*
 * One of two mappings goes while the event writes: the other sees every
 * sample, those before the munmap and those after it.
 */
TEST_F(global, unmapping_one_leaves_the_other_written)
{
	ASSERT_ERRNO(0, -pc_ring_map(&self->a, self->fd, PAGES_LOG2, PC_RING_READWRITE));
	ASSERT_ERRNO(0, -pc_ring_map(&self->b, self->fd, PAGES_LOG2, PC_RING_READWRITE));
	touch(&self->b);
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_faults_next(&self->f, 4);
	ASSERT_EQ(0, munmap(self->a.map, self->a.map_len));
	self->a.map = NULL;
	pc_faults_next(&self->f, 4);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(8, pc_count_of(self->fd));
	EXPECT_EQ(8 * 16, pc_ring_head(&self->b));
	expect_faults(_metadata, &self->b, &self->f, 1, 8, "the mapping left");
}

/*
 * The last mapping goes while the event writes: the event counts on
 * (12 faults, 12 counted), what it samples meanwhile goes nowhere, and a
 * new mapping is a new ring: data_head 0 (not 4 samples' worth), then
 * only the samples taken after it was made.
 */
TEST_F(global, unmapping_all_frees_the_ring)
{
	ASSERT_ERRNO(0, -pc_ring_map(&self->a, self->fd, PAGES_LOG2, PC_RING_READWRITE));
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_faults_next(&self->f, 4);
	ASSERT_EQ(4 * 16, pc_ring_head(&self->a));
	ASSERT_EQ(0, munmap(self->a.map, self->a.map_len));
	self->a.map = NULL;
	pc_faults_next(&self->f, 4);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(8, pc_count_of(self->fd)) TH_LOG("the event stopped counting when its ring went");

	ASSERT_ERRNO(0, -pc_ring_map(&self->b, self->fd, PAGES_LOG2, PC_RING_READWRITE));
	touch(&self->b);
	EXPECT_EQ(0, pc_ring_head(&self->b)) TH_LOG("a new mapping after the last munmap is not a new ring");
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_faults_next(&self->f, 4);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(12, pc_count_of(self->fd));
	EXPECT_EQ(4 * 16, pc_ring_head(&self->b));
	expect_faults(_metadata, &self->b, &self->f, 9, 4, "the new ring");
}

/* 0 when a forked child can read *p, SIGSEGV when the page is not in its address space. */
static int child_reads(const volatile void *p)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		(void)*(const volatile uint64_t *)p;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	if (WIFSIGNALED(status))
		return WTERMSIG(status);
	return WEXITSTATUS(status) ? -ECHILD : 0;
}

/*
 * fork() does not copy the ring's mapping (VM_DONTCOPY): the child's read
 * of the control page is SIGSEGV. The control: a shared anonymous mapping
 * is there in the child.
 */
TEST_F(global, ring_is_not_copied_by_fork)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t *shared = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, shared);
	*shared = 1;
	EXPECT_EQ(0, child_reads(shared)) TH_LOG("the control: a shared mapping in the child");
	munmap(shared, (size_t)pg);

	ASSERT_ERRNO(0, -pc_ring_map(&self->a, self->fd, PAGES_LOG2, PC_RING_READWRITE));
	EXPECT_EQ(SIGSEGV, child_reads(&self->a.page->data_head)) TH_LOG("the ring was mapped in the child");
}

/* poll() with timeout 0: the revents, or -errno. */
static int poll_now(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n = poll(&p, 1, timeout_ms);

	return n < 0 ? -errno : n == 0 ? 0 : p.revents;
}

/*
 * An event on a child, with its ring: no POLLHUP while the child lives
 * (5 faults counted, after a rehearsal), then the child exits and a poll() that
 * waits (30 s at most) returns POLLHUP; the count is still read.
 */
TEST(poll_hup_when_the_task_exits)
{
	struct perfconf_attr attr = fault_sampler();
	struct pc_child c;
	struct pc_ring r;
	int fd, revents;

	ASSERT_EQ(0, pc_child_start(&c, 0));
	fd = pc_open(&attr, c.pid, -1, -1, 0);
	ASSERT_OPEN(fd);
	ASSERT_ERRNO(0, -pc_ring_map(&r, fd, PAGES_LOG2, PC_RING_READWRITE));
	ASSERT_EQ(0, pc_child_do(&c, "faults 5"));	/* the child's path is paged in */
	ASSERT_EQ(0, pc_enable(fd));
	ASSERT_EQ(0, pc_child_do(&c, "faults 5"));
	EXPECT_EQ(5, pc_count_of(fd));
	revents = poll_now(fd, 0);
	EXPECT_EQ(0, revents & (POLLHUP | POLLERR)) TH_LOG("revents %#x while the task lives", revents);

	ASSERT_EQ(0, pc_child_cue(&c, "exit"));
	revents = poll_now(fd, 30000);
	pc_child_kill(&c);
	pc_observe("revents", "%#x", revents);
	ASSERT_LT(0, revents) TH_LOG("poll: %s", revents ? pc_errno_name(-revents) : "timed out");
	EXPECT_TRUE(revents & POLLHUP) TH_LOG("revents %#x after the task exited", revents);
	EXPECT_LE(5, pc_count_of(fd));
	pc_ring_unmap(&r);
	close(fd);
}

/*
 * A ring cannot be split. A ring of 1 + 4 pages is mapped inside a
 * reserved region (guard pages around it, and room to move it), then one
 * operation acts on part of it: munmap, a shrinking mremap, an mremap that
 * moves part of it, a MAP_FIXED mapping over one page, an mprotect of the
 * data pages. Each is refused (the errno is the observation: EINVAL since
 * the refusal) or, on a kernel without it, splits the mapping. A refused
 * one leaves the whole mapping working: 4 faults, 4 samples read through
 * it. The controls act on the whole mapping (an mremap that moves all of
 * it, an mprotect of all of it): accepted everywhere, and the ring works
 * where it now is. In every case the region then unmaps at once, and the
 * event maps a ring of another size (the old ring is gone: no reference of
 * the split pieces was left behind) whose 2 samples land.
 */
enum split_op { SPLIT_MUNMAP, SPLIT_MREMAP_SHRINK, SPLIT_MREMAP_MOVE, SPLIT_MAP_FIXED, SPLIT_MPROTECT };

#define RING_PAGES (1 + (1 << PAGES_LOG2))
#define REGION_PAGES (2 * RING_PAGES + 3)

FIXTURE(split) {
	int fd;
	struct pc_faults f;
	unsigned char *region;
	size_t pg;
};

FIXTURE_VARIANT(split) {
	enum split_op op;
	int first, pages;	/* the part acted on, in pages of the ring */
	bool whole;		/* a control: the whole mapping */
};

FIXTURE_VARIANT_ADD(split, munmap_control_page) { .op = SPLIT_MUNMAP, .first = 0, .pages = 1 };
FIXTURE_VARIANT_ADD(split, munmap_a_data_page) { .op = SPLIT_MUNMAP, .first = 2, .pages = 1 };
FIXTURE_VARIANT_ADD(split, munmap_last_page) { .op = SPLIT_MUNMAP, .first = RING_PAGES - 1, .pages = 1 };
FIXTURE_VARIANT_ADD(split, mremap_shrink) { .op = SPLIT_MREMAP_SHRINK, .first = 0, .pages = 1 };
FIXTURE_VARIANT_ADD(split, mremap_move_data_pages) { .op = SPLIT_MREMAP_MOVE, .first = 1, .pages = RING_PAGES - 1 };
FIXTURE_VARIANT_ADD(split, mremap_move_whole) { .op = SPLIT_MREMAP_MOVE, .first = 0, .pages = RING_PAGES, .whole = true };
FIXTURE_VARIANT_ADD(split, map_fixed_over_control_page) { .op = SPLIT_MAP_FIXED, .first = 0, .pages = 1 };
FIXTURE_VARIANT_ADD(split, map_fixed_over_a_data_page) { .op = SPLIT_MAP_FIXED, .first = 2, .pages = 1 };
FIXTURE_VARIANT_ADD(split, mprotect_data_pages) { .op = SPLIT_MPROTECT, .first = 1, .pages = RING_PAGES - 1 };
FIXTURE_VARIANT_ADD(split, mprotect_whole) { .op = SPLIT_MPROTECT, .first = 0, .pages = RING_PAGES, .whole = true };

FIXTURE_SETUP(split)
{
	struct perfconf_attr attr = fault_sampler();

	self->pg = (size_t)sysconf(_SC_PAGESIZE);
	self->f.base = NULL;
	self->region = mmap(NULL, REGION_PAGES * self->pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->region);
	self->fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(self->fd);
	ASSERT_EQ(0, pc_faults_map(&self->f, 32));
	pc_faults_next(&self->f, 1);
}

FIXTURE_TEARDOWN(split)
{
	if (self->region != MAP_FAILED)
		munmap(self->region, REGION_PAGES * self->pg);
	if (self->f.base)
		pc_faults_unmap(&self->f);
	if (self->fd >= 0)
		close(self->fd);
}

/* The operation on pages [first, first + pages) of the ring at `ring`: 0 or the errno. */
static int split_do(const FIXTURE_VARIANT(split) *v, unsigned char *ring, unsigned char *to, size_t pg)
{
	unsigned char *part = ring + (size_t)v->first * pg;
	size_t len = (size_t)v->pages * pg;
	void *p;

	switch (v->op) {
	case SPLIT_MUNMAP:
		return munmap(part, len) ? errno : 0;
	case SPLIT_MREMAP_SHRINK:
		p = mremap(ring, RING_PAGES * pg, len, 0);
		return p == MAP_FAILED ? errno : 0;
	case SPLIT_MREMAP_MOVE:
		p = mremap(part, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to + (size_t)v->first * pg);
		return p == MAP_FAILED ? errno : 0;
	case SPLIT_MAP_FIXED:
		p = mmap(part, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		return p == MAP_FAILED ? errno : 0;
	case SPLIT_MPROTECT:
		return mprotect(part, len, PROT_READ) ? errno : 0;
	}
	return EINVAL;
}

/* The ring mapped at `at` is whole and written: 4 faults, 4 samples read through it. */
static void expect_whole_ring(struct __test_metadata *_metadata, FIXTURE_DATA(split) *self,
			      unsigned char *at, const char *view)
{
	struct perf_event_mmap_page *page = (void *)at;
	size_t first = self->f.next;
	struct pc_ring r;

	ASSERT_EQ((uint64_t)(RING_PAGES - 1) * self->pg, page->data_size) TH_LOG("%s", view);
	pc_ring_attach(&r, page, at + page->data_offset, page->data_size);
	touch(&r);
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_faults_next(&self->f, 4);
	ASSERT_EQ(0, pc_disable(self->fd));
	expect_faults(_metadata, &r, &self->f, first, 4, view);
	pc_ring_unmap(&r);
}

TEST_F(split, refused_or_harmless)
{
	size_t pg = self->pg;
	unsigned char *ring = self->region + pg, *to = self->region + (RING_PAGES + 2) * pg;
	struct pc_ring again;
	void *p;
	int err;

	p = mmap(ring, RING_PAGES * pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, self->fd, 0);
	ASSERT_EQ(ring, p);
	err = split_do(variant, ring, to, pg);
	if (variant->whole) {
		ASSERT_EQ(0, err) TH_LOG("the control, on the whole mapping: %s", pc_errno_name(err));
		expect_whole_ring(_metadata, self, variant->op == SPLIT_MREMAP_MOVE ? to : ring,
				  "the whole mapping, after");
	} else {
		pc_observe_errno("errno", err);
		if (err) {
			expect_whole_ring(_metadata, self, ring, "the mapping the refusal left");
		}
	}

	ASSERT_EQ(0, munmap(self->region, REGION_PAGES * pg)) TH_LOG("the region with the ring in it");
	self->region = MAP_FAILED;
	ASSERT_ERRNO(0, -pc_ring_map(&again, self->fd, 0, PC_RING_READWRITE))
		TH_LOG("another size after the last munmap: the old ring is still there");
	touch(&again);
	ASSERT_EQ(0, pc_enable(self->fd));
	size_t first = self->f.next;

	pc_faults_next(&self->f, 2);
	ASSERT_EQ(0, pc_disable(self->fd));
	expect_faults(_metadata, &again, &self->f, first, 2, "the new ring");
	pc_ring_unmap(&again);
}

static sigjmp_buf write_env;

static void on_sigbus(int sig)
{
	siglongjmp(write_env, sig);
}

/* 0 when *p can be written, else the signal the write raised. */
static int try_write(volatile void *p, uint64_t v)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old_bus, old_segv;
	int sig;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old_bus);
	sigaction(SIGSEGV, &sa, &old_segv);
	sig = sigsetjmp(write_env, 1);
	if (sig == 0)
		*(volatile uint64_t *)p = v;
	sigaction(SIGBUS, &old_bus, NULL);
	sigaction(SIGSEGV, &old_segv, NULL);
	return sig;
}

/*
 * The data pages are never writable from user space, whatever the
 * protection: perf_mmap_fault() answers a write fault (and page_mkwrite)
 * of any page but the control page with SIGBUS. A read-write ring: a
 * store into the control page (data_tail) is taken, one into a data page
 * is SIGBUS. A read-only (overwrite) ring made read-write with mprotect
 * (the errno is the observation, OK: the file was opened for writing):
 * the same, and the ring still works.
 */
TEST_F(global, data_pages_refuse_writes)
{
	ASSERT_ERRNO(0, -pc_ring_map(&self->a, self->fd, PAGES_LOG2, PC_RING_READWRITE));
	touch(&self->a);
	EXPECT_EQ(0, try_write(&self->a.page->data_tail, 0)) TH_LOG("the control page, read-write");
	EXPECT_EQ(SIGBUS, try_write(self->a.data, 0)) TH_LOG("a data page, read-write");
	pc_ring_unmap(&self->a);

	ASSERT_ERRNO(0, -pc_ring_map(&self->b, self->fd, PAGES_LOG2, PC_RING_OVERWRITE));
	touch(&self->b);
	EXPECT_EQ(SIGSEGV, try_write(self->b.data, 0)) TH_LOG("a data page, read-only");
	int err = mprotect(self->b.map, self->b.map_len, PROT_READ | PROT_WRITE) ? errno : 0;

	pc_observe_errno("mprotect_rw", err);
	if (!err) {
		EXPECT_EQ(0, try_write(&self->b.page->data_tail, 0)) TH_LOG("the control page, made writable");
		EXPECT_EQ(SIGBUS, try_write(self->b.data, 0))
			TH_LOG("a data page, made writable");
	}
	size_t first = self->f.next;

	ASSERT_EQ(0, pc_enable(self->fd));
	pc_faults_next(&self->f, 4);
	ASSERT_EQ(0, pc_disable(self->fd));
	expect_faults(_metadata, &self->b, &self->f, first, 4, "the ring, after");
}

TEST_HARNESS_MAIN
