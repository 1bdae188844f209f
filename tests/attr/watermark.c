// SPDX-License-Identifier: GPL-2.0
/*
 * watermark: "If set, have an overflow notification happen when we cross
 * the wakeup_watermark boundary. Otherwise, overflow notifications happen
 * after wakeup_events samples." The bit selects how the union is read:
 * 2 is two samples without it and two bytes with it (every 16-byte sample
 * crosses). "To receive overflow notification for all PERF_RECORD types
 * choose watermark and set wakeup_watermark to 1": a COMM record wakes.
 * With a wakeup_watermark of 0 the kernel picks a boundary itself, pinned.
 */
#include "perfconf.h"
#include "ring/wakeup.h"
#include "work/mapping.h"
#include "wakeup_comm.h"

#define STEPS 9

/* The pattern of STEPS 16-byte samples with this watermark bit and union value. */
static void pattern_of(struct __test_metadata *_metadata, int watermark, uint32_t value,
		       unsigned int pages_log2, size_t steps, char *pattern)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	uint64_t count;

	attr.watermark = watermark;
	attr.wakeup_events = value;
	ASSERT_ERRNO(0, -pc_wakeup_pattern(&attr, pages_log2, steps, pattern, &count));
	EXPECT_EQ(steps, count) TH_LOG("faults other than the steps' own were sampled");
}

TEST(without_the_bit_the_union_counts_samples)
{
	char pattern[STEPS + 1];

	pattern_of(_metadata, 0, 2, 4, STEPS, pattern);
	EXPECT_STREQ(".w.w.w.w.", pattern);
}

TEST(with_the_bit_the_union_counts_bytes)
{
	char pattern[STEPS + 1];

	pattern_of(_metadata, 1, 2, 4, STEPS, pattern);
	EXPECT_STREQ("wwwwwwwww", pattern);
}

/*
 * watermark with wakeup_watermark 0: the kernel's default boundary (half
 * the data area) is pinned; a notification comes before a one-page ring
 * of 16-byte samples is full, and not after every sample.
 */
TEST(zero_watermark)
{
	const size_t steps = pc_scaled_to_page(299), per_page = pc_page_size() / 16;
	char *pattern = calloc(1, steps + 1);

	ASSERT_NE(NULL, pattern);
	ASSERT_GT(steps, per_page);
	pattern_of(_metadata, 1, 0, 0, steps, pattern);
	char *wake = strchr(pattern, 'w');
	ASSERT_NE(NULL, wake) TH_LOG("no notification in %zu samples", steps);
	size_t at = (size_t)(wake - pattern) + 1;
	DEPENDS_ON("page_size");	/* what one page holds */
	pc_observe("first_wake_in_one_page", "%zu", at);
	EXPECT_LT(1, at);
	EXPECT_GE(per_page, at) TH_LOG("the first notification came after the ring was full");
	free(pattern);
}

/* Every record type counts toward the watermark: a COMM record wakes. */
TEST(any_record_wakes_at_one_byte)
{
	struct perfconf_attr attr = comm_reader();

	attr.watermark = 1;
	attr.wakeup_watermark = 1;
	EXPECT_TRUE(comm_wakes(_metadata, &attr)) TH_LOG("a COMM record did not wake a wakeup_watermark=1 reader");
}

TEST_HARNESS_MAIN
