// SPDX-License-Identifier: GPL-2.0
/*
 * inherit: "The inherit bit specifies that this counter should count
 * events of child tasks as well as the task specified. This applies only
 * to new children, not to any existing children at the time the counter
 * is created (nor to any new children of existing children). Inherit does
 * not work for some combinations of read_format values, such as
 * PERF_FORMAT_GROUP."
 *
 * Measured with uprobes on noinline functions: n calls are exactly n hits,
 * counted by the copy of the event in whichever task makes them (a task
 * with no copy makes hits that nobody counts). The children's counts are
 * folded into the parent's event when they exit; a read after waitpid()
 * sees them. Which read_format and sample_type combinations inherit
 * accepts changed over time (PERF_SAMPLE_READ since 6.12, with
 * PERF_SAMPLE_TID): those outcomes are observations.
 *
 * A uprobe event counts only the calls made in the address space of the
 * task it was made for. The kernel may swap a task's context with its
 * clone in a child (lib/work/family.h), after which each task runs the other's
 * events and their calls go uncounted: every task here that forks while
 * holding only inherited events opens an anchor (pc_family_anchor) first.
 * The non-inherited counters of children_are_counted and
 * threads_are_counted do the same job there.
 *
 * The copies follow the parent's event: PERF_EVENT_IOC_ENABLE and
 * PERF_EVENT_IOC_DISABLE on the parent's fd start and stop the copies in
 * the children and threads that already have one, whichever state the
 * event was in when they were made (tests/ioctl/modify_attributes.c:
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES reaches them too).
 */
#include <stdio.h>
#include <sys/wait.h>

#include "work/affinity.h"
#include "work/family.h"
#include "work/measure.h"
#include "perfconf.h"
#include "work/child.h"

/* A second target, told apart from pc_work_target by a uprobe of its own. */
static __attribute__((__noinline__, __noipa__, used)) void other_target(void)
{
	__asm__ volatile("" ::: "memory");
}

PERFCONF_KEEP_CALLS(pc_work_target)
PERFCONF_KEEP_CALLS(other_target)

static void other_calls(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		other_target();
}

/* fork; the child calls pc_work_target n times and other_target m times. Its pid, or -errno. */
static pid_t child_calls(unsigned long n, unsigned long m)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		pc_work_calls(n);
		other_calls(m);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? pid : -ECHILD;
}

/* A uprobe counter on fn into attr; SKIP when there is no uprobe PMU. */
#define UPROBE_ON(attr, fn, inh) do { \
	CALLS_ATTR(&(attr), fn); \
	(attr).inherit = (inh); \
} while (0)

/* An enabled uprobe counter on this task, or a SKIP when uprobes are not here. */
#define OPEN_UPROBE(fd, fn, inherit) do { \
	struct perfconf_attr a_; \
	UPROBE_ON(a_, fn, inherit); \
	(fd) = pc_open(&a_, 0, -1, -1, PERF_FLAG_FD_CLOEXEC); \
	if ((fd) < 0) \
		SKIP_IF_UNSUPPORTED(errno, "a uprobe event"); \
	ASSERT_OPEN(fd); \
	ASSERT_EQ(0, pc_enable(fd)); \
} while (0)

/*
 * An inherited and a non-inherited counter on pc_work_target; this task
 * calls it `own` times, then a new task (`spawn`: a child or a thread)
 * `theirs` times. The inherited one counts them all, the other this
 * task's only.
 */
static void new_task_counted(struct __test_metadata *_metadata, pid_t (*spawn)(const char *work),
			     unsigned long own, unsigned long theirs)
{
	char work[32];
	int with, without;

	OPEN_UPROBE(with, pc_work_target, 1);
	OPEN_UPROBE(without, pc_work_target, 0);
	pc_work_calls(own);
	snprintf(work, sizeof(work), "calls %lu", theirs);
	ASSERT_LT(0, spawn(work));
	EXPECT_EQ(own + theirs, pc_count_of(with));
	EXPECT_EQ(own, pc_count_of(without)) TH_LOG("a non-inherited event counted the new task");
	close(without);
	close(with);
}

