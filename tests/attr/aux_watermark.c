// SPDX-License-Identifier: GPL-2.0
/*
 * aux_watermark (since Linux 4.1): "how much data is required to trigger a
 * PERF_RECORD_AUX sample" (man page), i.e. the AUX bytes between wake-ups
 * (0: half the AUX buffer). It belongs to the AUX area, which only an AUX
 * PMU has: an event without one takes the field and ignores it, and
 * refuses an AUX area mapping whatever the field says.
 */
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

AUX_FIELD_CASES(FIELD, pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS), 4096, false,
		"one wake-up per aux_watermark bytes of AUX data")

TEST_HARNESS_MAIN
