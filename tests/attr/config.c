// SPDX-License-Identifier: GPL-2.0
/*
 * config: "This specifies which event you want, in conjunction with the
 * type field." For PERF_TYPE_SOFTWARE it is one of PERF_COUNT_SW_*: the
 * clocks (CPU_CLOCK, TASK_CLOCK), PAGE_FAULTS and its MIN/MAJ split,
 * CONTEXT_SWITCHES, CPU_MIGRATIONS, ALIGNMENT_FAULTS, EMULATION_FAULTS,
 * DUMMY (3.12), BPF_OUTPUT (4.4), CGROUP_SWITCHES (5.13). A value past the
 * kernel's last one is no event: ENOENT ("This error is also returned for
 * some unsupported generic events"). For PERF_TYPE_TRACEPOINT config is the
 * tracepoint's id from tracefs, all 64 bits of it: an id with a high bit
 * set is refused, not read as its low 32 bits.
 *
 * The same work seen through each config: n page faults are n PAGE_FAULTS,
 * n PAGE_FAULTS_MIN and no PAGE_FAULTS_MAJ, alignment or emulation fault;
 * DUMMY counts nothing.
 */
#include <sys/prctl.h>
#include <time.h>

#include "work/clock.h"
#include "work/measure.h"
#include "perfconf.h"

#define N 64

/* Every config that all supported kernels (5.10 on) know, by name. */
static const struct { uint64_t config; const char *name; } known[] = {
	{ PERF_COUNT_SW_CPU_CLOCK, "cpu_clock" },
	{ PERF_COUNT_SW_TASK_CLOCK, "task_clock" },
	{ PERF_COUNT_SW_PAGE_FAULTS, "page_faults" },
	{ PERF_COUNT_SW_CONTEXT_SWITCHES, "context_switches" },
	{ PERF_COUNT_SW_CPU_MIGRATIONS, "cpu_migrations" },
	{ PERF_COUNT_SW_PAGE_FAULTS_MIN, "page_faults_min" },
	{ PERF_COUNT_SW_PAGE_FAULTS_MAJ, "page_faults_maj" },
	{ PERF_COUNT_SW_ALIGNMENT_FAULTS, "alignment_faults" },
	{ PERF_COUNT_SW_EMULATION_FAULTS, "emulation_faults" },
	{ PERF_COUNT_SW_DUMMY, "dummy" },
	{ PERF_COUNT_SW_BPF_OUTPUT, "bpf_output" },
};
#define NKNOWN (ARRAY_SIZE(known))
#define SW_CGROUP_SWITCHES 11	/* since 5.13 */

TEST(software_configs_open)
{
	for (size_t i = 0; i < NKNOWN; i++) {
		struct perfconf_attr attr = pc_attr_sw(known[i].config);

		EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("%s", known[i].name);
	}
	struct perfconf_attr attr = pc_attr_sw(SW_CGROUP_SWITCHES);
	pc_open_observe_errno("errno.cgroup_switches", &attr, 0, -1);
}

