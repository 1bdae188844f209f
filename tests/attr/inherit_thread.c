// SPDX-License-Identifier: GPL-2.0
/*
 * inherit_thread (since Linux 5.13): "This disables the inheritance of the
 * event to a child process. Only new threads in the same process (which is
 * cloned with CLONE_THREAD) will inherit the event." It qualifies inherit,
 * and without it the kernel refuses it (EINVAL; before 5.13 the bit was
 * reserved, which gives EINVAL as well).
 *
 * Measured with a uprobe on a noinline function: n calls in a thread or a
 * child are exactly n hits where the event is inherited, and none counted
 * where it is not (a task without a copy of the event counts nothing).
 * A uprobe event counts only the calls made in the address space of the
 * task it was made for: an anchor (lib/work/family.h) keeps the kernel from
 * swapping the parent's context with a thread's, after which the parent's
 * own calls would go uncounted once the thread is gone.
 */
#include <sys/wait.h>

#include "work/family.h"
#include "work/measure.h"
#include "perfconf.h"
#include "work/attr_probe.h"

PERFCONF_KEEP_CALLS(pc_work_target)

FIXTURE(thread_only) {
	int fd;
	int anchor;
};

FIXTURE_SETUP(thread_only)
{
	struct perfconf_attr attr;

	self->fd = -1;
	self->anchor = -1;
	CALLS_ATTR(&attr, pc_work_target);
	attr.inherit = 1;
	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "a uprobe event");
	attr.inherit_thread = 1;
	self->fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (self->fd < 0)
		SKIP(return, "inherit_thread refused (%s)", pc_errno_name(errno));
	self->anchor = pc_family_anchor();
	ASSERT_LE(0, self->anchor);
	ASSERT_EQ(0, pc_enable(self->fd));
}

FIXTURE_TEARDOWN(thread_only)
{
	if (self->anchor >= 0)
		close(self->anchor);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(thread_only, threads_inherit)
{
	ASSERT_LT(0, pc_work_in_thread("calls 50"));
	EXPECT_EQ(50, pc_count_of(self->fd));
}

TEST_F(thread_only, child_processes_do_not)
{
	ASSERT_LT(0, pc_work_in_child("calls 50"));
	EXPECT_EQ(0, pc_count_of(self->fd));
}

TEST_F(thread_only, threads_and_processes_together)
{
	pc_work_calls(10);
	ASSERT_LT(0, pc_work_in_child("calls 100"));
	ASSERT_LT(0, pc_work_in_thread("calls 20"));
	ASSERT_LT(0, pc_work_in_child("calls 100"));
	EXPECT_EQ(30, pc_count_of(self->fd));
}

/* A thread of a child process is not counted either: the child never had the event. */
TEST_F(thread_only, threads_of_a_child)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(pc_work_in_thread("calls 30") > 0 ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	EXPECT_EQ(0, pc_count_of(self->fd));
}

/*
 * Accepted since 5.13, the version the man page gives (asserted from the
 * ABI table's date; before it, EINVAL for a reserved bit), and pinned.
 */
TEST(accepted)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.inherit = 1;
	attr.inherit_thread = 1;
	EXPECT_ERRNO_SINCE("inherit_thread", 0, EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST(requires_inherit)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.inherit_thread = 1;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST_HARNESS_MAIN
