// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_FLAG_FD_NO_GROUP: the group_fd argument is looked up (it must be an
 * open perf event: EBADF otherwise), but the new event does not join its
 * group: it is a leader of its own, read, enabled and scheduled apart from
 * the event behind group_fd. So none of the rules of joining a group apply
 * (group_fd may be a sibling, on another CPU).
 *
 * What the flag keeps of group_fd is what PERF_FLAG_FD_OUTPUT asks for: in
 * kernel/events/core.c (perf_event_open, 6.12: lines 12910-12923) the
 * output event is taken from group_fd before FD_NO_GROUP drops the leader,
 * so NO_GROUP | FD_OUTPUT redirects the new event's records into the ring
 * of group_fd without grouping; NO_GROUP alone redirects nothing, the event
 * keeps a ring of its own. The redirection of a per-task event failed with
 * EINVAL until commit 24d3ae2f37d8 (v6.3, backported to the stable trees):
 * perf_event_set_output() compared event->ctx, not yet set during the open.
 * That outcome is an observation; per-CPU events were never affected.
 *
 * Counted with uprobes on a noinline function: n calls are exactly n hits.
 */
#include <fcntl.h>
#include <sys/ioctl.h>

#include "work/affinity.h"
#include "perfconf.h"

PERFCONF_KEEP_CALLS(pc_work_target)

#define CALLS 100
#define FMT (PERF_FORMAT_GROUP | PERF_FORMAT_ID)

/* A counter (sampling when `sample`) on pc_work_target into *attr; SKIP without uprobes. */
#define TARGET_ATTR(attr, sample) do { \
	CALLS_ATTR(&(attr), pc_work_target); \
	if (sample) { \
		(attr).sample_period = 1; \
		(attr).sample_type = PERF_SAMPLE_IDENTIFIER; \
	} \
} while (0)

/* The ids a PERF_FORMAT_GROUP | ID read of fd lists; their number, or -1. */
static int group_ids(int fd, uint64_t *ids, int max)
{
	struct pc_read_values v;
	unsigned char buf[512];
	ssize_t len = read(fd, buf, sizeof(buf));

	if (len <= 0 || pc_read_values_decode(FMT, buf, (size_t)len, &v, NULL) < 0)
		return -1;
	for (int i = 0; i < (int)v.nr && i < max; i++)
		ids[i] = v.values[i].id;
	return (int)v.nr;
}

/* fd's own value, read with PERF_FORMAT_GROUP | ID; UINT64_MAX when not found. */
static uint64_t value_of(int fd)
{
	struct pc_read_values v;
	unsigned char buf[512];
	uint64_t id = pc_event_id(fd);
	ssize_t len = read(fd, buf, sizeof(buf));

	if (len <= 0 || pc_read_values_decode(FMT, buf, (size_t)len, &v, NULL) < 0)
		return UINT64_MAX;
	for (uint64_t i = 0; i < v.nr; i++)
		if (v.values[i].id == id)
			return v.values[i].value;
	return UINT64_MAX;
}

FIXTURE(global) {
	int leader, member;
};

FIXTURE_VARIANT(global) {
	unsigned long flags;
	int grouped;
};

FIXTURE_VARIANT_ADD(global, no_group) { .flags = PERF_FLAG_FD_NO_GROUP, .grouped = 0 };
/* The control: the same open without the flag joins the group. */
FIXTURE_VARIANT_ADD(global, grouped) { .flags = 0, .grouped = 1 };

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr;

	self->leader = self->member = -1;
	TARGET_ATTR(attr, 0);
	attr.read_format = FMT;
	self->leader = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(self->leader);
	attr.disabled = 0;	/* enabled, it counts whenever its group runs */
	self->member = pc_open(&attr, 0, -1, self->leader, variant->flags | PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(self->member);
}

FIXTURE_TEARDOWN(global)
{
	if (self->member >= 0)
		close(self->member);
	if (self->leader >= 0)
		close(self->leader);
}

