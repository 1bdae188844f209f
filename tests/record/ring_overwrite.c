// SPDX-License-Identifier: GPL-2.0
/*
 * The forward ring in overwrite mode. A ring mapped without write
 * permission (PROT_READ only) cannot have its data_tail set by the reader,
 * so the kernel does not wait for one: it writes on past a full ring,
 * over the oldest records, and data_head runs on past the ring's size; the
 * newest data_size bytes are what a reader finds, no record is lost. The
 * mode is fixed when the ring is made: a data_tail stored after the mapping
 * was made writable (mprotect) is ignored. A ring mapped
 * PROT_READ|PROT_WRITE is the other mode: the kernel writes no further
 * than the data_tail the reader left, drops what does not fit and counts
 * it, and the next record that fits is preceded by a PERF_RECORD_LOST of
 * exactly that many. Backward rings (write_backward) are
 * tests/attr/write_backward.c.
 *
 * kernel/events/core.c (6.12) perf_mmap(): RING_BUFFER_WRITABLE only for a
 * vma with VM_WRITE (line 6808), taken when the rb is allocated;
 * ring_buffer.c rb_alloc -> ring_buffer_init() sets rb->overwrite =
 * !(flags & RING_BUFFER_WRITABLE); __perf_output_begin() (line 152) checks
 * the space against user_page->data_tail only when !rb->overwrite, with
 * CIRC_SPACE (one byte of the ring is never used, so a 4096-byte ring
 * holds 255 16-byte records, not 256) and on failure adds to rb->lost; the
 * LOST record goes in front of the next record that fits (line 248). The
 * same in 5.10 and 6.1.
 *
 * Measured with this task's user-mode page faults at known addresses, one
 * 16-byte sample each (PERF_SAMPLE_ADDR), in a ring of one data page.
 */
#include "perfconf.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "work/faults.h"
#include "work/measure.h"

#define SAMPLE_SIZE 16

static struct perfconf_attr fault_sampler(void)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);

	attr.exclude_kernel = 1;
	return attr;
}

static size_t per_ring(const struct pc_ring *r)
{
	return (size_t)(r->data_size / SAMPLE_SIZE);
}

/* The record that fault m (numbered from 1 after the warm-up) was written as. */
static const struct perf_event_header *record_of(const struct pc_ring *r, size_t m)
{
	return (const void *)(r->data + (((m - 1) * SAMPLE_SIZE) & (r->data_size - 1)));
}

/*
 * After n faults into an overwrite ring: data_head is n records, and the
 * ring holds the last per_ring() of them, each in its place, whole.
 */
static void expect_newest(struct __test_metadata *_metadata, const struct pc_ring *r,
			  const struct pc_faults *f, size_t n)
{
	EXPECT_EQ(n * SAMPLE_SIZE, pc_ring_head(r)) TH_LOG("data_head did not run past the ring");
	for (size_t m = n - per_ring(r) + 1; m <= n; m++) {
		const struct perf_event_header *h = record_of(r, m);

		ASSERT_EQ(PERF_RECORD_SAMPLE, h->type) TH_LOG("record of fault %zu", m);
		ASSERT_EQ(SAMPLE_SIZE, h->size);
		ASSERT_EQ(pc_faults_addr(f, m), *(const uint64_t *)(h + 1)) TH_LOG("record of fault %zu", m);
	}
}

FIXTURE(global) {
	int fd;
	struct pc_ring r;
	struct pc_faults f;
};

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr = fault_sampler();

	memset(&self->r, 0, sizeof(self->r));
	self->f.base = NULL;
	self->fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(self->fd);
}

FIXTURE_TEARDOWN(global)
{
	pc_ring_unmap(&self->r);
	if (self->f.base)
		pc_faults_unmap(&self->f);
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Four rings and a bit into a read-only ring: the kernel never stops,
 * data_head is every record written, the newest per ring stay, nothing is
 * counted lost (the kernel leaves data_tail at 0).
 */
TEST_F(global, read_only_ring_is_overwritten)
{
	ASSERT_ERRNO(0, -pc_ring_map(&self->r, self->fd, 0, PC_RING_OVERWRITE));
	size_t n = 4 * per_ring(&self->r) + 3;

	ASSERT_EQ(0, pc_faults_map(&self->f, n + 1));
	ASSERT_EQ(0, pc_faults_enabled(&self->f, self->fd, n));
	EXPECT_EQ(n, pc_count_of(self->fd));
	expect_newest(_metadata, &self->r, &self->f, n);
	EXPECT_EQ(0, __atomic_load_n(&self->r.page->data_tail, __ATOMIC_ACQUIRE));
}

/*
 * The reader of a read-only ring cannot store a data_tail: the store is
 * SIGSEGV (in a child of its own, where the ring is mapped anew: the fork
 * does not copy it). The control: the same store into a writable ring
 * of another event lands.
 */
TEST_F(global, read_only_control_page_takes_no_data_tail)
{
	struct perfconf_attr attr = fault_sampler();
	struct pc_ring w;
	int fd2, err;

	ASSERT_ERRNO(0, -pc_ring_map(&self->r, self->fd, 0, PC_RING_OVERWRITE));
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* The child maps the parent's event read-only itself. */
		struct pc_ring mine;

		signal(SIGSEGV, SIG_DFL);
		if (pc_ring_map(&mine, self->fd, 0, PC_RING_OVERWRITE))
			_exit(3);
		__atomic_store_n(&mine.page->data_tail, SAMPLE_SIZE, __ATOMIC_RELEASE);
		_exit(4);
	}
	int status;

	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
		TH_LOG("status %#x (exit 3: no mapping; 4: data_tail was stored into a read-only ring)", status);

	fd2 = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd2);
	err = pc_ring_map(&w, fd2, 0, PC_RING_READWRITE);
	ASSERT_ERRNO(0, -err);
	__atomic_store_n(&w.page->data_tail, 16, __ATOMIC_RELEASE);
	EXPECT_EQ(16, __atomic_load_n(&w.page->data_tail, __ATOMIC_ACQUIRE));
	pc_ring_unmap(&w);
	close(fd2);
}

