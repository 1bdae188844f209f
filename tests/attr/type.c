// SPDX-License-Identifier: GPL-2.0
/*
 * type: "This field specifies the overall event type": PERF_TYPE_HARDWARE,
 * _SOFTWARE, _TRACEPOINT, _HW_CACHE, _RAW, _BREAKPOINT (2.6.33), or a
 * dynamic PMU whose number "can be found in the sysfs filesystem: there is
 * a subdirectory per PMU instance under /sys/bus/event_source/devices. In
 * each subdirectory there is a type file". "ENOENT Returned if the type
 * setting is not valid."
 *
 * The generic types every kernel has are opened and count exactly what
 * they select. The hardware types need a hardware PMU: without one they
 * give ENOENT (pinned) and their effect is skipped. Numbers no PMU has are
 * ENOENT; which numbers open although sysfs does not list them, and what
 * the PMUs whose config 0 the ABI defines say to it, are pinned: the
 * generic ones, x86's msr PMU and the core PMU. Any other PMU sysfs lists
 * (uncore, power, cstate, ...: the CPU model's) is asked too, and must
 * answer, but its answer is its driver's own.
 */
#include <dirent.h>
#include <limits.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>

#include "event/hw.h"
#include "work/measure.h"
#include "perfconf.h"

#define N 64

TEST(software)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t count = UINT64_MAX;

	ASSERT_EQ(0, pc_count_work(&attr, pc_user_faults_work, PC_N(N), &count));
	EXPECT_EQ(N, count);
}

TEST(breakpoint)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_BREAKPOINT, 0);

	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	attr.bp_type = HW_BREAKPOINT_X;
	attr.bp_addr = (uintptr_t)pc_work_target;
	attr.bp_len = pc_bp_exec_len();
	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "an execute breakpoint");
	EXPECT_EQ(100, pc_count_of_work(&attr, pc_calls_work, PC_N(100)));
}

TEST(tracepoint)
{
	struct perfconf_attr attr;

	GETPPID_TRACEPOINT_SUBJECT(&attr);
	ASSERT_EQ(PERF_TYPE_TRACEPOINT, attr.type);
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_getppid_work, PC_N(N)));
}

/* A generic hardware type: the errno is pinned; where it opens, the work counts something. */
static void hardware_type(struct __test_metadata *_metadata, uint32_t type, uint64_t config,
			  pc_work_fn work, unsigned long n)
{
	struct perfconf_attr attr = pc_attr(type, config);
	uint64_t count = 0;

	int err = pc_count_work(&attr, work, PC_N(n), &count);
	int refused = pc_last_open_errno();	/* the open's own errno, 0 when it opened */

	pc_observe_errno("errno", refused);
	if (pc_errno_is_unsupported(refused))
		SKIP(return, "no hardware PMU for this event (%s)", pc_errno_name(refused));
	ASSERT_EQ(0, err);
	if (count == 0 && type == PERF_TYPE_HW_CACHE && pc_hw_qemu_tcg_power())
		BLOCKED("qemu's TCG POWER PMU counts cycles and instructions only: the cache event counted 0");
	EXPECT_LT(0, count);
}

TEST(hardware)
{
	hardware_type(_metadata, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, pc_loop_work, 1000000);
}

TEST(hw_cache)
{
	/* L1D read accesses: page faults are plenty of memory traffic. */
	hardware_type(_metadata, PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D |
		      PERF_COUNT_HW_CACHE_OP_READ << 8 | PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16,
		      pc_user_faults_work, N);
}

/*
 * A raw event's encoding is the PMU's own: only the errno of config 0 is
 * pinned. Observation only: the man page says PERF_TYPE_RAW passes config
 * to the PMU as is, and nothing about which configs open.
 */
TEST(raw)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_RAW, 0);
	int err = pc_open_errno(&attr, 0, -1, -1, 0);

	pc_observe_errno("errno", err);
	if (pc_errno_is_unsupported(err))
		SKIP(return, "no hardware PMU (%s)", pc_errno_name(err));
}

