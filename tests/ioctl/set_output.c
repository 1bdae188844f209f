// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_SET_OUTPUT (since 2.6.32): the argument is the fd of
 * another event; from then on this event writes its records into that
 * event's ring buffer instead of one of its own, so that one mmap can
 * collect several events. An argument of -1 removes the redirection. The
 * two events must be on the same CPU (for events of a task: of the same
 * task), use the same clock, and write in the same direction; an event
 * that has a ring mapped already cannot be redirected.
 *
 * In kernel/events/core.c (6.12: _perf_ioctl, line 6107, and
 * perf_event_set_output, line 12663) every refusal is EINVAL except the
 * fd lookup (perf_fget_light, line 6047), which is EBADF for an fd that is
 * not open and for one that is not a perf event. EINVAL, in order:
 * the event itself; another CPU (event->cpu differs, so a per-task event
 * into a per-CPU one as well); for per-task events another task (6.12
 * compares hw.target; before commit 24d3ae2f37d8, v6.3, it compared
 * event->ctx, which after the open is also the task's, so the ioctl behaves
 * alike on 5.10 and 6.1); another clock (use_clockid, 4.1); another
 * direction (write_backward, 4.7); an event that has an active mmap of its
 * own (mmap_count; EINVAL, never EBUSY); and a target with no ring to
 * attach to (ring_buffer_get() finds none). -1 (compared as an unsigned
 * long, so it is passed as a long here) attaches no ring: the records go
 * nowhere until the event maps a ring of its own.
 *
 * Counted with page faults of this task in user mode, one sample each,
 * every sample carrying its event's id (PERF_SAMPLE_IDENTIFIER).
 */
#include "perfconf.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <time.h>

#include "work/affinity.h"
#include "work/child.h"
#include "work/measure.h"
#include "ring/capture.h"
#include "work/faults.h"

/* Two events that must be told apart count different configs (pc_attr_fault_sampler). */
#define TARGET_FAULTS PERF_COUNT_SW_PAGE_FAULTS
#define SOURCE_FAULTS PERF_COUNT_SW_PAGE_FAULTS_MIN

#define FAULTS 16

/* ioctl(PERF_EVENT_IOC_SET_OUTPUT, target): 0, or the errno. */
static int set_output_errno(int fd, long target)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target) ? errno : 0;
}

static int count_sample(const void *rec, size_t len, void *arg)
{
	(void)len;
	if (((const struct perf_event_header *)rec)->type == PERF_RECORD_SAMPLE)
		++*(size_t *)arg;
	return 0;
}

/* The PERF_RECORD_SAMPLEs in a ring (a snapshot, the event quiet), or (size_t)-1. */
static size_t ring_samples(struct pc_ring *r)
{
	size_t n = 0;

	return pc_ring_for_each(r, count_sample, &n, NULL) < 0 ? (size_t)-1 : n;
}

/* A source event, the sampler whose ring it may write into, and the pages they count faults of. */
struct pair {
	struct pc_capture target;
	int source;
	struct pc_faults f;
};

static void pair_close(struct pair *p)
{
	if (p->source >= 0)
		close(p->source);
	if (p->target.fd >= 0)
		pc_capture_close(&p->target);
	if (p->f.base)
		pc_faults_unmap(&p->f);
}

FIXTURE(global) {
	struct pair p;
};

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(TARGET_FAULTS);

	self->p.target.fd = self->p.source = -1;
	self->p.f.base = NULL;
	ASSERT_EQ(0, pc_faults_map(&self->p.f, 8 * FAULTS));
	ASSERT_ERRNO(0, -pc_capture_open(&self->p.target, &attr, 0, -1));
	attr = pc_attr_fault_sampler(SOURCE_FAULTS);
	self->p.source = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(self->p.source);
	/* the path the faults take, enabling included, is paged in (the source has no ring yet) */
	ASSERT_EQ(0, pc_faults_enabled(&self->p.f, self->p.source, 1));
	ASSERT_EQ(0, pc_reset(self->p.source));
}

