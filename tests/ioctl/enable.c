// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_ENABLE (since 2.6.31): turns on the event the fd names
 * (with PERF_IOC_FLAG_GROUP, its whole group: tests/ioctl/flag_group.c).
 * An event opened with attr.disabled counts nothing and accumulates no
 * enabled time until then; enabling an event that is already on changes
 * nothing, its count goes on. An fd that is not a perf event does not know
 * the ioctl (ENOTTY), and one that is not open is EBADF.
 *
 * The times it reads with (time_enabled, time_running) stay sane whatever
 * the order of enables and disables, also on an event attached to another
 * task while that task is not running: a software event, never
 * multiplexed, runs whenever it is enabled, so its time_running equals its
 * time_enabled, on a task (whose event's time moves only while the task
 * runs: kernel/events/core.c counts it in the task context's time) as on
 * a CPU; neither moves while the event is disabled.
 *
 * Counted with the syscalls:sys_enter_getppid tracepoint: only the case's
 * own getppid() calls fire it. The times of a task's page fault counter,
 * and of a CPU's cpu-clock, each window of work lasting until perf's clock
 * has moved (work/clock.h).
 */
#include "perfconf.h"
#include "work/affinity.h"
#include "work/child.h"
#include "work/clock.h"

#include <sys/ioctl.h>

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)

#define CALLS 7

/*
 * fd: the tracepoint counter, disabled, with time_enabled in its reads;
 * SKIP where the tracepoint is not here.
 */
#define OPEN_COUNTER(fd) do { \
	struct perfconf_attr attr_; \
	GETPPID_TRACEPOINT(&attr_); \
	attr_.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED; \
	fd = pc_open(&attr_, 0, -1, -1, 0); \
	ASSERT_OPEN(fd); \
} while (0)

TEST(disabled_event_counts_from_enable)
{
	struct pc_perf_clock clk;
	uint64_t value, enabled;
	int fd;

	OPEN_COUNTER(fd);
	/* each window lasts until perf's clock has moved (work/clock.h) */
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(0, pc_read_count_enabled(fd, &value, &enabled));
	EXPECT_EQ(0, value);
	EXPECT_EQ(0, enabled) TH_LOG("a disabled event accumulated enabled time");

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(0, pc_read_count_enabled(fd, &value, &enabled));
	EXPECT_EQ(CALLS, value);
	EXPECT_LT(0, enabled);
	pc_perf_clock_close(&clk);
	close(fd);
}

