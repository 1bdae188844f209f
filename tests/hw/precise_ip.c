// SPDX-License-Identifier: GPL-2.0
/*
 * precise_ip on hardware events: "This controls the amount of skid": 0
 * arbitrary, 1 constant, 2 requested to be 0, 3 must be 0. A PMU that
 * cannot give the skid asked for refuses it ("EOPNOTSUPP ... requesting
 * low-skid events if not supported", some PMUs EINVAL). Which levels the
 * core PMU takes is pinned per event, for counting and for sampling
 * events (`precise_<n>`); 0 is always taken. A cycles sampling event that
 * was taken at a level takes its samples (the same number as at level 0,
 * over the exact loop), and whether they carry PERF_RECORD_MISC_EXACT_IP
 * is pinned (`exact_ip_<n>`). (Cycles: qemu's PMUv3 raises the overflow
 * interrupt on time for its cycle counter only, see sampling_period.c.)
 */
#include <stdio.h>

#include "perfconf.h"
#include "event/hw.h"

#define PERIOD 1000
#define N 10000

static void levels(struct __test_metadata *_metadata, uint64_t config, uint64_t period)
{
	char key[32];

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(config);
	for (unsigned int p = 0; p <= 3; p++) {
		struct perfconf_attr attr = pc_attr_hw(config);

		attr.exclude_kernel = 1;
		attr.precise_ip = p;
		attr.sample_period = period;
		attr.sample_type = period ? PERF_SAMPLE_IP : 0;
		snprintf(key, sizeof(key), "precise_%u", p);
		int err = pc_open_observe_errno(key, &attr, 0, -1);
		if (p == 0) {
			EXPECT_ERRNO(0, err);
		} else if (err) {
			EXPECT_TRUE(pc_hw_refusal_documented(err)) TH_LOG("precise_ip %u: %s", p, pc_errno_name(err));
		}
	}
}

TEST(cycles_counting)		{ levels(_metadata, PERF_COUNT_HW_CPU_CYCLES, 0); }
TEST(cycles_sampling)		{ levels(_metadata, PERF_COUNT_HW_CPU_CYCLES, PERIOD); }
TEST(instructions_counting)	{ levels(_metadata, PERF_COUNT_HW_INSTRUCTIONS, 0); }
TEST(instructions_sampling)	{ levels(_metadata, PERF_COUNT_HW_INSTRUCTIONS, PERIOD); }

/* The samples of every accepted level: as many as at level 0. */
TEST(accepted_levels_sample)
{
	char key[32];
	size_t base = 0;

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(PERF_COUNT_HW_CPU_CYCLES);
	REQUIRE_HW_LOOP();
	for (unsigned int p = 0; p <= 3; p++) {
		struct perfconf_attr attr = pc_attr_hw(PERF_COUNT_HW_CPU_CYCLES);
		struct pc_capture cap;
		size_t exact = 0;

		attr.exclude_kernel = 1;
		attr.precise_ip = p;
		attr.sample_period = PERIOD;
		attr.sample_type = PERF_SAMPLE_IP;
		if (pc_capture_open(&cap, &attr, 0, -1))
			continue;	/* refused: pinned above */
		ASSERT_EQ(0, pc_hw_loop_fd(cap.fd, 0, N));
		ASSERT_CAPTURE_READ(&cap);
		size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
		if (p == 0)
			base = samples;
		EXPECT_LT(0, samples) TH_LOG("precise_ip %u", p);
		EXPECT_EQ(base, samples) TH_LOG("precise_ip %u", p);
		for (size_t i = 0; i < samples; i++)
			exact += !!(pc_capture_find(&cap, PERF_RECORD_SAMPLE, i)->misc & PERF_RECORD_MISC_EXACT_IP);
		snprintf(key, sizeof(key), "exact_ip_%u", p);
		pc_observe(key, "%s", !exact ? "none" : exact == samples ? "all" : "some");
		pc_capture_close(&cap);
	}
}

TEST_HARNESS_MAIN