FIXTURE_TEARDOWN(global)
{
	pair_close(&self->p);
}

/* Both events enabled over n faults, the target's ring read (its records kept in order). */
static int run_both(struct __test_metadata *_metadata, struct pair *p, size_t n)
{
	int fds[2] = { p->target.fd, p->source };

	if (pc_faults_enabled_all(&p->f, fds, 2, n))
		return -1;
	if (pc_capture_read(&p->target) < 0) {
		TH_LOG("%s", p->target.error);
		return -1;
	}
	return 0;
}

/*
 * SET_OUTPUT from the source into the target is `expected`; where it
 * works, FAULTS faults put the source's samples (of task pid, or any when
 * 0) into the target's ring, every one, next to the target's own.
 */
static void expect_redirect(struct __test_metadata *_metadata, struct pair *p, int expected, uint32_t pid)
{
	ASSERT_ERRNO(expected, set_output_errno(p->source, p->target.fd));
	if (expected)
		return;
	ASSERT_EQ(0, run_both(_metadata, p, FAULTS));
	EXPECT_EQ(FAULTS, pc_capture_samples_of(&p->target, pc_event_id(p->source), pid));
	EXPECT_EQ(FAULTS, pc_capture_samples_of(&p->target, pc_event_id(p->target.fd), pid));
}

/* The source's samples land in the target's ring, every one, next to the target's own. */
TEST_F(global, samples_reach_the_target_ring)
{
	ASSERT_ERRNO(0, set_output_errno(self->p.source, self->p.target.fd));
	ASSERT_EQ(0, run_both(_metadata, &self->p, FAULTS));
	EXPECT_EQ(FAULTS, pc_count_of(self->p.source));
	EXPECT_EQ(FAULTS, pc_capture_samples_of(&self->p.target, pc_event_id(self->p.source), 0));
	EXPECT_EQ(FAULTS, pc_capture_samples_of(&self->p.target, pc_event_id(self->p.target.fd), 0));
	EXPECT_EQ(2 * FAULTS, pc_capture_count(&self->p.target, PERF_RECORD_SAMPLE));
}

/* The control of every redirection: without the ioctl the target's ring has its own samples only. */
TEST_F(global, without_it_nothing_arrives)
{
	ASSERT_EQ(0, run_both(_metadata, &self->p, FAULTS));
	EXPECT_EQ(FAULTS, pc_count_of(self->p.source));
	EXPECT_EQ(0, pc_capture_samples_of(&self->p.target, pc_event_id(self->p.source), 0));
	EXPECT_EQ(FAULTS, pc_capture_samples_of(&self->p.target, pc_event_id(self->p.target.fd), 0));
}

/*
 * -1 undoes it: the source's samples stop reaching the target's ring, and
 * the source may then map a ring of its own, where they land.
 */
TEST_F(global, minus_one_undoes_it)
{
	struct pc_ring own = { 0 };

	ASSERT_ERRNO(0, set_output_errno(self->p.source, self->p.target.fd));
	ASSERT_EQ(0, run_both(_metadata, &self->p, FAULTS));
	ASSERT_EQ(FAULTS, pc_capture_samples_of(&self->p.target, pc_event_id(self->p.source), 0));

	ASSERT_ERRNO(0, set_output_errno(self->p.source, -1L));
	ASSERT_EQ(0, run_both(_metadata, &self->p, FAULTS));
	EXPECT_EQ(FAULTS, pc_capture_samples_of(&self->p.target, pc_event_id(self->p.source), 0))
		TH_LOG("samples reached the target after -1");
	EXPECT_EQ(2 * FAULTS, pc_capture_samples_of(&self->p.target, pc_event_id(self->p.target.fd), 0));

	ASSERT_EQ(0, pc_ring_map(&own, self->p.source, 2, PC_RING_READWRITE));
	ASSERT_EQ(0, run_both(_metadata, &self->p, FAULTS));
	EXPECT_EQ(FAULTS, ring_samples(&own));
	EXPECT_EQ(FAULTS, pc_capture_samples_of(&self->p.target, pc_event_id(self->p.source), 0));
	EXPECT_EQ(3 * FAULTS, pc_capture_samples_of(&self->p.target, pc_event_id(self->p.target.fd), 0));
	pc_ring_unmap(&own);
}

