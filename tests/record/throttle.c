// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_THROTTLE and PERF_RECORD_UNTHROTTLE: when an event
 * interrupts more often than kernel/perf_event_max_sample_rate allows, the
 * kernel stops it until the next timer tick and says so in the ring: a
 * THROTTLE record when it stops, an UNTHROTTLE record when it lets the
 * event go again. Each carries { time, id, stream_id } and, with
 * sample_id_all, the sample_id trailer; id is the event's (its parent's
 * for an inherited one) and stream_id the event's own: for an event of
 * this task, both are what PERF_EVENT_IOC_ID returns. A frequency event's
 * period is raised to keep it at the rate it asked for, and an event
 * cannot ask for a frequency above the maximum rate.
 *
 * In the kernel (6.12 kernel/events/core.c): the sysctl's handler (line
 * 505) sets max_samples_per_tick = DIV_ROUND_UP(rate, HZ), and refuses the
 * write with EINVAL while perf_cpu_time_max_percent is 0 or 100.
 * __perf_event_account_interrupt (line 9719) counts the interrupts of the
 * current tick (perf_throttled_seq, bumped by perf_event_task_tick, line
 * 4485); with `throttle` set and interrupts >= max_samples_per_tick (">" up
 * to 6.x: one more sample), it marks the event MAX_INTERRUPTS and writes
 * the THROTTLE record (perf_log_throttle, line 9339) before the sample of
 * that interrupt. The next tick (perf_adjust_freq_unthr_events, line 4280),
 * or the event's next sched-in (event_sched_in, line 2653), writes the
 * UNTHROTTLE record and starts it again. Software events that count one
 * at a time (page faults) never pass `throttle` for their first overflow
 * (perf_swevent_overflow, line 10016), so they are never throttled; the
 * hrtimer events, cpu-clock and task-clock, always do (perf_swevent_hrtimer,
 * line 11342, fires every max(10 us, period)). They also turn a frequency
 * into a fixed period (perf_swevent_init_hrtimer, line 11419), so the
 * raised period is checked on a page-fault event: it starts at 1 (the
 * period a frequency event begins with, perf_event_alloc) and is raised
 * from the interval between interrupts (line 9740, perf_adjust_period).
 *
 * Here the rate is lowered to 1 sample per second (max_samples_per_tick 1)
 * and a task-clock sampler with a 10 us period runs on a pinned busy loop:
 * it is throttled at the first or second interrupt of every tick, so
 * usually one or two samples lie between two UNTHROTTLEs.
 */
#include "perfconf.h"

#include <sys/syscall.h>
#include <time.h>

#include "ring/capture.h"
#include "work/affinity.h"
#include "work/faults.h"
#include "work/measure.h"
#include "work/clock.h"

/*
 * Exclusive, not writes=perf_event_max_sample_rate: while the rate is
 * lowered, every frequency-sampling event anywhere is refused above it or
 * throttled, whether or not its binary reads the sysctl.
 */
PERFCONF_META("exclusive");

#define CPU_PERCENT_SYSCTL "kernel/perf_cpu_time_max_percent"
#define LOW_RATE 1		/* samples per second: max_samples_per_tick 1 */
#define TIMER_PERIOD 10000	/* ns: the hrtimer's smallest period */
#define SPIN_NS 100000000ULL	/* 100 ms of this thread's CPU time: 10..100 ticks */
/*
 * A loaded machine schedules the task in again and again, and each time
 * in unthrottles it (event_sched_in): records then come far faster than
 * the ticks allow, and 100 ms filled a 64 KiB ring in 14 of 400 runs under
 * stress (the sample after the last THROTTLE lost, with no LOST record to
 * say so). So the spin goes in 1 ms slices and stops once the ring is half
 * full: a slice adds the records of at most 100 timer interrupts (10 us
 * apart), each a sample, a THROTTLE and an UNTHROTTLE of 216 bytes at most
 * with every trailer field, far less than the other half.
 */
