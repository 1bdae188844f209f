// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_TYPE_BREAKPOINT with bp_type HW_BREAKPOINT_X on a function counts
 * each execution of its first instruction: n calls of a noinline function
 * count exactly n, and nothing while the event is disabled.
 */
#include <linux/hw_breakpoint.h>

#include "perfconf.h"

FIXTURE(exec_bp) {
	int fd;
};

FIXTURE_SETUP(exec_bp)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);

	self->fd = pc_open(&attr, 0, -1, -1, 0);
	if (self->fd < 0)
		SKIP_IF_UNSUPPORTED(errno, "an execute breakpoint");
	ASSERT_OPEN(self->fd);
}

FIXTURE_TEARDOWN(exec_bp)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The breakpoint's count, which must be read. */
static uint64_t count_of(struct __test_metadata *_metadata, int fd)
{
	uint64_t count;

	ASSERT_EQ(0, pc_read_count(fd, &count));
	return count;
}

TEST_F(exec_bp, counts_each_call)
{
	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_work_calls(1000);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(1000, count_of(_metadata, self->fd));
}

TEST_F(exec_bp, nothing_while_disabled)
{
	pc_work_calls(100);
	EXPECT_EQ(0, count_of(_metadata, self->fd));
}

TEST_F(exec_bp, reset_zeroes)
{
	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_work_calls(10);
	ASSERT_EQ(0, pc_reset(self->fd));
	pc_work_calls(7);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(7, count_of(_metadata, self->fd));
}

TEST_HARNESS_MAIN
