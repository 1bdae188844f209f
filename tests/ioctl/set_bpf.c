// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_SET_BPF (since 4.1): attaches a BPF program, given by its
 * fd, to a tracepoint, kprobe or uprobe event. The program runs at each
 * hit, before the event records anything: a return of 0 drops the hit,
 * 1 keeps it (other values are observed: the kernel ANDs the returns of
 * all the programs, so only bit 0 counts). Loading a tracing program
 * takes CAP_PERFMON (since 5.8) or CAP_SYS_ADMIN, besides CAP_BPF.
 *
 * What kernel/events/core.c and kernel/trace/bpf_trace.c add (6.12:
 * __perf_event_set_bpf_prog(), perf_event_attach_bpf_prog()):
 *  - the argument must be a BPF program's fd: an fd that is not open is
 *    EBADF, an open fd of anything else is EINVAL (bpf_prog_get());
 *  - a tracepoint event takes only BPF_PROG_TYPE_TRACEPOINT programs;
 *    other types are EINVAL;
 *  - an event holds at most one program: a second SET_BPF is EEXIST;
 *  - the programs live on the tracepoint, not on the event: every program
 *    attached through any event of that tracepoint runs for each hit, and
 *    a hit is dropped for all its events when one of them returns 0;
 *  - the event holds its own reference: closing the program's fd does not
 *    detach it; closing the event does;
 *  - an event that is not a tracing one (a software counter) takes only
 *    BPF_PROG_TYPE_PERF_EVENT programs (since 4.9, perf_event_set_bpf_handler()):
 *    a tracepoint program there is EINVAL; a perf event program runs at
 *    each overflow and a return of 0 drops the sample, while the count
 *    goes on.
 *
 * Measured on syscalls:sys_enter_getpgid, which getpgid(2) fires once per
 * call. Since a program on a tracepoint changes what every event of that
 * tracepoint sees, this binary uses one no other binary counts. Where the
 * tracepoint is missing (no tracefs, no FTRACE_SYSCALLS), where this
 * kernel has no tracing programs (BPF_EVENTS) or where loading them is not
 * permitted, the cases SKIP.
 */
#include "perfconf.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "work/bpf.h"
#include "work/faults.h"
#include "work/measure.h"

/* A program lives on the tracepoint: while it is attached, every counter of the tracepoint sees its verdict. */
PERFCONF_META("writes=bpf.sys_enter_getpgid");

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getpgid)

#define N 8
#define FAULTS 8

/* PERF_EVENT_IOC_SET_BPF: 0, or the errno. */
static int set_bpf_errno(int fd, int prog_fd)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) ? errno : 0;
}

/* n getpgid() calls with the event enabled (after a reset): its count. */
static uint64_t count_getpgid(int fd, unsigned long n)
{
	if (pc_reset(fd) || pc_enable(fd))
		return UINT64_MAX;
	for (unsigned long i = 0; i < n; i++)
		syscall(SYS_getpgid, 0);
	if (pc_disable(fd))
		return UINT64_MAX;
	return pc_count_of(fd);
}

/*
 * A counter of syscalls:sys_enter_getpgid on this task into *fd, checked
 * without a program (the control: every call counts); SKIP where the
 * tracepoint or tracing programs are not here.
 */
static void open_getpgid(struct __test_metadata *_metadata, int *fd)
{
	struct perfconf_attr attr;

	REQUIRE_CONFIG("CONFIG_BPF_EVENTS");
	SYSCALL_TRACEPOINT(&attr, "sys_enter_getpgid");
	*fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(*fd);
	ASSERT_EQ(N, count_getpgid(*fd, N));
}

/* Another counter of the tracepoint, which the fixture found here. */
static int open_another_getpgid(struct __test_metadata *_metadata)
{
	struct perfconf_attr attr;

	ASSERT_EQ(0, pc_attr_tracepoint(&attr, "syscalls", "sys_enter_getpgid"));
	int fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	return fd;
}

FIXTURE(global) {
	int fd;
	struct pc_bpf_prog keep, drop;
};

FIXTURE_SETUP(global)
{
	self->fd = -1;
	self->keep.fd = self->drop.fd = -1;
	open_getpgid(_metadata, &self->fd);
	if (_metadata->exit_code)
		return;
	LOAD_TRACING_BPF_OR_SKIP(pc_bpf_load_tracepoint_returning(&self->keep, "perfconf_keep", 1));
	LOAD_TRACING_BPF_OR_SKIP(pc_bpf_load_tracepoint_returning(&self->drop, "perfconf_drop", 0));
}

FIXTURE_TEARDOWN(global)
{
	if (self->fd >= 0)
		close(self->fd);
	pc_bpf_close(&self->keep);
	pc_bpf_close(&self->drop);
}

