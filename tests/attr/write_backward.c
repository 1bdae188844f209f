// SPDX-License-Identifier: GPL-2.0
/*
 * write_backward (since Linux 4.6): "This causes the ring buffer to be
 * written from the end to the beginning. This is to support reading from
 * overwritable ring buffer." Mapped read-only (no data_tail), data_head
 * starts at 0 and goes down by each record's size; the newest record is at
 * data_head, the older ones above it up to 0; once more than the ring was
 * written, the oldest are overwritten and the newest data_size bytes stay.
 * A forward and a backward event cannot share a ring. Whether a writable
 * mapping is accepted is pinned.
 */
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perfconf.h"
#include "work/faults.h"

#define SAMPLE_SIZE 16	/* header + PERF_SAMPLE_ADDR */

static struct perfconf_attr backward_faults(void)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);

	attr.exclude_kernel = 1;
	attr.write_backward = 1;
	return attr;
}

TEST(ring_fills_from_the_end)
{
	struct perfconf_attr attr = backward_faults();
	struct pc_capture cap;
	struct pc_faults f;

	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_TRUE(cap.ring.overwrite && cap.ring.backward);
	ASSERT_EQ(0, pc_ring_head(&cap.ring));
	ASSERT_EQ(0, pc_faults_map(&f, 9));
	pc_faults_enabled(&f, cap.fd, 8);

	/* data_head went down by 8 records. */
	uint64_t head = pc_ring_head(&cap.ring);
	EXPECT_EQ(-8 * SAMPLE_SIZE, (int64_t)head);
	/* The first record was written at the very end of the data area. */
	const struct perf_event_header *first =
		(const void *)(cap.ring.data + cap.ring.data_size - SAMPLE_SIZE);
	EXPECT_EQ(PERF_RECORD_SAMPLE, first->type);
	EXPECT_EQ(SAMPLE_SIZE, first->size);
	EXPECT_EQ(pc_faults_addr(&f, 1), *(const uint64_t *)(first + 1));
	/* The newest is at data_head. */
	const struct perf_event_header *newest =
		(const void *)(cap.ring.data + (head & (cap.ring.data_size - 1)));
	EXPECT_EQ(pc_faults_addr(&f, 8), *(const uint64_t *)(newest + 1));

	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(8, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (size_t k = 0; k < 8; k++) {
		EXPECT_EQ(pc_faults_addr(&f, 1 + k), pc_capture_find(&cap, PERF_RECORD_SAMPLE, k)->sample.addr);
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* Four rings' worth into one page: the newest page of records is what stays. */
TEST(newest_records_stay_after_wrapping)
{
	struct perfconf_attr attr = backward_faults();
	struct pc_capture cap;
	struct pc_faults f;

	ASSERT_ERRNO(0, -pc_capture_open_pages(&cap, &attr, 0, -1, 0));
	size_t per_ring = cap.ring.data_size / SAMPLE_SIZE, n = 4 * per_ring;
	ASSERT_EQ(0, pc_faults_map(&f, n + 1));
	pc_faults_enabled(&f, cap.fd, n);
	EXPECT_EQ(-(int64_t)(n * SAMPLE_SIZE), (int64_t)pc_ring_head(&cap.ring));
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(per_ring, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (size_t k = 0; k < per_ring; k++) {
		uint64_t addr = pc_capture_find(&cap, PERF_RECORD_SAMPLE, k)->sample.addr;

		ASSERT_EQ(pc_faults_addr(&f, 1 + n - per_ring + k), addr) TH_LOG("record %zu", k);
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/*
 * PERF_EVENT_IOC_PAUSE_OUTPUT stops the writing, so that the ring can be
 * read while the event runs: nothing is written while paused, and the
 * samples that were dropped meanwhile are reported in a LOST record.
 */
TEST(paused_ring_is_not_written)
{
	struct perfconf_attr attr = backward_faults();
	struct pc_capture cap;
	struct pc_faults f;
	uint64_t id;

	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, ioctl(cap.fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(0, pc_faults_map(&f, 8));
	pc_faults_next(&f, 1);
	ASSERT_EQ(0, pc_enable(cap.fd));
	pc_faults_next(&f, 2);
	ASSERT_EQ(0, ioctl(cap.fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	uint64_t head = pc_ring_head(&cap.ring);
	pc_faults_next(&f, 3);
	EXPECT_EQ(head, pc_ring_head(&cap.ring)) TH_LOG("written while paused");
	ASSERT_EQ(0, ioctl(cap.fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	pc_faults_next(&f, 1);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	char types[64];
	pc_capture_types(&cap, types, sizeof(types));
	EXPECT_STREQ("SAMPLE,LOST", types);
	ASSERT_EQ(3, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	EXPECT_EQ(pc_faults_addr(&f, 6), pc_capture_find(&cap, PERF_RECORD_SAMPLE, 2)->sample.addr);
	const struct pc_record *lost = pc_capture_find(&cap, PERF_RECORD_LOST, 0);
	ASSERT_NE(NULL, lost);
	EXPECT_EQ(3, lost->lost.lost);
	EXPECT_EQ(id, lost->lost.id);
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/*
 * A forward event cannot write into a backward ring, nor the other way
 * round; a backward event redirected into another backward ring writes its
 * records there.
 */
TEST(no_shared_ring_with_forward_events)
{
	struct perfconf_attr back = backward_faults();
	struct perfconf_attr fwd = backward_faults();
	struct pc_capture b, f;

	fwd.write_backward = 0;
	ASSERT_ERRNO(0, -pc_capture_open(&b, &back, 0, -1));
	ASSERT_ERRNO(0, -pc_capture_open(&f, &fwd, 0, -1));
	int fwd2 = pc_open(&fwd, 0, -1, -1, 0), back2 = pc_open(&back, 0, -1, -1, 0);
	ASSERT_OPEN(fwd2);
	ASSERT_OPEN(back2);
	int err = ioctl(fwd2, PERF_EVENT_IOC_SET_OUTPUT, b.fd) ? errno : 0;
	pc_observe_errno("forward_into_backward", err);
	EXPECT_ERRNO(EINVAL, err);
	err = ioctl(back2, PERF_EVENT_IOC_SET_OUTPUT, f.fd) ? errno : 0;
	pc_observe_errno("backward_into_forward", err);
	EXPECT_ERRNO(EINVAL, err);
	/* Same direction is fine: the control for the two refusals above. */
	ASSERT_ERRNO(0, ioctl(back2, PERF_EVENT_IOC_SET_OUTPUT, b.fd) ? errno : 0);
	/*
	 * And it really redirects: back2 has no ring of its own, b's event
	 * stays disabled, so the samples of back2's faults must be in b's
	 * backward ring, the newest at data_head.
	 */
	struct pc_faults faults;
	ASSERT_EQ(0, pc_faults_map(&faults, 5));
	pc_faults_enabled(&faults, back2, 4);
	EXPECT_EQ(-4 * SAMPLE_SIZE, (int64_t)pc_ring_head(&b.ring)) TH_LOG("SET_OUTPUT target's ring not written");
	EXPECT_EQ(0, pc_ring_head(&f.ring)) TH_LOG("the forward ring was written");
	ASSERT_CAPTURE_READ(&b);
	ASSERT_EQ(4, pc_capture_count(&b, PERF_RECORD_SAMPLE));
	for (size_t k = 0; k < 4; k++) {
		EXPECT_EQ(pc_faults_addr(&faults, 1 + k), pc_capture_find(&b, PERF_RECORD_SAMPLE, k)->sample.addr);
	}
	pc_faults_unmap(&faults);
	close(fwd2);
	close(back2);
	pc_capture_close(&b);
	pc_capture_close(&f);
}

/*
 * A writable mapping of a backward event: the outcome is pinned, and if
 * the kernel takes it, the ring is then not overwritten (data_tail rules)
 * and never holds more than its size.
 */
TEST(writable_mapping)
{
	struct perfconf_attr attr = backward_faults();
	long pg = sysconf(_SC_PAGESIZE);
	struct pc_faults f;
	int fd = pc_open(&attr, 0, -1, -1, 0);

	ASSERT_OPEN(fd);
	void *map = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	pc_observe_errno("mmap", map == MAP_FAILED ? errno : 0);
	if (map != MAP_FAILED) {
		struct perf_event_mmap_page *page = map;
		size_t n = 4 * (size_t)pg / SAMPLE_SIZE;

		ASSERT_EQ(0, pc_faults_map(&f, n + 1));
		pc_faults_enabled(&f, fd, n);
		uint64_t used = -__atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
		DEPENDS_ON("page_size");	/* what one page holds */
		pc_observe("bytes_written", "%llu", (unsigned long long)used);
		EXPECT_GE((uint64_t)pg, used) TH_LOG("a writable backward ring went past its size");
		pc_faults_unmap(&f);
		munmap(map, 2 * (size_t)pg);
	}
	close(fd);
}

TEST_HARNESS_MAIN
