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

#define N 1000

static void cache(struct __test_metadata *_metadata, unsigned int id)
{
	char key[64];

	REQUIRE_HW_PMU();
	for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
		for (unsigned int res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
			struct perfconf_attr attr = pc_attr_hw_cache(id, op, res);
			uint64_t count = 0;

			attr.exclude_kernel = 1;
			attr.exclude_hv = 1;
			snprintf(key, sizeof(key), "%s.%s", pc_hw_cache_op_name(op), pc_hw_cache_result_name(res));
			int err = pc_observe_open_errno(key, &attr, 0, -1);
			if (err) {
				EXPECT_TRUE(pc_hw_refusal_documented(err)) TH_LOG("%s %s: %s",
					pc_hw_cache_name(id), key, pc_errno_name(err));
				continue;
			}
			err = pc_hw_count_loop(&attr, N, &count);
			EXPECT_EQ(0, err) TH_LOG("%s %s: %s",
				pc_hw_cache_name(id), key, pc_errno_name(-err));
			snprintf(key, sizeof(key), "%s.%s.counts", pc_hw_cache_op_name(op),
				 pc_hw_cache_result_name(res));
			pc_observe(key, "%s", count ? "yes" : "no");
		}
	}
}

TEST(l1d)	{ cache(_metadata, PERF_COUNT_HW_CACHE_L1D); }
TEST(l1i)	{ cache(_metadata, PERF_COUNT_HW_CACHE_L1I); }
TEST(ll)	{ cache(_metadata, PERF_COUNT_HW_CACHE_LL); }
TEST(dtlb)	{ cache(_metadata, PERF_COUNT_HW_CACHE_DTLB); }
TEST(itlb)	{ cache(_metadata, PERF_COUNT_HW_CACHE_ITLB); }
TEST(bpu)	{ cache(_metadata, PERF_COUNT_HW_CACHE_BPU); }
TEST(node)	{ cache(_metadata, PERF_COUNT_HW_CACHE_NODE); }

/* PERF_COUNT_HW_CACHE_MAX, _OP_MAX, _RESULT_MAX, and bits above the three bytes. */
TEST(beyond_the_abi_is_refused)
{
	static const struct {
		const char *key;
		uint64_t config;
	} cases[] = {
		{ "cache_max", PERF_COUNT_HW_CACHE_MAX },
		{ "op_max", PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_MAX << 8 },
		{ "result_max", PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_RESULT_MAX << 16 },
		{ "cache_0xff", 0xff },
	};

	REQUIRE_HW_PMU();
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		struct perfconf_attr attr = pc_attr(PERF_TYPE_HW_CACHE, cases[i].config);

		attr.exclude_kernel = 1;
		int err = pc_observe_open_errno(cases[i].key, &attr, 0, -1);
		EXPECT_NE(0, err) TH_LOG("%s opened", cases[i].key);
		EXPECT_TRUE(pc_hw_refusal_documented(err)) TH_LOG("%s: %s", cases[i].key, pc_errno_name(err));
	}
}

/*
 * Bits above the three id bytes: what the kernel makes of L1D READ ACCESS
 * with bit 24 set is pinned (ignored, or refused).
 */
TEST(bits_above_the_ids)
{
	struct perfconf_attr attr = pc_attr_hw_cache(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
						     PERF_COUNT_HW_CACHE_RESULT_ACCESS);

	REQUIRE_HW_PMU();
	attr.config |= 1ULL << 24;
	attr.exclude_kernel = 1;
	int err = pc_observe_open_errno("open", &attr, 0, -1);
	if (err) {
		EXPECT_TRUE(pc_hw_refusal_documented(err)) TH_LOG("%s", pc_errno_name(err));
	}
}

TEST_HARNESS_MAIN
