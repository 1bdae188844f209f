// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_COUNT_SW_CPU_MIGRATIONS counts the times the measured task moved to
 * another CPU. The scheduler marks the task in set_task_cpu() when its CPU
 * changes (perf_event_task_migrate(): task->sched_migrated), and the
 * event counts one when the task next runs, in perf_event_task_sched_in()
 * (include/linux/perf_event.h, 6.12); the same change adds one to
 * se.nr_migrations.
 *
 * A task allowed on one CPU only, that changes its affinity to another
 * single CPU, must move there: n such hops between two CPUs are exactly n
 * migrations, and an affinity change that keeps it where it is, none. A
 * machine with one CPU cannot move a task: SKIP.
 */
#include <sched.h>

#include "perfconf.h"
#include "work/affinity.h"

#define HOPS 40

/* Two CPUs this task may run on, or SKIP. */
#define TWO_CPUS(a, b) do { \
	cpu_set_t allowed_; \
	REQUIRE_CPUS(2); \
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(allowed_), &allowed_)); \
	*(a) = *(b) = -1; \
	for (int c_ = 0; c_ < CPU_SETSIZE && *(b) < 0; c_++) \
		if (CPU_ISSET(c_, &allowed_)) { \
			if (*(a) < 0) \
				*(a) = c_; \
			else \
				*(b) = c_; \
		} \
	if (*(b) < 0) \
		SKIP(return, "one CPU only: a task cannot migrate here"); \
} while (0)

/* Hop n times, alternating between a and b (starting on a); the count. */
static uint64_t count_hops(struct __test_metadata *_metadata, int a, int b, unsigned long n, int *err)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_MIGRATIONS);
	uint64_t count = UINT64_MAX;
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	*err = fd < 0 ? fd : pc_pin_to(a);
	if (*err)
		return count;
	pc_pin_to(b);		/* warm the path up, unmeasured */
	pc_pin_to(a);
	if (pc_enable(fd) == 0) {
		for (unsigned long i = 0; i < n && !*err; i++)
			*err = pc_pin_to(i % 2 ? a : b);
		pc_disable(fd);
		pc_read_count(fd, &count);
	}
	close(fd);
	return count;
}

TEST(one_per_hop)
{
	int a, b, err;

	TWO_CPUS(&a, &b);
	uint64_t count = count_hops(_metadata, a, b, HOPS, &err);
	ASSERT_ERRNO(0, -err);
	EXPECT_EQ(HOPS, count);
}

/* Control: setting the affinity to the CPU the task is on moves nothing. */
TEST(same_cpu_is_no_migration)
{
	int a, b, err;

	TWO_CPUS(&a, &b);
	uint64_t count = count_hops(_metadata, a, a, HOPS, &err);
	ASSERT_ERRNO(0, -err);
	EXPECT_EQ(0, count);
}

TEST_HARNESS_MAIN
