// SPDX-License-Identifier: GPL-2.0
/*
 * A data breakpoint (HW_BREAKPOINT_W) on a variable counts each write to it,
 * and a read-only breakpoint type is not a write watch: n writes count n.
 */
#include <linux/hw_breakpoint.h>

#include "perfconf.h"

static volatile uint64_t watched;

/* n writes to *target with a write breakpoint on `watched` enabled: its count, or UINT64_MAX. */
static uint64_t watched_writes_counted(volatile uint64_t *target, int n)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_W, &watched, sizeof(watched));
	uint64_t count = UINT64_MAX;
	int fd = pc_open(&attr, 0, -1, -1, 0);

	if (fd < 0)
		return UINT64_MAX;
	if (pc_enable(fd) == 0) {
		for (int i = 0; i < n; i++)
			pc_work_touch(target);
		if (pc_disable(fd) == 0)
			pc_read_count(fd, &count);
	}
	close(fd);
	return count;
}

/* Every case needs a write breakpoint on the watched variable. */
FIXTURE(global) {};

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_W, &watched, sizeof(watched));

	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "a write breakpoint");
}

FIXTURE_TEARDOWN(global)
{
}

TEST_F(global, counts_each_write)
{
	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	EXPECT_EQ(500, watched_writes_counted(&watched, 500))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
	EXPECT_EQ(500, watched);
}

TEST_F(global, other_variable_not_counted)
{
	static volatile uint64_t other;

	EXPECT_EQ(0, watched_writes_counted(&other, 50))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

TEST_HARNESS_MAIN
