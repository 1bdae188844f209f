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

#include "perfconf.h"
#include "sampling_counted.h"

#define FAULTS 64

/* n page faults sampled with this period (user mode only); the caller unmaps f. */
static void sample_faults_every(struct __test_metadata *_metadata, struct pc_capture *cap,
				uint64_t period, uint64_t sample_type, struct pc_faults *f, size_t n)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, period, sample_type);

	sample_faults(_metadata, cap, &attr, f, n);
}

TEST(every_nth_fault_is_sampled)
{
	struct pc_capture cap;
	struct pc_faults f;

	sample_faults_every(_metadata, &cap, 4, PERF_SAMPLE_ADDR, &f, FAULTS);
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

	sample_faults_every(_metadata, &cap, 4, PERF_SAMPLE_TID, &f, 11);
	EXPECT_EQ(2, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* Period 0 with a sample_type and a ring: a counting event, no records. */
TEST(period_zero_writes_no_samples)
{
	struct pc_capture cap;
	struct pc_faults f;

	sample_faults_every(_metadata, &cap, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID, &f, FAULTS);
	EXPECT_EQ(0, cap.nr);
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* A breakpoint counts exactly; period 7 over 700 calls is 100 samples. */
TEST(breakpoint_period)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);
	struct pc_capture cap;

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	attr.sample_period = 7;
	attr.sample_type = PERF_SAMPLE_IP;
	int err = sample_work(_metadata, &cap, &attr, pc_calls_work, 700);
	SKIP_IF_UNSUPPORTED(-err, "an execute breakpoint");
	ASSERT_ERRNO(0, -err);
	ASSERT_EQ(100, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	expect_samples_at_target(_metadata, &cap);
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

	GETPPID_TRACEPOINT(&attr);
	attr.sample_period = 5;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	ASSERT_ERRNO(0, -sample_work(_metadata, &cap, &attr, pc_getppid_work, 500));
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
 * The periods of a capture's samples add up to what its event counted;
 * how many samples there were is observed as "<name>.samples".
 */
static void expect_periods_add_up(struct __test_metadata *_metadata, const char *name,
				  struct pc_capture *cap)
{
	size_t samples = pc_capture_count(cap, PERF_RECORD_SAMPLE);
	uint64_t sum = 0;
	char key[64];

	for (size_t k = 0; k < samples; k++)
		sum += pc_capture_find(cap, PERF_RECORD_SAMPLE, k)->sample.period;
	snprintf(key, sizeof(key), "%s.samples", name);
	pc_observe(key, "%zu", samples);
	EXPECT_EQ(pc_count_of(cap->fd), sum) TH_LOG("%s: the periods do not add up to the count", name);
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
	struct perfconf_attr uprobe;
	char path[PATH_MAX];	/* the uprobe's uprobe_path */
	struct pc_capture cap;
	struct pc_faults f;

	sample_faults_every(_metadata, &cap, 4, PERF_SAMPLE_PERIOD, &f, 32);
	pc_faults_unmap(&f);
	expect_periods_add_up(_metadata, "page_faults", &cap);
	pc_capture_close(&cap);

	int err = pc_attr_uprobe(&uprobe, pc_work_target, path, sizeof(path));
	if (!err) {
		REQUIRE_INSTRUMENT(PC_INSTR_UPROBES);	/* the second kind: a uprobe's hits */
		uprobe.sample_period = 4;
		uprobe.sample_type = PERF_SAMPLE_PERIOD;
		err = sample_work(_metadata, &cap, &uprobe, pc_calls_work, 32);
	}
	/* No uprobe PMU (ENOENT) is observed as such, like an open the kernel refuses. */
	if (pc_errno_is_unsupported(-err)) {
		pc_observe("uprobe.samples", "%s", pc_errno_name(-err));
		return;
	}
	ASSERT_ERRNO(0, -err);
	expect_periods_add_up(_metadata, "uprobe", &cap);
	pc_capture_close(&cap);
}

/* Bit 63 cannot be a period (the kernel keeps periods signed): refused. */
TEST(bit63_is_refused)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1ULL << 63, PERF_SAMPLE_IP);

	EXPECT_ERRNO(EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

/* The largest period is accepted and never reached. */
TEST(largest_period_never_overflows)
{
	struct pc_capture cap;
	struct pc_faults f;

	sample_faults_every(_metadata, &cap, (1ULL << 63) - 1, PERF_SAMPLE_TID, &f, FAULTS);
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
