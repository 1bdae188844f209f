// SPDX-License-Identifier: GPL-2.0
/*
 * sample_freq: "sample_freq can be used if you wish to use frequency
 * rather than period. In this case, you set the freq flag. The kernel will
 * adjust the sampling period to try and achieve the desired rate." The
 * rate is capped: a sample_freq above perf_event_max_sample_rate is
 * refused with EINVAL.
 *
 * The rate is measured on the clock events, whose count is the task's own
 * CPU time in ns. The kernel only tries: the clock events sample from an
 * hrtimer, and a timer that fires late (a busy host under a guest's vCPU)
 * gives one sample for all the periods it missed; loaded 2-CPU hosts saw
 * 21 of 115 expected in a 6.1 guest and 2 of 103 in a 5.10 one. So the
 * bounds are what the timer guarantees: at least one sample (the timer
 * is armed at enable and 50 ms of the task's time is 100 periods: it
 * expires while the event counts, late or not), and at most twice the
 * rate (a period is never shorter than 1/sample_freq; twice leaves room
 * for the first, adjusting periods). The cap is shown against the current
 * sysctl value, which is read and never changed.
 */
#include "perfconf.h"

PERFCONF_META("reads=perf_event_max_sample_rate");

#define FREQ 2000		/* Hz */
#define RUN_NS 50000000ULL	/* 50 ms of task time: 100 samples expected */

/* Samples per second of the event's own time, and the period they report. */
static void measure_rate(struct __test_metadata *_metadata, uint64_t config)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(config, FREQ, PERF_SAMPLE_PERIOD);
	long max_rate;
	struct pc_capture cap;
	uint64_t ns = 0;

	ASSERT_EQ(0, pc_sysctl_get(PC_MAX_SAMPLE_RATE_SYSCTL, &max_rate));
	if (max_rate < FREQ)
		SKIP(return, "perf_event_max_sample_rate is %ld, below the %d Hz measured here",
		     max_rate, FREQ);
	attr.freq = 1;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	while (ns < RUN_NS) {
		pc_work_loop(100000);
		ASSERT_EQ(0, pc_read_count(cap.fd, &ns));
	}
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_EQ(0, pc_read_count(cap.fd, &ns));
	ASSERT_CAPTURE_READ(&cap);

	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	uint64_t expected = ns * FREQ / 1000000000ULL;
	TH_LOG("%zu samples in %llu ns of task time at %d Hz (%llu expected)", samples,
	       (unsigned long long)ns, FREQ, (unsigned long long)expected);
	EXPECT_LE(1, samples);
	EXPECT_GE(expected * 2, samples);
	/* The period each sample reports: fixed for a clock, pinned. */
	uint64_t period = samples ? pc_capture_find(&cap, PERF_RECORD_SAMPLE, 0)->sample.period : 0;
	for (size_t k = 1; k < samples; k++)
		if (pc_capture_find(&cap, PERF_RECORD_SAMPLE, k)->sample.period != period)
			period = 0;
	if (period)
		pc_observe("period", "%llu", (unsigned long long)period);
	else
		pc_observe("period", "varies");
	pc_capture_close(&cap);
}

TEST(rate_of_task_clock)
{
	measure_rate(_metadata, PERF_COUNT_SW_TASK_CLOCK);
}

TEST(rate_of_cpu_clock)
{
	measure_rate(_metadata, PERF_COUNT_SW_CPU_CLOCK);
}

/*
 * Open a freq event asking for `max + delta` Hz, max being the sysctl as
 * read around the open (the kernel may lower it by itself when samples
 * take too long; then the reading is retried). The errno, or -1.
 */
static int open_at_max_rate(int64_t delta, long *max)
{
	for (int tries = 0; tries < 5; tries++) {
		long before, after;
		struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_CPU_CLOCK, 0, PERF_SAMPLE_IP);

		if (pc_sysctl_get(PC_MAX_SAMPLE_RATE_SYSCTL, &before))
			return -1;
		attr.freq = 1;
		attr.sample_freq = (uint64_t)(before + delta);
		int err = pc_open_errno(&attr, 0, -1, -1, 0);
		if (pc_sysctl_get(PC_MAX_SAMPLE_RATE_SYSCTL, &after))
			return -1;
		if (after == before) {
			*max = before;
			return err;
		}
	}
	return -1;
}

/* "EINVAL ... sample_freq is higher than the maximum setting" */
TEST(above_max_sample_rate_is_refused)
{
	long max;
	int err = open_at_max_rate(1, &max);

	ASSERT_NE(-1, err) TH_LOG("perf_event_max_sample_rate could not be read steadily");
	EXPECT_ERRNO(EINVAL, err) TH_LOG("sample_freq = perf_event_max_sample_rate + 1 = %ld", max + 1);
}

TEST(at_max_sample_rate_is_accepted)
{
	long max;
	int err = open_at_max_rate(0, &max);

	ASSERT_NE(-1, err) TH_LOG("perf_event_max_sample_rate could not be read steadily");
	EXPECT_ERRNO(0, err) TH_LOG("sample_freq = perf_event_max_sample_rate = %ld", max);
}

/* Far above any rate: the whole u64 range is checked, not a truncation of it. */
TEST(huge_frequency_is_refused)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_CPU_CLOCK, 0, PERF_SAMPLE_IP);

	attr.freq = 1;
	attr.sample_freq = (1ULL << 32) + 1000;	/* 1000 if cut to 32 bits */
	EXPECT_ERRNO(EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST_HARNESS_MAIN