TEST(children_are_counted)
{
	new_task_counted(_metadata, pc_work_in_child, 10, 100);
}

TEST(threads_are_counted)
{
	new_task_counted(_metadata, pc_work_in_thread, 0, 50);
}

/* A child's own new children inherit the copy it inherited. */
TEST(grandchildren_are_counted)
{
	int fd, status;

	OPEN_UPROBE(fd, pc_work_target, 1);
	int anchor = pc_family_anchor();
	ASSERT_LE(0, anchor);
	pid_t pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* The parent's anchor is not inherited: the child needs its own. */
		if (pc_family_anchor() < 0)
			_exit(2);
		pc_work_calls(20);
		_exit(pc_work_in_child("calls 30") > 0 ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	EXPECT_EQ(50, pc_count_of(fd));
	close(anchor);
	close(fd);
}

TEST(existing_children_are_not_counted)
{
	struct pc_child child;
	int fd;

	ASSERT_EQ(0, pc_child_start(&child, 0));
	OPEN_UPROBE(fd, pc_work_target, 1);
	ASSERT_EQ(0, pc_child_do(&child, "calls 100"));
	ASSERT_EQ(0, pc_child_finish(&child));
	EXPECT_EQ(0, pc_count_of(fd));
	close(fd);
}

/* A sibling must agree with its leader about inherit. */
TEST(sibling_must_match_leader)
{
	int leader;

	OPEN_UPROBE(leader, pc_work_target, 1);
	struct perfconf_attr sibling;

	UPROBE_ON(sibling, other_target, 0);
	EXPECT_ERRNO(EINVAL, pc_open_errno(&sibling, 0, -1, leader, 0));
	sibling.inherit = 1;
	EXPECT_ERRNO(0, pc_open_errno(&sibling, 0, -1, leader, 0));
	close(leader);
}

/*
 * inherit with PERF_FORMAT_GROUP: whether it is accepted is pinned; where
 * it is, a group read sums each member over the children.
 */
TEST(group_read)
{
	const uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	struct perfconf_attr leader_attr, sibling_attr;
	struct pc_read_values v;
	uint64_t buf[5];

	UPROBE_ON(leader_attr, pc_work_target, 1);
	SKIP_IF_UNSUPPORTED(pc_open_errno(&leader_attr, 0, -1, -1, 0), "a uprobe event");
	leader_attr.read_format = rf;
	int leader = pc_open(&leader_attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int err = leader < 0 ? errno : 0;
	pc_observe_errno("errno", err);
	if (err)
		SKIP(return, "inherit with PERF_FORMAT_GROUP refused (%s)", pc_errno_name(err));
	UPROBE_ON(sibling_attr, other_target, 1);
	sibling_attr.read_format = rf;
	sibling_attr.disabled = 0;
	int sibling = pc_open(&sibling_attr, 0, -1, leader, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(sibling);
	int anchor = pc_family_anchor();
	ASSERT_LE(0, anchor);

	ASSERT_EQ(0, pc_enable(leader));
	ASSERT_LT(0, child_calls(30, 7));
	pc_work_calls(5);
	ASSERT_EQ(0, pc_disable(leader));
	ASSERT_EQ(pc_read_values_size(rf, 2), read(leader, buf, sizeof(buf)));
	ASSERT_LT(0, pc_read_values_decode(rf, buf, sizeof(buf), &v, NULL));
	ASSERT_EQ(2, v.nr);
	EXPECT_EQ(35, v.values[0].value);
	EXPECT_EQ(7, v.values[1].value);
	close(anchor);
	close(sibling);
	close(leader);
}

/*
 * inherit with PERF_SAMPLE_READ: refused before 6.12, accepted since when
 * PERF_SAMPLE_TID is set too (both outcomes pinned). Where it is accepted,
 * each sample reads the count of the thread that took it, not the total.
 */
TEST(sample_read)
{
	struct perfconf_attr attr;
	struct pc_capture cap;

	UPROBE_ON(attr, pc_work_target, 1);
	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "a uprobe event");
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_READ;
	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	pc_observe_errno("errno", err);
	attr.sample_type |= PERF_SAMPLE_TID;
	err = pc_open_errno(&attr, 0, -1, -1, 0);
	pc_observe_errno("errno.with_tid", err);
	if (err)
		SKIP(return, "inherit with PERF_SAMPLE_READ refused (%s)", pc_errno_name(err));

	/* The ring of an inherited event must be per-CPU: pin the family to one. */
	int cpu = pc_pin_self();
	ASSERT_LE(0, cpu);
	int anchor = pc_family_anchor();
	ASSERT_LE(0, anchor);
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, cpu));
	ASSERT_EQ(0, pc_enable(cap.fd));
	pc_work_calls(3);
	pid_t child = child_calls(4, 0);
	pc_work_calls(2);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LT(0, child);
	ASSERT_CAPTURE_READ(&cap);

	uint64_t mine = 0, childs = 0;
	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	EXPECT_EQ(9, samples);
	for (size_t i = 0; i < samples; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);
		uint64_t *seen = s->pid == (uint32_t)child ? &childs : &mine;

		EXPECT_TRUE(s->pid == (uint32_t)child || s->pid == (uint32_t)getpid())
			TH_LOG("sample %zu from pid %u", i, s->pid);
		EXPECT_EQ(++*seen, s->read.values[0].value)
			TH_LOG("sample %zu from pid %u", i, s->pid);
	}
	EXPECT_EQ(5, mine);
	EXPECT_EQ(4, childs);
	pc_capture_close(&cap);
	close(anchor);
}