/* Into itself: EINVAL, with a ring (the target) or without (the source). */
TEST_F(global, to_itself_is_einval)
{
	EXPECT_ERRNO(EINVAL, set_output_errno(self->p.source, self->p.source));
	EXPECT_ERRNO(EINVAL, set_output_errno(self->p.target.fd, self->p.target.fd));
	EXPECT_ERRNO(0, set_output_errno(self->p.source, self->p.target.fd)) TH_LOG("the control");
}

/* Into an event that has no ring: EINVAL; the control: once it maps one, its ring gets the samples. */
TEST_F(global, into_event_without_ring_is_einval)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(SOURCE_FAULTS);
	struct pc_ring ring = { 0 };
	int bare = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(bare);
	EXPECT_ERRNO(EINVAL, set_output_errno(self->p.source, bare));
	ASSERT_EQ(0, pc_ring_map(&ring, bare, 2, PC_RING_READWRITE));
	ASSERT_ERRNO(0, set_output_errno(self->p.source, bare)) TH_LOG("the control");
	ASSERT_EQ(0, pc_faults_enabled(&self->p.f, self->p.source, FAULTS));
	EXPECT_EQ(FAULTS, ring_samples(&ring));
	pc_ring_unmap(&ring);
	close(bare);
}

/* An event with a ring mapped cannot be redirected (EINVAL, not EBUSY); unmapped, it can. */
TEST_F(global, event_with_active_mmap_is_einval)
{
	struct pc_ring own = { 0 };

	ASSERT_EQ(0, pc_ring_map(&own, self->p.source, 2, PC_RING_READWRITE));
	EXPECT_ERRNO(EINVAL, set_output_errno(self->p.source, self->p.target.fd));
	pc_ring_unmap(&own);
	ASSERT_ERRNO(0, set_output_errno(self->p.source, self->p.target.fd)) TH_LOG("the control");
	ASSERT_EQ(0, run_both(_metadata, &self->p, FAULTS));
	EXPECT_EQ(FAULTS, pc_capture_samples_of(&self->p.target, pc_event_id(self->p.source), 0));
}

/* An fd that is open but is no perf event: EBADF; the control is a perf fd. */
TEST_F(global, non_perf_fd_is_ebadf)
{
	int pipefd[2];

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	EXPECT_ERRNO(EBADF, set_output_errno(self->p.source, pipefd[0]));
	close(pipefd[0]);
	close(pipefd[1]);
	EXPECT_ERRNO(0, set_output_errno(self->p.source, self->p.target.fd)) TH_LOG("the control");
}

/* A number that is no open fd: EBADF; the control is the same request on an open one. */
TEST_F(global, closed_fd_is_ebadf)
{
	int closed = dup(self->p.target.fd);

	ASSERT_LE(0, closed);
	EXPECT_ERRNO(0, set_output_errno(self->p.source, closed)) TH_LOG("the control, through a dup");
	ASSERT_ERRNO(0, set_output_errno(self->p.source, -1L));
	close(closed);
	EXPECT_ERRNO(EBADF, set_output_errno(self->p.source, closed));
}

/* An event of this CPU into the ring of an event of this task: another CPU (-1), EINVAL. */
TEST_F(global, cpu_event_into_task_ring_is_einval)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(SOURCE_FAULTS);
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu);
	int percpu = pc_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(percpu);
	EXPECT_ERRNO(EINVAL, set_output_errno(percpu, self->p.target.fd));
	EXPECT_ERRNO(0, set_output_errno(self->p.source, self->p.target.fd)) TH_LOG("the control");
	close(percpu);
}