#define SLICE_NS 1000000ULL
#define RING_PAGES_LOG2 6	/* 256 KiB */
#define MAX_PER_SEGMENT 2	/* max_samples_per_tick + 1 (">" in older kernels) */
#define SEGMENT_BINS 64		/* segment lengths counted one by one, the longer together */
#define FAULTS 200

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Run on this thread's CPU for ns of CPU time. */
static void spin_cpu(uint64_t ns)
{
	uint64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

/* Lower the rate, checking that it took; SKIP where the kernel refuses. */
#define LOWER_RATE(rate) do { \
	long pct_ = -1, now_ = -1; \
	int e_; \
	ASSERT_EQ(0, pc_sysctl_get(CPU_PERCENT_SYSCTL, &pct_)); \
	if (pct_ == 0 || pct_ == 100) \
		SKIP(return, "perf_cpu_time_max_percent is %ld: the kernel does not throttle " \
		     "and refuses to change the rate", pct_); \
	e_ = pc_sysctl_set(PC_MAX_SAMPLE_RATE_SYSCTL, (rate)); \
	if (e_) \
		BLOCKED("cannot set perf_event_max_sample_rate to %d (%s)", (rate), pc_errno_name(-e_)); \
	ASSERT_EQ(0, pc_sysctl_get(PC_MAX_SAMPLE_RATE_SYSCTL, &now_)); \
	ASSERT_EQ((rate), now_); \
} while (0)

/*
 * Another runner on this machine (each restores every saved sysctl after
 * each of its binaries) may have put the rate back while the case ran:
 * its verdict would then be about the default rate.
 */
#define RATE_STILL_LOWERED(rate) do { \
	long now_ = -1; \
	ASSERT_EQ(0, pc_sysctl_get(PC_MAX_SAMPLE_RATE_SYSCTL, &now_)); \
	if (now_ != (rate)) \
		BLOCKED("perf_event_max_sample_rate went from %d to %ld during the case " \
			"(restored by someone else)", (rate), now_); \
} while (0)

FIXTURE(global) {
	struct pc_capture cap;
};

FIXTURE_VARIANT(global) {
	uint64_t sample_type;
	int sample_id_all;
};

#define ALL_IDS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU)

/* Every field the trailer can hold. */
FIXTURE_VARIANT_ADD(global, trailer_all) { .sample_type = ALL_IDS, .sample_id_all = 1 };
/* A trailer without an id: the record body still names the event. */
FIXTURE_VARIANT_ADD(global, trailer_tid_time) {
	.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME, .sample_id_all = 1
};
/* No trailer at all: the record is its 32 bytes. */
FIXTURE_VARIANT_ADD(global, no_trailer) {
	.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID, .sample_id_all = 0
};

FIXTURE_SETUP(global)
{
	self->cap.fd = -1;
	LOWER_RATE(LOW_RATE);
}

/* The case runs in a child of its own: its fds go with it; the rate is restored here. */
FIXTURE_TEARDOWN_PARENT(global)
{
	pc_sysctl_restore(PC_MAX_SAMPLE_RATE_SYSCTL);
}

/*
 * A task-clock sampler far faster than the rate allows: THROTTLE and
 * UNTHROTTLE records alternate, THROTTLE first, each with the event's id
 * and stream_id, its time in order among the samples', and its trailer;
 * each THROTTLE comes with the sample of the interrupt that threw it, and
 * no more than max_samples_per_tick + 1 samples lie between two
 * UNTHROTTLEs in the usual segment. The limit is per tick, and records do
 * not show ticks: a task scheduled in again late in a tick is unthrottled
 * there (event_sched_in), and its next sample may fall in the next tick,
 * whose count starts anew (3 samples once in arm64-5.10 under qemu). So
 * the most common segment is checked and observed; a kernel that let a
 * tick go unthrottled would show hundreds (the timer fires every 10 us).
 */