TEST(enable_twice_keeps_the_count)
{
	uint64_t value, enabled;
	int fd;

	OPEN_COUNTER(fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pc_work_getppid_calls(CALLS);
	ASSERT_EQ(0, pc_read_count_enabled(fd, &value, &enabled));
	EXPECT_EQ(2 * CALLS, value);
	close(fd);
}

/* Not a perf event: ENOTTY (a pipe) and EBADF (a closed fd); a perf fd is the control. */
TEST(not_a_perf_fd_is_enotty)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	int p[2], fd;

	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(-1, ioctl(p[0], PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_ERRNO(ENOTTY, errno);
	close(p[1]);
	close(p[0]);
	EXPECT_EQ(-1, ioctl(p[0], PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_ERRNO(EBADF, errno);
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	close(fd);
}

#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/*
 * A page fault counter on a child, off while the child works, then
 * enabled, disabled, enabled, disabled and enabled while it waits (perf
 * time passing between); then the child works: times equal and moving;
 * disabled, nothing moves while the child works; enabled again, they move
 * on, equal.
 */
TEST(toggled_on_a_waiting_task)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct pc_read_values v, w;
	struct pc_perf_clock clk;
	struct pc_child child;

	attr.read_format = TIMES;
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	ASSERT_EQ(0, pc_child_start(&child, 0));
	int fd = pc_open(&attr, child.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	/* the child runs with the event off: its context's time moves, the event's does not */
	ASSERT_EQ(0, pc_child_do(&child, "timed_faults 10"));
	ASSERT_EQ(0, pc_read_values_read(fd, TIMES, &v));
	EXPECT_EQ(0, v.values[0].value);
	EXPECT_EQ(0, v.time_enabled);
	EXPECT_EQ(0, v.time_running);

	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		ASSERT_EQ(0, pc_perf_clock_wait(&clk));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(0, pc_read_values_read(fd, TIMES, &v));
	EXPECT_EQ(v.time_enabled, v.time_running) TH_LOG("toggled while the task waits");

	ASSERT_EQ(0, pc_child_do(&child, "timed_faults 10"));
	/* read once it is off: the child may still be on its way back to its wait */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, pc_read_values_read(fd, TIMES, &v));
	EXPECT_LE(10, v.values[0].value);
	EXPECT_LT(0, v.time_running) TH_LOG("enabled while the task ran");
	EXPECT_EQ(v.time_enabled, v.time_running) TH_LOG("enabled while the task ran");

	ASSERT_EQ(0, pc_child_do(&child, "timed_faults 10"));
	ASSERT_EQ(0, pc_read_values_read(fd, TIMES, &w));
	EXPECT_EQ(v.values[0].value, w.values[0].value) TH_LOG("disabled, it counted");
	EXPECT_EQ(v.time_enabled, w.time_enabled) TH_LOG("disabled, its time_enabled moved");
	EXPECT_EQ(v.time_running, w.time_running) TH_LOG("disabled, its time_running moved");

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, pc_child_do(&child, "timed_faults 10"));
	ASSERT_EQ(0, pc_read_values_read(fd, TIMES, &v));
	EXPECT_LE(w.values[0].value + 10, v.values[0].value);
	EXPECT_LT(w.time_running, v.time_running) TH_LOG("enabled again while the task ran");
	EXPECT_EQ(v.time_enabled, v.time_running) TH_LOG("enabled again while the task ran");
	ASSERT_EQ(0, pc_child_finish(&child));
	pc_perf_clock_close(&clk);
	close(fd);
}

/*
 * cpu-clock on this CPU (pinned), opened enabled or disabled (then
 * enabled): its times are equal whenever read, do not move while it is
 * disabled, and move on when it is enabled again.
 */
FIXTURE(cpu_wide) {};
FIXTURE_VARIANT(cpu_wide) {
	int enabled_at_open;
};
FIXTURE_VARIANT_ADD(cpu_wide, opened_enabled) { .enabled_at_open = 1 };
FIXTURE_VARIANT_ADD(cpu_wide, opened_disabled) { .enabled_at_open = 0 };
FIXTURE_SETUP(cpu_wide) {}
FIXTURE_TEARDOWN(cpu_wide) {}

TEST_F(cpu_wide, time_enabled_equals_running)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	struct pc_read_values v, w;
	struct pc_perf_clock clk;
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu) TH_LOG("pinning: %s", pc_errno_name(-cpu));
	attr.read_format = TIMES;
	attr.disabled = !variant->enabled_at_open;
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	int fd = pc_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	if (!variant->enabled_at_open) {
		ASSERT_EQ(0, pc_read_values_read(fd, TIMES, &v));
		EXPECT_EQ(0, v.time_enabled) TH_LOG("opened disabled");
		EXPECT_EQ(0, v.time_running) TH_LOG("opened disabled");
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	}
	ASSERT_EQ(0, pc_read_values_read(fd, TIMES, &v));
	EXPECT_LT(0, v.time_running);
	EXPECT_EQ(v.time_enabled, v.time_running) TH_LOG("enabled");
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, pc_read_values_read(fd, TIMES, &v));
	EXPECT_EQ(v.time_enabled, v.time_running) TH_LOG("disabled");
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(0, pc_read_values_read(fd, TIMES, &w));
	EXPECT_EQ(v.time_enabled, w.time_enabled) TH_LOG("disabled, its time_enabled moved");
	EXPECT_EQ(v.time_running, w.time_running) TH_LOG("disabled, its time_running moved");
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, pc_read_values_read(fd, TIMES, &v));
	EXPECT_LT(w.time_running, v.time_running) TH_LOG("enabled again");
	EXPECT_EQ(v.time_enabled, v.time_running) TH_LOG("enabled again");
	pc_perf_clock_close(&clk);
	close(fd);
}

TEST_HARNESS_MAIN