/* A PERF_FORMAT_GROUP read of the leader lists the member only when it joined. */
TEST_F(global, leader_read_lists_only_its_group)
{
	uint64_t ids[4] = { 0 };

	ASSERT_EQ(variant->grouped ? 2 : 1, group_ids(self->leader, ids, 4));
	EXPECT_EQ(pc_event_id(self->leader), ids[0]);
	if (variant->grouped)
		EXPECT_EQ(pc_event_id(self->member), ids[1]);
}

/* Read with PERF_FORMAT_GROUP, the member is a group of one of its own, or in the leader's. */
TEST_F(global, member_read_lists_its_own_group)
{
	uint64_t ids[4] = { 0 };

	ASSERT_EQ(variant->grouped ? 2 : 1, group_ids(self->member, ids, 4));
	EXPECT_EQ(variant->grouped ? pc_event_id(self->leader) : pc_event_id(self->member), ids[0]);
}

/*
 * The leader is disabled: a member of its group cannot run, a member apart
 * counts. Enabling the leader, a member counts in both cases.
 */
TEST_F(global, member_counts_without_its_leader)
{
	pc_work_calls(CALLS);
	EXPECT_EQ(0, value_of(self->leader));
	EXPECT_EQ(variant->grouped ? 0 : CALLS, value_of(self->member));

	ASSERT_EQ(0, pc_enable(self->leader));
	pc_work_calls(CALLS);
	ASSERT_EQ(0, pc_disable(self->leader));
	EXPECT_EQ(CALLS, value_of(self->leader));
	EXPECT_EQ(variant->grouped ? CALLS : 2 * CALLS, value_of(self->member));
}

/* Disabling the leader's group (PERF_IOC_FLAG_GROUP) stops only the members of its group. */
TEST_F(global, group_disable_leaves_it_running)
{
	ASSERT_EQ(0, pc_enable(self->leader));
	ASSERT_EQ(0, ioctl(self->leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	pc_work_calls(CALLS);
	EXPECT_EQ(0, value_of(self->leader));
	EXPECT_EQ(variant->grouped ? 0 : CALLS, value_of(self->member));
}

/* group_fd is still looked up: not open, or not a perf event, is EBADF. */
TEST(group_fd_must_still_be_an_event)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	int pipefd[2];

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	close(pipefd[1]);
	/* pipefd[1] is now a closed number; pipefd[0] an open non-perf fd. */
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, pipefd[1], PERF_FLAG_FD_NO_GROUP));
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, pipefd[0], PERF_FLAG_FD_NO_GROUP));
	close(pipefd[0]);
	/* The control: -1 (no group_fd at all) opens. */
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, PERF_FLAG_FD_NO_GROUP));
}

/* A sibling may be group_fd: joining its "group" would nest groups (EINVAL). */
TEST(sibling_as_group_fd)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	int leader = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(leader);
	int sibling = pc_open(&attr, 0, -1, leader, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(sibling);
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, sibling, 0)) TH_LOG("the control");
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, sibling, PERF_FLAG_FD_NO_GROUP));
	close(sibling);
	close(leader);
}

/* group_fd may count another target: a group must share its CPU (EINVAL). */
TEST(leader_of_another_cpu)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu);
	int leader = pc_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(leader);
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, leader, 0)) TH_LOG("the control");
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, leader, PERF_FLAG_FD_NO_GROUP));
	close(leader);
}

/* The PERF_RECORD_SAMPLEs of a ring whose identifier is id. */
static size_t samples_of(const struct pc_capture *c, uint64_t id)
{
	size_t n = 0;

	for (size_t i = 0; pc_capture_sample(c, i); i++)
		n += pc_capture_sample(c, i)->identifier == id;
	return n;
}

/*
 * A sampling leader with a ring, on this task (cpu -1) or on this CPU only
 * (pid -1, the test pinned there), and a sampling member with `flags`:
 * n calls, and the leader's ring holds `redirected` of the member's samples
 * (0 or CALLS); or the open's errno is returned, nothing else checked.
 */
