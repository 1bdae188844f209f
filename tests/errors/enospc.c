// SPDX-License-Identifier: GPL-2.0
/*
 * ENOSPC from perf_event_open(): more breakpoint events than the hardware
 * has debug registers for. (Before Linux 3.3 any event that found no room
 * got ENOSPC; since then that is EINVAL, see errors/einval.c.)
 *
 * The breakpoint slots are booked when the event is created, whether it
 * ever fires or not: kernel/events/hw_breakpoint.c (6.12) __reserve_bp_slot()
 * (line 590) answers ENOSPC when the new breakpoint, added to what is pinned
 * on the worst CPU (the CPU-wide breakpoints there, plus this task's own for
 * a per-task one, or the busiest task's for a CPU-wide one), exceeds
 * hw_breakpoint_slots() of its kind. The kinds are instruction and data
 * breakpoints; x86 has one pool of 4 for both (CONFIG_HAVE_MIXED_BREAKPOINTS_REGS
 * makes TYPE_DATA equal TYPE_INST, include/linux/hw_breakpoint.h line 13),
 * arm64 has separate pools whose sizes the CPU reports (ID_AA64DFR0_EL1):
 * the numbers and the sharing are observations.
 *
 * Every refusal has its control: closing one breakpoint lets the next open,
 * and another task has slots of its own. Booking every slot disturbs any
 * other test that wants a breakpoint, so this binary runs alone.
 */
#include <linux/hw_breakpoint.h>

#include "work/child.h"
#include "perfconf.h"

/* Exclusive: it takes every breakpoint slot of a CPU, which any other binary's breakpoint needs. */
PERFCONF_META("exclusive");

#define MAX_SLOTS 64	/* far above any architecture's debug registers */

static volatile uint64_t watched[MAX_SLOTS];

/* The i-th breakpoint of a kind: a data watchpoint, or an execute one on pc_work_target. */
static struct perfconf_attr bp(int exec, int i)
{
	if (exec)
		return pc_attr_breakpoint(HW_BREAKPOINT_X, (const void *)pc_work_target, 0);
	return pc_attr_breakpoint(HW_BREAKPOINT_W, &watched[i], sizeof(watched[i]));
}

/*
 * Book breakpoints of a kind on pid until one is refused: how many opened
 * (their fds in fds[]), the refusal's errno in *err (0 if MAX_SLOTS opened).
 */
static int fill(int exec, pid_t pid, int *fds, int *err)
{
	int n;

	*err = 0;
	for (n = 0; n < MAX_SLOTS; n++) {
		struct perfconf_attr attr = bp(exec, n);

		fds[n] = pc_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[n] < 0) {
			*err = -fds[n];
			break;
		}
	}
	return n;
}

static void close_all(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

FIXTURE(global) {
	int fds[MAX_SLOTS];
	int n;
};

FIXTURE_VARIANT(global) {
	int exec;
};

FIXTURE_VARIANT_ADD(global, watchpoint) { .exec = 0 };
FIXTURE_VARIANT_ADD(global, execute) { .exec = 1 };

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr = bp(variant->exec, 0);
	int err;

	pc_depends("arch");	/* how many slots of each kind, and whether they are shared, is the arch's */
	self->n = 0;
	REQUIRE_BREAKPOINTS(variant->exec ? HW_BREAKPOINT_X : HW_BREAKPOINT_W);
	err = pc_open_errno(&attr, 0, -1, -1, 0);
	if (err == ENOENT || err == EOPNOTSUPP)
		SKIP(return, "no %s breakpoints on this machine (%s)", variant->exec ? "execute" : "data",
		     pc_errno_name(err));
	ASSERT_ERRNO(0, err) TH_LOG("one breakpoint alone");
}

FIXTURE_TEARDOWN(global)
{
	close_all(self->fds, self->n);
}

/* The slots run out with ENOSPC; how many there were is this machine's. */
TEST_F(global, past_the_slots_is_enospc)
{
	int err;

	self->n = fill(variant->exec, 0, self->fds, &err);
	ASSERT_ERRNO(ENOSPC, err) TH_LOG("after %d breakpoints", self->n);
	ASSERT_LE(1, self->n);
	pc_observe("slots", "%d", self->n);
	if (!strcmp(pc_kernel()->arch, "x86_64"))
		EXPECT_EQ(4, self->n) TH_LOG("x86 has 4 debug address registers");

	/* the control: one slot given back is one slot to take */
	close(self->fds[--self->n]);
	struct perfconf_attr attr = bp(variant->exec, self->n);

	self->fds[self->n] = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(self->fds[self->n]);
	self->n++;
	attr = bp(variant->exec, self->n);
	EXPECT_ERRNO(ENOSPC, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("full again");
}

/* With this task's slots all booked, another task still has all of its own. */
TEST_F(global, another_task_has_its_own_slots)
{
	struct pc_child child;
	int theirs[MAX_SLOTS], err, n;

	self->n = fill(variant->exec, 0, self->fds, &err);
	ASSERT_ERRNO(ENOSPC, err);
	ASSERT_EQ(0, pc_child_start(&child, 0));
	n = fill(variant->exec, child.pid, theirs, &err);
	EXPECT_ERRNO(ENOSPC, err);
	EXPECT_EQ(self->n, n) TH_LOG("the child booked %d, this task %d", n, self->n);
	close_all(theirs, n);
	EXPECT_EQ(0, pc_child_finish(&child));
}

/*
 * A CPU-wide breakpoint must fit beside the busiest task on that CPU: with
 * this task holding every slot, it is refused, and opens once they are given back.
 */
TEST_F(global, cpu_breakpoint_beside_a_full_task_is_enospc)
{
	struct perfconf_attr attr = bp(variant->exec, MAX_SLOTS - 1);
	int err;

	self->n = fill(variant->exec, 0, self->fds, &err);
	ASSERT_ERRNO(ENOSPC, err);
	EXPECT_ERRNO(ENOSPC, pc_open_errno(&attr, -1, 0, -1, 0));
	close_all(self->fds, self->n);
	self->n = 0;
	EXPECT_ERRNO(0, pc_open_errno(&attr, -1, 0, -1, 0)) TH_LOG("the control");
}

/*
 * Whether the other kind of breakpoint still opens with every slot of this
 * kind booked: x86 shares one pool (ENOSPC), arm64 has two (OK).
 */
TEST_F(global, other_kind_beside_full_slots)
{
	struct perfconf_attr other = bp(!variant->exec, 0);
	int err;

	self->n = fill(variant->exec, 0, self->fds, &err);
	ASSERT_ERRNO(ENOSPC, err);
	err = pc_open_errno(&other, 0, -1, -1, 0);
	pc_observe_errno("errno", err);
	if (!strcmp(pc_kernel()->arch, "x86_64"))
		EXPECT_ERRNO(ENOSPC, err) TH_LOG("x86's debug registers serve both kinds");
}

TEST_HARNESS_MAIN
