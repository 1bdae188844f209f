// SPDX-License-Identifier: GPL-2.0
/*
 * aux_output (since Linux 5.4): "This allows normal (non-AUX) events to
 * generate data for AUX events if the hardware supports it." Only a PMU
 * that can (PERF_PMU_CAP_AUX_OUTPUT: Intel PEBS into PT) takes the bit;
 * every other event refuses it, with the errno pinned here (EOPNOTSUPP
 * since 5.4, EINVAL while the bit was reserved).
 *
 * The effect -- PEBS records written into an Intel PT leader's AUX area --
 * needs that hardware: without it the case skips.
 */
#include <linux/hw_breakpoint.h>

#include "perfconf.h"
#include "work/attr_probe.h"

/* Set aux_output on attr: refused (pinned errno), never accepted. */
static void expect_refused(struct __test_metadata *_metadata, struct perfconf_attr *attr)
{
	attr->aux_output = 1;
	EXPECT_NE(0, pc_open_observe_errno("errno", attr, 0, -1))
		TH_LOG("an event without AUX output took it");
}

TEST(software_event)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	expect_refused(_metadata, &attr);
}

TEST(breakpoint)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, (void *)pc_work_target, 0);

	REQUIRE_PMU("breakpoint");
	expect_refused(_metadata, &attr);
}

TEST(tracepoint)
{
	struct perfconf_attr attr;
	int err = pc_attr_tracepoint(&attr, "syscalls", "sys_enter_getppid");

	if (err)
		SKIP(return, "no syscalls:sys_enter_getppid tracepoint here (%s)", pc_errno_name(-err));
	expect_refused(_metadata, &attr);
}

/* With aux_sample_size as well (the two exclude each other): still refused. */
TEST(with_aux_sample_size)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	attr.aux_sample_size = 4096;
	expect_refused(_metadata, &attr);
}

/* A sibling asking for AUX output in a group whose leader has no AUX area. */
TEST(member_of_a_plain_group)
{
	struct perfconf_attr leader = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	struct perfconf_attr member = pc_attr_sw(PERF_COUNT_SW_TASK_CLOCK);
	int fd = pc_open(&leader, 0, -1, -1, 0);

	ASSERT_OPEN(fd);
	member.aux_output = 1;
	int err = pc_open_errno(&member, 0, -1, fd, 0);
	pc_observe_errno("errno", err);
	EXPECT_NE(0, err);
	close(fd);
}

/* The effect needs a PMU that writes AUX data and takes AUX output from others. */
TEST(effect_needs_aux_hardware)
{
	PROBE_ON_AUX_PMU("aux_output", 1, true, "records of a sibling written into the AUX area");
}

TEST_HARNESS_MAIN