TEST_F(global, faster_than_the_rate_is_throttled_and_unthrottled)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_TASK_CLOCK, TIMER_PERIOD,
							variant->sample_type);
	struct pc_sample_format fmt;
	uint64_t id, t0, t1, last_time = 0;
	size_t throttles = 0, unthrottles = 0, samples = 0, segment = 0, max_segment = 0, usual = 0;
	size_t segments[SEGMENT_BINS + 1] = { 0 };	/* ended by an UNTHROTTLE, by their samples */
	uint32_t expect_next = PERF_RECORD_THROTTLE;
	uint32_t pid = (uint32_t)getpid(), tid = (uint32_t)syscall(SYS_gettid);
	int cpu;

	attr.sample_id_all = variant->sample_id_all;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;	/* one clock for every CPU, and ours to read */
	fmt = pc_sample_format(&attr);

	cpu = pc_pin_self();		/* the ticks that unthrottle are this CPU's */
	ASSERT_LE(0, cpu) TH_LOG("pinning: %s", pc_errno_name(-cpu));
	ASSERT_ERRNO(0, -pc_capture_open_pages(&self->cap, &attr, 0, -1, RING_PAGES_LOG2));
	id = pc_event_id(self->cap.fd);
	spin_cpu(SPIN_NS / 10);		/* the loop's pages, unmeasured */

	t0 = now_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(0, pc_enable(self->cap.fd));
	for (uint64_t spun = 0; spun < SPIN_NS &&
	     pc_ring_available(&self->cap.ring) < self->cap.ring.data_size / 2; spun += SLICE_NS)
		spin_cpu(SLICE_NS);
	ASSERT_EQ(0, pc_disable(self->cap.fd));
	t1 = now_ns(CLOCK_MONOTONIC);
	RATE_STILL_LOWERED(LOW_RATE);
	ASSERT_CAPTURE_READ(&self->cap);
	EXPECT_EQ(0, pc_capture_lost_total(&self->cap));

	for (size_t i = 0; i < self->cap.nr; i++) {
		const struct pc_record *r = &self->cap.recs[i].rec;
		uint64_t t;

		if (r->type == PERF_RECORD_SAMPLE) {
			t = r->sample.time;
			samples++;
			if (++segment > max_segment)
				max_segment = segment;
			EXPECT_EQ(pid, r->sample.pid);
			if (variant->sample_type & PERF_SAMPLE_ID)
				EXPECT_EQ(id, r->sample.id);
		} else if (r->type == PERF_RECORD_THROTTLE || r->type == PERF_RECORD_UNTHROTTLE) {
			const char *name = r->type == PERF_RECORD_THROTTLE ? "THROTTLE" : "UNTHROTTLE";

			t = r->throttle.time;
			EXPECT_EQ(expect_next, r->type)
				TH_LOG("record %zu: %s where %s was due", i, name,
				       expect_next == PERF_RECORD_THROTTLE ? "THROTTLE" : "UNTHROTTLE");
			expect_next = r->type == PERF_RECORD_THROTTLE ? PERF_RECORD_UNTHROTTLE
								       : PERF_RECORD_THROTTLE;
			EXPECT_EQ(0, r->misc) TH_LOG("record %zu: %s", i, name);
			EXPECT_EQ(32 + pc_sample_id_size(&fmt), r->size) TH_LOG("record %zu: %s", i, name);
			EXPECT_EQ(id, r->throttle.id) TH_LOG("record %zu: %s", i, name);
			EXPECT_EQ(id, r->throttle.stream_id) TH_LOG("record %zu: %s", i, name);
			EXPECT_EQ(variant->sample_id_all, r->sample_id.present);
			if (variant->sample_id_all && (variant->sample_type & PERF_SAMPLE_TID)) {
				EXPECT_EQ(pid, r->sample_id.pid);
				EXPECT_EQ(tid, r->sample_id.tid);
			}
			if (variant->sample_id_all && (variant->sample_type & PERF_SAMPLE_TIME)) {
				/* taken after the body's */
				EXPECT_LE(r->throttle.time, r->sample_id.time);
				EXPECT_GE(t1, r->sample_id.time);
			}
			if (variant->sample_id_all && (variant->sample_type & (PERF_SAMPLE_ID |
									      PERF_SAMPLE_IDENTIFIER)))
				EXPECT_EQ(id, r->sample_id.id);
			if (variant->sample_id_all && (variant->sample_type & PERF_SAMPLE_STREAM_ID))
				EXPECT_EQ(id, r->sample_id.stream_id);
			if (variant->sample_id_all && (variant->sample_type & PERF_SAMPLE_CPU))
				EXPECT_EQ((uint32_t)cpu, r->sample_id.cpu);
			if (r->type == PERF_RECORD_THROTTLE) {
				throttles++;
				/* the interrupt that threw it writes its sample next */
				EXPECT_TRUE(i + 1 < self->cap.nr &&
					    self->cap.recs[i + 1].rec.type == PERF_RECORD_SAMPLE)
					TH_LOG("THROTTLE record %zu of %zu is followed by %s, not its sample", i,
					       self->cap.nr, i + 1 < self->cap.nr ?
					       pc_abi_record_name(self->cap.recs[i + 1].rec.type) : "nothing");
			} else {
				unthrottles++;
				segments[segment < SEGMENT_BINS ? segment : SEGMENT_BINS]++;
				segment = 0;
			}
		} else {
			continue;
		}
		EXPECT_LE(t0, t) TH_LOG("record %zu before the enable", i);
		EXPECT_GE(t1, t) TH_LOG("record %zu after the disable", i);
		EXPECT_LE(last_time, t) TH_LOG("record %zu out of time order", i);
		last_time = t;
	}
	if (!throttles && samples <= MAX_PER_SEGMENT)
		SKIP(return, "the 10 us timer fired %zu times in %llu ms of CPU time: too few to throttle",
		     samples, SPIN_NS / 1000000);
	ASSERT_LT(0, throttles) TH_LOG("%zu samples, no THROTTLE", samples);
	EXPECT_LE(throttles - 1, unthrottles);
	EXPECT_GE(throttles, unthrottles);
	for (size_t k = 1; k <= SEGMENT_BINS; k++)
		usual = segments[k] > segments[usual] ? k : usual;
	EXPECT_GE(MAX_PER_SEGMENT, usual)
		TH_LOG("most often %zu samples between two UNTHROTTLEs at %d sample/s (at most %zu)", usual,
		       LOW_RATE, max_segment);
	pc_observe("throttle.samples_between_unthrottles", "%zu", usual);
}

