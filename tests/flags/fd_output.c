// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_FLAG_FD_OUTPUT: the new event's records go to the ring buffer of
 * the event behind group_fd, as PERF_EVENT_IOC_SET_OUTPUT would route them
 * after the open; without PERF_FLAG_FD_NO_GROUP the event also joins that
 * event's group. Without a group_fd (-1) the flag does nothing.
 *
 * History. The man page calls the flag broken since Linux 2.6.35. In
 * kernel/events/core.c the open takes group_fd's event as the output event
 * (6.12: line 12919, "if (flags & PERF_FLAG_FD_OUTPUT)") and calls
 * perf_event_set_output() (line 13101), which refuses with EINVAL:
 *  - when group_fd's event has no ring mapped (nothing to redirect into);
 *  - when the two events count different CPUs;
 *  - for events of a task, in every kernel before commit 24d3ae2f37d8
 *    ("perf/core: Fix the same task check in perf_event_set_output", v6.3,
 *    backported to the stable trees): the check compared event->ctx, which
 *    the open had not set yet; it now compares the target task.
 * So per-CPU events have always been redirected and are asserted; whether
 * a per-task open succeeds is an observation pinned per kernel, and where
 * it opens the records are asserted.
 *
 * Counted with uprobes on a noinline function: n calls are exactly n hits
 * (sampled with period 1), from this test pinned to one CPU.
 */
#include "work/affinity.h"
#include "perfconf.h"

PERFCONF_KEEP_CALLS(pc_work_target)

#define CALLS 100
#define FMT (PERF_FORMAT_GROUP | PERF_FORMAT_ID)

/* A sampling event (period 1, IDENTIFIER) on pc_work_target into *attr; SKIP without uprobes. */
#define SAMPLER(attr) do { \
	CALLS_ATTR(&(attr), pc_work_target); \
	(attr).sample_period = 1; \
	(attr).sample_type = PERF_SAMPLE_IDENTIFIER; \
	(attr).read_format = FMT; \
} while (0)

/* The PERF_RECORD_SAMPLEs of a capture whose identifier is id. */
static size_t samples_of(const struct pc_capture *c, uint64_t id)
{
	size_t n = 0;

	for (size_t i = 0; pc_capture_sample(c, i); i++)
		n += pc_capture_sample(c, i)->identifier == id;
	return n;
}

/* How many events a PERF_FORMAT_GROUP read of fd lists, or -1. */
static int group_size(int fd)
{
	struct pc_read_values v;
	unsigned char buf[512];
	ssize_t len = read(fd, buf, sizeof(buf));

	if (len <= 0 || pc_read_values_decode(FMT, buf, (size_t)len, &v, NULL) < 0)
		return -1;
	return (int)v.nr;
}

FIXTURE(global) {
	struct pc_capture leader;	/* the event behind group_fd, its ring mapped */
	struct perfconf_attr attr;
	int cpu;
};

FIXTURE_VARIANT(global) {
	int per_task;	/* events of this task (cpu -1), else of this CPU (pid -1) */
};

FIXTURE_VARIANT_ADD(global, per_cpu) { .per_task = 0 };
FIXTURE_VARIANT_ADD(global, per_task) { .per_task = 1 };

FIXTURE_SETUP(global)
{
	self->leader.fd = -1;
	SAMPLER(self->attr);
	self->cpu = pc_pin_self();
	ASSERT_LE(0, self->cpu);
	ASSERT_EQ(0, pc_capture_open(&self->leader, &self->attr, variant->per_task ? 0 : -1,
				     variant->per_task ? -1 : self->cpu));
}

FIXTURE_TEARDOWN(global)
{
	if (self->leader.fd >= 0)
		pc_capture_close(&self->leader);
}

/*
 * Open the member with flags on the fixture's target: its fd, or a return
 * from the case: a per-task refusal is observed (EINVAL before the fix) and
 * ends the case, anything else that fails fails.
 */
#define OPEN_MEMBER(m_, flags) do { \
	(m_) = pc_open(&self->attr, variant->per_task ? 0 : -1, variant->per_task ? -1 : self->cpu, \
		       self->leader.fd, (flags) | PERF_FLAG_FD_CLOEXEC); \
	if (variant->per_task) \
		pc_observe_errno("errno", (m_) < 0 ? -(m_) : 0); \
	if ((m_) < 0 && variant->per_task && (m_) == -EINVAL) \
		return; \
	ASSERT_OPEN(m_); \
} while (0)

