// SPDX-License-Identifier: GPL-2.0
/*
 * freq: "If this bit is set, then sample_frequency not sample_period is
 * used when setting up the sampling interval." The same number means a
 * count of events without the bit and a rate with it: 1000 as a period
 * over 64 page faults gives no sample, 1000 Hz samples the first faults
 * (the kernel starts a frequency event at a period of 1 and adjusts it
 * from there). A sample_freq of 0 leaves a counting event. The bit63
 * rule for periods does not apply to frequencies, which are capped by
 * perf_event_max_sample_rate instead (see sample_freq).
 */
#include <linux/hw_breakpoint.h>

#include "perfconf.h"
#include "sampling_counted.h"

#define FAULTS 64

/* FAULTS faults sampled by a page-fault event with this union value and freq bit. */
static void sample_faults_with(struct __test_metadata *_metadata, struct pc_capture *cap,
			       uint64_t value, int freq, uint64_t sample_type)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, value, sample_type);
	struct pc_faults f;

	attr.freq = freq;
	sample_faults(_metadata, cap, &attr, &f, FAULTS);
	pc_faults_unmap(&f);
}

/* How many of them it samples. */
static size_t samples_of_faults(struct __test_metadata *_metadata, uint64_t value, int freq)
{
	struct pc_capture cap;

	sample_faults_with(_metadata, &cap, value, freq, PERF_SAMPLE_ADDR);
	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	pc_capture_close(&cap);
	return samples;
}

TEST(without_freq_the_value_is_a_period)
{
	EXPECT_EQ(0, samples_of_faults(_metadata, 1000, 0));
}

TEST(with_freq_the_value_is_a_rate)
{
	struct pc_capture cap;

	sample_faults_with(_metadata, &cap, 1000, 1, PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD);
	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	EXPECT_LE(1, samples) TH_LOG("a 1000 Hz event took no sample of 64 faults");
	if (samples)
		pc_observe("first_period", "%llu", (unsigned long long)
			   pc_capture_find(&cap, PERF_RECORD_SAMPLE, 0)->sample.period);
	for (size_t k = 0; k < samples; k++) {
		EXPECT_LE(1, pc_capture_find(&cap, PERF_RECORD_SAMPLE, k)->sample.period);
	}
	pc_capture_close(&cap);
}

/* freq with sample_freq 0: not a sampling event (sample_period, the union, is 0). */
TEST(zero_frequency_is_counting)
{
	EXPECT_EQ(0, samples_of_faults(_metadata, 0, 1));
}

/*
 * The period limit (bit 63 refused) is a period rule: with freq the value
 * is checked against perf_event_max_sample_rate, and 2^63 Hz is above it.
 */
TEST(bit63_as_frequency)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1ULL << 63, 0);

	attr.freq = 1;
	EXPECT_ERRNO(EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

/*
 * A breakpoint in frequency mode still counts every hit, and its samples
 * (the first one's period pinned) are all at the breakpoint address.
 */
TEST(breakpoint_in_frequency_mode)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);
	struct pc_capture cap;

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	attr.freq = 1;
	attr.sample_freq = 1000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	int err = sample_work(_metadata, &cap, &attr, pc_calls_work, 1000);
	SKIP_IF_UNSUPPORTED(-err, "an execute breakpoint");
	ASSERT_ERRNO(0, -err);
	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	ASSERT_LE(1, samples);
	pc_observe("first_period", "%llu", (unsigned long long)
		   pc_capture_find(&cap, PERF_RECORD_SAMPLE, 0)->sample.period);
	expect_samples_at_target(_metadata, &cap);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