/*
 * A frequency above the maximum rate is refused with EINVAL; at the rate
 * itself the event opens (the control).
 */
TEST_F(global, frequency_above_the_rate_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 0,
							variant->sample_type);

	attr.sample_id_all = variant->sample_id_all;
	attr.freq = 1;
	attr.sample_freq = LOW_RATE + 1;
	int above = pc_open_errno(&attr, 0, -1, -1, 0);
	attr.sample_freq = LOW_RATE;
	int at = pc_open_errno(&attr, 0, -1, -1, 0);

	RATE_STILL_LOWERED(LOW_RATE);
	EXPECT_ERRNO(EINVAL, above);
	EXPECT_ERRNO(0, at);
}

/*
 * A frequency event (page faults at the rate's 1 per second) begins with
 * period 1 and is raised as soon as it sees how fast the faults come:
 * PERF_SAMPLE_PERIOD says so, and the samples are far fewer than the
 * faults. (A sample's period is the one the kernel had set when it was
 * taken, data->period = last_period in perf_swevent_event, line 10082,
 * while the count to the next overflow was loaded with the one before:
 * with the period changing, the periods need not add up to the count.)
 */
TEST_F(global, frequency_event_period_is_raised)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 0,
							variant->sample_type | PERF_SAMPLE_PERIOD);
	struct pc_faults f = { 0 };
	uint64_t max_period = 0;
	size_t n;

	attr.sample_id_all = variant->sample_id_all;
	attr.exclude_kernel = 1;
	attr.freq = 1;
	attr.sample_freq = LOW_RATE;
	ASSERT_EQ(0, pc_faults_map(&f, FAULTS + 1));
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &attr, 0, -1));
	/*
	 * The kernel adjusts the period from the perf time between two
	 * overflows, when it is above 0 and under two ticks (core.c,
	 * __perf_event_account_interrupt): the first faults are paced by
	 * perf's clock (work/clock.h), so that a coarse clock has moved
	 * between them, and only by one step.
	 */
	struct pc_perf_clock clk;
	pc_faults_next(&f, 1);	/* unmeasured: the loop's pages */
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	ASSERT_EQ(0, pc_enable(self->cap.fd));
	for (int k = 0; k < 3; k++) {
		ASSERT_EQ(0, pc_perf_clock_wait(&clk));
		ASSERT_EQ(1, pc_faults_next(&f, 1));
	}
	ASSERT_EQ(FAULTS - 3, pc_faults_next(&f, FAULTS - 3));
	ASSERT_EQ(0, pc_disable(self->cap.fd));
	pc_perf_clock_close(&clk);
	pc_faults_unmap(&f);
	RATE_STILL_LOWERED(LOW_RATE);
	ASSERT_CAPTURE_READ(&self->cap);
	EXPECT_EQ(FAULTS, pc_count_of(self->cap.fd));
	EXPECT_EQ(0, pc_capture_count(&self->cap, PERF_RECORD_THROTTLE))
		TH_LOG("a software event counted one at a time is never throttled");

	n = pc_capture_count(&self->cap, PERF_RECORD_SAMPLE);
	ASSERT_LE(2, n);
	EXPECT_GT(FAULTS / 2, n) TH_LOG("the period was never raised");
	EXPECT_EQ(1, pc_capture_sample(&self->cap, 0)->period);
	for (size_t i = 0; i < n; i++) {
		uint64_t p = pc_capture_sample(&self->cap, i)->period;

		if (p > max_period)
			max_period = p;
	}
	EXPECT_LT(1, max_period);
}

TEST_HARNESS_MAIN
