// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_TYPE_HARDWARE: "one of the generalized hardware events", config
 * PERF_COUNT_HW_CPU_CYCLES (0) to PERF_COUNT_HW_REF_CPU_CYCLES (9). "Not
 * all of these are available on all platforms": the core PMU maps each to
 * an event of its own or refuses it. perf_event_open(2) names the
 * refusals: ENOENT "for some unsupported generic events", EOPNOTSUPP
 * "hardware support not available", EINVAL. Which events this PMU has is
 * pinned per target (`open`); one that opens counts the exact loop, and
 * whether it counted anything is pinned (`counts`).
 *
 * Beyond the ten, PERF_COUNT_HW_MAX is not an event. Since the hybrid
 * work (x86 5.13, arm64 later) config[63:32] may name the PMU by its type
 * ("extended type"): the same event on that PMU. Whether it is taken is
 * pinned; where it is, it counts the same instructions.
 *
 * Counting is user-only (exclude_kernel and exclude_hv, perf's ":u"), so
 * the exact loop (lib/event/hw.h) is all the event can see.
 */
#include "perfconf.h"
#include "event/hw.h"
#include "hw_refusals.h"

#define N 1000

static void generic(struct __test_metadata *_metadata, uint64_t config)
{
	struct perfconf_attr attr = pc_attr_hw(config);
	uint64_t count = 0;

	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	if (!hw_opens(_metadata, "open", &attr))
		return;
	REQUIRE_HW_LOOP();
	int err = pc_hw_count_loop(&attr, N, &count);
	ASSERT_EQ(0, err) TH_LOG("counting %s: %s", pc_hw_event_name(config), pc_errno_name(-err));
	pc_observe("counts", "%s", count ? "yes" : "no");
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

TEST_F(global, cpu_cycles)		{ generic(_metadata, PERF_COUNT_HW_CPU_CYCLES); }
TEST_F(global, instructions)		{ generic(_metadata, PERF_COUNT_HW_INSTRUCTIONS); }
TEST_F(global, cache_references)		{ generic(_metadata, PERF_COUNT_HW_CACHE_REFERENCES); }
TEST_F(global, cache_misses)		{ generic(_metadata, PERF_COUNT_HW_CACHE_MISSES); }
TEST_F(global, branch_instructions)	{ generic(_metadata, PERF_COUNT_HW_BRANCH_INSTRUCTIONS); }
TEST_F(global, branch_misses)		{ generic(_metadata, PERF_COUNT_HW_BRANCH_MISSES); }
TEST_F(global, bus_cycles)		{ generic(_metadata, PERF_COUNT_HW_BUS_CYCLES); }
TEST_F(global, stalled_cycles_frontend)	{ generic(_metadata, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND); }
TEST_F(global, stalled_cycles_backend)	{ generic(_metadata, PERF_COUNT_HW_STALLED_CYCLES_BACKEND); }
TEST_F(global, ref_cpu_cycles)		{ generic(_metadata, PERF_COUNT_HW_REF_CPU_CYCLES); }

/* PERF_COUNT_HW_MAX and far beyond (below the extended-type bits) are no event. */
TEST_F(global, beyond_max_is_refused)
{
	static const struct hw_no_event beyond[] = {
		{ "max", PERF_COUNT_HW_MAX },
		{ "0xff", 0xff },
		{ "0xffffffff", 0xffffffffULL },
	};

	hw_expect_no_events(_metadata, PERF_TYPE_HARDWARE, beyond, ARRAY_SIZE(beyond));
}

/* config = (core PMU type << 32) | PERF_COUNT_HW_INSTRUCTIONS. */
TEST_F(global, extended_type)
{
	struct perfconf_attr plain = pc_attr_hw(PERF_COUNT_HW_INSTRUCTIONS);
	uint64_t count = 0, expected = 0;

	REQUIRE_HW_EVENT(PERF_COUNT_HW_INSTRUCTIONS);
	int type = pc_pmu_type(pc_hw_pmu());
	ASSERT_LE(0, type) TH_LOG("no type for %s", pc_hw_pmu());
	struct perfconf_attr ext = pc_attr_hw((uint64_t)type << 32 | PERF_COUNT_HW_INSTRUCTIONS);

	plain.exclude_kernel = ext.exclude_kernel = 1;
	if (!hw_opens(_metadata, "open", &ext))
		return;
	REQUIRE_HW_LOOP();
	ASSERT_EQ(0, pc_hw_count_loop(&plain, N, &expected));
	ASSERT_EQ(0, pc_hw_count_loop(&ext, N, &count));
	EXPECT_EQ(expected, count);
}

TEST_HARNESS_MAIN
