// SPDX-License-Identifier: GPL-2.0
/*
 * exclude_idle: "If set, don't count when the CPU is running the idle
 * task. While you can currently enable this for any event type, it is
 * ignored for all but software events."
 *
 * A task's own events never happen in the idle task: page faults and
 * breakpoint hits count in full. Where the idle task can be seen is a
 * CPU-wide cpu-clock sampling event: with the bit no sample is taken while
 * the CPU idles (pid/tid 0), while the same event without it, enabled
 * over the same time as the control, does sample the idle task.
 */
#include <linux/hw_breakpoint.h>
#include <sched.h>
#include <time.h>

#include "work/affinity.h"
#include "work/measure.h"
#include "perfconf.h"

/* Exclusive: the CPU-wide case needs a CPU the rest of the suite leaves idle. */
PERFCONF_META("exclusive");

#define N 64

TEST(task_page_faults_counted)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t count = UINT64_MAX;

	attr.exclude_idle = 1;
	ASSERT_EQ(0, pc_count_work(&attr, pc_user_faults_work, PC_N(N), &count));
	EXPECT_EQ(N, count);
	ASSERT_EQ(0, pc_count_work(&attr, pc_kernel_faults_work, PC_N(N), &count));
	EXPECT_EQ(N, count);
}

TEST(breakpoint_hits_counted)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);
	uint64_t count = UINT64_MAX;

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	attr.exclude_idle = 1;
	int err = pc_count_work(&attr, pc_calls_work, PC_N(100), &count);
	SKIP_IF_UNSUPPORTED(-err, "an execute breakpoint");
	ASSERT_EQ(0, err);
	EXPECT_EQ(100, count);
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Busy on this CPU for ms milliseconds of wall time. */
static void spin_ms(unsigned int ms)
{
	uint64_t end = now_ns() + ms * 1000000ull;

	while (now_ns() < end)
		pc_work_loop(1000);
}

/*
 * Samples with tid 0 in a capture: the idle task's, and the last moments
 * of an exiting task whose pid the kernel has already released (any
 * process of the machine; one sample at most, its final switch being far
 * shorter than the 500 us period). So the control must show IDLE_SAMPLES
 * of them before the CPU counts as having idled, and the sampler with the
 * bit may show STRAY_SAMPLES: without the bit at work it would show about
 * as many as the control.
 */
#define IDLE_SAMPLES 3
#define STRAY_SAMPLES 1

static size_t idle_samples(const struct pc_capture *cap)
{
	size_t n = 0, samples = pc_capture_count(cap, PERF_RECORD_SAMPLE);

	for (size_t i = 0; i < samples; i++)
		n += pc_capture_sample(cap, i)->tid == 0;
	return n;
}

/*
 * On one CPU, a cpu-clock sample every 500 us: the exclude_idle sampler and
 * the control (the same without the bit), enabled together; busy, then
 * asleep until the control has sampled the idle task IDLE_SAMPLES times
 * (up to wait_ms), so the CPU did idle while the bit was set. 1 when it did (both captures read), 0 when it did not, or
 * -errno of an open.
 */
static int idled_on(int cpu, struct pc_capture *cap, struct pc_capture *ctl, unsigned int wait_ms)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_CPU_CLOCK, 500000, PERF_SAMPLE_TID);
	struct perfconf_attr ctl_attr = attr;
	int err;

	attr.exclude_idle = 1;
	err = pc_capture_open(cap, &attr, -1, cpu);
	if (!err)
		err = pc_capture_open(ctl, &ctl_attr, -1, cpu);
	if (!err)
		err = pc_enable(ctl->fd) ?: pc_enable(cap->fd);
	if (err)
		return err;
	spin_ms(10);
	for (uint64_t end = now_ns() + wait_ms * 1000000ull; now_ns() < end && idle_samples(ctl) < IDLE_SAMPLES;) {
		usleep(20000);
		if (pc_capture_read(ctl) < 0 || pc_capture_read(cap) < 0)
			return -EIO;
	}
	pc_disable(cap->fd);
	pc_disable(ctl->fd);
	if (pc_capture_read(cap) < 0 || pc_capture_read(ctl) < 0)
		return -EIO;
	return idle_samples(ctl) >= IDLE_SAMPLES;
}

/*
 * With exclude_idle a CPU-wide cpu-clock sampler takes no sample from the
 * idle task (tid 0) while the control, the same event without the bit
 * over the same time, does; and it does sample this busy task. The
 * control needs a CPU whose timer fires while it idles: a virtual machine
 * may leave a halted vCPU's timer undelivered (one of our 2-CPU machines
 * sampled its CPU 1 0 to 3 times in 200 ms of idle, against 400 on CPU
 * 0), so every CPU this task may run on is tried, 1 s each, until one
 * shows its idle task; a machine where none does cannot test it.
 */
TEST(cpu_wide_samples_skip_idle)
{
	struct pc_capture cap = { .fd = -1 }, ctl = { .fd = -1 };
	cpu_set_t allowed;
	char tried[256] = "";
	size_t used = 0;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(allowed), &allowed));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed) || pc_pin_to(cpu))
			continue;
		int idled = idled_on(cpu, &cap, &ctl, 1000);

		if (idled == -EACCES || idled == -EPERM)
			SKIP(return, "no CPU-wide events for this user (%s)", pc_errno_name(-idled));
		ASSERT_LE(0, idled) TH_LOG("CPU %d: %s", cpu, pc_errno_name(-idled));
		if (idled) {
			size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE), mine = 0;

			for (size_t i = 0; i < samples; i++)
				mine += pc_capture_sample(&cap, i)->pid == (uint32_t)getpid();
			EXPECT_GE(STRAY_SAMPLES, idle_samples(&cap))
				TH_LOG("%zu of %zu samples on CPU %d were taken in the idle task (the control: %zu)",
				       idle_samples(&cap), samples, cpu, idle_samples(&ctl));
			EXPECT_LT(0, mine) TH_LOG("none of %zu samples on CPU %d from this busy task", samples, cpu);
			pc_capture_close(&cap);
			pc_capture_close(&ctl);
			return;
		}
		pc_capture_close(&cap);
		pc_capture_close(&ctl);
		if (used < sizeof(tried))
			used += snprintf(tried + used, sizeof(tried) - used, "%s%d", used ? "," : "", cpu);
	}
	BLOCKED("the control without exclude_idle sampled the idle task fewer than %d times on CPUs %s "
		"(1 s each): their cpu-clock timer did not fire while they idled, or something kept them busy",
		IDLE_SAMPLES, tried);
}

TEST_HARNESS_MAIN
