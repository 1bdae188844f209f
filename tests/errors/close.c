// SPDX-License-Identifier: GPL-2.0
/*
 * close(2) of a perf_event_open() file descriptor that leads a group
 * whose siblings are still open.
 *
 * Closing the leader frees only the leader: each sibling becomes an event
 * of its own (a singleton group), keeps its fd and its state, and goes on
 * counting by itself; a read with PERF_FORMAT_GROUP through it returns a
 * group of one, itself. Closing a sibling instead shrinks the leader's
 * group. No descriptor is left behind.
 *
 * kernel/events/core.c (6.12): perf_release() -> perf_event_release_kernel()
 * -> perf_remove_from_context(DETACH_GROUP|DETACH_DEAD) (line 5540):
 * __perf_remove_from_context() schedules out the leader alone (line 2462)
 * and perf_group_detach() (line 2242) promotes every sibling to a leader
 * of its own, in the context's groups, still active when it was. The
 * read() size of a promoted sibling: this 6.12 recomputes it in
 * perf_promote_sibling_to_leader() (line 2239, from a 2026 stable fix of
 * a use-after-free); before it (5.10, 6.1, 6.12 until then)
 * perf_group_detach() recomputed the sizes of the closing leader alone,
 * so a promoted sibling kept the read size of the group it left: a group
 * read returns nr = 1 and its own value, then zeros up to the old size.
 * Which size this kernel returns is pinned (observation
 * `promoted_read_size`: "alone" or "stale"); nr, value, id and the zeros
 * are asserted everywhere.
 *
 * Counted with software page faults in user mode: n fresh pages, n
 * faults (the code and stack paged in by the first pc_open()).
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>

#include "perfconf.h"

#define N 16
#define M 8
#define FMT (PERF_FORMAT_GROUP | PERF_FORMAT_ID)

/* Open descriptors of this process. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the directory's own */
}

/* A page-fault counter with read_format FMT; a sibling of leader (enabled) or a leader (disabled). */
static int open_member(uint64_t config, int leader)
{
	struct perfconf_attr attr = pc_attr_sw(config);

	attr.read_format = FMT;
	attr.disabled = leader < 0;
	attr.exclude_kernel = 1;	/* not the faults read(2) takes on the buffer */
	return pc_open(&attr, 0, -1, leader, PERF_FLAG_FD_CLOEXEC);
}

/* Read fd as a group: the bytes read (or -errno) and the decoded values. */
static ssize_t read_group(int fd, struct pc_read_values *v, size_t len)
{
	uint64_t buf[32];
	ssize_t n;

	memset(v, 0, sizeof(*v));
	n = read(fd, buf, len < sizeof(buf) ? len : sizeof(buf));
	if (n < 0)
		return -errno;
	if (pc_read_values_decode(FMT, buf, (size_t)n, v, NULL) < 0)
		return -EBADMSG;
	return n;
}

/* fd's own value out of its group read (found by its id): 0, or -errno. */
static int own_count(int fd, uint64_t *value)
{
	struct pc_read_values v;
	uint64_t id = pc_event_id(fd);
	ssize_t n = read_group(fd, &v, 256);

	if (n < 0)
		return (int)n;
	for (uint64_t i = 0; i < v.nr; i++)
		if (v.values[i].id == id) {
			*value = v.values[i].value;
			return 0;
		}
	return -ENOENT;
}

FIXTURE(global) {
	int fds[3];	/* leader, two siblings */
	int before;	/* open descriptors before */
};

FIXTURE_SETUP(global)
{
	struct pc_read_values v;

	self->before = open_fds();
	ASSERT_LT(0, self->before);
	pc_work_page_faults(1);
	self->fds[0] = open_member(PERF_COUNT_SW_PAGE_FAULTS, -1);
	ASSERT_OPEN(self->fds[0]);
	self->fds[1] = open_member(PERF_COUNT_SW_PAGE_FAULTS_MIN, self->fds[0]);
	ASSERT_OPEN(self->fds[1]);
	self->fds[2] = open_member(PERF_COUNT_SW_PAGE_FAULTS, self->fds[0]);
	ASSERT_OPEN(self->fds[2]);
	ASSERT_EQ(self->before + 3, open_fds());

	/* The group counts as one: N faults in each member. */
	ASSERT_EQ(0, pc_enable(self->fds[0]));
	ASSERT_EQ(0, pc_work_page_faults(N));
	ASSERT_EQ((ssize_t)pc_read_values_size(FMT, 3), read_group(self->fds[1], &v, 256));
	ASSERT_EQ(3, v.nr);
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(N, v.values[i].value) TH_LOG("member %d", i);
		ASSERT_EQ(pc_event_id(self->fds[i]), v.values[i].id) TH_LOG("member %d", i);
	}
}

FIXTURE_TEARDOWN(global)
{
	for (int i = 2; i >= 0; i--)
		if (self->fds[i] >= 0)
			close(self->fds[i]);
}

/*
 * The enabled leader is closed while its siblings count: each goes on
 * counting, alone (N before, M after), and reads as a group of one.
 */
