// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_QUERY_BPF (since 4.16): asks which BPF programs are
 * attached to the tracepoint of a tracepoint event. The argument points to
 * a struct perf_event_query_bpf: the caller sets ids_len, the room in its
 * ids[] array; the kernel writes prog_cnt, how many programs are attached,
 * and the ids of as many of them as fit, the ids that BPF_OBJ_GET_INFO_BY_FD
 * gives for those programs (the rest of the ids_len entries it zeroes).
 * The programs are those of the tracepoint, not of the one event: each
 * event of the tracepoint that holds a program (PERF_EVENT_IOC_SET_BPF)
 * adds it to the list, and closing that event takes it off.
 *
 * What kernel/trace/bpf_trace.c adds (6.12: perf_event_query_prog_array(),
 * and bpf_prog_array_copy_info() in kernel/bpf/core.c):
 *  - the caller must be perfmon_capable() (CAP_PERFMON or CAP_SYS_ADMIN;
 *    CAP_SYS_ADMIN alone before 5.8), else EPERM, whatever
 *    perf_event_paranoid says and whoever opened the event;
 *  - an event whose type is not PERF_TYPE_TRACEPOINT is EINVAL, a uprobe
 *    event too, although SET_BPF takes a program there;
 *  - a struct the kernel cannot read or write is EFAULT;
 *  - ids_len above the limit of programs per tracepoint (64) is E2BIG;
 *  - ids_len 0 asks for prog_cnt only;
 *  - ids_len smaller than prog_cnt fills ids[] and returns ENOSPC, with
 *    prog_cnt written all the same.
 *
 * The programs here return 1 and keep every hit. They are attached to
 * syscalls:sys_enter_getsid, which no other binary uses, so that the
 * count of programs on it is exactly this binary's. Where the tracepoint
 * is missing (no tracefs, no FTRACE_SYSCALLS), where this kernel has no
 * tracing programs (BPF_EVENTS) or where loading them is not permitted,
 * the cases SKIP.
 */
#include "perfconf.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

#include "work/bpf.h"

/* Its programs live on the tracepoint, which it alone counts. */
PERFCONF_META("reads=perf_event_paranoid writes=bpf.sys_enter_getsid");

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getsid)

#define EVENTS 3	/* events, each with a program */
#define MAX_PROGS 64	/* BPF_TRACE_MAX_PROGS */
#define UNTOUCHED 0xdeadbeefu
#define ALL ((1u << EVENTS) - 1)	/* every program attached */

/* struct perf_event_query_bpf with room for more ids than the kernel allows */
struct query {
	uint32_t ids_len;
	uint32_t prog_cnt;
	uint32_t ids[MAX_PROGS + 1];
};

/* PERF_EVENT_IOC_QUERY_BPF with room for ids_len ids: 0, or the errno. */
static int query_errno(int fd, struct query *q, uint32_t ids_len)
{
	memset(q, 0, sizeof(*q));
	q->ids_len = ids_len;
	q->prog_cnt = UNTOUCHED;
	for (size_t i = 0; i < sizeof(q->ids) / sizeof(q->ids[0]); i++)
		q->ids[i] = UNTOUCHED;
	return ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, q) ? errno : 0;
}

/* The tracepoint of this binary into *attr; SKIP where it is not here. */
#define GETSID_TRACEPOINT(attr) SYSCALL_TRACEPOINT(attr, "sys_enter_getsid")

/*
 * EVENTS events of the tracepoint, each with a program loaded (not yet
 * attached), and one more event that never holds a program.
 */
FIXTURE(global) {
	int fd[EVENTS], bare;
	struct pc_bpf_prog prog[EVENTS];
};

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr;
	char name[16];

	self->bare = -1;
	for (int i = 0; i < EVENTS; i++) {
		self->fd[i] = -1;
		self->prog[i].fd = -1;
	}
	REQUIRE_CONFIG("CONFIG_BPF_EVENTS");
	GETSID_TRACEPOINT(&attr);
	for (int i = 0; i < EVENTS; i++) {
		snprintf(name, sizeof(name), "perfconf_q%d", i);
		LOAD_TRACING_BPF_OR_SKIP(pc_bpf_load_tracepoint_returning(&self->prog[i], name, 1));
		self->fd[i] = pc_open(&attr, 0, -1, -1, 0);
		ASSERT_OPEN(self->fd[i]);
	}
	self->bare = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(self->bare);
}

FIXTURE_TEARDOWN(global)
{
	for (int i = 0; i < EVENTS; i++) {
		if (self->fd[i] >= 0)
			close(self->fd[i]);
		pc_bpf_close(&self->prog[i]);
	}
	if (self->bare >= 0)
		close(self->bare);
}

/* Attach program i through event i. */
#define ATTACH(i) \
	ASSERT_EQ(0, ioctl(self->fd[i], PERF_EVENT_IOC_SET_BPF, self->prog[i].fd)) \
		TH_LOG("program %d: %s", i, pc_errno_name(errno))

