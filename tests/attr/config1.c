// SPDX-License-Identifier: GPL-2.0
/*
 * config1 (since 2.6.39) "is used for setting events that need an extra
 * register or otherwise do not fit in the regular config field"; its
 * encoding is the PMU's, named by its sysfs format/ entries ("config1:...").
 * It shares a union with bp_addr, kprobe_func and uprobe_path: the
 * breakpoint PMU reads it as the address and the uprobe PMU as the path.
 * An event whose PMU gives it no meaning (software, tracepoint) ignores it.
 */
#include <linux/hw_breakpoint.h>

#define FIELD		config1
#define FIELD_WORD	1
#define FIELD_PATTERN	0x5a5a5a5a5a5a5a5aULL
#include "config_word.h"

static volatile uint64_t watched, neighbour;

/* The breakpoint PMU reads config1 as bp_addr: the variable it names is watched. */
TEST(breakpoint_reads_it_as_the_address)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_BREAKPOINT, 0);
	uint64_t count;

	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	REQUIRE_PMU("breakpoint");
	attr.bp_type = HW_BREAKPOINT_W;
	attr.config1 = (uintptr_t)&watched;
	attr.config2 = sizeof(watched);
	int fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_enable(fd));
	for (int i = 0; i < N; i++) {
		pc_work_touch(&watched);
		pc_work_touch(&neighbour);
	}
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(0, pc_read_count(fd, &count));
	EXPECT_EQ(N, count);
	close(fd);
}

/* The uprobe PMU reads it as uprobe_path: zero is no path, EINVAL. */
TEST(uprobe_reads_it_as_the_path)
{
	struct perfconf_attr attr;
	char path[4096];
	int err = pc_attr_uprobe(&attr, (const void *)pc_work_target, path, sizeof(path));

	if (err == -ENOENT)
		SKIP(return, "no uprobe PMU on this kernel");
	ASSERT_EQ(0, err);
	attr.config1 = 0;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 0));
}

FORMATS_IN_FIELD_CASE

TEST_HARNESS_MAIN