FIXTURE(program) {
	int fd;
	struct pc_bpf_prog prog;
};

/*
 * What the program returns, and how many of N hits stay. Values other than
 * 0 and 1 are observed: the kernel ANDs the returns of all the programs
 * on the tracepoint, starting from 1 (bpf_prog_run_array(), 6.12), so only
 * bit 0 counts, and 2 drops the hit as 0 does.
 */
FIXTURE_VARIANT(program) {
	int ret;
	uint64_t kept;
	bool observe;
};

FIXTURE_VARIANT_ADD(program, returns_0) { .ret = 0, .kept = 0 };
FIXTURE_VARIANT_ADD(program, returns_1) { .ret = 1, .kept = N };
FIXTURE_VARIANT_ADD(program, returns_2) { .ret = 2, .observe = true };
FIXTURE_VARIANT_ADD(program, returns_3) { .ret = 3, .observe = true };

/* The count of N hits under the variant's program: asserted, or observed as "kept". */
static void expect_kept(struct __test_metadata *_metadata, const FIXTURE_VARIANT(program) *variant,
			uint64_t count)
{
	if (variant->observe)
		pc_observe("kept", "%llu", (unsigned long long)count);
	else
		EXPECT_EQ(variant->kept, count);
}

FIXTURE_SETUP(program)
{
	self->fd = -1;
	self->prog.fd = -1;
	open_getpgid(_metadata, &self->fd);
	if (_metadata->exit_code)
		return;
	LOAD_TRACING_BPF_OR_SKIP(pc_bpf_load_tracepoint_returning(&self->prog, "perfconf_tp", variant->ret));
}

FIXTURE_TEARDOWN(program)
{
	if (self->fd >= 0)
		close(self->fd);
	pc_bpf_close(&self->prog);
}

/* Once attached, the program decides each hit: 0 drops it, anything else keeps it. */
TEST_F(program, return_value_decides_each_hit)
{
	ASSERT_ERRNO(0, set_bpf_errno(self->fd, self->prog.fd));
	expect_kept(_metadata, variant, count_getpgid(self->fd, N));
}

/* The event holds the program: closing its fd leaves it attached. */
TEST_F(program, stays_attached_after_its_fd_closes)
{
	ASSERT_ERRNO(0, set_bpf_errno(self->fd, self->prog.fd));
	pc_bpf_close(&self->prog);
	expect_kept(_metadata, variant, count_getpgid(self->fd, N));
}

/*
 * The program is attached to the tracepoint through the event: another
 * event of the tracepoint sees its verdict too, until the event that
 * attached it is closed.
 */
TEST_F(program, applies_to_the_tracepoint_until_the_event_closes)
{
	int other = open_another_getpgid(_metadata);

	ASSERT_ERRNO(0, set_bpf_errno(self->fd, self->prog.fd));
	expect_kept(_metadata, variant, count_getpgid(other, N));
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(N, count_getpgid(other, N));
	close(other);
}

/* A second program on the same event is EEXIST, and the first stays. */
TEST_F(global, second_program_is_eexist)
{
	ASSERT_ERRNO(0, set_bpf_errno(self->fd, self->keep.fd));
	EXPECT_ERRNO(EEXIST, set_bpf_errno(self->fd, self->drop.fd));
	EXPECT_ERRNO(EEXIST, set_bpf_errno(self->fd, self->keep.fd));
	EXPECT_EQ(N, count_getpgid(self->fd, N));
}

/*
 * Each event of a tracepoint takes a program of its own (the control of
 * EEXIST), and every program runs for each hit: one returning 0 drops
 * the hit for both events.
 */
TEST_F(global, programs_of_two_events_all_run)
{
	int other = open_another_getpgid(_metadata);

	ASSERT_ERRNO(0, set_bpf_errno(self->fd, self->keep.fd));
	EXPECT_EQ(N, count_getpgid(self->fd, N));
	ASSERT_ERRNO(0, set_bpf_errno(other, self->drop.fd));
	EXPECT_EQ(0, count_getpgid(self->fd, N));
	EXPECT_EQ(0, count_getpgid(other, N));
	close(other);
	EXPECT_EQ(N, count_getpgid(self->fd, N));
}