#define ATTACH_ALL() do { \
	for (int i_ = 0; i_ < EVENTS; i_++) { \
		ATTACH(i_); \
	} \
} while (0)

/* Which of the fixture's programs has this id: its index, or -1. */
static int prog_of(const struct pc_bpf_prog *progs, uint32_t id)
{
	for (int i = 0; i < EVENTS; i++) {
		if (progs[i].id == id)
			return i;
	}
	return -1;
}

/*
 * The n ids read back name n different programs of the fixture, those
 * whose bit is set in `attached`. The kernel copies all ids_len entries
 * of a zeroed array: those past n are 0, those past ids_len left alone.
 */
static void expect_ids(struct __test_metadata *_metadata, const struct pc_bpf_prog *progs,
		       const struct query *q, uint32_t n, unsigned int attached)
{
	unsigned int seen = 0;

	for (uint32_t k = 0; k < n; k++) {
		int i = prog_of(progs, q->ids[k]);

		EXPECT_LE(0, i) TH_LOG("ids[%u] = %u is none of the programs attached", k, q->ids[k]);
		if (i < 0)
			continue;
		EXPECT_TRUE(attached & (1u << i)) TH_LOG("ids[%u]: program %d is not attached", k, i);
		EXPECT_FALSE(seen & (1u << i)) TH_LOG("ids[%u]: program %d listed twice", k, i);
		seen |= 1u << i;
	}
	for (uint32_t k = n; k < q->ids_len; k++) {
		EXPECT_EQ(0, q->ids[k]) TH_LOG("ids[%u], past the count", k);
	}
	for (uint32_t k = q->ids_len; k < sizeof(q->ids) / sizeof(q->ids[0]); k++) {
		EXPECT_EQ(UNTOUCHED, q->ids[k]) TH_LOG("ids[%u] written past ids_len", k);
	}
}

/*
 * A query through fd with room for ids_len ids succeeds: prog_cnt is
 * `count`, and ids[] lists as many of the programs of `attached` as fit.
 */
static void expect_query(struct __test_metadata *_metadata, FIXTURE_DATA(global) *self, int fd,
			 uint32_t ids_len, uint32_t count, unsigned int attached)
{
	struct query q;

	ASSERT_ERRNO(0, query_errno(fd, &q, ids_len)) TH_LOG("ids_len %u", ids_len);
	EXPECT_EQ(count, q.prog_cnt) TH_LOG("ids_len %u", ids_len);
	expect_ids(_metadata, self->prog, &q, count < ids_len ? count : ids_len, attached);
}

/* A tracepoint without programs: prog_cnt 0, nothing in ids[]. */
TEST_F(global, no_program_gives_zero)
{
	expect_query(_metadata, self, self->bare, EVENTS, 0, 0);
}

/*
 * Every event of the tracepoint reads back the ids of all the programs
 * attached through any of them, those of BPF_OBJ_GET_INFO_BY_FD.
 */
TEST_F(global, ids_of_attached_programs)
{
	for (int i = 0; i < EVENTS; i++) {
		ATTACH(i);
		expect_query(_metadata, self, self->fd[i], EVENTS, i + 1, (2u << i) - 1);	/* 0 to i */
	}
	for (int i = 0; i < EVENTS; i++) {
		expect_query(_metadata, self, self->fd[i], EVENTS, EVENTS, ALL);
	}
	expect_query(_metadata, self, self->bare, EVENTS, EVENTS, ALL);
}

/* Closing an event takes its program off the list; closing the program's fd does not. */
TEST_F(global, closing_the_event_detaches)
{
	ATTACH_ALL();
	pc_bpf_close(&self->prog[0]);
	expect_query(_metadata, self, self->bare, EVENTS, EVENTS, ALL);
	close(self->fd[1]);
	self->fd[1] = -1;
	expect_query(_metadata, self, self->bare, EVENTS, EVENTS - 1, ALL & ~2u);
}

/* Less room than programs: ENOSPC, ids[] full, prog_cnt the whole count. */
TEST_F(global, ids_len_below_count_is_enospc)
{
	struct query q;

	ATTACH_ALL();
	for (uint32_t len = 1; len < EVENTS; len++) {
		EXPECT_ERRNO(ENOSPC, query_errno(self->fd[0], &q, len)) TH_LOG("ids_len %u", len);
		EXPECT_EQ(EVENTS, q.prog_cnt) TH_LOG("ids_len %u", len);
		expect_ids(_metadata, self->prog, &q, len, ALL);
	}
	expect_query(_metadata, self, self->fd[0], EVENTS, EVENTS, ALL);	/* the control */
}

/* ids_len 0 asks for the count only: 0, prog_cnt written, ids[] left alone. */
TEST_F(global, ids_len_zero_gives_the_count)
{
	ATTACH_ALL();
	expect_query(_metadata, self, self->fd[0], 0, EVENTS, ALL);
}