/* n calls with both events enabled; the leader's ring read. */
static int run_calls(struct pc_capture *leader, int member)
{
	if (pc_enable(leader->fd) || pc_enable(member))
		return -1;
	pc_work_calls(CALLS);
	if (pc_disable(member) || pc_disable(leader->fd))
		return -1;
	return pc_capture_read(leader) < 0 ? -1 : 0;
}

/* FD_OUTPUT alone: the member's samples are in the leader's ring, and it joined the group. */
TEST_F(global, redirects_and_joins_the_group)
{
	int member;

	OPEN_MEMBER(member, PERF_FLAG_FD_OUTPUT);
	ASSERT_EQ(0, run_calls(&self->leader, member)) TH_LOG("%s", self->leader.error);
	EXPECT_EQ(CALLS, samples_of(&self->leader, pc_event_id(self->leader.fd)));
	EXPECT_EQ(CALLS, samples_of(&self->leader, pc_event_id(member)));
	EXPECT_EQ(2, group_size(self->leader.fd));
	close(member);
}

/* With FD_NO_GROUP too: redirected, but a group of its own (flags/fd_no_group). */
TEST_F(global, with_no_group_redirects_only)
{
	int member;

	OPEN_MEMBER(member, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP);
	ASSERT_EQ(0, run_calls(&self->leader, member)) TH_LOG("%s", self->leader.error);
	EXPECT_EQ(CALLS, samples_of(&self->leader, pc_event_id(member)));
	EXPECT_EQ(1, group_size(self->leader.fd));
	EXPECT_EQ(1, group_size(member));
	close(member);
}

/* The control: the same open without the flag keeps the member's samples out of the ring. */
TEST_F(global, without_flag_not_redirected)
{
	int member = pc_open(&self->attr, variant->per_task ? 0 : -1,
			     variant->per_task ? -1 : self->cpu, self->leader.fd, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(member);
	ASSERT_EQ(0, run_calls(&self->leader, member)) TH_LOG("%s", self->leader.error);
	EXPECT_EQ(CALLS, samples_of(&self->leader, pc_event_id(self->leader.fd)));
	EXPECT_EQ(0, samples_of(&self->leader, pc_event_id(member)));
	close(member);
}

/*
 * A group_fd event with no ring has nothing to redirect into: EINVAL. Per
 * CPU, where the flag has always worked; the control: the same open with
 * the leader's ring mapped (the fixture's leader) succeeds.
 */
TEST(leader_without_ring_is_einval)
{
	struct perfconf_attr attr;
	struct pc_capture mapped;

	SAMPLER(attr);
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu);
	int bare = pc_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(bare);
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, -1, cpu, bare,
					   PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP));
	/* Without FD_OUTPUT the same group_fd is fine. */
	EXPECT_ERRNO(0, pc_open_errno(&attr, -1, cpu, bare, PERF_FLAG_FD_NO_GROUP));
	close(bare);
	ASSERT_EQ(0, pc_capture_open(&mapped, &attr, -1, cpu));
	EXPECT_ERRNO(0, pc_open_errno(&attr, -1, cpu, mapped.fd,
				      PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP)) TH_LOG("the control");
	pc_capture_close(&mapped);
}

/*
 * Output across CPUs is refused: a member of this task on any CPU into the
 * ring of a per-CPU event (EINVAL); the control: a member of the same CPU.
 */
TEST(other_cpu_is_einval)
{
	struct perfconf_attr attr;
	struct pc_capture leader;

	SAMPLER(attr);
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu);
	ASSERT_EQ(0, pc_capture_open(&leader, &attr, -1, cpu));
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, leader.fd,
					   PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP));
	EXPECT_ERRNO(0, pc_open_errno(&attr, -1, cpu, leader.fd,
				      PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP)) TH_LOG("the control");
	pc_capture_close(&leader);
}

/* group_fd is looked up as for a group: a non-perf fd is EBADF. */
TEST(group_fd_not_an_event_is_ebadf)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	int pipefd[2];

	ASSERT_EQ(0, pipe(pipefd));
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, pipefd[0], PERF_FLAG_FD_OUTPUT));
	close(pipefd[0]);
	close(pipefd[1]);
	/* Without a group_fd the flag is ignored. */
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, PERF_FLAG_FD_OUTPUT));
}

TEST_HARNESS_MAIN