TEST(no_such_type_is_enoent)
{
	static const uint32_t types[] = { INT_MAX, (uint32_t)INT_MAX + 1, UINT32_MAX };

	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		struct perfconf_attr attr = pc_attr(types[i], 0);

		EXPECT_ERRNO(ENOENT, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("type %#x", types[i]);
	}
}

/* The type numbers sysfs lists; returns the largest. */
static int sysfs_types(bool listed[], size_t n)
{
	char **pmus = pc_pmu_list();
	int max = -1;

	for (size_t i = 0; pmus && pmus[i]; i++) {
		int type = pc_pmu_type(pmus[i]);

		if (type >= 0 && (size_t)type < n)
			listed[type] = true;
		if (type > max)
			max = type;
	}
	pc_strv_free(pmus);
	return max;
}

/*
 * Dynamic type numbers sysfs does not list but that open an event with
 * config 0 or 1: pinned, "none" if there are none. (The cpu-clock and
 * task-clock PMUs have numbers of their own without a sysfs entry; 6.12
 * and later accept events by those numbers, 5.10 and 6.1 do not.)
 * Observation only: the man page names the generic types and the sysfs
 * ones, and says nothing of numbers sysfs does not list.
 */
TEST(unlisted_types_that_open)
{
	bool listed[256] = { false };
	char found[256] = "";
	size_t used = 0;

	int max = sysfs_types(listed, 256);
	ASSERT_LE(PERF_TYPE_SOFTWARE, max);
	for (int type = PERF_TYPE_MAX; type <= max + 8 && type < 256; type++) {
		if (listed[type])
			continue;
		for (uint64_t config = 0; config < 2; config++) {
			struct perfconf_attr attr = pc_attr(type, config);

			if (pc_open_errno(&attr, 0, -1, -1, 0) == 0) {
				used += snprintf(found + used, sizeof(found) - used, "%s%d",
						 used ? "," : "", type);
				break;
			}
		}
	}
	pc_observe("types", "%s", used ? found : "none");
}

/*
 * Whether a PMU's answer to config 0 is the ABI's: the generic PMUs, x86's
 * msr PMU (in every x86 kernel; event 0 is the TSC) and the core PMU
 * pc_hw_pmu() names (on a hybrid, the first of them). Other PMUs come
 * with the CPU model (power, cstate_*, uncore_*, ...) and read config 0
 * as their driver says.
 */
static bool config_zero_defined(const char *pmu)
{
	static const char *const defined[] = {
		"software", "tracepoint", "breakpoint", "kprobe", "uprobe", "msr", NULL,
	};

	for (int i = 0; defined[i]; i++)
		if (!strcmp(pmu, defined[i]))
			return true;
	return pc_hw_pmu() && !strcmp(pmu, pc_hw_pmu());
}

/*
 * Each PMU sysfs lists, asked for config 0 on this task: every one answers
 * (any errno); the answer of those config_zero_defined() names is pinned.
 * Observation only: the man page leaves what config 0 means to each PMU.
 */
TEST(listed_pmus_config_zero)
{
	char **pmus = pc_pmu_list();
	char key[96];

	DEPENDS_ON("pmus");	/* one observation per PMU this machine has */
	ASSERT_NE(NULL, pmus);
	for (size_t i = 0; pmus[i]; i++) {
		int type = pc_pmu_type(pmus[i]);

		ASSERT_LE(0, type) TH_LOG("%s: no type", pmus[i]);
		struct perfconf_attr attr = pc_attr((uint32_t)type, 0);
		if (!config_zero_defined(pmus[i])) {
			(void)pc_open_errno(&attr, 0, -1, -1, 0);
			continue;
		}
		snprintf(key, sizeof(key), "pmu.%s", pmus[i]);
		for (char *p = key; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.'))
				*p = '_';
		pc_open_observe_errno(key, &attr, 0, -1);
	}
	pc_strv_free(pmus);
}

TEST_HARNESS_MAIN
