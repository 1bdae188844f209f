/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For defer_callchain and defer_output: user page faults sampled by a
 * sampler whose user callchains are deferred (pc_attr_defer_sampler()),
 * the capture written once, and the size rule the two bits share. The
 * field file includes this, defines FIELD (its name, "defer_output") and
 * ends with ATTR_SIZE_RULE_CASE after its own cases.
 */
#ifndef PERFCONF_TESTS_ATTR_DEFER_FAULTS_H
#define PERFCONF_TESTS_ATTR_DEFER_FAULTS_H

#include "perfconf.h"
#include "work/attr_probe.h"
#include "ring/callchain_deferred.h"

#define FAULTS 16

/*
 * Open cap on attr, a deferring sampler, and capture FAULTS user page
 * faults with it: at least FAULTS samples, deferred ones among them. SKIP
 * where this kernel refuses defer_callchain or has no user unwinder.
 */
#define CAPTURE_DEFERRED_FAULTS(cap, attr) do { \
	REQUIRE_DEFER(); \
	REQUIRE_CONFIG("UNWIND_USER"); \
	ASSERT_ERRNO(0, -pc_capture_open(cap, attr, 0, -1)); \
	ASSERT_EQ(0, pc_deferred_faults(FAULTS, cap, NULL)) TH_LOG("%s", (cap)->error); \
	ASSERT_LE(FAULTS, pc_capture_count(cap, PERF_RECORD_SAMPLE)); \
	REQUIRE_DEFERRED_SAMPLES(cap); \
} while (0)

/* Both bits were __reserved_1 before 6.19: one size rule case, on a counter. */
#define ATTR_SIZE_RULE_CASE						\
TEST(attr_size_rule)							\
{									\
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);	\
									\
	EXPECT_ATTR_SIZE_RULE(&attr, FIELD, 1);				\
}

#endif
