// SPDX-License-Identifier: GPL-2.0
/*
 * defer_output (since Linux 6.19): "output PERF_RECORD_CALLCHAIN_DEFERRED
 * records" (UAPI). When a sample's user callchain was deferred
 * (defer_callchain), the user stack is unwound before the task returns to
 * user space and written, as a CALLCHAIN_DEFERRED record with the sample's
 * cookie, to the events that have defer_output, like other side-band
 * records (mmap, comm): a dummy event can collect them for the samplers.
 * Before 6.19 the bit was part of __reserved_1: EINVAL.
 */
#include <sys/syscall.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "ring/callchain_deferred.h"
#include "defer_faults.h"

#define FIELD "defer_output"

/* A side-band event: a dummy that only collects CALLCHAIN_DEFERRED records. */
static struct perfconf_attr side_band(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.sample_type = PERF_SAMPLE_TID;
	attr.sample_id_all = 1;
	attr.defer_output = 1;
	return attr;
}

TEST(acceptance)
{
	struct perfconf_attr attr = side_band();
	int err = pc_open_observe_errno("errno", &attr, 0, -1);

	EXPECT_ERRNO_SINCE(FIELD, 0, EINVAL, err);
}

/*
 * The sampler defers, the side-band event outputs: every cookie of the
 * sampler's samples is answered in the side-band ring (by a record of this
 * task, whose stack starts at the sample's IP), and none in the sampler's.
 */
TEST(side_band_event_receives_the_records)
{
	struct perfconf_attr s_attr = pc_attr_defer_sampler(), d_attr = side_band();
	struct pc_capture s, d;

	REQUIRE_DEFER();
	REQUIRE_CONFIG("UNWIND_USER");
	ASSERT_ERRNO(0, -pc_capture_open(&d, &d_attr, 0, -1));
	ASSERT_ERRNO(0, -pc_capture_open(&s, &s_attr, 0, -1));
	ASSERT_EQ(0, pc_deferred_faults(FAULTS, &d, &s)) TH_LOG("%s%s", d.error, s.error);
	size_t samples = pc_capture_count(&s, PERF_RECORD_SAMPLE);
	ASSERT_LE(FAULTS, samples);
	REQUIRE_DEFERRED_SAMPLES(&s);
	EXPECT_EQ(0, pc_capture_count(&s, PC_RECORD_CALLCHAIN_DEFERRED));
	EXPECT_EQ(samples, pc_capture_count(&d, PC_RECORD_CALLCHAIN_DEFERRED));
	for (size_t i = 0; i < samples; i++) {
		const struct pc_sample *smp = pc_capture_sample(&s, i);
		uint64_t cookie;

		ASSERT_TRUE(pc_deferred_cookie(smp, &cookie)) TH_LOG("sample %zu not deferred", i);
		const struct pc_record *r = pc_deferred_record(&d, cookie, NULL);
		EXPECT_NE(NULL, r) TH_LOG("cookie %#llx unanswered", (unsigned long long)cookie);
		if (!r)
			continue;
		ASSERT_LE(1, r->callchain_deferred.nr);
		EXPECT_EQ(smp->ip, r->callchain_deferred.ips[0]);
		EXPECT_EQ(getpid(), r->sample_id.pid);
		EXPECT_EQ(syscall(SYS_gettid), r->sample_id.tid);
	}
	pc_capture_close(&s);
	pc_capture_close(&d);
}

/* Without defer_output anywhere the samples are deferred all the same, but no record comes. */
TEST(no_records_without_defer_output)
{
	struct perfconf_attr attr = pc_attr_defer_sampler();
	struct pc_capture s;

	CAPTURE_DEFERRED_FAULTS(&s, &attr);
	size_t samples = pc_capture_count(&s, PERF_RECORD_SAMPLE);
	EXPECT_EQ(samples, pc_deferred_samples(&s));
	EXPECT_EQ(0, pc_capture_count(&s, PC_RECORD_CALLCHAIN_DEFERRED));
	pc_capture_close(&s);
}

/* defer_output alone has nothing to output: no event deferred anything. */
TEST(nothing_to_output_without_a_deferring_event)
{
	struct perfconf_attr attr = side_band();
	struct pc_capture d;

	REQUIRE_DEFER();
	ASSERT_ERRNO(0, -pc_capture_open(&d, &attr, 0, -1));
	ASSERT_EQ(0, pc_deferred_faults(FAULTS, &d, NULL)) TH_LOG("%s", d.error);
	EXPECT_EQ(0, pc_capture_count(&d, PC_RECORD_CALLCHAIN_DEFERRED));
	pc_capture_close(&d);
}

ATTR_SIZE_RULE_CASE

TEST_HARNESS_MAIN
