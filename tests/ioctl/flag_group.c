// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_IOC_FLAG_GROUP (since 2.6.31): the argument of
 * PERF_EVENT_IOC_ENABLE, _DISABLE and _RESET. Without it the ioctl acts on
 * the event the fd names alone; with it, on every event of that event's
 * group: the leader and all its siblings, whichever member's fd is used.
 * A group counts only while its leader is enabled, so enabling a sibling
 * alone changes nothing until the leader is on, and disabling the leader
 * alone stops the whole group, its siblings still enabled.
 *
 * The kernel (kernel/events/core.c, _perf_ioctl) takes the argument as a
 * u32 of flags and looks only at PERF_IOC_FLAG_GROUP: other bits are not
 * refused (the outcome is pinned as an observation) and change nothing.
 *
 * Each case: a group of three counters of the syscalls:sys_enter_getppid
 * tracepoint (nothing but the case's own getppid() calls fires it), one
 * ioctl on the leader or on a sibling, CALLS calls; then the leader alone
 * enabled (which shows which siblings are enabled) and CALLS more. Every
 * count is exact, from a model of the enabled states.
 */
#include "perfconf.h"

#include <sys/ioctl.h>

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)

#define MEMBERS 3
#define CALLS 6
#define BIT1 (1U << 1)		/* a flag no kernel defines */

enum { ENABLE, DISABLE, RESET };

FIXTURE(group) {
	int fd[MEMBERS];
	uint64_t count[MEMBERS];
};

FIXTURE_VARIANT(group) {
	int op;			/* ENABLE, DISABLE or RESET */
	int target;		/* 0: the leader, 1: a sibling */
	unsigned long arg;
};

#define GROUP_VARIANTS(op_, name, t) \
	FIXTURE_VARIANT_ADD(group, name##_alone) { .op = op_, .target = t, .arg = 0 }; \
	FIXTURE_VARIANT_ADD(group, name##_group) { .op = op_, .target = t, .arg = PERF_IOC_FLAG_GROUP }; \
	FIXTURE_VARIANT_ADD(group, name##_unknown_flag) { .op = op_, .target = t, .arg = BIT1 }; \
	FIXTURE_VARIANT_ADD(group, name##_unknown_flag_and_group) { \
		.op = op_, .target = t, .arg = BIT1 | PERF_IOC_FLAG_GROUP }
GROUP_VARIANTS(ENABLE, enable_leader, 0);
GROUP_VARIANTS(ENABLE, enable_sibling, 1);
GROUP_VARIANTS(DISABLE, disable_leader, 0);
GROUP_VARIANTS(DISABLE, disable_sibling, 1);
GROUP_VARIANTS(RESET, reset_leader, 0);
GROUP_VARIANTS(RESET, reset_sibling, 1);

static const unsigned long cmds[] = {
	[ENABLE] = PERF_EVENT_IOC_ENABLE,
	[DISABLE] = PERF_EVENT_IOC_DISABLE,
	[RESET] = PERF_EVENT_IOC_RESET,
};

/* Read every member. */
static int read_counts(int *fd, uint64_t *count)
{
	for (int i = 0; i < MEMBERS; i++) {
		if (read(fd[i], &count[i], sizeof(count[i])) != sizeof(count[i]))
			return -1;
	}
	return 0;
}

/* CALLS calls; each member counts them when it and the leader are on. */
static void calls(const int *on, uint64_t *model)
{
	pc_work_getppid_calls(CALLS);
	for (int i = 0; i < MEMBERS; i++)
		model[i] += on[0] && on[i] ? CALLS : 0;
}

FIXTURE_SETUP(group)
{
	struct perfconf_attr attr;

	for (int i = 0; i < MEMBERS; i++)
		self->fd[i] = -1;
	GETPPID_TRACEPOINT(&attr);
	for (int i = 0; i < MEMBERS; i++) {
		self->fd[i] = pc_open(&attr, 0, -1, i ? self->fd[0] : -1, 0);
		ASSERT_OPEN(self->fd[i]);
	}
	ASSERT_EQ(0, read_counts(self->fd, self->count));
	for (int i = 0; i < MEMBERS; i++) {
		ASSERT_EQ(0, self->count[i]);
	}
}

FIXTURE_TEARDOWN(group)
{
	for (int i = 0; i < MEMBERS; i++) {
		if (self->fd[i] >= 0)
			close(self->fd[i]);
	}
}

TEST_F(group, counts_follow_the_flag)
{
	int on[MEMBERS] = { 0 };
	uint64_t model[MEMBERS] = { 0 };
	int hit[MEMBERS] = { 0 };
	int err;

	if (variant->op != ENABLE) {
		/* DISABLE and RESET start from a group that counts. */
		ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
		for (int i = 0; i < MEMBERS; i++)
			on[i] = 1;
		calls(on, model);
	}

	err = ioctl(self->fd[variant->target], cmds[variant->op], variant->arg) ? errno : 0;
	if (variant->arg & BIT1) {
		pc_observe_errno("errno", err);
	} else {
		ASSERT_ERRNO(0, err);
	}
	for (int i = 0; i < MEMBERS; i++)
		hit[i] = !err && (i == variant->target || (variant->arg & PERF_IOC_FLAG_GROUP));
	for (int i = 0; i < MEMBERS; i++) {
		if (!hit[i])
			continue;
		if (variant->op == ENABLE)
			on[i] = 1;
		else if (variant->op == DISABLE)
			on[i] = 0;
		else
			model[i] = 0;
	}
	calls(on, model);
	ASSERT_EQ(0, read_counts(self->fd, self->count));
	for (int i = 0; i < MEMBERS; i++) {
		EXPECT_EQ(model[i], self->count[i]) TH_LOG("member %d after the ioctl", i);
	}

	/* The leader alone on: the siblings count as far as they are enabled. */
	ASSERT_EQ(0, ioctl(self->fd[0], PERF_EVENT_IOC_ENABLE, 0));
	on[0] = 1;
	calls(on, model);
	ASSERT_EQ(0, read_counts(self->fd, self->count));
	for (int i = 0; i < MEMBERS; i++) {
		EXPECT_EQ(model[i], self->count[i]) TH_LOG("member %d with the leader on", i);
	}
}

TEST_HARNESS_MAIN