/*
 * A child or a thread made while the event was off (or on), then the
 * parent's fd toggled: each step's calls in that task count exactly when
 * the event is on. The parent makes no calls: only the copy counts.
 */
FIXTURE(copies) {
	struct pc_family_task task;
	int fd, anchor;
};
FIXTURE_VARIANT(copies) {
	int thread;		/* the task is a thread, else a child process */
	int on_at_fork;		/* the event was enabled when the task was made */
};
FIXTURE_VARIANT_ADD(copies, child_made_off) { .thread = 0, .on_at_fork = 0 };
FIXTURE_VARIANT_ADD(copies, child_made_on) { .thread = 0, .on_at_fork = 1 };
FIXTURE_VARIANT_ADD(copies, thread_made_off) { .thread = 1, .on_at_fork = 0 };
FIXTURE_VARIANT_ADD(copies, thread_made_on) { .thread = 1, .on_at_fork = 1 };

FIXTURE_SETUP(copies)
{
	struct perfconf_attr attr;

	self->task = (struct pc_family_task){ 0 };
	self->fd = self->anchor = -1;
	UPROBE_ON(attr, pc_work_target, 1);
	self->fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (self->fd < 0)
		SKIP_IF_UNSUPPORTED(errno, "a uprobe event");
	ASSERT_OPEN(self->fd);
	self->anchor = pc_family_anchor();
	ASSERT_LE(0, self->anchor);
	if (variant->on_at_fork)
		ASSERT_EQ(0, pc_enable(self->fd));
	ASSERT_EQ(0, pc_family_task_start(&self->task, variant->thread));
}

FIXTURE_TEARDOWN(copies)
{
	pc_family_task_finish(&self->task);
	if (self->anchor >= 0)
		close(self->anchor);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(copies, follow_enable_and_disable)
{
	static const unsigned long calls[] = { 2, 20, 200, 2000 };
	char work[32];
	uint64_t expected = 0;
	int on = variant->on_at_fork;

	for (unsigned int i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		snprintf(work, sizeof(work), "calls %lu", calls[i]);
		ASSERT_EQ(0, pc_family_task_do(&self->task, work));
		expected += on ? calls[i] : 0;
		EXPECT_EQ(expected, pc_count_of(self->fd))
			TH_LOG("step %u: %lu calls in the %s with the parent's event %s", i, calls[i],
			       variant->thread ? "thread" : "child", on ? "enabled" : "disabled");
		on = !on;
		ASSERT_EQ(0, on ? pc_enable(self->fd) : pc_disable(self->fd));
	}
	ASSERT_EQ(0, pc_family_task_finish(&self->task));
	EXPECT_EQ(expected, pc_count_of(self->fd)) TH_LOG("once the task is gone");
}

TEST_HARNESS_MAIN
