// SPDX-License-Identifier: GPL-2.0
/*
 * sample_period: "A sampling event is one that generates an overflow
 * notification every N events, where N is given by sample_period. A
 * sampling event has sample_period > 0." So n events give n / N samples,
 * taken at the N-th, 2N-th, ... event; the remainder is counted but not
 * sampled; a period of 0 is a counting event that writes no samples.
 *
 * The sample_type of these cases has no PERF_SAMPLE_PERIOD: with it, the
 * kernel writes a sample for every event of a software-driven event and
 * reports the period each one covers (pinned in periods_add_up_to_count).
 */
#include <limits.h>
#include <linux/hw_breakpoint.h>
#include <sys/syscall.h>

#include "perfconf.h"
#include "work/faults.h"

#define FAULTS 64

/* A page-fault sampler of this task, user mode only, its ring mapped. */
static int open_faults(struct pc_capture *cap, uint64_t period, uint64_t sample_type)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, period, sample_type);

	attr.exclude_kernel = 1;
	return pc_capture_open(cap, &attr, 0, -1);
}

TEST(every_nth_fault_is_sampled)
{
	struct pc_capture cap;
	struct pc_faults f;
	uint64_t count;

	ASSERT_ERRNO(0, -open_faults(&cap, 4, PERF_SAMPLE_ADDR));
	ASSERT_EQ(0, pc_faults_map(&f, FAULTS + 1));
	pc_faults_enabled(&f, cap.fd, FAULTS);
	ASSERT_EQ(0, pc_read_count(cap.fd, &count));
	ASSERT_CAPTURE_READ(&cap);

	EXPECT_EQ(FAULTS, count);
	ASSERT_EQ(FAULTS / 4, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	/* Sample k is the (4k + 4)-th fault: page 1 + 4k + 3 after the warm-up page. */
	for (size_t k = 0; k < FAULTS / 4; k++) {
		EXPECT_EQ(pc_faults_addr(&f, 1 + 4 * k + 3),
			  pc_capture_find(&cap, PERF_RECORD_SAMPLE, k)->sample.addr)
			TH_LOG("sample %zu is not the fault at the end of its period", k);
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

TEST(remainder_is_counted_not_sampled)
{
	struct pc_capture cap;
	struct pc_faults f;
	uint64_t count;

	ASSERT_ERRNO(0, -open_faults(&cap, 4, PERF_SAMPLE_TID));
	ASSERT_EQ(0, pc_faults_map(&f, 11 + 1));
	pc_faults_enabled(&f, cap.fd, 11);
	ASSERT_EQ(0, pc_read_count(cap.fd, &count));
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(11, count);
	EXPECT_EQ(2, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* Period 0 with a sample_type and a ring: a counting event, no records. */
TEST(period_zero_writes_no_samples)
{
	struct pc_capture cap;
	struct pc_faults f;
	uint64_t count;

	ASSERT_ERRNO(0, -open_faults(&cap, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID));
	ASSERT_EQ(0, pc_faults_map(&f, FAULTS + 1));
	pc_faults_enabled(&f, cap.fd, FAULTS);
	ASSERT_EQ(0, pc_read_count(cap.fd, &count));
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(FAULTS, count);
	EXPECT_EQ(0, cap.nr);
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* A breakpoint counts exactly; period 7 over 700 calls is 100 samples. */
TEST(breakpoint_period)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);
	struct pc_capture cap;
	uint64_t count;

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	attr.sample_period = 7;
	attr.sample_type = PERF_SAMPLE_IP;
	int err = pc_capture_open(&cap, &attr, 0, -1);
	SKIP_IF_UNSUPPORTED(-err, "an execute breakpoint");
	ASSERT_ERRNO(0, -err);
	ASSERT_EQ(0, pc_enable(cap.fd));
	pc_work_calls(700);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_EQ(0, pc_read_count(cap.fd, &count));
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(700, count);
	ASSERT_EQ(100, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (size_t k = 0; k < 100; k++) {
		EXPECT_EQ((uint64_t)(uintptr_t)pc_work_target,
			  pc_capture_find(&cap, PERF_RECORD_SAMPLE, k)->sample.ip);
	}
	pc_capture_close(&cap);
}

/*
 * A tracepoint fires once per syscall: period 5 over 500 getppid() is 100
 * samples, and the count each one carries (PERF_SAMPLE_READ) says it was
 * taken at the 5th, 10th, ... 500th call.
 */
TEST(tracepoint_period)
{
	struct perfconf_attr attr;
	struct pc_capture cap;
	uint64_t count;

	GETPPID_TRACEPOINT(&attr);
	attr.sample_period = 5;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	for (int i = 0; i < 500; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_EQ(0, pc_read_count(cap.fd, &count));
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(500, count);
	size_t n = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	EXPECT_EQ(100, n);
	for (size_t k = 0; k < n && k < 100; k++) {
		uint64_t at = pc_capture_find(&cap, PERF_RECORD_SAMPLE, k)->sample.read.values[0].value;

		ASSERT_EQ(5 * (k + 1), at) TH_LOG("sample %zu of %zu taken at call %llu", k, n,
						  (unsigned long long)at);
	}
	pc_capture_close(&cap);
}

/*
 * With PERF_SAMPLE_PERIOD, the reported periods of the samples add up to
 * the count (each sample stands for the events since the one before). How
 * many samples a software-driven event writes then is pinned per event
 * type: page faults (a software event) and a uprobe on a function (a
 * probe event, counted by the same software-event code), 32 events each.
 */
TEST(periods_add_up_to_count)
{
	struct perfconf_attr attrs[2] = {
		pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 4, PERF_SAMPLE_PERIOD),
	};
	const char *names[2] = { "page_faults", "uprobe" };
	char path[PATH_MAX];	/* attrs[1]'s uprobe_path */
	int uprobe = pc_attr_uprobe(&attrs[1], pc_work_target, path, sizeof(path));

	attrs[0].exclude_kernel = 1;
	attrs[1].sample_period = 4;
	attrs[1].sample_type = PERF_SAMPLE_PERIOD;
	for (int i = 0; i < 2; i++) {
		struct pc_capture cap;
		struct pc_faults f;
		uint64_t count, sum = 0;
		char key[64];

		/* No uprobe PMU (ENOENT) is observed as such, like an open the kernel refuses. */
		int err = i == 1 && uprobe ? uprobe : pc_capture_open(&cap, &attrs[i], 0, -1);
		if (pc_errno_is_unsupported(-err)) {
			snprintf(key, sizeof(key), "%s.samples", names[i]);
			pc_observe(key, "%s", pc_errno_name(-err));
			continue;
		}
		ASSERT_ERRNO(0, -err);
		if (i == 0) {
			ASSERT_EQ(0, pc_faults_map(&f, 32 + 1));
			pc_faults_enabled(&f, cap.fd, 32);
			pc_faults_unmap(&f);
		} else {
			ASSERT_EQ(0, pc_enable(cap.fd));
			pc_work_calls(32);
			ASSERT_EQ(0, pc_disable(cap.fd));
		}
		ASSERT_EQ(0, pc_read_count(cap.fd, &count));
		ASSERT_CAPTURE_READ(&cap);
		size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
		for (size_t k = 0; k < samples; k++)
			sum += pc_capture_find(&cap, PERF_RECORD_SAMPLE, k)->sample.period;
		snprintf(key, sizeof(key), "%s.samples", names[i]);
		pc_observe(key, "%zu", samples);
		EXPECT_EQ(32, count) TH_LOG("%s", names[i]);
		EXPECT_EQ(count, sum) TH_LOG("%s: the periods do not add up to the count", names[i]);
		pc_capture_close(&cap);
	}
}

/* Bit 63 cannot be a period (the kernel keeps periods signed): refused. */
TEST(bit63_is_refused)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1ULL << 63, PERF_SAMPLE_IP);

	EXPECT_ERRNO(EINVAL, pc_observe_open_errno("errno", &attr, 0, -1));
}

/* The largest period is accepted and never reached. */
TEST(largest_period_never_overflows)
{
	struct pc_capture cap;
	struct pc_faults f;
	uint64_t count;

	ASSERT_ERRNO(0, -open_faults(&cap, (1ULL << 63) - 1, PERF_SAMPLE_TID));
	ASSERT_EQ(0, pc_faults_map(&f, FAULTS + 1));
	pc_faults_enabled(&f, cap.fd, FAULTS);
	ASSERT_EQ(0, pc_read_count(cap.fd, &count));
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(FAULTS, count);
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
