// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup_events: "This union sets how many samples (wakeup_events) or
 * bytes (wakeup_watermark) happen before an overflow notification
 * happens. [...] wakeup_events counts only PERF_RECORD_SAMPLE record
 * types." With watermark = 0, poll() reports POLLIN after every N-th
 * sample and not before: one sample per page fault, polled after each,
 * gives "..w..w..w" for N = 3. A COMM record does not count.
 *
 * "Prior to Linux 3.0, setting wakeup_events to 0 resulted in no overflow
 * notifications; more recent kernels treat 0 the same as 1." What 0 does
 * is pinned; that it notifies at all is checked: before the ring is full.
 */
#include "perfconf.h"
#include "ring/wakeup.h"
#include "work/mapping.h"
#include "wakeup_comm.h"

#define STEPS 9

static struct perfconf_attr fault_sampler(uint32_t wakeup_events)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);

	attr.wakeup_events = wakeup_events;
	return attr;
}

/* The pattern of STEPS samples with this wakeup_events, in a 16-page ring. */
static void pattern_of(struct __test_metadata *_metadata, uint32_t wakeup_events, char *pattern)
{
	struct perfconf_attr attr = fault_sampler(wakeup_events);
	uint64_t count;

	ASSERT_ERRNO(0, -pc_wakeup_pattern(&attr, 4, STEPS, pattern, &count));
	EXPECT_EQ(STEPS, count) TH_LOG("faults other than the steps' own were sampled");
}

TEST(every_third_sample_wakes)
{
	char pattern[STEPS + 1];

	pattern_of(_metadata, 3, pattern);
	EXPECT_STREQ("..w..w..w", pattern);
}

TEST(every_sample_wakes)
{
	char pattern[STEPS + 1];

	pattern_of(_metadata, 1, pattern);
	EXPECT_STREQ("wwwwwwwww", pattern);
}

TEST(more_than_were_taken_never_wakes)
{
	char pattern[STEPS + 1];

	pattern_of(_metadata, STEPS + 1, pattern);
	EXPECT_STREQ(".........", pattern);
}

/*
 * 0: the pattern of the first samples is pinned, and a notification comes
 * before a one-page ring of 16-byte samples is full (256 of them in 4 KiB).
 */
TEST(zero)
{
	const size_t steps = pc_scaled_to_page(299);	/* more than a page holds */
	char first[STEPS + 1], *pattern = calloc(1, steps + 1);
	struct perfconf_attr attr = fault_sampler(0);
	uint64_t count;

	ASSERT_NE(NULL, pattern);
	pattern_of(_metadata, 0, first);
	pc_observe("pattern", "%s", first);

	ASSERT_ERRNO(0, -pc_wakeup_pattern(&attr, 0, steps, pattern, &count));
	EXPECT_EQ(steps, count);
	char *wake = strchr(pattern, 'w');
	ASSERT_NE(NULL, wake) TH_LOG("wakeup_events = 0: no notification in %zu samples", steps);
	size_t at = (size_t)(wake - pattern) + 1;
	DEPENDS_ON("page_size");	/* what one page holds */
	pc_observe("first_wake_in_one_page", "%zu", at);
	EXPECT_GE(pc_page_size() / 16, at) TH_LOG("the first notification came after the ring was full");
	free(pattern);
}

/* A COMM record is written, but wakeup_events counts samples only. */
TEST(other_records_do_not_count)
{
	struct perfconf_attr attr = comm_reader();

	attr.wakeup_events = 1;
	EXPECT_FALSE(comm_wakes(_metadata, &attr)) TH_LOG("a COMM record woke a wakeup_events=1 reader");
}

TEST_HARNESS_MAIN
