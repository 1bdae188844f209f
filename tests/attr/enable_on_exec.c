// SPDX-License-Identifier: GPL-2.0
/*
 * enable_on_exec: "If this bit is set, a counter is automatically enabled
 * after a call to execve(2)." A disabled event opened on a child counts
 * nothing while the child works, and counts from its exec on; an event
 * that is enabled already is left alone; without the bit a disabled event
 * stays disabled across the exec. The exec enables the event of the task
 * that execs only: an inherited copy in a child that execs starts, its
 * sibling's copy and the parent's event stay off. From the exec on a
 * software event runs whenever it is enabled: time_enabled equals
 * time_running.
 *
 * The child runs in steps (lib/work/child.h): it works, stops so the event
 * can be read, then execs this binary as a helper that does named work.
 * Exact counts come from a uprobe on a noinline function of this binary
 * (an execute breakpoint where the kernel cannot uprobe this task, at the
 * same address in the helper: pc_attr_calls): it is found by file offset,
 * so the helper's calls hit it as well (a
 * uprobe costs tens of milliseconds to set up and tear down, so only two
 * cases use one). Page faults, a software event that is always here, give
 * exact zeros and lower bounds.
 */
#include "work/measure.h"
#include "perfconf.h"
#include "work/child.h"
#include "work/family.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

FIXTURE(child) {
	struct pc_child child;
};

FIXTURE_SETUP(child)
{
	ASSERT_EQ(0, pc_child_start(&self->child, 0));
}

FIXTURE_TEARDOWN(child)
{
	pc_child_finish(&self->child);
}

TEST_F(child, counts_from_exec_on)
{
	struct perfconf_attr attr;

	CALLS_ATTR(&attr, pc_work_target);
	attr.enable_on_exec = 1;
	int fd = pc_open(&attr, self->child.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_child_do(&self->child, "calls 100"));
	EXPECT_EQ(0, pc_count_of(fd));
	ASSERT_EQ(0, pc_child_exec(&self->child, "calls 1000"));
	EXPECT_EQ(1000, pc_count_of(fd));
	close(fd);
}

TEST_F(child, stays_disabled_without_the_bit)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	int fd = pc_open(&attr, self->child.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_child_do(&self->child, "faults 100"));
	ASSERT_EQ(0, pc_child_exec(&self->child, "faults 500"));
	EXPECT_EQ(0, pc_count_of(fd));
	close(fd);
}

/*
 * An event enabled at open counts before the exec too: the bit only ever
 * enables. A uprobe is the exception: the kernel leaves its breakpoints for
 * the exec to install when enable_on_exec is set, so the calls before the
 * exec are not seen even though the event is enabled. What the uprobe
 * counts before the exec is pinned.
 */
TEST_F(child, enabled_event_counts_throughout)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct perfconf_attr uprobe;
	int probe = -1;

	attr.disabled = 0;
	attr.enable_on_exec = 1;
	int fd = pc_open(&attr, self->child.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	if (pc_attr_uprobe_on(&uprobe, pc_work_target) == 0) {
		uprobe.disabled = 0;
		uprobe.enable_on_exec = 1;
		probe = pc_open(&uprobe, self->child.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		ASSERT_OPEN(probe);
	}
	ASSERT_EQ(0, pc_child_do(&self->child, "faults 100"));
	ASSERT_EQ(0, pc_child_do(&self->child, "calls 100"));
	uint64_t before = pc_count_of(fd);
	EXPECT_LE(100, before);
	if (probe >= 0)
		pc_observe("uprobe.before_exec", "%llu", (unsigned long long)pc_count_of(probe));
	ASSERT_EQ(0, pc_child_exec(&self->child, "faults 500"));
	uint64_t after = pc_count_of(fd);
	EXPECT_LE(before + 500, after);
	close(fd);
	if (probe >= 0)
		close(probe);
}

/*
 * A software event: nothing before the exec, not even time_enabled, while
 * perf time passes; after it at least the helper's own page faults, and
 * time enabled, all of it running: the helper waits until perf time has
 * moved (work/clock.h: perf's clock may stand still between ticks).
 */
TEST_F(child, page_faults_and_time)
{
	const uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct pc_read_values v;

	attr.enable_on_exec = 1;
	attr.read_format = rf;
	int fd = pc_open(&attr, self->child.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_child_do(&self->child, "timed_faults 100"));
	ASSERT_EQ(0, pc_read_values_read(fd, rf, &v));
	EXPECT_EQ(0, v.values[0].value);
	EXPECT_EQ(0, v.time_enabled);
	EXPECT_EQ(0, v.time_running);

	ASSERT_EQ(0, pc_child_exec(&self->child, "timed_faults 500"));
	ASSERT_EQ(0, pc_read_values_read(fd, rf, &v));
	EXPECT_LE(500, v.values[0].value);
	EXPECT_LT(0, v.time_enabled);
	EXPECT_EQ(v.time_enabled, v.time_running) TH_LOG("a software event runs whenever it is enabled");
	close(fd);
}

/* On a group leader, the exec starts the whole group: leader and sibling count the same. */
TEST_F(child, group_starts_with_its_leader)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.enable_on_exec = 1;
	int leader = pc_open(&attr, self->child.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(leader);
	attr.enable_on_exec = 0;
	attr.disabled = 0;
	int sibling = pc_open(&attr, self->child.pid, -1, leader, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(sibling);
	ASSERT_EQ(0, pc_child_do(&self->child, "faults 100"));
	EXPECT_EQ(0, pc_count_of(sibling));
	ASSERT_EQ(0, pc_child_exec(&self->child, "faults 500"));
	uint64_t counted = pc_count_of(leader);
	EXPECT_LE(500, counted);
	EXPECT_EQ(counted, pc_count_of(sibling));
	close(sibling);
	close(leader);
}

/*
 * An inherited counter with enable_on_exec, two children made with their
 * copies (off): the one that execs counts its helper's calls, its sibling
 * that did not exec counts nothing, nor does the parent.
 */
TEST_F(child, only_the_copy_of_the_exec_starts)
{
	struct pc_child sibling;
	struct perfconf_attr attr;

	CALLS_ATTR(&attr, pc_work_target);
	attr.inherit = 1;
	attr.enable_on_exec = 1;
	pc_child_finish(&self->child);	/* the fixture's child has no copy */
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	int anchor = pc_family_anchor();
	ASSERT_LE(0, anchor);
	ASSERT_EQ(0, pc_child_start(&self->child, 0));
	ASSERT_EQ(0, pc_child_start(&sibling, 0));
	ASSERT_EQ(0, pc_child_do(&self->child, "calls 10"));
	ASSERT_EQ(0, pc_child_do(&sibling, "calls 10"));
	pc_work_calls(10);
	EXPECT_EQ(0, pc_count_of(fd)) TH_LOG("before any exec");
	ASSERT_EQ(0, pc_child_exec(&self->child, "calls 100"));
	EXPECT_EQ(100, pc_count_of(fd)) TH_LOG("the helper's calls, after the exec");
	ASSERT_EQ(0, pc_child_do(&sibling, "calls 1000"));
	pc_work_calls(1000);
	EXPECT_EQ(100, pc_count_of(fd)) TH_LOG("the sibling's or the parent's calls were counted");
	ASSERT_EQ(0, pc_child_finish(&sibling));
	EXPECT_EQ(100, pc_count_of(fd));
	close(anchor);
	close(fd);
}

TEST_HARNESS_MAIN
