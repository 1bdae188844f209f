// SPDX-License-Identifier: GPL-2.0
/*
 * use_clockid (since Linux 4.1): "This allows selecting which internal
 * Linux clock to use when generating timestamps via the clockid field."
 * Without the bit, clockid is not looked at (any value opens) and times
 * come from the kernel's own perf clock, not from the clock named there;
 * with it, the same clockid puts times in that clock's domain. All events
 * of a group share one clock: a sibling on another clock is refused.
 */
#include <time.h>

#include "perfconf.h"
#include "work/clock.h"
#include "work/faults.h"

static int64_t now(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The time of one page-fault sample of an event with these clock fields. */
static int64_t sample_time(struct __test_metadata *_metadata, int use_clockid, int clockid)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_TIME);
	struct pc_capture cap;
	struct pc_faults f;
	int64_t t = -1;

	attr.exclude_kernel = 1;
	attr.use_clockid = use_clockid;
	attr.clockid = clockid;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_faults_map(&f, 2));
	pc_faults_enabled(&f, cap.fd, 1);
	if (pc_capture_read(&cap) >= 0 && pc_capture_count(&cap, PERF_RECORD_SAMPLE) == 1)
		t = (int64_t)pc_capture_find(&cap, PERF_RECORD_SAMPLE, 0)->sample.time;
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
	EXPECT_NE(-1, t) TH_LOG("no sample: %s", cap.error);
	return t;
}

/*
 * Two page-fault samples of an event with these clock fields, a sleep of
 * sleep_us between them, CLOCK_MONOTONIC read around the sleep (mono[0], mono[1])
 * and around the whole (mono[2], mono[3]); the two times in t. The path
 * runs once unmeasured first, so no other fault is sampled.
 */
static void two_times_around_a_sleep(struct __test_metadata *_metadata, int use_clockid, int clockid,
				     useconds_t sleep_us, int64_t t[2], int64_t mono[4])
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_TIME);
	struct pc_capture cap;
	struct pc_faults f;

	attr.exclude_kernel = 1;
	attr.use_clockid = use_clockid;
	attr.clockid = clockid;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_faults_map(&f, 3));
	mono[2] = now(CLOCK_MONOTONIC);
	usleep(1);
	pc_faults_next(&f, 1);
	mono[2] = now(CLOCK_MONOTONIC);
	ASSERT_EQ(0, pc_enable(cap.fd));
	pc_faults_next(&f, 1);
	mono[0] = now(CLOCK_MONOTONIC);
	usleep(sleep_us);
	mono[1] = now(CLOCK_MONOTONIC);
	pc_faults_next(&f, 1);
	ASSERT_EQ(0, pc_disable(cap.fd));
	mono[3] = now(CLOCK_MONOTONIC);
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(2, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (int k = 0; k < 2; k++)
		t[k] = (int64_t)pc_capture_find(&cap, PERF_RECORD_SAMPLE, k)->sample.time;
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* Without the bit, clockid may hold anything: it is not read. */
TEST(clockid_is_ignored_without_the_bit)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.clockid = 12345;
	EXPECT_ERRNO(0, pc_open_observe_errno("garbage_clockid", &attr, 0, -1));
	attr.clockid = -1;
	EXPECT_ERRNO(0, pc_open_observe_errno("minus_one_clockid", &attr, 0, -1));
}

/*
 * The same clockid = CLOCK_REALTIME: with the bit, the time is within a
 * millisecond of the realtime clock read around it; without it, it is the
 * perf clock, which counts from about boot and is decades away, and runs
 * at the rate of CLOCK_MONOTONIC.
 */
TEST(the_bit_switches_the_time_domain)
{
	int64_t before = now(CLOCK_REALTIME);
	int64_t with = sample_time(_metadata, 1, CLOCK_REALTIME);
	int64_t without = sample_time(_metadata, 0, CLOCK_REALTIME);
	int64_t after = now(CLOCK_REALTIME);

	if (before < 3600LL * 24 * 365 * 1000000000LL)
		BLOCKED("the realtime clock is in 1970 (no RTC set it): it cannot be told from the perf clock");
	EXPECT_LE(before - 1000000, with);
	EXPECT_GE(after + 1000000, with);
	EXPECT_GT(before / 2, without) TH_LOG("without use_clockid the time is in the realtime domain");

	/*
	 * And without the bit it is a running nanosecond clock (the perf
	 * clock, local_clock(): not CLOCK_MONOTONIC, so its rate is compared,
	 * not its value): a sleep shows in full (90% allowed) and no more than
	 * the whole run took (110%), each less a reading's error at both ends
	 * (pc_perf_clock_error: a tick on a coarse clock); the sleep lasts
	 * 2 ms or 20 such errors, whichever is longer, so that a clock that
	 * misses a fifth of it, or runs a fifth fast, fails.
	 */
	uint64_t error = 0;
	ASSERT_EQ(0, pc_perf_clock_error(&error));
	int64_t e = (int64_t)error, t[2], mono[4];
	useconds_t sleep_us = 20 * error > 2000000 ? (useconds_t)(20 * error / 1000) : 2000;
	two_times_around_a_sleep(_metadata, 0, CLOCK_REALTIME, sleep_us, t, mono);
	EXPECT_LT(0, t[0]);
	EXPECT_LE((mono[1] - mono[0]) / 10 * 9, t[1] - t[0] + 2 * e)
		TH_LOG("a sleep of %lld ns shows as %lld (error %lld ns at each end)",
		       (long long)(mono[1] - mono[0]), (long long)(t[1] - t[0]), (long long)e);
	EXPECT_GE((mono[3] - mono[2]) / 10 * 11 + 2 * e, t[1] - t[0])
		TH_LOG("a run of %lld ns shows as %lld (error %lld ns at each end)",
		       (long long)(mono[3] - mono[2]), (long long)(t[1] - t[0]), (long long)e);
	EXPECT_GT(before / 2, t[0]) TH_LOG("without use_clockid the time is in the realtime domain");
}

/* use_clockid with clockid 0 is CLOCK_REALTIME (0), not "no clock". */
TEST(clockid_zero_is_realtime)
{
	int64_t before = now(CLOCK_REALTIME);
	int64_t t = sample_time(_metadata, 1, 0);
	int64_t after = now(CLOCK_REALTIME);

	EXPECT_LE(before - 1000000, t);
	EXPECT_GE(after + 1000000, t);
}

/* "All events in a group should have the same clock." */
TEST(group_shares_one_clock)
{
	struct perfconf_attr leader = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct perfconf_attr sibling = pc_attr_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);

	leader.use_clockid = 1;
	leader.clockid = CLOCK_MONOTONIC_RAW;
	int fd = pc_open(&leader, 0, -1, -1, 0);
	ASSERT_OPEN(fd);

	int err = pc_open_errno(&sibling, 0, -1, fd, 0);
	pc_observe_errno("default_clock_sibling", err);
	EXPECT_ERRNO(EINVAL, err);

	sibling.use_clockid = 1;
	sibling.clockid = CLOCK_MONOTONIC;
	err = pc_open_errno(&sibling, 0, -1, fd, 0);
	pc_observe_errno("other_clock_sibling", err);
	EXPECT_ERRNO(EINVAL, err);

	sibling.clockid = CLOCK_MONOTONIC_RAW;
	EXPECT_ERRNO(0, pc_open_errno(&sibling, 0, -1, fd, 0));
	close(fd);
}

TEST_HARNESS_MAIN