/*
 * The target counts this CPU (pid -1); the source counts this CPU, another
 * CPU, or this task: only the first may write into the target's ring. The
 * test is pinned to the target's CPU; its own faults are told apart from
 * other tasks' by PERF_SAMPLE_TID.
 */
FIXTURE(cpu_ring) {
	struct pair p;
};

FIXTURE_VARIANT(cpu_ring) {
	int source_cpu;		/* 0: the target's CPU, 1: another CPU, -1: this task on any CPU */
	int expected;		/* errno */
};

FIXTURE_VARIANT_ADD(cpu_ring, same_cpu) { .source_cpu = 0, .expected = 0 };
FIXTURE_VARIANT_ADD(cpu_ring, other_cpu) { .source_cpu = 1, .expected = EINVAL };
FIXTURE_VARIANT_ADD(cpu_ring, task_event) { .source_cpu = -1, .expected = EINVAL };

/* An online CPU other than `not` on which an event opens, or -1. */
static int other_cpu(struct perfconf_attr *attr, int not)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	for (int cpu = 0; cpu < n && cpu < CPU_SETSIZE; cpu++) {
		if (cpu == not)
			continue;
		int fd = pc_open(attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

		if (fd >= 0) {
			close(fd);
			return cpu;
		}
	}
	return -1;
}

FIXTURE_SETUP(cpu_ring)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(SOURCE_FAULTS);
	int cpu, source_cpu;

	self->p.target.fd = self->p.source = -1;
	self->p.f.base = NULL;
	if (variant->source_cpu == 1)
		REQUIRE_CPUS(2);
	cpu = pc_pin_self();
	ASSERT_LE(0, cpu);
	source_cpu = variant->source_cpu == 0 ? cpu : variant->source_cpu < 0 ? -1 : other_cpu(&attr, cpu);
	if (variant->source_cpu == 1 && source_cpu < 0)
		SKIP(return, "one CPU only: no other CPU to count on");
	ASSERT_EQ(0, pc_faults_map(&self->p.f, 4 * FAULTS));
	self->p.source = pc_open(&attr, source_cpu < 0 ? 0 : -1, source_cpu, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(self->p.source);
	attr = pc_attr_fault_sampler(TARGET_FAULTS);
	ASSERT_ERRNO(0, -pc_capture_open(&self->p.target, &attr, -1, cpu));
	pc_faults_next(&self->p.f, 1);
}

FIXTURE_TEARDOWN(cpu_ring)
{
	pair_close(&self->p);
}

TEST_F(cpu_ring, only_the_same_cpu_is_redirected)
{
	expect_redirect(_metadata, &self->p, variant->expected, getpid());
}

/*
 * Events of another task: the target counts a child; an event of this
 * task is refused (EINVAL), another event of the child is redirected (the
 * control), and its samples arrive: one for each of the target's own.
 */
TEST(other_task_is_einval)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(TARGET_FAULTS);
	struct pc_capture target;
	struct pc_child child;

	ASSERT_EQ(0, pc_child_start(&child, 0));
	/*
	 * The path the child's faults take is paged in first: a fault on code
	 * read from disk is major, which the target (all page faults) counts
	 * and the source (minor ones) does not.
	 */
	ASSERT_EQ(0, pc_child_do(&child, "faults 8"));
	ASSERT_ERRNO(0, -pc_capture_open(&target, &attr, child.pid, -1));
	attr = pc_attr_fault_sampler(SOURCE_FAULTS);
	int mine = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int childs = pc_open(&attr, child.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(mine);
	ASSERT_OPEN(childs);
	EXPECT_ERRNO(EINVAL, set_output_errno(mine, target.fd));
	ASSERT_ERRNO(0, set_output_errno(childs, target.fd)) TH_LOG("the control");
	ASSERT_EQ(0, pc_enable(target.fd));
	ASSERT_EQ(0, pc_enable(childs));
	ASSERT_EQ(0, pc_child_do(&child, "faults 8"));
	ASSERT_EQ(0, pc_disable(childs));
	ASSERT_EQ(0, pc_disable(target.fd));
	ASSERT_CAPTURE_READ(&target);

	size_t own = pc_capture_samples_of(&target, pc_event_id(target.fd), child.pid);

	EXPECT_LE(8, own);
	EXPECT_EQ(own, pc_capture_samples_of(&target, pc_event_id(childs), child.pid));
	EXPECT_EQ(2 * own, pc_capture_count(&target, PERF_RECORD_SAMPLE));
	close(childs);
	close(mine);
	pc_capture_close(&target);
	EXPECT_EQ(0, pc_child_finish(&child));
}

