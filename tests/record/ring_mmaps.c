// SPDX-License-Identifier: GPL-2.0
/*
 * The ring buffer and its mappings. An event has at most one ring; every
 * mmap() of the event of the same size is a view of that one ring: the
 * same control page (data_head, and the data_tail a reader stores through
 * either view) and the same data pages. The ring lives as long as some
 * mapping does: unmapping one view while the event is enabled leaves the
 * others written, every record; once the last view is gone the event keeps
 * counting, its records go nowhere, and a new mmap() makes a new, empty
 * ring. The mapping is not passed to a child by fork(). When the task an
 * event monitors exits, poll() on the event reports POLLHUP, and a reader
 * blocked in poll() is woken for it.
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
 * mmap_count detach since 3.10).
 *
 * Measured with this task's user-mode page faults at known addresses, one
 * sample each carrying the faulting address (PERF_SAMPLE_ADDR, 16 bytes).
 */
#include "perfconf.h"

#include <poll.h>
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

TEST_HARNESS_MAIN
