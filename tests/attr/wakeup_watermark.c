// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup_watermark: with watermark set, "how many [...] bytes happen
 * before an overflow notification happens": poll() reports POLLIN when the
 * data written crosses the next multiple of wakeup_watermark. With 16-byte
 * samples (header + PERF_SAMPLE_ADDR) and a boundary of 56 bytes, the 4th
 * sample ends at 64 (crosses 56) and the 8th at 128 (crosses 112):
 * "...w...w.". The bytes of every record count: a COMM record and then one
 * sample cross a boundary just past the COMM. Where a boundary that a
 * record ends exactly on counts, and a boundary beyond the ring, are pinned.
 */
#include "perfconf.h"
#include "ring/wakeup.h"
#include "work/mapping.h"

#define STEPS 9
#define SAMPLE_SIZE 16

static void pattern_of(struct __test_metadata *_metadata, uint32_t bytes, unsigned int pages_log2,
		       size_t steps, char *pattern)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	uint64_t count;

	attr.watermark = 1;
	attr.wakeup_watermark = bytes;
	ASSERT_ERRNO(0, -pc_wakeup_pattern(&attr, pages_log2, steps, pattern, &count));
	EXPECT_EQ(steps, count) TH_LOG("faults other than the steps' own were sampled");
}

TEST(wakes_when_a_boundary_is_crossed)
{
	char pattern[STEPS + 1];

	pattern_of(_metadata, 3 * SAMPLE_SIZE + 8, 4, STEPS, pattern);
	EXPECT_STREQ("...w...w.", pattern);
}

TEST(wakes_every_sample_below_a_sample)
{
	char pattern[STEPS + 1];

	pattern_of(_metadata, SAMPLE_SIZE - 8, 4, STEPS, pattern);
	EXPECT_STREQ("wwwwwwwww", pattern);
}

/*
 * A boundary at exactly 3 samples: the 3rd sample ends on it. Whether that
 * crosses it is pinned; either way the notifications are 3 samples apart.
 */
TEST(boundary_on_a_record_end)
{
	char pattern[STEPS + 1];

	pattern_of(_metadata, 3 * SAMPLE_SIZE, 4, STEPS, pattern);
	pc_observe("pattern", "%s", pattern);
	EXPECT_TRUE(!strcmp(pattern, "..w..w..w") || !strcmp(pattern, "...w..w.."))
		TH_LOG("a 48-byte watermark with 16-byte samples: %s", pattern);
}

/*
 * A watermark larger than the data area (the ring is drained, so it never
 * fills): where the first notification comes is pinned. Observation only:
 * the man page gives no upper bound for wakeup_watermark and does not say
 * what a watermark past the ring's size does.
 */
TEST(larger_than_the_ring)
{
	const size_t steps = pc_scaled_to_page(399);	/* more than a one-page ring holds */
	char *pattern = calloc(1, steps + 1);

	ASSERT_NE(NULL, pattern);
	pattern_of(_metadata, 1u << 20, 0, steps, pattern);
	char *wake = strchr(pattern, 'w');
	DEPENDS_ON("page_size");	/* what one page holds */
	pc_observe("first_wake_in_one_page", "%zu", wake ? (size_t)(wake - pattern) + 1 : 0);
	free(pattern);
}

/* The COMM record's bytes and then one sample's cross a boundary just past the COMM. */
TEST(every_record_type_counts)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_DUMMY, 0, 0);
	struct pc_capture cap;

	/* The size of this COMM record, from a first event. */
	attr.comm = 1;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	ASSERT_EQ(0, pc_work_set_comm("pc-wm-comm"));
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(1, pc_capture_count(&cap, PERF_RECORD_COMM));
	uint32_t comm_size = pc_capture_find(&cap, PERF_RECORD_COMM, 0)->size;
	pc_capture_close(&cap);

	/* Page faults sampled, COMM records too, boundary 8 bytes past the COMM. */
	attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	attr.exclude_kernel = 1;
	attr.comm = 1;
	attr.watermark = 1;
	attr.wakeup_watermark = comm_size + 8;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	pc_pollin(cap.fd);
	ASSERT_EQ(0, pc_enable(cap.fd));
	ASSERT_EQ(0, pc_work_set_comm("pc-wm-comm"));
	int after_comm = pc_pollin(cap.fd);
	ASSERT_EQ(0, pc_work_page_faults(1));
	int after_sample = pc_pollin(cap.fd);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(1, pc_capture_count(&cap, PERF_RECORD_COMM));
	ASSERT_LE(1, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	EXPECT_FALSE(after_comm) TH_LOG("%u bytes woke a %u-byte watermark", comm_size, comm_size + 8);
	EXPECT_TRUE(after_sample) TH_LOG("COMM + sample crossed the watermark without a notification");
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
