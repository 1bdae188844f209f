// SPDX-License-Identifier: GPL-2.0
/*
 * remove_on_exec (since Linux 5.13): "This closes the event when it starts
 * a new process image by execve(2)." The event counts up to the exec and
 * nothing of the new image; the same event without the bit counts on. It
 * cannot be combined with enable_on_exec (EINVAL), and before 5.13 the bit
 * is reserved: whether it is accepted is pinned, the effect skipped where
 * it is not.
 *
 * The child runs in steps (lib/work/child.h), then execs this binary as a
 * helper doing named work. A uprobe on a noinline function of this binary
 * gives exact counts on both sides of the exec; page faults, a software
 * event, the same with a wide margin (the exec itself faults a little
 * before the event is removed).
 */
#include "work/measure.h"
#include "perfconf.h"
#include "work/attr_probe.h"
#include "work/child.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

#define HELPER_FAULTS 2000
#define HELPER_WORK "faults 2000"

/* SKIP when this kernel does not know remove_on_exec. */
#define REQUIRE_REMOVE_ON_EXEC() do { \
	struct perfconf_attr a_ = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS); \
	a_.remove_on_exec = 1; \
	int e_ = pc_open_errno(&a_, 0, -1, -1, 0); \
	if (e_) \
		SKIP(return, "remove_on_exec refused (%s)", pc_errno_name(e_)); \
} while (0)

/* attr opened on pid twice: *kept without remove_on_exec, *removed with it. */
static void open_kept_and_removed(struct __test_metadata *_metadata, struct perfconf_attr attr,
				  pid_t pid, int *kept, int *removed)
{
	*kept = pc_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(*kept);
	attr.remove_on_exec = 1;
	*removed = pc_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(*removed);
}

/*
 * On this task: accepted since 5.13, the version the man page gives
 * (asserted from the ABI table's date; before it, EINVAL for a reserved
 * bit), and pinned.
 */
TEST(accepted)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.remove_on_exec = 1;
	EXPECT_ERRNO_SINCE("remove_on_exec", 0, EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
	/*
	 * An event on no task (CPU-wide) has nothing to be removed from; the
	 * man page does not say whether the bit is then accepted: pinned only.
	 */
	pc_open_observe_errno("errno.cpu_wide", &attr, -1, 0);
}

TEST(not_with_enable_on_exec)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.remove_on_exec = 1;
	attr.enable_on_exec = 1;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 0));
}

FIXTURE(child) {
	struct pc_child child;
	char path[4096];
};

FIXTURE_SETUP(child)
{
	REQUIRE_REMOVE_ON_EXEC();
	ASSERT_EQ(0, pc_child_start(&self->child, 0));
}

FIXTURE_TEARDOWN(child)
{
	pc_child_finish(&self->child);
}

/* Two uprobes on the child, with and without the bit: n calls before the exec, m after. */
TEST_F(child, uprobe_counts_up_to_the_exec)
{
	struct perfconf_attr attr;
	int kept, removed;
	int err = pc_attr_uprobe(&attr, pc_work_target, self->path, sizeof(self->path));

	REQUIRE_UPROBES_ON_TASK();
	if (err)
		SKIP_IF_UNSUPPORTED(-err, "a uprobe");
	ASSERT_EQ(0, err);
	attr.disabled = 0;
	open_kept_and_removed(_metadata, attr, self->child.pid, &kept, &removed);

	ASSERT_EQ(0, pc_child_do(&self->child, "calls 100"));
	EXPECT_EQ(100, pc_count_of(removed));
	EXPECT_EQ(100, pc_count_of(kept));
	ASSERT_EQ(0, pc_child_exec(&self->child, "calls 1000"));
	EXPECT_EQ(100, pc_count_of(removed));
	EXPECT_EQ(1100, pc_count_of(kept));
	close(removed);
	close(kept);
}

TEST_F(child, page_faults_stop_at_the_exec)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	int kept, removed;

	attr.disabled = 0;
	open_kept_and_removed(_metadata, attr, self->child.pid, &kept, &removed);

	ASSERT_EQ(0, pc_child_do(&self->child, "faults 100"));
	uint64_t before = pc_count_of(removed);
	EXPECT_LE(100, before);
	EXPECT_EQ(before, pc_count_of(kept));
	ASSERT_EQ(0, pc_child_exec(&self->child, HELPER_WORK));
	EXPECT_GT(before + HELPER_FAULTS, pc_count_of(removed))
		TH_LOG("the helper's %d faults were counted after the exec", HELPER_FAULTS);
	EXPECT_LE(before + HELPER_FAULTS, pc_count_of(kept));
	close(removed);
	close(kept);
}

/* An inherited copy is removed from the child that execs; the parent's event counts on. */
TEST(inherited_copy_removed_in_the_child)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	int kept, removed;

	REQUIRE_REMOVE_ON_EXEC();
	attr.inherit = 1;
	open_kept_and_removed(_metadata, attr, 0, &kept, &removed);

	ASSERT_EQ(0, pc_enable(kept));
	ASSERT_EQ(0, pc_enable(removed));
	ASSERT_LT(0, pc_work_exec(HELPER_WORK));
	pc_work_page_faults(100);
	ASSERT_EQ(0, pc_disable(removed));
	ASSERT_EQ(0, pc_disable(kept));

	uint64_t with_helper = pc_count_of(kept), without = pc_count_of(removed);
	EXPECT_LE(100 + HELPER_FAULTS, with_helper);
	EXPECT_LE(100, without);
	EXPECT_GT(100 + HELPER_FAULTS, without)
		TH_LOG("the helper's faults were counted by a removed copy");
	close(removed);
	close(kept);
}

TEST_HARNESS_MAIN