/* A tracepoint event takes only tracepoint programs: other types are EINVAL. */
TEST_F(global, other_program_type_is_einval)
{
	struct pc_bpf_prog socket_filter, perf_event;

	ASSERT_ERRNO(0, -pc_bpf_load_trivial(&socket_filter, "perfconf_sock"));
	EXPECT_ERRNO(EINVAL, set_bpf_errno(self->fd, socket_filter.fd));
	pc_bpf_close(&socket_filter);
	int err = -pc_bpf_load_perf_event_returning(&perf_event, "perfconf_pe", 1);
	if (err != EINVAL) {	/* EINVAL: no perf event programs on this kernel */
		ASSERT_ERRNO(0, err);
		EXPECT_ERRNO(EINVAL, set_bpf_errno(self->fd, perf_event.fd));
		pc_bpf_close(&perf_event);
	}
	EXPECT_EQ(N, count_getpgid(self->fd, N));
	ASSERT_ERRNO(0, set_bpf_errno(self->fd, self->drop.fd));	/* the control */
	EXPECT_EQ(0, count_getpgid(self->fd, N));
}

/* A tracepoint program on a software event, counting or sampling, is EINVAL. */
TEST_F(global, tracepoint_program_on_software_event_is_einval)
{
	struct perfconf_attr counting = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct perfconf_attr sampling = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	int fd;

	fd = pc_open(&counting, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, set_bpf_errno(fd, self->drop.fd));
	close(fd);
	fd = pc_open(&sampling, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, set_bpf_errno(fd, self->drop.fd));
	close(fd);
	ASSERT_ERRNO(0, set_bpf_errno(self->fd, self->drop.fd));	/* the control */
	EXPECT_EQ(0, count_getpgid(self->fd, N));
}

/* An open fd that is not a BPF program (a pipe, the event itself) is EINVAL. */
TEST_F(global, fd_of_no_program_is_einval)
{
	int p[2];

	ASSERT_EQ(0, pipe(p));
	EXPECT_ERRNO(EINVAL, set_bpf_errno(self->fd, p[0]));
	EXPECT_ERRNO(EINVAL, set_bpf_errno(self->fd, self->fd));
	close(p[0]);
	close(p[1]);
	EXPECT_EQ(N, count_getpgid(self->fd, N));
	ASSERT_ERRNO(0, set_bpf_errno(self->fd, self->drop.fd));	/* the control */
	EXPECT_EQ(0, count_getpgid(self->fd, N));
}

/* An fd that is not open (-1, or one just closed) is EBADF. */
TEST_F(global, closed_fd_is_ebadf)
{
	int gone = dup(self->drop.fd);

	ASSERT_LE(0, gone);
	close(gone);
	EXPECT_ERRNO(EBADF, set_bpf_errno(self->fd, gone));
	EXPECT_ERRNO(EBADF, set_bpf_errno(self->fd, -1));
	EXPECT_EQ(N, count_getpgid(self->fd, N));
	ASSERT_ERRNO(0, set_bpf_errno(self->fd, self->drop.fd));	/* the control */
	EXPECT_EQ(0, count_getpgid(self->fd, N));
}

FIXTURE(perf_event_program) {
	struct pc_bpf_prog prog;
};

FIXTURE_VARIANT(perf_event_program) {
	int ret;
	size_t samples;
};

FIXTURE_VARIANT_ADD(perf_event_program, returns_0) { .ret = 0, .samples = 0 };
FIXTURE_VARIANT_ADD(perf_event_program, returns_1) { .ret = 1, .samples = FAULTS };

FIXTURE_SETUP(perf_event_program)
{
	self->prog.fd = -1;
	REQUIRE_CONFIG("CONFIG_BPF_EVENTS");
	LOAD_TRACING_BPF_OR_SKIP(pc_bpf_load_perf_event_returning(&self->prog, "perfconf_pe", variant->ret));
}

FIXTURE_TEARDOWN(perf_event_program)
{
	pc_bpf_close(&self->prog);
}

/*
 * On a sampling software event, a perf event program runs at each
 * overflow: 0 drops the sample, 1 keeps it; the count goes on either way.
 */
TEST_F(perf_event_program, return_value_decides_each_sample)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	struct pc_capture cap;
	struct pc_faults f;

	attr.exclude_kernel = 1;
	ASSERT_EQ(0, pc_faults_map(&f, 1 + FAULTS));
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_ERRNO(0, set_bpf_errno(cap.fd, self->prog.fd));
	ASSERT_EQ(0, pc_faults_enabled(&f, cap.fd, FAULTS));
	EXPECT_EQ(FAULTS, pc_count_of(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(variant->samples, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (size_t i = 0; i < pc_capture_count(&cap, PERF_RECORD_SAMPLE); i++) {
		EXPECT_EQ(pc_faults_addr(&f, 1 + i), pc_capture_sample(&cap, i)->addr) TH_LOG("sample %zu", i);
	}
	EXPECT_ERRNO(EEXIST, set_bpf_errno(cap.fd, self->prog.fd));
	pc_capture_close(&cap);
	pc_faults_unmap(&f);
}

TEST_HARNESS_MAIN
