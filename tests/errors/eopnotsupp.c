// SPDX-License-Identifier: GPL-2.0
/*
 * EOPNOTSUPP from perf_event_open(): the event asks for a feature its PMU
 * does not have. A branch stack (PERF_SAMPLE_BRANCH_STACK) needs hardware
 * that records branches, so a software or tracepoint event refuses it; an
 * event that is no AUX-output-capable hardware event refuses aux_output
 * (since 5.4).
 *
 * In kernel/events/core.c (6.12) perf_swevent_init() (line 10394) and
 * perf_tp_event_init() (line 10456) answer EOPNOTSUPP when
 * has_branch_stack(event); the same checks are there in 5.10.
 * perf_event_alloc() answers EOPNOTSUPP for aux_output on a PMU without
 * PERF_PMU_CAP_AUX_OUTPUT (line 12447). Each refusal has its control: the
 * same event without the feature opens. tests/attr/branch_sample_type.c
 * and aux_output.c look at the fields in depth; this binary owns the errno.
 */
#include "perfconf.h"

/* A user-only page-fault sampler, with a branch stack if `branches`. */
static struct perfconf_attr sw_sampler(int branches)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);

	attr.exclude_kernel = 1;
	if (branches) {
		attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	}
	return attr;
}

TEST(branch_stack_on_software_event_is_eopnotsupp)
{
	struct perfconf_attr attr = sw_sampler(1);

	EXPECT_ERRNO(EOPNOTSUPP, pc_open_errno(&attr, 0, -1, -1, 0));
}

/* The control: the same sampler without the branch stack. */
TEST(software_event_without_branch_stack_opens)
{
	struct perfconf_attr attr = sw_sampler(0);

	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
}

/* A tracepoint sampler, with a branch stack if `branches`; -errno without tracefs. */
static int tp_sampler(struct perfconf_attr *attr, int branches)
{
	int err = pc_attr_tracepoint(attr, "syscalls", "sys_enter_getppid");

	if (err)
		return err;
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_IP;
	attr->exclude_kernel = 1;
	if (branches) {
		attr->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	}
	return 0;
}

TEST(branch_stack_on_tracepoint_is_eopnotsupp)
{
	struct perfconf_attr with, without;
	int err = tp_sampler(&with, 1);

	if (err)
		SKIP(return, "no syscalls:sys_enter_getppid tracepoint: %s", strerror(-err));
	ASSERT_EQ(0, tp_sampler(&without, 0));
	EXPECT_ERRNO(EOPNOTSUPP, pc_open_errno(&with, 0, -1, -1, 0));
	EXPECT_ERRNO(0, pc_open_errno(&without, 0, -1, -1, 0)) TH_LOG("the control");
}

/* aux_output on a software counter; the control without it. */
TEST(aux_output_on_software_event_is_eopnotsupp)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("the control");
	attr.aux_output = 1;
	EXPECT_ERRNO(EOPNOTSUPP, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST_HARNESS_MAIN