/*
 * A read-only ring made writable afterwards (mprotect; whether the kernel
 * allows it is pinned) stays an overwrite ring: a stale data_tail stored
 * into it does not stop the kernel, two rings' worth later the newest
 * records are all there.
 */
TEST_F(global, data_tail_is_ignored_in_overwrite_mode)
{
	ASSERT_ERRNO(0, -pc_ring_map(&self->r, self->fd, 0, PC_RING_OVERWRITE));
	int err = mprotect(self->r.map, self->r.map_len, PROT_READ | PROT_WRITE) ? errno : 0;

	pc_observe_errno("mprotect", err);
	if (err)
		SKIP(return, "this kernel does not let a read-only ring be made writable (%s)", pc_errno_name(err));
	__atomic_store_n(&self->r.page->data_tail, SAMPLE_SIZE, __ATOMIC_RELEASE);
	size_t n = 2 * per_ring(&self->r);

	ASSERT_EQ(0, pc_faults_map(&self->f, n + 1));
	ASSERT_EQ(0, pc_faults_enabled(&self->f, self->fd, n));
	EXPECT_EQ(n, pc_count_of(self->fd));
	expect_newest(_metadata, &self->r, &self->f, n);
}

struct walk {
	size_t samples, lost_records;
	uint64_t first_addr, last_addr, lost, lost_id;
	char order[8];
};

static int walk_record(const void *rec, size_t len, void *arg)
{
	const struct perf_event_header *h = rec;
	const uint64_t *body = (const void *)(h + 1);
	struct walk *w = arg;
	size_t at = strlen(w->order);

	if (h->type == PERF_RECORD_SAMPLE && len == SAMPLE_SIZE) {
		if (!w->samples++)
			w->first_addr = body[0];
		w->last_addr = body[0];
		if (at + 1 < sizeof(w->order) && (!at || w->order[at - 1] != 'S'))
			w->order[at] = 'S';
	} else if (h->type == PERF_RECORD_LOST) {
		w->lost_records++;
		w->lost_id = body[0];
		w->lost += body[1];
		if (at + 1 < sizeof(w->order))
			w->order[at] = 'L';
	} else if (at + 1 < sizeof(w->order)) {
		w->order[at] = '?';
	}
	return 0;
}

static void walk(struct __test_metadata *_metadata, struct pc_ring *r, struct walk *w)
{
	const char *err = NULL;

	memset(w, 0, sizeof(*w));
	ASSERT_LE(0, pc_ring_for_each(r, walk_record, w, &err)) TH_LOG("%s", err ? err : "?");
}

/*
 * A writable ring whose reader never moves data_tail: two rings' worth of
 * faults, and the kernel stops at the tail. The ring holds the first
 * per_ring() - 1 samples (CIRC_SPACE leaves one byte), data_head is at
 * them, the event counted all. Once the reader consumed them, the next
 * fault's sample comes after one LOST record of exactly the samples that
 * did not fit, with the event's id.
 */
TEST_F(global, writable_ring_stops_at_data_tail)
{
	struct walk w;

	ASSERT_ERRNO(0, -pc_ring_map(&self->r, self->fd, 0, PC_RING_READWRITE));
	size_t per = per_ring(&self->r), n = 2 * per, fit = per - 1;

	ASSERT_EQ(0, pc_faults_map(&self->f, n + 3));
	pc_faults_next(&self->f, 1);
	(void)*(volatile unsigned char *)self->r.data;
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_faults_next(&self->f, n);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(n, pc_count_of(self->fd));
	EXPECT_EQ(fit * SAMPLE_SIZE, pc_ring_head(&self->r)) TH_LOG("the kernel wrote past data_tail");
	walk(_metadata, &self->r, &w);
	EXPECT_EQ(fit, w.samples);
	EXPECT_EQ(0, w.lost_records);
	EXPECT_EQ(pc_faults_addr(&self->f, 1), w.first_addr);
	EXPECT_EQ(pc_faults_addr(&self->f, fit), w.last_addr);

	pc_ring_drain(&self->r);
	ASSERT_EQ(fit * SAMPLE_SIZE, __atomic_load_n(&self->r.page->data_tail, __ATOMIC_ACQUIRE));
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_faults_next(&self->f, 1);
	ASSERT_EQ(0, pc_disable(self->fd));
	walk(_metadata, &self->r, &w);
	EXPECT_STREQ("LS", w.order);
	EXPECT_EQ(n - fit, w.lost) TH_LOG("LOST counts the samples that did not fit");
	EXPECT_EQ(pc_event_id(self->fd), w.lost_id);
	EXPECT_EQ(1, w.samples);
	EXPECT_EQ(pc_faults_addr(&self->f, n + 1), w.last_addr);
	EXPECT_EQ(n + 1, pc_count_of(self->fd));
}

TEST_HARNESS_MAIN
