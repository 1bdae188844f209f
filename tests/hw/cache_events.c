// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_TYPE_HW_CACHE: config is "(perf_hw_cache_id) |
 * (perf_hw_cache_op_id << 8) | (perf_hw_cache_op_result_id << 16)": seven
 * caches (L1D, L1I, LL, DTLB, ITLB, BPU, NODE) by three operations (READ,
 * WRITE, PREFETCH) by two results (ACCESS, MISS). The core PMU maps each
 * combination to an event of its own or refuses it; perf_event_open(2)
 * names the refusals (ENOENT, EOPNOTSUPP, EINVAL). One case per cache:
 * each combination's outcome is pinned as `<op>.<result>`, and for one
 * that opens, whether it counted anything over the exact loop as
 * `<op>.<result>.counts`.
 *
 * An id, op or result beyond the ABI's is no event at all.
 */
#include <stdio.h>

#include "perfconf.h"
#include "event/hw.h"
#include "hw_refusals.h"

#define N 1000

static void cache(struct __test_metadata *_metadata, unsigned int id)
{
	char key[64];

	for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
		for (unsigned int res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
			struct perfconf_attr attr = pc_attr_hw_cache(id, op, res);
			uint64_t count = 0;

			attr.exclude_kernel = 1;
			attr.exclude_hv = 1;
			snprintf(key, sizeof(key), "%s.%s", pc_hw_cache_op_name(op), pc_hw_cache_result_name(res));
			if (!hw_opens(_metadata, key, &attr))
				continue;
			REQUIRE_HW_LOOP();
			int err = pc_hw_count_loop(&attr, N, &count);
			EXPECT_EQ(0, err) TH_LOG("%s %s: %s",
				pc_hw_cache_name(id), key, pc_errno_name(-err));
			snprintf(key, sizeof(key), "%s.%s.counts", pc_hw_cache_op_name(op),
				 pc_hw_cache_result_name(res));
			pc_observe(key, "%s", count ? "yes" : "no");
		}
	}
}

/* Every case needs a hardware PMU. */
FIXTURE(global) {};

FIXTURE_SETUP(global)
{
	REQUIRE_HW_PMU();
}

FIXTURE_TEARDOWN(global)
{
}

TEST_F(global, l1d)	{ cache(_metadata, PERF_COUNT_HW_CACHE_L1D); }
TEST_F(global, l1i)	{ cache(_metadata, PERF_COUNT_HW_CACHE_L1I); }
TEST_F(global, ll)	{ cache(_metadata, PERF_COUNT_HW_CACHE_LL); }
TEST_F(global, dtlb)	{ cache(_metadata, PERF_COUNT_HW_CACHE_DTLB); }
TEST_F(global, itlb)	{ cache(_metadata, PERF_COUNT_HW_CACHE_ITLB); }
TEST_F(global, bpu)	{ cache(_metadata, PERF_COUNT_HW_CACHE_BPU); }
TEST_F(global, node)	{ cache(_metadata, PERF_COUNT_HW_CACHE_NODE); }

/* PERF_COUNT_HW_CACHE_MAX, _OP_MAX, _RESULT_MAX, and bits above the three bytes. */
TEST_F(global, beyond_the_abi_is_refused)
{
	static const struct hw_no_event beyond[] = {
		{ "cache_max", PERF_COUNT_HW_CACHE_MAX },
		{ "op_max", PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_MAX << 8 },
		{ "result_max", PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_RESULT_MAX << 16 },
		{ "cache_0xff", 0xff },
	};

	hw_expect_no_events(_metadata, PERF_TYPE_HW_CACHE, beyond, ARRAY_SIZE(beyond));
}

/*
 * Bits above the three id bytes: what the kernel makes of L1D READ ACCESS
 * with bit 24 set is pinned (ignored, or refused).
 */
TEST_F(global, bits_above_the_ids)
{
	struct perfconf_attr attr = pc_attr_hw_cache(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
						     PERF_COUNT_HW_CACHE_RESULT_ACCESS);

	attr.config |= 1ULL << 24;
	attr.exclude_kernel = 1;
	hw_opens(_metadata, "open", &attr);
}

TEST_HARNESS_MAIN
