// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_COUNT_SW_CPU_CLOCK and PERF_COUNT_SW_TASK_CLOCK count time in
 * nanoseconds: for a task-bound event, the time the task was on a CPU
 * while the event was enabled (cpu_clock_event_update() and
 * task_clock_event_update(), kernel/events/core.c, 6.12: deltas of
 * local_clock() and of the context's time, both in ns).
 *
 * A busy loop whose own CPU time the kernel measures
 * (CLOCK_THREAD_CPUTIME_ID before and after) makes each clock count
 * between half and one and a half times that time: a clock that counted
 * microseconds (1000 times too few) or ticks fails, as does one that
 * counted far too much.
 */
#include <time.h>

#include "perfconf.h"
#include "work/clock.h"

#define BUSY_NS 20000000ull	/* 20 ms of this thread's CPU time */

static uint64_t thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

FIXTURE(clock) {
};

FIXTURE_VARIANT(clock) {
	uint64_t config;
};

FIXTURE_VARIANT_ADD(clock, cpu_clock) {
	.config = PERF_COUNT_SW_CPU_CLOCK,
};

FIXTURE_VARIANT_ADD(clock, task_clock) {
	.config = PERF_COUNT_SW_TASK_CLOCK,
};

FIXTURE_SETUP(clock)
{
}

FIXTURE_TEARDOWN(clock)
{
}

TEST_F(clock, counts_this_tasks_nanoseconds)
{
	struct perfconf_attr attr = pc_attr_sw(variant->config);
	uint64_t count = 0;
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(fd);
	thread_ns();
	uint64_t start = thread_ns();
	ASSERT_EQ(0, pc_enable(fd));
	while (thread_ns() - start < BUSY_NS)
		pc_work_loop(1000);
	ASSERT_EQ(0, pc_disable(fd));
	uint64_t busy = thread_ns() - start;
	ASSERT_EQ(0, pc_read_count(fd, &count));
	EXPECT_LE(busy / 2, count) TH_LOG("%llu ns of CPU time, the clock counted %llu",
					   (unsigned long long)busy, (unsigned long long)count);
	EXPECT_GE(busy + busy / 2, count) TH_LOG("%llu ns of CPU time, the clock counted %llu",
						 (unsigned long long)busy, (unsigned long long)count);
	close(fd);
}

/*
 * Control: a task that sleeps is not on a CPU: its task-bound clocks stay
 * far below the wall time. After the nap the task spins until perf's clock
 * has moved (work/clock.h), so the clock counts something on a coarse
 * clock too: its on-CPU time is then under 4 of the clock's steps (two
 * stretches on a CPU, each off by less than a step at each end), and the
 * nap lasts 50 ms or 10 steps, whichever is longer.
 */
TEST_F(clock, sleep_is_not_counted)
{
	struct perfconf_attr attr = pc_attr_sw(variant->config);
	struct timespec nap = { 0, 50000000 };	/* 50 ms */
	uint64_t count = UINT64_MAX, step = 0;
	struct pc_perf_clock clk;
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_perf_clock_step(&step));
	if (10 * step > (uint64_t)nap.tv_nsec) {
		nap.tv_sec = (time_t)(10 * step / 1000000000u);
		nap.tv_nsec = (long)(10 * step % 1000000000u);
	}
	uint64_t nap_ns = (uint64_t)nap.tv_sec * 1000000000u + (uint64_t)nap.tv_nsec;
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	uint64_t start = thread_ns();
	ASSERT_EQ(0, pc_enable(fd));
	nanosleep(&nap, NULL);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(0, pc_disable(fd));
	pc_perf_clock_close(&clk);
	uint64_t busy = thread_ns() - start;
	ASSERT_EQ(0, pc_read_count(fd, &count));
	EXPECT_LT(0, count);
	EXPECT_GT(nap_ns / 2, count) TH_LOG("asleep %llu ns, on a CPU %llu ns, counted %llu",
					    (unsigned long long)nap_ns, (unsigned long long)busy,
					    (unsigned long long)count);
	close(fd);
}

TEST_HARNESS_MAIN