static int leader_ring_holds(struct perfconf_attr attr, int per_cpu, unsigned long flags,
			     size_t *redirected)
{
	struct pc_capture cap;
	int cpu = -1;

	*redirected = (size_t)-1;
	if (per_cpu) {
		cpu = pc_pin_self();
		if (cpu < 0)
			return -cpu;
	}
	if (pc_capture_open(&cap, &attr, per_cpu ? -1 : 0, cpu))
		return pc_last_open_errno() ? pc_last_open_errno() : EIO;
	int member = pc_open(&attr, per_cpu ? -1 : 0, cpu, cap.fd, flags | PERF_FLAG_FD_CLOEXEC);

	if (member < 0) {
		int e = -member;

		pc_capture_close(&cap);
		return e;
	}
	if (pc_enable(cap.fd) || pc_enable(member))
		goto out;
	pc_work_calls(CALLS);
	if (pc_disable(member) || pc_disable(cap.fd))
		goto out;
	if (pc_capture_read(&cap) < 0)
		goto out;
	/* The leader's own samples are all there either way. */
	if (samples_of(&cap, pc_event_id(cap.fd)) == CALLS)
		*redirected = samples_of(&cap, pc_event_id(member));
out:
	close(member);
	pc_capture_close(&cap);
	return 0;
}

/* FD_NO_GROUP alone redirects nothing: the leader's ring has only its own samples. */
TEST(no_group_alone_keeps_output)
{
	struct perfconf_attr attr;
	size_t redirected;

	TARGET_ATTR(attr, 1);
	ASSERT_ERRNO(0, leader_ring_holds(attr, 0, PERF_FLAG_FD_NO_GROUP, &redirected));
	EXPECT_EQ(0, redirected);
}

static int count_sample(const void *rec, size_t len, void *arg)
{
	if (((const struct perf_event_header *)rec)->type == PERF_RECORD_SAMPLE)
		++*(size_t *)arg;
	return 0;
}

/* The member apart still has a ring of its own, and its samples land there. */
TEST(no_group_member_has_its_own_ring)
{
	struct perfconf_attr attr;
	struct pc_capture leader;
	struct pc_ring ring = { 0 };
	const char *err = NULL;
	size_t own = 0;

	TARGET_ATTR(attr, 1);
	ASSERT_EQ(0, pc_capture_open(&leader, &attr, 0, -1));
	int member = pc_open(&attr, 0, -1, leader.fd, PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(member);
	ASSERT_EQ(0, pc_ring_map(&ring, member, 2, PC_RING_READWRITE));
	ASSERT_EQ(0, pc_enable(member));
	pc_work_calls(CALLS);
	ASSERT_EQ(0, pc_disable(member));
	ASSERT_LE(0, pc_ring_for_each(&ring, count_sample, &own, &err)) TH_LOG("%s", err);
	EXPECT_EQ(CALLS, own);
	ASSERT_CAPTURE_READ(&leader);
	EXPECT_EQ(0, pc_capture_count(&leader, PERF_RECORD_SAMPLE));
	pc_ring_unmap(&ring);
	close(member);
	pc_capture_close(&leader);
}

/* NO_GROUP | FD_OUTPUT, events of one CPU: the member's samples go to the leader's ring. */
TEST(with_fd_output_per_cpu_redirects)
{
	struct perfconf_attr attr;
	size_t redirected;

	TARGET_ATTR(attr, 1);
	ASSERT_ERRNO(0, leader_ring_holds(attr, 1,
					  PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT, &redirected));
	EXPECT_EQ(CALLS, redirected);
}

/* The same for events of this task: EINVAL before 24d3ae2f37d8 (observed), else redirected. */
TEST(with_fd_output_per_task_redirects)
{
	struct perfconf_attr attr;
	size_t redirected;

	TARGET_ATTR(attr, 1);
	int e = leader_ring_holds(attr, 0, PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT, &redirected);

	pc_observe_errno("errno", e);
	if (e == EINVAL)
		return;
	ASSERT_ERRNO(0, e);
	EXPECT_EQ(CALLS, redirected);
}

TEST_HARNESS_MAIN
