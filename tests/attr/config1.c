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

#include "perfconf.h"
#include "work/measure.h"
#include "event/pmu_formats.h"

#define N 16

/* A software event with every config1 bit set counts as without. */
TEST(software_event_ignores_config1)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.config1 = ~0ULL;
	attr.exclude_user = 1;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_kernel_faults_work, PC_N(N)))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

/* A tracepoint too: n getppid() calls still count n. */
TEST(tracepoint_ignores_config1)
{
	struct perfconf_attr attr;

	GETPPID_TRACEPOINT(&attr);
	attr.config1 = 0x5a5a5a5a5a5a5a5aULL;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_getppid_work, PC_N(N)))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

static volatile uint64_t watched, neighbour;

/* The breakpoint PMU reads config1 as bp_addr: the variable it names is watched. */
TEST(breakpoint_reads_it_as_the_address)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_BREAKPOINT, 0);
	uint64_t count;

	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	if (!pc_pmu_exists("breakpoint"))
		SKIP(return, "no breakpoint PMU on this machine");
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

/* The PMUs here that define formats in config1 are pinned, each parsed. */
TEST(formats_in_config1)
{
	EXPECT_LE(0, pc_observe_formats_in_word(1)) TH_LOG("a format entry cannot be parsed");
}

TEST_HARNESS_MAIN
