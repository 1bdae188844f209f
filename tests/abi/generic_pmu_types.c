// SPDX-License-Identifier: GPL-2.0
/*
 * The generic event types are fixed by the ABI (PERF_TYPE_SOFTWARE = 1,
 * PERF_TYPE_TRACEPOINT = 2, PERF_TYPE_BREAKPOINT = 5), and each is also a
 * PMU in /sys/bus/event_source/devices whose "type" file must agree.
 * Dynamic PMUs get numbers past PERF_TYPE_MAX.
 */
#include "perfconf.h"

static void expect_type(struct __test_metadata *_metadata, const char *pmu, int abi_type)
{
	int type = pc_pmu_type(pmu);

	if (type == -ENOENT)
		SKIP(return, "no %s PMU in sysfs", pmu);
	EXPECT_EQ(abi_type, type) TH_LOG("%s: sysfs type %d, ABI type %d", pmu, type, abi_type);
}

TEST(software)
{
	expect_type(_metadata, "software", PERF_TYPE_SOFTWARE);
}

TEST(tracepoint)
{
	expect_type(_metadata, "tracepoint", PERF_TYPE_TRACEPOINT);
}

TEST(breakpoint)
{
	expect_type(_metadata, "breakpoint", PERF_TYPE_BREAKPOINT);
}

/* Every other PMU has a dynamic type, never one of the generic numbers. */
TEST(dynamic_pmus_above_generic_types)
{
	static const char *const generic[] = { "software", "tracepoint", "breakpoint", "cpu" };
	char **pmus = pc_pmu_list();

	ASSERT_NE(NULL, pmus);
	for (char **p = pmus; *p; p++) {
		bool is_generic = false;

		for (size_t i = 0; i < ARRAY_SIZE(generic); i++)
			is_generic |= !strcmp(*p, generic[i]);
		/* x86's core PMU "cpu" is PERF_TYPE_RAW; arm64's core PMUs may be too. */
		if (is_generic || pc_pmu_type(*p) == PERF_TYPE_RAW)
			continue;
		EXPECT_LE(PERF_TYPE_MAX, pc_pmu_type(*p)) TH_LOG("PMU %s has type %d", *p, pc_pmu_type(*p));
	}
	pc_strv_free(pmus);
}

/* An unknown type is refused with ENOENT: "no PMU of that type". */
TEST(unknown_type_is_enoent)
{
	struct perfconf_attr attr = pc_attr(INT32_MAX, 0);

	EXPECT_ERRNO(ENOENT, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST_HARNESS_MAIN
