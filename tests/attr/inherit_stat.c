// SPDX-License-Identifier: GPL-2.0
/*
 * inherit_stat: "This bit enables saving of event counts on context switch
 * for inherited tasks. This is meaningful only if the inherit field is
 * set." The per-task counts are what the parent's ring buffer receives:
 * when a task that inherited the event exits, a PERF_RECORD_READ carries
 * that task's pid/tid and its own count (in the event's read_format, its
 * id the parent event's). Without inherit_stat the counts are folded into
 * the parent silently.
 *
 * Measured with a uprobe on a noinline function (n calls, n hits, counted
 * by the event's copy in the task that makes them). The family is pinned
 * to one CPU so that the event can be per-CPU (an inherited per-task event
 * cannot be mmapped), and a non-inherited event keeps the parent's context
 * from being swapped into a child (see lib/work/family.h).
 */
#include <sys/ioctl.h>

#include "work/affinity.h"
#include "work/family.h"
#include "perfconf.h"

PERFCONF_KEEP_CALLS(pc_work_target)

FIXTURE(family) {
	int anchor;
	struct pc_capture cap;
	uint64_t id;
};

FIXTURE_VARIANT(family) {
	int inherit_stat;
};
FIXTURE_VARIANT_ADD(family, stat) { .inherit_stat = 1 };
FIXTURE_VARIANT_ADD(family, nostat) { .inherit_stat = 0 };

#define READ_FORMAT (PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

FIXTURE_SETUP(family)
{
	struct perfconf_attr attr;

	self->anchor = -1;
	self->cap.fd = -1;
	CALLS_ATTR(&attr, pc_work_target);
	attr.inherit = 1;
	attr.inherit_stat = variant->inherit_stat;
	attr.read_format = READ_FORMAT;
	attr.sample_type = PERF_SAMPLE_TID;
	attr.sample_id_all = 1;
	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "a uprobe event");
	int cpu = pc_pin_self();
	ASSERT_LE(0, cpu);
	self->anchor = pc_family_anchor();
	ASSERT_LE(0, self->anchor);
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &attr, 0, cpu));
	ASSERT_EQ(0, ioctl(self->cap.fd, PERF_EVENT_IOC_ID, &self->id));
	ASSERT_EQ(0, pc_enable(self->cap.fd));
}

FIXTURE_TEARDOWN(family)
{
	if (self->cap.fd >= 0)
		pc_capture_close(&self->cap);
	if (self->anchor >= 0)
		close(self->anchor);
}

/* The READ record of task tid, or NULL. */
static const struct pc_record *read_record_of(const struct pc_capture *cap, pid_t tid)
{
	const struct pc_record *r;

	for (size_t i = 0; (r = pc_capture_find(cap, PERF_RECORD_READ, i)); i++)
		if (r->read.tid == (uint32_t)tid)
			return r;
	return NULL;
}

/* The task's exit left a READ record with its own count, or none without inherit_stat. */
static void check_exit_record(struct __test_metadata *_metadata, const struct pc_capture *cap,
			      int inherit_stat, uint64_t id, pid_t pid, pid_t tid, uint64_t calls)
{
	const struct pc_record *r = read_record_of(cap, tid);

	if (!inherit_stat) {
		EXPECT_EQ(NULL, r) TH_LOG("a READ record for tid %d without inherit_stat", tid);
		return;
	}
	/*
	 * Lost from 5.13 (ef54c1a476ae, "perf: Rework perf_event_exit_event()")
	 * until 02a4984a3596 ("perf/core: Fix missing read event generation on
	 * task exit", 6.19 and stable kernels).
	 */
	if (!r) {
		char types[256];

		pc_capture_types(cap, types, sizeof(types));
		for (size_t i = 0; (r = pc_capture_find(cap, PERF_RECORD_READ, i)); i++)
			TH_LOG("READ record %zu: pid %u tid %u value %llu", i, r->read.pid,
			       r->read.tid, (unsigned long long)r->read.values.values[0].value);
		ASSERT_NE(NULL, r) TH_LOG("no READ record for tid %d at its exit (records: %s)",
					  tid, types);
	}
	EXPECT_EQ(pid, r->read.pid);
	EXPECT_EQ(1, r->read.values.nr);
	EXPECT_EQ(calls, r->read.values.values[0].value);
	EXPECT_EQ(id, r->read.values.values[0].id);
	EXPECT_LT(0, r->read.values.time_enabled);
	EXPECT_LE(r->read.values.time_running, r->read.values.time_enabled);
	/* The sample_id trailer names the same task. */
	EXPECT_EQ(pid, r->sample_id.pid);
	EXPECT_EQ(tid, r->sample_id.tid);
}

TEST_F(family, child_exit)
{
	pid_t child = pc_work_in_child("calls 123");
	ASSERT_LT(0, child);
	ASSERT_EQ(0, pc_disable(self->cap.fd));
	ASSERT_CAPTURE_READ(&self->cap);
	check_exit_record(_metadata, &self->cap, variant->inherit_stat, self->id, child, child, 123);
	EXPECT_EQ(variant->inherit_stat, pc_capture_count(&self->cap, PERF_RECORD_READ));

	/* Either way the parent's total has the child's count folded in. */
	uint64_t buf[4];
	struct pc_read_values v;
	ASSERT_EQ(sizeof(buf), read(self->cap.fd, buf, sizeof(buf)));
	ASSERT_LT(0, pc_read_values_decode(READ_FORMAT, buf, sizeof(buf), &v, NULL));
	EXPECT_EQ(123, v.values[0].value);
}

TEST_F(family, each_child_and_thread)
{
	pid_t first = pc_work_in_child("calls 123");
	pid_t second = pc_work_in_child("calls 45");
	pid_t thread = pc_work_in_thread("calls 7");
	pc_work_calls(100);		/* the parent's own hits are in no READ record */
	ASSERT_LT(0, first);
	ASSERT_LT(0, second);
	ASSERT_LT(0, thread);
	ASSERT_EQ(0, pc_disable(self->cap.fd));
	ASSERT_CAPTURE_READ(&self->cap);

	check_exit_record(_metadata, &self->cap, variant->inherit_stat, self->id, first, first, 123);
	check_exit_record(_metadata, &self->cap, variant->inherit_stat, self->id, second, second, 45);
	check_exit_record(_metadata, &self->cap, variant->inherit_stat, self->id, getpid(), thread, 7);
	EXPECT_EQ(variant->inherit_stat ? 3 : 0, pc_capture_count(&self->cap, PERF_RECORD_READ));
}

TEST(accepted)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.inherit = 1;
	attr.inherit_stat = 1;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
	/* Without inherit it has no meaning: whether it is refused is pinned. */
	attr.inherit = 0;
	pc_open_observe_errno("errno.without_inherit", &attr, 0, -1);
}

TEST_HARNESS_MAIN
