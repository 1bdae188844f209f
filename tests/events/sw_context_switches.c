// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_COUNT_SW_CONTEXT_SWITCHES counts the times the measured task is
 * switched out: the kernel counts it in perf_event_task_sched_out()
 * (include/linux/perf_event.h, 6.12: perf_sw_event_sched() on the task
 * that leaves the CPU), which the scheduler calls from
 * prepare_task_switch() only when it really changes tasks, the same place
 * where it adds one to the task's nvcsw or nivcsw (getrusage()).
 *
 * A task pinned to one CPU that sends a byte over a pipe to a partner and
 * waits for its answer leaves the CPU exactly once per round trip (it
 * blocks in read(), or is preempted by the woken partner and then finds
 * the answer waiting). With both SCHED_FIFO at one priority nothing else
 * on the CPU but a higher class (the stopper, a higher RT priority) can
 * take it away: n round trips are exactly n voluntary switches of this
 * task, and the partner's own n switches are not this task's. A rare
 * preemption by a higher class is a real switch too (an involuntary one):
 * the count is then checked against the scheduler's own counts, between
 * the window read inside enable/disable and the one read around it.
 * Without SCHED_FIFO others may preempt it at any time.
 *
 * A switch is counted in the kernel: exclude_kernel counts none,
 * exclude_user all of them.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "perfconf.h"
#include "work/child.h"
#include "work/affinity.h"

#define ROUND_TRIPS 200

/* This thread's switches as the scheduler counts them (voluntary + involuntary). */
static long switches_so_far(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -1;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* The voluntary ones only: the times it blocked. */
static long blocked_so_far(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -1;
	return ru.ru_nvcsw;
}

/* Pin this task, make it SCHED_FIFO (the partner inherits both), or end the case. */
#define PIN_AND_FIFO() do { \
	struct sched_param fifo_ = { .sched_priority = 1 }; \
	REQUIRE_INSTRUMENT(PC_INSTR_SCHED_FIFO); \
	ASSERT_LE(0, pc_pin_self()); \
	if (sched_setscheduler(0, SCHED_FIFO, &fifo_)) \
		BLOCKED("cannot make this task SCHED_FIFO (%s)", pc_errno_name(errno)); \
} while (0)

static void back_to_other(void)
{
	struct sched_param other = { .sched_priority = 0 };

	sched_setscheduler(0, SCHED_OTHER, &other);
}

TEST(one_switch_per_blocking_round_trip)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct pc_echo p;
	uint64_t count = UINT64_MAX;
	int fd;

	PIN_AND_FIFO();
	fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_echo_start(&p, NULL));
	long outer0 = switches_so_far();
	ASSERT_EQ(0, pc_enable(fd));
	long inner0 = switches_so_far(), blocked0 = blocked_so_far();
	int err = pc_echo_round_trips(&p, ROUND_TRIPS);
	long inner1 = switches_so_far(), blocked1 = blocked_so_far();
	ASSERT_EQ(0, pc_disable(fd));
	long outer1 = switches_so_far();
	pc_echo_stop(&p);
	back_to_other();
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, pc_read_count(fd, &count));
	/* Each round trip blocked once ... */
	EXPECT_EQ(ROUND_TRIPS, blocked1 - blocked0);
	/* ... and the count is this task's switches: not the partner's, none missed. */
	EXPECT_LE(inner1 - inner0, count);
	EXPECT_GE(outer1 - outer0, count) TH_LOG("the partner's switches are not this task's");
	close(fd);
}

/* Control: the same SCHED_FIFO task busy without blocking leaves the CPU never. */
TEST(busy_without_blocking_is_zero)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	uint64_t count = UINT64_MAX;
	int fd;

	PIN_AND_FIFO();
	fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	long outer0 = switches_so_far();
	ASSERT_EQ(0, pc_enable(fd));
	long inner0 = switches_so_far(), blocked0 = blocked_so_far();
	pc_work_loop(200000);
	long inner1 = switches_so_far(), blocked1 = blocked_so_far();
	ASSERT_EQ(0, pc_disable(fd));
	long outer1 = switches_so_far();
	back_to_other();
	ASSERT_EQ(0, pc_read_count(fd, &count));
	/* Never blocked; only a higher class's preemption, which the scheduler counts too, is a switch. */
	EXPECT_EQ(0, blocked1 - blocked0);
	EXPECT_LE(inner1 - inner0, count);
	EXPECT_GE(outer1 - outer0, count);
	close(fd);
}

/*
 * Without SCHED_FIFO (any machine): every round trip is at least one
 * switch, and the count lies between the scheduler's counts of the window
 * inside enable/disable and of the one around it.
 */
TEST(agrees_with_the_schedulers_count)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct pc_echo p;
	uint64_t count = UINT64_MAX;
	int fd;

	ASSERT_LE(0, pc_pin_self());
	fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_echo_start(&p, NULL));
	long outer0 = switches_so_far();
	ASSERT_EQ(0, pc_enable(fd));
	long inner0 = switches_so_far();
	int err = pc_echo_round_trips(&p, ROUND_TRIPS);
	long inner1 = switches_so_far();
	ASSERT_EQ(0, pc_disable(fd));
	long outer1 = switches_so_far();
	pc_echo_stop(&p);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, pc_read_count(fd, &count));
	EXPECT_LE(ROUND_TRIPS, inner1 - inner0);
	EXPECT_LE(inner1 - inner0, count);
	EXPECT_GE(outer1 - outer0, count);
	close(fd);
}

/*
 * A switch happens in the kernel, and is counted there (since 2.6.34,
 * e49a5bd38159, the sched events take the scheduler's own registers;
 * before, they were counted as user): with exclude_kernel the event counts
 * none of the switches that an event without it, exclude_user set instead,
 * counts of the same round trips at the same time.
 */
TEST(switches_are_kernel_not_user)
{
	struct perfconf_attr user = pc_attr_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct perfconf_attr kernel = pc_attr_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct pc_echo p;
	uint64_t user_count = UINT64_MAX, kernel_count = UINT64_MAX;

	user.exclude_kernel = 1;
	kernel.exclude_user = 1;
	ASSERT_LE(0, pc_pin_self());
	int ufd = pc_open(&user, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(ufd);
	int kfd = pc_open(&kernel, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(kfd);
	ASSERT_EQ(0, pc_echo_start(&p, NULL));
	long outer0 = switches_so_far();
	ASSERT_EQ(0, pc_enable(kfd));
	ASSERT_EQ(0, pc_enable(ufd));
	long inner0 = switches_so_far();
	int err = pc_echo_round_trips(&p, ROUND_TRIPS);
	long inner1 = switches_so_far();
	ASSERT_EQ(0, pc_disable(ufd));
	ASSERT_EQ(0, pc_disable(kfd));
	long outer1 = switches_so_far();
	pc_echo_stop(&p);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, pc_read_count(ufd, &user_count));
	ASSERT_EQ(0, pc_read_count(kfd, &kernel_count));
	EXPECT_EQ(0, user_count) TH_LOG("switches counted in user mode");
	EXPECT_LE(ROUND_TRIPS, inner1 - inner0);
	EXPECT_LE(inner1 - inner0, kernel_count);
	EXPECT_GE(outer1 - outer0, kernel_count);
	close(ufd);
	close(kfd);
}

TEST_HARNESS_MAIN
