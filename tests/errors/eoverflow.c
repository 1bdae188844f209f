// SPDX-License-Identifier: GPL-2.0
/*
 * EOVERFLOW from perf_event_open() (since Linux 4.8): an event that samples
 * callchains asks, in sample_max_stack, for more frames than the system
 * limit /proc/sys/kernel/perf_event_max_stack allows. The limit itself is
 * allowed.
 *
 * In kernel/events/core.c (6.12) perf_event_alloc() calls
 * get_callchain_buffers(attr->sample_max_stack) for a PERF_SAMPLE_CALLCHAIN
 * event (line 12506); kernel/events/callchain.c get_callchain_buffers()
 * answers EOVERFLOW when the request exceeds sysctl_perf_event_max_stack
 * (line 129). tests/attr/sample_max_stack.c checks what the limit does to
 * callchains; this binary owns the errno. The sysctl is read, never
 * changed.
 */
#include "perfconf.h"

PERFCONF_META("reads=perf_event_max_stack");

static long max_stack(void)
{
	long max;

	return pc_sysctl_get(PC_MAX_STACK_SYSCTL, &max) ? -1 : max;
}


TEST(max_stack_above_sysctl_is_eoverflow)
{
	long max = max_stack();

	ASSERT_LT(0, max);
	if (max >= UINT16_MAX)
		SKIP(return, "perf_event_max_stack is %ld: no u16 is above it", max);
	struct perfconf_attr attr = pc_attr_user_callchain_sampler((uint16_t)(max + 1));

	EXPECT_ERRNO(EOVERFLOW, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("limit %ld + 1", max);
	attr.sample_max_stack = UINT16_MAX;
	EXPECT_ERRNO(EOVERFLOW, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("limit %u", UINT16_MAX);
}

/* The control: exactly the sysctl's value opens. */
TEST(max_stack_equal_to_sysctl_opens)
{
	long max = max_stack();

	ASSERT_LT(0, max);
	if (max > UINT16_MAX)
		SKIP(return, "perf_event_max_stack is %ld: beyond a u16", max);
	struct perfconf_attr attr = pc_attr_user_callchain_sampler((uint16_t)max);

	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("limit %ld", max);
}

TEST_HARNESS_MAIN
