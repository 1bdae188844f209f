// SPDX-License-Identifier: GPL-2.0
/*
 * aux_watermark (since Linux 4.1): "how much data is required to trigger a
 * PERF_RECORD_AUX sample" (man page), i.e. the AUX bytes between wake-ups
 * (0: half the AUX buffer). It belongs to the AUX area, which only an AUX
 * PMU has: an event without one takes the field and ignores it, and
 * refuses an AUX area mapping whatever the field says.
 *
 * On an AUX PMU (the suite's perfconf_aux, ring/synth.h) the reader is
 * woken each time aux_head passes a multiple of the watermark
 * (rb_need_aux_wakeup(), kernel/events/ring_buffer.c), and never in
 * overwrite mode.
 */
#include <poll.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "aux_field_cases.h"

#define FIELD "aux_watermark"
#define FAULTS 32

/* Accepted on a software event, which counts exactly as without it. */
TEST(ignored_by_a_software_event)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t count;

	REQUIRE_ATTR_FIELD(FIELD);
	attr.exclude_kernel = 1;
	attr.aux_watermark = UINT32_MAX;
	int fd = pc_open(&attr, 0, -1, -1, 0);
	pc_observe_errno("errno", fd < 0 ? errno : 0);
	ASSERT_OPEN(fd);
	pc_work_page_faults(1);		/* the workload's own first faults */
	ASSERT_EQ(0, pc_enable(fd));
	ASSERT_EQ(0, pc_work_page_faults(FAULTS));
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(0, pc_read_count(fd, &count));
	EXPECT_EQ(FAULTS, count);
	close(fd);
}

/*
 * With aux_offset/aux_size set in the control page, mmap of the AUX area of
 * a software event fails: it has no AUX area to map. Its data ring is not
 * disturbed: the control page still describes it.
 */
TEST(aux_area_refused_on_a_software_event)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct pc_ring ring = { 0 };

	REQUIRE_ATTR_FIELD(FIELD);
	attr.aux_watermark = (uint32_t)sysconf(_SC_PAGESIZE);
	int fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_ring_map(&ring, fd, 2, PC_RING_READWRITE));
	int err = -pc_ring_map_aux(&ring, fd, 2, PC_RING_READWRITE);
	pc_observe_errno("errno.mmap_aux", err);
	EXPECT_NE(0, err) TH_LOG("an AUX area was mapped on a software event");
	EXPECT_EQ(NULL, ring.aux);
	EXPECT_EQ(4 * sysconf(_SC_PAGESIZE), ring.page->data_size);
	EXPECT_EQ(0, ring.page->aux_head);
	pc_ring_unmap(&ring);
	close(fd);
}

/*
 * Each of `cycles` ENABLE/DISABLE of an event writing chunk bytes per
 * start into a 16-page area wakes the reader exactly when aux_head passes
 * a multiple of `every`, and one at least does (but in overwrite mode).
 */
#define CHUNK 512

static void expect_wakeups(struct __test_metadata *_metadata, uint32_t chunk, int cycles,
			   uint32_t aux_watermark, uint64_t every, enum pc_ring_mode mode)
{
	struct perfconf_attr attr = pc_attr_synth_aux(chunk);
	struct pc_capture cap;
	uint64_t before = 0;
	int woken = 0;

	attr.aux_watermark = aux_watermark;
	attr.watermark = 1;
	attr.wakeup_watermark = 1 << 30;	/* the data ring never wakes */
	ASSERT_ERRNO(0, -pc_synth_capture(&cap, &attr, 4, mode));
	for (int i = 0; i < cycles; i++) {
		struct pollfd pfd = { .fd = cap.fd, .events = POLLIN };

		ASSERT_EQ(0, pc_enable(cap.fd));
		ASSERT_EQ(0, pc_disable(cap.fd));
		uint64_t head = cap.ring.page->aux_head;
		bool passed = mode == PC_RING_READWRITE && head / every > before / every;

		ASSERT_LE(0, poll(&pfd, 1, 0));
		EXPECT_EQ(passed, !!(pfd.revents & POLLIN))
			TH_LOG("aux_head %llu -> %llu", (unsigned long long)before, (unsigned long long)head);
		woken += !!(pfd.revents & POLLIN);
		before = head;
	}
	EXPECT_LE((uint64_t)cycles * chunk, before);
	if (mode == PC_RING_READWRITE)
		EXPECT_LE(1, woken);
	pc_capture_close(&cap);
}

TEST(wakes_at_each_watermark_of_aux_data)
{
	REQUIRE_SYNTH_PMU();
	REQUIRE_ATTR_FIELD(FIELD);
	expect_wakeups(_metadata, CHUNK, 24, 4 * CHUNK, 4 * CHUNK, PC_RING_READWRITE);
}

/* 0 is half the area: 8 of its 16 pages (12 intervals of a page pass it once). */
TEST(zero_is_half_the_area)
{
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE);

	REQUIRE_SYNTH_PMU();
	REQUIRE_ATTR_FIELD(FIELD);
	expect_wakeups(_metadata, page, 12, 0, 8 * (uint64_t)page, PC_RING_READWRITE);
}

/* A read-only (overwrite) area is never waited for. */
TEST(no_wakeups_in_overwrite_mode)
{
	REQUIRE_SYNTH_PMU();
	REQUIRE_ATTR_FIELD(FIELD);
	expect_wakeups(_metadata, CHUNK, 24, 4 * CHUNK, 4 * CHUNK, PC_RING_OVERWRITE);
}

AUX_FIELD_CASES(FIELD, pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS), 4096, false,
		"one wake-up per aux_watermark bytes of AUX data")

TEST_HARNESS_MAIN