TEST_F(global, siblings_count_on_after_leader_closes)
{
	uint64_t ids[3];
	struct pc_read_values v;

	for (int i = 1; i < 3; i++)
		ids[i] = pc_event_id(self->fds[i]);
	ASSERT_EQ(0, close(self->fds[0]));
	self->fds[0] = -1;
	ASSERT_EQ(0, pc_work_page_faults(M));

	const ssize_t alone = pc_read_values_size(FMT, 1), stale = pc_read_values_size(FMT, 3);
	ssize_t got = 0;

	for (int i = 1; i < 3; i++) {
		uint64_t buf[32];
		const char *err = NULL;

		memset(buf, 0xa5, sizeof(buf));
		ssize_t n = read(self->fds[i], buf, sizeof(buf));

		EXPECT_TRUE(n == alone || n == stale) TH_LOG("sibling %d read %zd bytes", i, n);
		if (n != alone && n != stale)
			continue;
		ASSERT_LT(0, pc_read_values_decode(FMT, buf, n, &v, &err)) TH_LOG("%s", err);
		EXPECT_EQ(1, v.nr) TH_LOG("sibling %d", i);
		EXPECT_EQ(N + M, v.values[0].value) TH_LOG("sibling %d", i);
		EXPECT_EQ(ids[i], v.values[0].id) TH_LOG("sibling %d", i);
		/* Past the group of one, up to the stale size: nothing but zeros. */
		for (ssize_t k = alone / 8; k < n / 8; k++) {
			EXPECT_EQ(0, buf[k]) TH_LOG("sibling %d, word %zd", i, k);
		}
		got = n;
	}
	pc_observe("promoted_read_size", "%s", got == alone ? "alone" : got == stale ? "stale" : "other");

	/* A buffer of the size the kernel returns is enough; a byte less is ENOSPC. */
	if (got == alone || got == stale) {
		EXPECT_EQ(got, read_group(self->fds[1], &v, got));
		EXPECT_EQ(-ENOSPC, read_group(self->fds[1], &v, got - 1));
	}
}

/* A promoted sibling is a leader: disabling it, even with PERF_IOC_FLAG_GROUP, stops it alone. */
TEST_F(global, promoted_siblings_are_independent)
{
	uint64_t a = 0, b = 0;

	ASSERT_EQ(0, close(self->fds[0]));
	self->fds[0] = -1;
	ASSERT_EQ(0, ioctl(self->fds[1], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, pc_work_page_faults(M));
	ASSERT_EQ(0, own_count(self->fds[1], &a));
	ASSERT_EQ(0, own_count(self->fds[2], &b));
	EXPECT_EQ(N, a) TH_LOG("disabled after the leader closed");
	EXPECT_EQ(N + M, b) TH_LOG("still counting");

	/* Enabled again, on its own. */
	ASSERT_EQ(0, pc_enable(self->fds[1]));
	ASSERT_EQ(0, pc_work_page_faults(M));
	ASSERT_EQ(0, own_count(self->fds[1], &a));
	ASSERT_EQ(0, own_count(self->fds[2], &b));
	EXPECT_EQ(N + M, a);
	EXPECT_EQ(N + 2 * M, b);
}

/*
 * The control: a sibling closed instead of the leader leaves the group
 * with one member less, the others counting on together.
 */
TEST_F(global, closing_a_sibling_shrinks_the_group)
{
	struct pc_read_values v;

	ASSERT_EQ(0, close(self->fds[1]));
	self->fds[1] = -1;
	ASSERT_EQ(0, pc_work_page_faults(M));
	for (int i = 0; i < 3; i += 2) {
		ASSERT_EQ((ssize_t)pc_read_values_size(FMT, 2), read_group(self->fds[i], &v, 256)) TH_LOG("fd %d", i);
		ASSERT_EQ(2, v.nr);
		EXPECT_EQ(N + M, v.values[0].value);
		EXPECT_EQ(N + M, v.values[1].value);
		EXPECT_EQ(pc_event_id(self->fds[0]), v.values[0].id);
		EXPECT_EQ(pc_event_id(self->fds[2]), v.values[1].id);
	}
}

/*
 * No descriptor leaks: closing the leader takes exactly its fd (the
 * number is free again), the siblings keep theirs, and closing them
 * leaves as many open as before the group.
 */
TEST_F(global, no_descriptor_leaks)
{
	int leader = self->fds[0];

	ASSERT_EQ(0, close(leader));
	self->fds[0] = -1;
	EXPECT_EQ(-1, fcntl(leader, F_GETFD));
	EXPECT_ERRNO(EBADF, errno);
	EXPECT_EQ(self->before + 2, open_fds());
	for (int i = 1; i < 3; i++) {
		EXPECT_LE(0, fcntl(self->fds[i], F_GETFD)) TH_LOG("sibling %d", i);
	}
	for (int i = 2; i >= 1; i--) {
		ASSERT_EQ(0, close(self->fds[i]));
		self->fds[i] = -1;
	}
	EXPECT_EQ(self->before, open_fds());
}

TEST_HARNESS_MAIN
