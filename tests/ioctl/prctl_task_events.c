// SPDX-License-Identifier: GPL-2.0
/*
 * prctl(PR_TASK_PERF_EVENTS_DISABLE) and prctl(PR_TASK_PERF_EVENTS_ENABLE)
 * (since 2.6.31): disable or enable, as PERF_EVENT_IOC_DISABLE/ENABLE would,
 * every event the calling thread opened (the events it owns), whichever task
 * each one is on, and none that someone else opened on it. (prctl(2) says
 * the opposite, "counters attached to the calling process, regardless of
 * whether the counters were created by this process or another process";
 * the kernel, perf_event_task_disable() in kernel/events/core.c, walks
 * current->perf_event_list, the events current opened, and always has.)
 * The owner is the thread that opened the event, not its process; the
 * copies of an inherited event in its children are reached through it.
 *
 * tests/attr/disabled.c has the prctl on the caller's own events on itself.
 * Counted with page faults: touching n fresh pages is exactly n faults,
 * in this task or in a waiting child (work/child.h).
 */
#include <sys/prctl.h>

#include "perfconf.h"
#include "work/child.h"
#include "work/family.h"
#include "work/measure.h"

#define FAULTS 32
#define WORK "faults 32"

/* A page-fault counter on task pid (0: this thread), disabled or not at open. */
static int open_faults(pid_t pid, int disabled)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.disabled = disabled;
	return pc_open(&attr, pid, -1, -1, 0);
}

/* Each case: a waiting child (c), and fd, an event on it the case opens. */
FIXTURE(child) {
	struct pc_child c;
	int fd;
};
FIXTURE_SETUP(child)
{
	self->fd = -1;
	ASSERT_EQ(0, pc_child_start(&self->c, 0));
	ASSERT_EQ(0, pc_child_do(&self->c, WORK));	/* its work, warm */
}
FIXTURE_TEARDOWN(child)
{
	if (self->fd >= 0)
		close(self->fd);
	pc_child_kill(&self->c);
}

/*
 * The opener's prctl reaches its event on another task: ENABLE starts the
 * child's disabled event, DISABLE stops it with its count kept. The
 * control: before the ENABLE the same work counted nothing.
 */
TEST_F(child, opener_enables_and_disables_its_event_on_another_task)
{
	self->fd = open_faults(self->c.pid, 1);
	ASSERT_OPEN(self->fd);
	ASSERT_EQ(0, pc_child_do(&self->c, WORK));
	EXPECT_EQ(0, pc_count_of(self->fd)) TH_LOG("counted while disabled");

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, pc_child_do(&self->c, WORK));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	EXPECT_EQ(FAULTS, pc_count_of(self->fd)) TH_LOG("the ENABLE did not reach it");
	ASSERT_EQ(0, pc_child_do(&self->c, WORK));
	EXPECT_EQ(FAULTS, pc_count_of(self->fd)) TH_LOG("the DISABLE did not reach it");
}

/*
 * The monitored task's prctl does not reach an event someone else opened
 * on it: the child's DISABLE leaves the test's event counting, its ENABLE
 * does not start it. The control, on the same event: the test's DISABLE
 * stops it.
 */
TEST_F(child, monitored_task_cannot_disable_an_event_on_it)
{
	self->fd = open_faults(self->c.pid, 0);
	ASSERT_OPEN(self->fd);
	ASSERT_EQ(0, pc_child_do(&self->c, "task_events off"));
	ASSERT_EQ(0, pc_child_do(&self->c, WORK));
	EXPECT_EQ(FAULTS, pc_count_of(self->fd)) TH_LOG("the child's DISABLE stopped it");

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, pc_child_do(&self->c, WORK));
	EXPECT_EQ(FAULTS, pc_count_of(self->fd)) TH_LOG("the opener's DISABLE did not stop it");

	ASSERT_EQ(0, pc_child_do(&self->c, "task_events on"));
	ASSERT_EQ(0, pc_child_do(&self->c, WORK));
	EXPECT_EQ(FAULTS, pc_count_of(self->fd)) TH_LOG("the child's ENABLE started it");
}

/*
 * The opener's prctl reaches the copies of its inherited event in the
 * children it forked after the open (whose counts a read of the event
 * adds up): after its DISABLE the child's work counts nothing, after its
 * ENABLE it counts again. The control: before the DISABLE, the same work
 * counted.
 */
TEST(opener_reaches_the_copies_in_its_children)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct pc_child c;

	attr.inherit = 1;
	attr.disabled = 0;
	int fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	/* no swap of the two tasks' contexts: each event stays in its task (work/family.h) */
	int anchor = pc_family_anchor();
	ASSERT_LE(0, anchor);
	ASSERT_EQ(0, pc_child_start(&c, 0));	/* it inherits the event */
	int err = pc_child_do(&c, WORK);	/* warm */
	if (err) {
		pc_child_kill(&c);
		ASSERT_EQ(0, err);
	}
	ASSERT_EQ(0, pc_reset(fd));
	EXPECT_EQ(0, pc_child_do(&c, WORK));
	EXPECT_EQ(FAULTS, pc_count_of(fd)) TH_LOG("the child's copy did not count");

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	EXPECT_EQ(0, pc_child_do(&c, WORK));
	EXPECT_EQ(FAULTS, pc_count_of(fd)) TH_LOG("the DISABLE did not reach the child's copy");

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	EXPECT_EQ(0, pc_child_do(&c, WORK));
	EXPECT_EQ(2 * FAULTS, pc_count_of(fd)) TH_LOG("the ENABLE did not reach the child's copy");
	pc_child_kill(&c);
	close(anchor);
	close(fd);
}

/* A thread of this process that calls DISABLE (on = 0) or ENABLE. */
struct thread_prctl {
	int on;
	int err;
};

static void thread_task_events(void *arg)
{
	struct thread_prctl *t = arg;

	t->err = pc_work_task_events(t->on);
}

/*
 * Another thread of the opener's process is not its owner: its DISABLE
 * leaves the event counting. The control: the opening thread's DISABLE
 * stops it.
 */
TEST(another_thread_of_the_opener_does_not_reach_its_events)
{
	struct thread_prctl off = { .on = 0 };

	pc_work_page_faults(FAULTS);	/* warm */
	int fd = open_faults(0, 0);

	ASSERT_OPEN(fd);
	ASSERT_LT(0, pc_work_fn_in_thread(thread_task_events, &off));
	ASSERT_EQ(0, off.err);
	ASSERT_EQ(0, pc_reset(fd));
	pc_work_page_faults(FAULTS);
	EXPECT_EQ(FAULTS, pc_count_of(fd)) TH_LOG("another thread's DISABLE stopped it");

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	pc_work_page_faults(FAULTS);
	EXPECT_EQ(FAULTS, pc_count_of(fd)) TH_LOG("the opener's DISABLE did not stop it");
	close(fd);
}

TEST_HARNESS_MAIN
