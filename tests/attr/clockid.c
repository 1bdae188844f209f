// SPDX-License-Identifier: GPL-2.0
/*
 * clockid (since Linux 4.1): "If use_clockid is set, then this field
 * selects which internal Linux timer to use for timestamps. [...]
 * CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_BOOTTIME,
 * and CLOCK_TAI currently supported."
 *
 * The time of a sample taken between two clock_gettime() calls of that
 * clock lies between them. The kernel reads MONOTONIC and MONOTONIC_RAW
 * with its NMI-safe accessors, which can trail a clock_gettime() by some
 * microseconds around a timekeeping update, so the window is widened by
 * SLACK_NS: far less than the distance between domains that differ
 * (REALTIME is decades from MONOTONIC; MONOTONIC_RAW drifts from
 * MONOTONIC). Any other clock is refused with EINVAL. A PMU that may
 * sample from NMI context only takes the NMI-safe clocks: which PMU takes
 * which clock is pinned.
 */
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <time.h>

#include "perfconf.h"
#include "work/faults.h"

#define SLACK_NS 1000000LL

static int64_t now(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* A page-fault sample and a COMM record (sample_id_all) between two readings of the clock. */
static void times_in_domain(struct __test_metadata *_metadata, clockid_t clock)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_TIME);
	struct pc_capture cap;
	struct pc_faults f;

	attr.exclude_kernel = 1;
	attr.use_clockid = 1;
	attr.clockid = clock;
	attr.comm = 1;
	attr.sample_id_all = 1;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_faults_map(&f, 2));
	pc_faults_next(&f, 1);
	now(clock);
	ASSERT_EQ(0, pc_enable(cap.fd));
	int64_t before = now(clock);
	pc_faults_next(&f, 1);
	pc_work_set_comm("pc-clockid");
	int64_t after = now(clock);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);

	const struct pc_record *s = pc_capture_find(&cap, PERF_RECORD_SAMPLE, 0);
	const struct pc_record *comm = pc_capture_find(&cap, PERF_RECORD_COMM, 0);
	ASSERT_NE(NULL, s);
	ASSERT_NE(NULL, comm);
	int64_t ts = (int64_t)s->sample.time, tc = (int64_t)comm->sample_id.time;
	EXPECT_LE(before - SLACK_NS, ts) TH_LOG("sample %lld ns before the window", (long long)(before - ts));
	EXPECT_GE(after + SLACK_NS, ts) TH_LOG("sample %lld ns after the window", (long long)(ts - after));
	EXPECT_LE(before - SLACK_NS, tc) TH_LOG("COMM %lld ns before the window", (long long)(before - tc));
	EXPECT_GE(after + SLACK_NS, tc) TH_LOG("COMM %lld ns after the window", (long long)(tc - after));
	EXPECT_LE(ts, tc) TH_LOG("the COMM record is older than the sample before it");
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

TEST(monotonic)
{
	times_in_domain(_metadata, CLOCK_MONOTONIC);
}

TEST(monotonic_raw)
{
	times_in_domain(_metadata, CLOCK_MONOTONIC_RAW);
}

TEST(realtime)
{
	times_in_domain(_metadata, CLOCK_REALTIME);
}

TEST(boottime)
{
	times_in_domain(_metadata, CLOCK_BOOTTIME);
}

TEST(tai)
{
	times_in_domain(_metadata, CLOCK_TAI);
}

/* Clocks that are not in the list, and ids that are no clock. */
TEST(other_clocks_are_refused)
{
	static const struct { const char *key; int id; } bad[] = {
		{ "process_cputime", CLOCK_PROCESS_CPUTIME_ID },
		{ "thread_cputime", CLOCK_THREAD_CPUTIME_ID },
		{ "realtime_coarse", CLOCK_REALTIME_COARSE },
		{ "monotonic_coarse", CLOCK_MONOTONIC_COARSE },
		{ "realtime_alarm", CLOCK_REALTIME_ALARM },
		{ "boottime_alarm", CLOCK_BOOTTIME_ALARM },
		{ "minus_one", -1 },
		{ "n12345", 12345 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

		attr.use_clockid = 1;
		attr.clockid = bad[i].id;
		EXPECT_ERRNO(EINVAL, pc_open_observe_errno(bad[i].key, &attr, 0, -1))
			TH_LOG("clockid %d", bad[i].id);
	}
}

/*
 * Which PMU takes which clock, pinned. The NMI-safe ones (MONOTONIC,
 * MONOTONIC_RAW) are taken by every PMU; the software and clock PMUs never
 * sample from NMI and take them all.
 */
TEST(clocks_per_pmu)
{
	static const struct { const char *name; clockid_t id; int nmi_safe; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC, 1 },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW, 1 },
		{ "realtime", CLOCK_REALTIME, 0 },
		{ "boottime", CLOCK_BOOTTIME, 0 },
		{ "tai", CLOCK_TAI, 0 },
	};
	struct { const char *name; struct perfconf_attr attr; int always_all; int have; } pmus[] = {
		{ "software", pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS), 1, 1 },
		{ "cpu_clock", pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK), 1, 1 },
		{ "breakpoint", pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0), 0, 1 },
		{ "tracepoint", pc_attr_sw(0), 0, 0 },
	};
	char key[64];

	pmus[3].have = !pc_attr_tracepoint(&pmus[3].attr, "syscalls", "sys_enter_getppid");
	for (size_t p = 0; p < ARRAY_SIZE(pmus); p++) {
		if (!pmus[p].have)
			continue;
		/* Held open so that a tracepoint is registered once, not per probe. */
		int anchor = pc_open(&pmus[p].attr, 0, -1, -1, 0);
		for (size_t c = 0; c < ARRAY_SIZE(clocks); c++) {
			struct perfconf_attr attr = pmus[p].attr;

			attr.use_clockid = 1;
			attr.clockid = clocks[c].id;
			snprintf(key, sizeof(key), "%s.%s", pmus[p].name, clocks[c].name);
			int err = pc_open_observe_errno(key, &attr, 0, -1);
			if (pc_errno_is_unsupported(err))
				break;	/* no such PMU here */
			if (clocks[c].nmi_safe || pmus[p].always_all) {
				EXPECT_ERRNO(0, err) TH_LOG("%s", key);
			} else {
				EXPECT_TRUE(err == 0 || err == EINVAL) TH_LOG("%s: %s", key, pc_errno_name(err));
			}
		}
		if (anchor >= 0)
			close(anchor);
	}
}

TEST_HARNESS_MAIN
