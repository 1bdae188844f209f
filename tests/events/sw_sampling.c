// SPDX-License-Identifier: GPL-2.0
/*
 * A software event with sample_period 1 writes one PERF_RECORD_SAMPLE per
 * event into the ring buffer: n page faults give n samples, each from this
 * task, with period 1, times that never go back, and the faulting address
 * (PERF_SAMPLE_ADDR) on a different page each time.
 */
#include <sys/syscall.h>

#include "perfconf.h"
#include "work/measure.h"

#define PAGES 64

/*
 * Open a capture of attr (user mode only) and take PAGES page faults with
 * it enabled, after the workload's own first faults; read the records.
 */
static void sample_page_faults(struct __test_metadata *_metadata, struct pc_capture *cap,
			       struct perfconf_attr *attr)
{
	attr->exclude_kernel = 1;
	ASSERT_ERRNO(0, -pc_capture_open(cap, attr, 0, -1));
	pc_work_page_faults(1);		/* the workload's own first faults */
	ASSERT_EQ(0, pc_enable(cap->fd));
	pc_work_page_faults(PAGES);
	ASSERT_EQ(0, pc_disable(cap->fd));
	ASSERT_CAPTURE_READ(cap);
}

TEST(one_sample_per_fault)
{
	const uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD;
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, type);
	struct pc_capture cap;

	sample_page_faults(_metadata, &cap, &attr);
	ASSERT_EQ(PAGES, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	uint64_t last_time = 0, last_page = 0;
	long page = sysconf(_SC_PAGESIZE);
	for (size_t i = 0; i < PAGES; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);

		EXPECT_EQ(getpid(), s->pid);
		EXPECT_EQ(syscall(SYS_gettid), s->tid);
		EXPECT_EQ(1, s->period);
		EXPECT_LE(last_time, s->time);
		EXPECT_NE(last_page, s->addr / page) TH_LOG("sample %zu: the same page again", i);
		EXPECT_NE(0, s->ip);
		last_time = s->time;
		last_page = s->addr / page;
	}
	pc_capture_close(&cap);
}

/* Every 4th fault is sampled: n faults, n / 4 samples. */
TEST(period_four)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 4, PERF_SAMPLE_TID);
	struct pc_capture cap;

	sample_page_faults(_metadata, &cap, &attr);
	EXPECT_EQ(PAGES, pc_count_of(cap.fd));
	EXPECT_EQ(PAGES / 4, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	pc_capture_close(&cap);
}

/*
 * With PERF_SAMPLE_PERIOD in sample_type, a software event may sample every
 * event and report the period it covered (the kernel does so since 2.6.33
 * rather than wait for sample_period events). How many samples arrive is
 * pinned; that the reported periods add up to the count is the ABI.
 */
TEST(periods_add_up_to_count)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 4, PERF_SAMPLE_PERIOD);
	struct pc_capture cap;
	uint64_t count, sum = 0;

	sample_page_faults(_metadata, &cap, &attr);
	count = pc_count_of(cap.fd);
	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	for (size_t i = 0; i < samples; i++)
		sum += pc_capture_sample(&cap, i)->period;
	pc_observe("samples", "%zu", samples);
	EXPECT_EQ(PAGES, count);
	EXPECT_EQ(count, sum);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