/* One run of n page faults, counted by every fault-shaped config at once. */
TEST(config_selects_the_event)
{
	static const struct { uint64_t config; uint64_t expected; } cases[] = {
		{ PERF_COUNT_SW_PAGE_FAULTS, N },
		{ PERF_COUNT_SW_PAGE_FAULTS_MIN, N },
		{ PERF_COUNT_SW_PAGE_FAULTS_MAJ, 0 },
		{ PERF_COUNT_SW_ALIGNMENT_FAULTS, 0 },
		{ PERF_COUNT_SW_EMULATION_FAULTS, 0 },
		{ PERF_COUNT_SW_DUMMY, 0 },
	};
	enum { NCASES = ARRAY_SIZE(cases) };
	int fds[NCASES];

	for (int i = 0; i < NCASES; i++) {
		struct perfconf_attr attr = pc_attr_sw(cases[i].config);

		fds[i] = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		ASSERT_OPEN(fds[i]);
	}
	ASSERT_EQ(0, pc_count_faults_with_task_events(N));
	for (int i = 0; i < NCASES; i++) {
		uint64_t count = UINT64_MAX;

		ASSERT_EQ(0, pc_read_count(fds[i], &count));
		EXPECT_EQ(cases[i].expected, count) TH_LOG("config %llu",
							   (unsigned long long)cases[i].config);
		close(fds[i]);
	}
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/*
 * The clocks count nanoseconds of this task: no more than the wall time
 * that passed, and at least half the CPU time the kernel measured for this
 * thread around the same window (a clock in microseconds is 1000x short).
 * They count in perf's clock and the wall is read on CLOCK_MONOTONIC,
 * either of which may step at the tick (work/clock.h): a window's count is
 * off by less than pc_perf_clock_error at each end, so the window lasts 20
 * of those at least and the upper bound allows 2.
 */
TEST(clocks_count_nanoseconds)
{
	struct perfconf_attr cpu = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	struct perfconf_attr task = pc_attr_sw(PERF_COUNT_SW_TASK_CLOCK);
	uint64_t cpu_ns = 0, task_ns = 0, step = 0;
	ASSERT_EQ(0, pc_perf_clock_error(&step));
	int fds[2] = { pc_open(&cpu, 0, -1, -1, PERF_FLAG_FD_CLOEXEC),
		       pc_open(&task, 0, -1, -1, PERF_FLAG_FD_CLOEXEC) };

	ASSERT_OPEN(fds[0]);
	ASSERT_OPEN(fds[1]);
	thread_cpu_ns();
	uint64_t start = now_ns(), on_cpu = thread_cpu_ns();
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	pc_work_loop(2000000);
	while (thread_cpu_ns() - on_cpu < 20 * step)
		pc_work_loop(100000);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	on_cpu = thread_cpu_ns() - on_cpu;
	uint64_t wall = now_ns() - start;
	ASSERT_EQ(0, pc_read_count(fds[0], &cpu_ns));
	ASSERT_EQ(0, pc_read_count(fds[1], &task_ns));
	EXPECT_LT(0, cpu_ns);
	EXPECT_LT(0, task_ns);
	/* A little slack for the two clocks' different sources. */
	EXPECT_GE(wall + wall / 100 + 100000 + 2 * step, cpu_ns) TH_LOG("the clocks' error: %llu ns at each end", (unsigned long long)step);
	EXPECT_GE(wall + wall / 100 + 100000 + 2 * step, task_ns) TH_LOG("the clocks' error: %llu ns at each end", (unsigned long long)step);
	EXPECT_LE(on_cpu / 2, cpu_ns) TH_LOG("on a CPU for %llu ns", (unsigned long long)on_cpu);
	EXPECT_LE(on_cpu / 2, task_ns) TH_LOG("on a CPU for %llu ns", (unsigned long long)on_cpu);
	close(fds[1]);
	close(fds[0]);
}

/* The first config the kernel does not know, and its errno, are pinned. */
TEST(first_unknown_config)
{
	uint64_t config;
	int err = 0;

	for (config = 0; config < 64; config++) {
		struct perfconf_attr attr = pc_attr_sw(config);

		err = pc_open_errno(&attr, 0, -1, -1, 0);
		if (err)
			break;
	}
	ASSERT_LE(NKNOWN, config) TH_LOG("config %llu refused (%s)", (unsigned long long)config,
					 pc_errno_name(err));
	pc_observe("first_refused", "%llu", (unsigned long long)config);
	pc_observe_errno("errno", err);
}

TEST(far_configs_are_enoent)
{
	static const uint64_t configs[] = { 1000, 1ULL << 32, 1ULL << 63, UINT64_MAX };

	for (size_t i = 0; i < ARRAY_SIZE(configs); i++) {
		struct perfconf_attr attr = pc_attr_sw(configs[i]);

		EXPECT_ERRNO(ENOENT, pc_open_errno(&attr, 0, -1, -1, 0))
			TH_LOG("config %#llx", (unsigned long long)configs[i]);
	}
}

/* For a tracepoint, config is the id from tracefs; an id no tracepoint has is refused (pinned). */
TEST(tracepoint_config_is_an_id)
{
	struct perfconf_attr attr;
	uint64_t count = UINT64_MAX;

	int err = pc_attr_tracepoint(&attr, "task", "task_rename");
	if (err)
		SKIP(return, "no task:task_rename tracepoint (%s)", pc_errno_name(-err));
	ASSERT_EQ(0, pc_count_work(&attr, pc_rename_work, PC_N(N), &count));
	EXPECT_EQ(N, count);
	attr.config = UINT32_MAX;
	err = pc_open_errno(&attr, 0, -1, -1, 0);
	EXPECT_NE(0, err);
	pc_observe_errno("errno.unknown_id", err);
}

/*
 * config is all 64 bits of the id: one with any of the high 32 bits set is
 * no tracepoint's, refused as an unknown id is, not taken for the
 * tracepoint of its low 32 bits (they aliased until perf_trace_init() read
 * config as a u64). The control: the low 32 bits alone open.
 */
TEST(tracepoint_config_high_bits_are_refused)
{
	static const uint64_t high[] = { 1ULL << 32, 1ULL << 63, ~0ULL << 32 };
	struct perfconf_attr attr;

	int err = pc_attr_tracepoint(&attr, "task", "task_rename");
	if (err)
		SKIP(return, "no task:task_rename tracepoint (%s)", pc_errno_name(-err));
	uint64_t id = attr.config;
	ASSERT_GT(1ULL << 32, id);
	int fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	close(fd);
	attr.config = UINT32_MAX;
	int unknown = pc_open_errno(&attr, 0, -1, -1, 0);
	ASSERT_NE(0, unknown);
	for (size_t i = 0; i < ARRAY_SIZE(high); i++) {
		uint64_t config = id | high[i];

		attr.config = config;
		err = pc_open_errno(&attr, 0, -1, -1, 0);
		EXPECT_EQ(unknown, err) TH_LOG("config %#llx (id %llu): %s, an unknown id %s",
					       (unsigned long long)config, (unsigned long long)id,
					       pc_errno_name(err), pc_errno_name(unknown));
	}
	pc_observe_errno("errno", err);
}

TEST_HARNESS_MAIN
