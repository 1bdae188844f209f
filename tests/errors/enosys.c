// SPDX-License-Identifier: GPL-2.0
/*
 * ENOSYS from perf_event_open(): PERF_SAMPLE_STACK_USER on an architecture
 * that cannot dump user stacks; and, outside the man page, a kernel built
 * without CONFIG_PERF_EVENTS, which has no perf_event_open() at all.
 *
 * In kernel/events/core.c (6.12) perf_copy_attr() answers ENOSYS when
 * !arch_perf_have_user_stack_dump() (line 12608), before it checks
 * sample_stack_user. Neither cause can be reproduced on our machines: every
 * architecture we run (x86_64, arm64) selects HAVE_PERF_USER_STACK_DUMP,
 * and every kernel has CONFIG_PERF_EVENTS. So these cases check the other
 * side of each rule: the system call is there, and this architecture
 * passes the stack dump check (an aligned size opens and a misaligned one
 * is refused by the check after it, with EINVAL).
 */
#include <sys/syscall.h>

#include "work/measure.h"
#include "perfconf.h"

TEST(perf_event_open_is_implemented)
{
	long r = syscall(__NR_perf_event_open, NULL, 0, -1, -1, 0);

	EXPECT_EQ(-1, r);
	EXPECT_ERRNO(EFAULT, errno) TH_LOG("a NULL attr: the syscall answers, not ENOSYS");
}

TEST(stack_user_dump_supported_here)
{
#if !defined(__x86_64__) && !defined(__aarch64__) && !defined(__i386__) && !defined(__arm__)
	pc_depends("arch");
	SKIP(return, "not known whether this architecture dumps user stacks");
#endif
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1ULL << 40,
							 PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER);

	attr.exclude_kernel = 1;
	attr.sample_stack_user = 4096;
	EXPECT_EQ(8, pc_count_of_work(&attr, pc_user_faults_work, (void *)8));
	attr.sample_stack_user = 4096 + 4;	/* not a multiple of 8: checked past the ENOSYS point */
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST_HARNESS_MAIN
