// SPDX-License-Identifier: GPL-2.0
/*
 * Instructions of a known loop under the privilege filters. exclude_user
 * "excludes events that happen in user space", exclude_kernel those "in
 * kernel space". The loop (lib/event/hw.h) runs PC_HW_LOOP_INSNS * n +
 * PC_HW_LOOP_OVERHEAD user instructions between the system call that
 * enables the event and the one that disables it, and nothing else runs in
 * user mode in between. So:
 *  - user only (exclude_kernel): exactly that many, plus the disabling
 *    system call instruction itself when the PMU counts an instruction
 *    that traps as retired (`trap_counted`, the same for every n); the
 *    counts themselves are pinned (`user.<n>`);
 *  - kernel only (exclude_user): the kernel's way out of the enabling call
 *    and into the disabling one, and any interrupt in between: more than
 *    nothing, far less than the loop, and not pinned (a timer tick may
 *    land in the loop);
 *  - both: at least the user count;
 *  - in one group the three count the same interval: all = user + kernel;
 *  - neither: nothing.
 * An exactly counting PMU (qemu's PMUv3 under -icount shift=0) makes every
 * one of these an equality; the loop's own count is checked against
 * single-stepping it.
 */
#include <stdio.h>
#include <sys/ioctl.h>

#include "perfconf.h"
#include "event/hw.h"

static const unsigned long sizes[] = { 1, 1000, 100000 };
#define BIG 100000

static struct perfconf_attr instructions(int exclude_user, int exclude_kernel)
{
	struct perfconf_attr attr = pc_attr_hw(PERF_COUNT_HW_INSTRUCTIONS);

	attr.exclude_user = exclude_user;
	attr.exclude_kernel = exclude_kernel;
	return attr;
}

static uint64_t count_loop(struct __test_metadata *_metadata, struct perfconf_attr attr, unsigned long n)
{
	uint64_t count = UINT64_MAX;
	int err = pc_hw_count_loop(&attr, n, &count);

	EXPECT_EQ(0, err) TH_LOG("%s", pc_errno_name(-err));
	return count;
}

/* Every case needs the exact loop and an instructions event on this arch. */
FIXTURE(global) {};

FIXTURE_SETUP(global)
{
	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(PERF_COUNT_HW_INSTRUCTIONS);
	REQUIRE_HW_LOOP();
}

FIXTURE_TEARDOWN(global)
{
}

/* The loop runs the instructions lib/event/hw.h says, counted by ptrace single steps. */
TEST_F(global, loop_matches_single_stepping)
{
	for (unsigned long n = 1; n <= 100; n *= 10) {
		long steps = pc_hw_loop_singlestep(n);

		if (steps == -EPERM)
			SKIP(return, "this process may not ptrace its child");
		EXPECT_EQ((long)pc_hw_loop_insns(n), steps) TH_LOG("n=%lu", n);
		uint64_t count = count_loop(_metadata, instructions(0, 1), n);
		EXPECT_LE((uint64_t)steps, count) TH_LOG("n=%lu", n);
		EXPECT_GE((uint64_t)steps + 1, count) TH_LOG("n=%lu", n);
	}
}

TEST_F(global, user_only_is_exact)
{
	char key[32];
	int64_t trap = -1;

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint64_t count = count_loop(_metadata, instructions(0, 1), sizes[i]);
		int64_t extra = (int64_t)(count - pc_hw_loop_insns(sizes[i]));

		snprintf(key, sizeof(key), "user.%lu", sizes[i]);
		pc_observe(key, "%llu", (unsigned long long)count);
		EXPECT_TRUE(extra == 0 || extra == 1) TH_LOG("n=%lu: %llu, the loop runs %llu", sizes[i],
			(unsigned long long)count, (unsigned long long)pc_hw_loop_insns(sizes[i]));
		if (trap < 0)
			trap = extra;
		EXPECT_EQ(trap, extra) TH_LOG("n=%lu: not the same overhead as n=%lu", sizes[i], sizes[0]);
	}
	pc_observe("trap_counted", "%lld", (long long)trap);
}

TEST_F(global, kernel_only_is_small)
{
	uint64_t count = count_loop(_metadata, instructions(1, 0), BIG);

	EXPECT_LT(0, count);
	EXPECT_GT(pc_hw_loop_insns(BIG) / 2, count) TH_LOG("%llu kernel instructions around a loop of %llu",
		(unsigned long long)count, (unsigned long long)pc_hw_loop_insns(BIG));
	pc_observe("counts", "%s", count ? "yes" : "no");
}

TEST_F(global, both_at_least_user)
{
	uint64_t user = count_loop(_metadata, instructions(0, 1), BIG);
	uint64_t both = count_loop(_metadata, instructions(0, 0), BIG);

	EXPECT_LT(user, both);
	EXPECT_GT(user + pc_hw_loop_insns(BIG) / 2, both);
}

/*
 * Leader without filters, user-only and kernel-only siblings, opened
 * enabled so that they follow the leader: enabling and disabling the
 * leader alone starts and stops all three at once, the same interval, split.
 */
TEST_F(global, user_plus_kernel_is_all_in_a_group)
{
	struct perfconf_attr all = instructions(0, 0), user = instructions(0, 1), kernel = instructions(1, 0);
	uint64_t a, u, k;

	int leader = pc_open(&all, 0, -1, -1, 0);
	ASSERT_OPEN(leader);
	user.disabled = kernel.disabled = 0;
	int fu = pc_open(&user, 0, -1, leader, 0);
	ASSERT_OPEN(fu);
	int fk = pc_open(&kernel, 0, -1, leader, 0);
	ASSERT_OPEN(fk);
	for (int round = 0; round < 3; round++) {
		ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
		ASSERT_EQ(0, pc_hw_loop_fd(leader, 0, BIG));
		ASSERT_EQ(0, pc_read_count(leader, &a));
		ASSERT_EQ(0, pc_read_count(fu, &u));
		ASSERT_EQ(0, pc_read_count(fk, &k));
		EXPECT_EQ(a, u + k) TH_LOG("all %llu, user %llu, kernel %llu", (unsigned long long)a,
					   (unsigned long long)u, (unsigned long long)k);
		EXPECT_LE(pc_hw_loop_insns(BIG), u);
		EXPECT_GE(pc_hw_loop_insns(BIG) + 1, u);
		EXPECT_LT(0, k);
	}
	close(fk);
	close(fu);
	close(leader);
}

TEST_F(global, neither_counts_nothing)
{
	struct perfconf_attr attr = instructions(1, 1);
	uint64_t count = UINT64_MAX;

	int err = pc_open_observe_errno("open", &attr, 0, -1);
	if (err) {
		EXPECT_TRUE(pc_hw_refusal_documented(err)) TH_LOG("%s", pc_errno_name(err));
		return;
	}
	ASSERT_EQ(0, pc_hw_count_loop(&attr, BIG, &count));
	EXPECT_EQ(0, count);
}

TEST_HARNESS_MAIN