/*
 * The clock (use_clockid) and the direction (write_backward) of source and
 * target must match: each mismatch is EINVAL, each match redirects every
 * sample.
 */
FIXTURE(mix) {
	struct pair p;
};

#define DEFAULT_CLOCK (-1)

FIXTURE_VARIANT(mix) {
	int source_clock, target_clock;		/* a clockid, or DEFAULT_CLOCK */
	int source_backward, target_backward;
	int expected;				/* errno */
};

FIXTURE_VARIANT_ADD(mix, default_clocks) {
	.source_clock = DEFAULT_CLOCK, .target_clock = DEFAULT_CLOCK, .expected = 0 };
FIXTURE_VARIANT_ADD(mix, monotonic_clocks) {
	.source_clock = CLOCK_MONOTONIC, .target_clock = CLOCK_MONOTONIC, .expected = 0 };
FIXTURE_VARIANT_ADD(mix, monotonic_into_default_clock) {
	.source_clock = CLOCK_MONOTONIC, .target_clock = DEFAULT_CLOCK, .expected = EINVAL };
FIXTURE_VARIANT_ADD(mix, default_into_monotonic_clock) {
	.source_clock = DEFAULT_CLOCK, .target_clock = CLOCK_MONOTONIC, .expected = EINVAL };
FIXTURE_VARIANT_ADD(mix, monotonic_into_monotonic_raw) {
	.source_clock = CLOCK_MONOTONIC, .target_clock = CLOCK_MONOTONIC_RAW, .expected = EINVAL };
FIXTURE_VARIANT_ADD(mix, backward_into_backward) {
	.source_clock = DEFAULT_CLOCK, .target_clock = DEFAULT_CLOCK,
	.source_backward = 1, .target_backward = 1, .expected = 0 };
FIXTURE_VARIANT_ADD(mix, backward_into_forward) {
	.source_clock = DEFAULT_CLOCK, .target_clock = DEFAULT_CLOCK,
	.source_backward = 1, .expected = EINVAL };
FIXTURE_VARIANT_ADD(mix, forward_into_backward) {
	.source_clock = DEFAULT_CLOCK, .target_clock = DEFAULT_CLOCK,
	.target_backward = 1, .expected = EINVAL };

static struct perfconf_attr mix_attr(uint64_t config, int clock, int backward)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(config);

	if (clock != DEFAULT_CLOCK) {
		attr.use_clockid = 1;
		attr.clockid = clock;
	}
	attr.write_backward = backward;
	return attr;
}

FIXTURE_SETUP(mix)
{
	struct perfconf_attr target = mix_attr(TARGET_FAULTS, variant->target_clock, variant->target_backward);
	struct perfconf_attr source = mix_attr(SOURCE_FAULTS, variant->source_clock, variant->source_backward);

	self->p.target.fd = self->p.source = -1;
	self->p.f.base = NULL;
	ASSERT_EQ(0, pc_faults_map(&self->p.f, 4 * FAULTS));
	ASSERT_ERRNO(0, -pc_capture_open(&self->p.target, &target, 0, -1));
	self->p.source = pc_open(&source, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(self->p.source);
	pc_faults_next(&self->p.f, 1);
}

FIXTURE_TEARDOWN(mix)
{
	pair_close(&self->p);
}

TEST_F(mix, only_like_into_like)
{
	expect_redirect(_metadata, &self->p, variant->expected, 0);
}

TEST_HARNESS_MAIN
