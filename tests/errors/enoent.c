// SPDX-License-Identifier: GPL-2.0
/*
 * ENOENT from perf_event_open(): attr.type names no PMU, or the PMU does not
 * have the generic event that attr.config asks for.
 *
 * In kernel/events/core.c (6.12) perf_init_event() offers the event to the
 * PMU registered under attr.type, or else to every PMU; each one's
 * event_init() answers ENOENT for a type that is not its own, and when none
 * claims it the open fails with ENOENT (line 12173). The software PMU
 * answers ENOENT for a config past the events it knows (perf_swevent_init(),
 * line 10410); the hardware drivers for a generic event they cannot map
 * (arm_pmu.c:164, x86/events/core.c:392), and where no hardware PMU is
 * registered, no PMU claims PERF_TYPE_HARDWARE at all.
 *
 * The uprobe PMU answers ENOENT as well, for a file that does not exist
 * (kern_path() in create_local_trace_uprobe(),
 * kernel/trace/trace_uprobe.c:1633). A tracepoint id that names no event
 * is not ENOENT but EINVAL (errors/einval.c).
 * Every refusal has its control: the same request naming what is here.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "event/hw.h"
#include "work/measure.h"
#include "perfconf.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

/* The largest type any PMU in sysfs has; -errno when none can be read. */
static long largest_pmu_type(void)
{
	char **names = pc_pmu_list();
	long most = -ENOENT;

	if (!names)
		return -ENOENT;
	for (char **n = names; *n; n++) {
		int t = pc_pmu_type(*n);

		if (t > most)
			most = t;
	}
	pc_strv_free(names);
	return most;
}

TEST(type_no_pmu_claims_is_enoent)
{
	long most = largest_pmu_type();

	ASSERT_LE(0, most) TH_LOG("no PMU type readable in %s", PC_PMU_SYSFS);
	uint32_t unclaimed = (uint32_t)most + 1;
	if (unclaimed < PERF_TYPE_MAX)
		unclaimed = PERF_TYPE_MAX;
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.exclude_kernel = 1;
	EXPECT_EQ(16, pc_count_of_work(&attr, pc_user_faults_work, (void *)16)) TH_LOG("the control");
	attr.type = unclaimed;
	EXPECT_ERRNO(ENOENT, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("type %u", unclaimed);
}

/* The software PMU knows configs below its PERF_COUNT_SW_MAX only. */
TEST(software_event_unknown_is_enoent)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.exclude_kernel = 1;
	EXPECT_EQ(16, pc_count_of_work(&attr, pc_user_faults_work, (void *)16)) TH_LOG("the control");
	attr.config = 1000;	/* far past every kernel's PERF_COUNT_SW_MAX */
	EXPECT_ERRNO(ENOENT, pc_open_errno(&attr, 0, -1, -1, 0));
	attr.config = ~0ULL;
	EXPECT_ERRNO(ENOENT, pc_open_errno(&attr, 0, -1, -1, 0));
}

/*
 * The errno of a generic event the core PMU does not map: ENOENT (x86,
 * arm64, riscv: "also returned for some unsupported generic events");
 * powerpc's PMUs say EOPNOTSUPP (power_pmu_event_init(): no generic_events
 * entry). Without a core PMU no PMU takes the type: ENOENT.
 */
static int unmapped_errno(void)
{
#if defined(__powerpc__)
	if (pc_hw_pmu())
		return EOPNOTSUPP;
#endif
	return ENOENT;
}

/*
 * Every generic hardware event: with no hardware PMU, each is ENOENT; with
 * one, each it cannot count is ENOENT (EOPNOTSUPP on powerpc) and at least
 * one opens (the control). The refused ones are observed, pinned per
 * machine.
 */
TEST(generic_event_unsupported_is_enoent)
{
	char refused[512] = "";
	size_t at = 0;
	int opened = 0;

	for (uint64_t c = 0; c < PERF_COUNT_HW_MAX; c++) {
		int err = pc_hw_open_errno(c);

		if (!err) {
			opened++;
			continue;
		}
		EXPECT_ERRNO(unmapped_errno(), err) TH_LOG("%s", pc_hw_event_name(c));
		at += snprintf(refused + at, sizeof(refused) - at, "%s%s", at ? "," : "", pc_hw_event_name(c));
		if (at >= sizeof(refused))
			at = sizeof(refused) - 1;
	}
	pc_observe("refused", "%s", at ? refused : "none");
	if (pc_hw_pmu()) {
		EXPECT_LT(0, opened) TH_LOG("%s opens no generic event", pc_hw_pmu());
	} else {
		EXPECT_EQ(0, opened) TH_LOG("no hardware PMU, yet a generic event opened");
	}
}

/* A kernel cause of the uprobe PMU: the file to probe does not exist. */
TEST(uprobe_missing_file_is_enoent)
{
	static const char missing[] = "/nonexistent-perfconf/enoent";
	struct perfconf_attr attr;

	UPROBE_ATTR(&attr, pc_work_target);
	attr.exclude_kernel = 1;
	EXPECT_EQ(8, pc_count_of_work(&attr, pc_calls_work, (void *)8)) TH_LOG("the control");
	ASSERT_NE(0, access(missing, F_OK));
	attr.uprobe_path = (uint64_t)(uintptr_t)missing;
	EXPECT_ERRNO(ENOENT, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST_HARNESS_MAIN