/* ids_len above the limit of programs per tracepoint is E2BIG; at it, room to spare. */
TEST_F(global, ids_len_above_limit_is_e2big)
{
	struct query q;

	ATTACH(0);
	EXPECT_ERRNO(E2BIG, query_errno(self->fd[0], &q, MAX_PROGS + 1));
	EXPECT_EQ(UNTOUCHED, q.prog_cnt);
	EXPECT_ERRNO(E2BIG, query_errno(self->fd[0], &q, UINT32_MAX));
	expect_query(_metadata, self, self->fd[0], MAX_PROGS, 1, 1);	/* the control */
}

/* A software counter is not a tracepoint: EINVAL. */
TEST_F(global, software_event_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct query q;
	int fd = pc_open(&attr, 0, -1, -1, 0);

	ASSERT_OPEN(fd);
	ATTACH(0);
	EXPECT_ERRNO(EINVAL, query_errno(fd, &q, EVENTS));
	EXPECT_EQ(UNTOUCHED, q.prog_cnt);
	close(fd);
	ASSERT_ERRNO(0, query_errno(self->fd[0], &q, EVENTS));	/* the control */
	EXPECT_EQ(1, q.prog_cnt);
}

static __attribute__((__noinline__, __noipa__, used)) void probed(void)
{
	__asm__ volatile("" ::: "memory");
}

/* A uprobe event is a tracing event of another PMU type: EINVAL all the same. */
TEST_F(global, uprobe_event_is_einval)
{
	struct perfconf_attr attr;
	struct query q;
	int fd;

	UPROBE_ATTR(&attr, probed);
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, query_errno(fd, &q, EVENTS));
	EXPECT_EQ(UNTOUCHED, q.prog_cnt);
	close(fd);
	ASSERT_ERRNO(0, query_errno(self->bare, &q, EVENTS));	/* the control */
	EXPECT_EQ(0, q.prog_cnt);
}

/* A struct the kernel cannot read is EFAULT. */
TEST_F(global, bad_pointer_is_efault)
{
	long page = sysconf(_SC_PAGESIZE);
	struct query q;
	void *gone;

	/* mapped without access, so that no later mapping lands there while the case runs */
	gone = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, gone);
	ATTACH(0);
	EXPECT_EQ(-1, ioctl(self->fd[0], PERF_EVENT_IOC_QUERY_BPF, NULL));
	EXPECT_ERRNO(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd[0], PERF_EVENT_IOC_QUERY_BPF, gone));
	EXPECT_ERRNO(EFAULT, errno);
	ASSERT_ERRNO(0, query_errno(self->fd[0], &q, EVENTS));	/* the control */
	EXPECT_EQ(1, q.prog_cnt);
	munmap(gone, page);
}

/*
 * Who may ask: an event opened and given a program as root, queried as
 * each identity (the fd is inherited across the change).
 */
FIXTURE(identity) {
	int fd;
	struct pc_bpf_prog prog;
};

FIXTURE_VARIANT(identity) {
	const char *name;
	int err;
};

FIXTURE_VARIANT_ADD(identity, unprivileged) { .name = "unprivileged", .err = EPERM };
FIXTURE_VARIANT_ADD(identity, bpf) { .name = "bpf", .err = EPERM };
FIXTURE_VARIANT_ADD(identity, perfmon) { .name = "perfmon", .err = 0 };
FIXTURE_VARIANT_ADD(identity, sys_admin) { .name = "sys_admin", .err = 0 };

FIXTURE_SETUP(identity)
{
	struct perfconf_attr attr;
	struct query q;

	self->fd = -1;
	self->prog.fd = -1;
	REQUIRE_CONFIG("CONFIG_BPF_EVENTS");
	GETSID_TRACEPOINT(&attr);
	LOAD_TRACING_BPF_OR_SKIP(pc_bpf_load_tracepoint_returning(&self->prog, "perfconf_qid", 1));
	self->fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(self->fd);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, self->prog.fd)) TH_LOG("%s", pc_errno_name(errno));
	ASSERT_ERRNO(0, query_errno(self->fd, &q, 1)) TH_LOG("as root");	/* the control */
	ASSERT_EQ(1, q.prog_cnt);
	ASSERT_EQ(self->prog.id, q.ids[0]);
}

FIXTURE_TEARDOWN(identity)
{
	if (self->fd >= 0)
		close(self->fd);
	pc_bpf_close(&self->prog);
}

/* Only a perfmon_capable() caller may query: EPERM for the others, before anything is written. */
TEST_F(identity, query_needs_perfmon)
{
	struct query q;

	BECOME_IDENTITY(pc_identity(variant->name));
	EXPECT_ERRNO(variant->err, query_errno(self->fd, &q, 1));
	if (variant->err) {
		EXPECT_EQ(UNTOUCHED, q.prog_cnt);
		EXPECT_EQ(UNTOUCHED, q.ids[0]);
	} else {
		EXPECT_EQ(1, q.prog_cnt);
		EXPECT_EQ(self->prog.id, q.ids[0]);
	}
}

TEST_HARNESS_MAIN
