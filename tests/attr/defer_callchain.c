// SPDX-License-Identifier: GPL-2.0
/*
 * defer_callchain (since Linux 6.19): "request PERF_RECORD_CALLCHAIN_DEFERRED
 * records" (UAPI). The user part of a sample's callchain is not unwound
 * in the sample: the callchain ends with PERF_CONTEXT_USER_DEFERRED and a
 * cookie, and the user stack, unwound just before the task returns to user
 * space, follows in a PERF_RECORD_CALLCHAIN_DEFERRED record with the same
 * cookie (written to the events that have defer_output). Before 6.19 the
 * bit was part of __reserved_1: EINVAL.
 *
 * The samples here are user page faults (pc_attr_defer_sampler()): each is
 * its own kernel entry, so each has its own cookie, and the unwound stack
 * starts at the faulting instruction, the sample's IP.
 */
#include <sys/syscall.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "ring/callchain_deferred.h"
#include "defer_faults.h"

#define FIELD "defer_callchain"

TEST(acceptance)
{
	struct perfconf_attr attr = pc_attr_defer_sampler();
	int err = pc_open_observe_errno("errno", &attr, 0, -1);

	EXPECT_ERRNO_SINCE(FIELD, 0, EINVAL, err);
}

/* Every sample ends with the marker and a cookie, in place of the user stack. */
TEST(samples_end_with_the_deferred_marker)
{
	struct perfconf_attr attr = pc_attr_defer_sampler();
	struct pc_capture cap;

	CAPTURE_DEFERRED_FAULTS(&cap, &attr);
	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	for (size_t i = 0; i < samples; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);
		uint64_t cookie = 0;

		EXPECT_TRUE(pc_deferred_cookie(s, &cookie)) TH_LOG("sample %zu: %llu entries, not deferred",
								     i, (unsigned long long)s->callchain_nr);
		EXPECT_NE(0, cookie);
		for (uint64_t j = 0; j < s->callchain_nr; j++) {
			EXPECT_NE(PERF_CONTEXT_USER, s->callchain[j]) TH_LOG("sample %zu has a user stack too", i);
		}
	}
	pc_capture_close(&cap);
}

/*
 * With defer_output on the same event, each cookie is answered once, after
 * its sample, by a CALLCHAIN_DEFERRED record of this task, in user mode,
 * whose stack starts at the sample's IP.
 */
TEST(deferred_record_answers_each_sample)
{
	struct perfconf_attr attr = pc_attr_defer_sampler();
	struct pc_capture cap;

	attr.defer_output = 1;
	CAPTURE_DEFERRED_FAULTS(&cap, &attr);
	for (size_t i = 0, idx = 0; i < cap.nr; i++) {
		const struct pc_record *r = &cap.recs[i].rec;
		uint64_t cookie;

		if (r->type != PERF_RECORD_SAMPLE || !pc_deferred_cookie(&r->sample, &cookie))
			continue;
		const struct pc_record *d = pc_deferred_record(&cap, cookie, &idx);
		EXPECT_NE(NULL, d) TH_LOG("no CALLCHAIN_DEFERRED record for cookie %#llx",
					  (unsigned long long)cookie);
		if (!d)
			continue;
		EXPECT_LT(i, idx) TH_LOG("the answer came before the sample");
		EXPECT_EQ(PERF_RECORD_MISC_USER, d->misc & PERF_RECORD_MISC_CPUMODE_MASK);
		ASSERT_LE(1, d->callchain_deferred.nr);
		EXPECT_EQ(r->sample.ip, d->callchain_deferred.ips[0]);
		EXPECT_TRUE(d->sample_id.present);
		EXPECT_EQ(getpid(), d->sample_id.pid);
		EXPECT_EQ(syscall(SYS_gettid), d->sample_id.tid);
	}
	pc_capture_close(&cap);
}

/* One kernel entry, one cookie, one unwind: as many records as distinct cookies, as samples. */
TEST(each_kernel_entry_has_its_own_cookie)
{
	struct perfconf_attr attr = pc_attr_defer_sampler();
	struct pc_capture cap;

	REQUIRE_DEFER();
	REQUIRE_CONFIG("UNWIND_USER");
	attr.defer_output = 1;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_deferred_faults(FAULTS, &cap, NULL)) TH_LOG("%s", cap.error);
	REQUIRE_DEFERRED_SAMPLES(&cap);
	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	size_t records = pc_capture_count(&cap, PC_RECORD_CALLCHAIN_DEFERRED);
	size_t distinct = 0;
	for (size_t i = 0; i < samples; i++) {
		uint64_t cookie, earlier;
		bool seen = false;

		if (!pc_deferred_cookie(pc_capture_sample(&cap, i), &cookie))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = pc_deferred_cookie(pc_capture_sample(&cap, j), &earlier) &&
			       earlier == cookie;
		distinct += !seen;
	}
	EXPECT_EQ(samples, distinct);
	EXPECT_EQ(samples, records);
	pc_capture_close(&cap);
}

/* Nothing to defer when the user callchain is excluded: no marker, no record. */
TEST(nothing_deferred_without_a_user_callchain)
{
	struct perfconf_attr attr = pc_attr_defer_sampler();
	struct pc_capture cap;

	REQUIRE_DEFER();
	attr.defer_output = 1;
	attr.exclude_callchain_user = 1;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_deferred_faults(FAULTS, &cap, NULL)) TH_LOG("%s", cap.error);
	EXPECT_LE(FAULTS, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	EXPECT_EQ(0, pc_deferred_samples(&cap));
	EXPECT_EQ(0, pc_capture_count(&cap, PC_RECORD_CALLCHAIN_DEFERRED));
	pc_capture_close(&cap);
}

ATTR_SIZE_RULE_CASE

TEST_HARNESS_MAIN
