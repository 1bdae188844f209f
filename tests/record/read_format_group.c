// SPDX-License-Identifier: GPL-2.0
/*
 * read_format with PERF_FORMAT_GROUP: "allows all counter values in an
 * event group to be read with one read" (perf_event_open(2), "Reading
 * results"). A read through any member's fd returns { nr,
 * time_enabled?, time_running?, { value, id?, lost? }[nr] }: nr counts
 * the leader and its siblings, the leader comes first and the siblings
 * follow in the order they joined, each value is that member's count,
 * each id the one PERF_EVENT_IOC_ID gives for it, each lost the samples it
 * could not write (PERF_FORMAT_LOST, since 6.0). The times are the
 * leader's: "time_enabled" the time the group was enabled, "time_running"
 * the time it was on the PMU; a software group is never multiplexed, so
 * they are equal.
 *
 * kernel/events/core.c (6.12): perf_read_group() (line 5759) sizes the
 * buffer by event->read_size (__perf_event_read_size(), line 1889) and
 * fills it with __perf_read_group_add() (line 5680): nr, then the
 * leader's total_time_enabled/running, then the leader's and each
 * sibling's count, primary_event_id() and lost_samples. The layout is the
 * same in 5.10 and 6.1 but for LOST.
 *
 * All 16 combinations of TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING, ID and
 * LOST with GROUP, on a group of four page-fault counters of this task
 * (user mode only: n fresh pages are n faults, all minor):
 *   the leader, PAGE_FAULTS: every fault;
 *   a sibling, PAGE_FAULTS_MIN: every fault;
 *   a sibling, PAGE_FAULTS_MAJ: none;
 *   a sibling, PAGE_FAULTS, opened disabled and enabled after K faults:
 *   the last N - K;
 * read through each of the four fds after the group is disabled.
 *
 * A group read is of the group as it was built, whoever it counts and
 * whenever it is read:
 *  - a group attached to another task still reads every member after
 *    that task has exited, through every fd (perf_event_exit_event() keeps
 *    the grouping of events that have a file: 050735b08ca8, 2.6.34;
 *    before it the exit detached the siblings and the leader read alone;
 *    perf_event_tests' read_group_attached);
 *  - a group read while the group counts returns live times, non-zero and
 *    growing with the work, not the times of its last disable
 *    (__perf_read_group_add() updates the leader first: abf4868b8548,
 *    2.6.33; perf_event_tests' sync_read_required); the read after the
 *    disable is the control.
 */
#include "perfconf.h"
#include "work/child.h"
#include "work/faults.h"
#include "work/clock.h"

#define N 20
#define K 6
#define MEMBERS 4
#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define LOST_BIT (1ULL << 4)	/* PERF_FORMAT_LOST, in the ABI table since 6.0 */

static const uint64_t configs[MEMBERS] = {
	PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_PAGE_FAULTS_MIN,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ, PERF_COUNT_SW_PAGE_FAULTS,
};
static const uint64_t expected[MEMBERS] = { N, N, 0, N - K };

/*
 * Open the group with read_format rf on every member (the last sibling
 * disabled), count: K faults, enable the last sibling, N - K faults,
 * disable the leader. 0, or -errno of what failed.
 */
static int count_group(struct pc_faults *f, int *fds, uint64_t rf)
{
	for (int i = 0; i < MEMBERS; i++) {
		struct perfconf_attr attr = pc_attr_user_faults();

		attr.config = configs[i];
		attr.read_format = rf;
		attr.disabled = i == 0 || i == MEMBERS - 1;
		fds[i] = pc_open(&attr, 0, -1, i ? fds[0] : -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0)
			return fds[i];
	}
	/* Unmeasured: the enable/disable path and this loop's pages are there before counting. */
	if (pc_faults_next(f, 1) != 1)
		return -EFAULT;
	/* the group's window lasts until perf's clock has moved (work/clock.h) */
	struct pc_perf_clock clk;
	int err = pc_perf_clock_open(&clk);

	if (err)
		return err;
	err = pc_enable(fds[0]);
	if (!err && pc_faults_next(f, K) != K)
		err = -EFAULT;
	err = err ?: pc_enable(fds[MEMBERS - 1]);
	if (!err && pc_faults_next(f, N - K) != N - K)
		err = -EFAULT;
	err = err ?: pc_perf_clock_wait(&clk);
	int e = pc_disable(fds[0]);

	pc_perf_clock_close(&clk);
	return err ?: e;
}

static void close_group(int *fds)
{
	for (int i = MEMBERS - 1; i >= 0; i--) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

/*
 * Every combination of GROUP with the bits of `others` that has the bits of
 * `must`, each read through every member.
 */
static void every_combination(struct __test_metadata *_metadata, uint64_t others, uint64_t must)
{
	struct pc_faults f;
	int fds[MEMBERS] = { -1, -1, -1, -1 };

	ASSERT_EQ(0, pc_faults_map(&f, (1 + N) * (1 + 16)));
	/* Once unmeasured: the stack and code of every step are paged in. */
	ASSERT_ERRNO(0, -count_group(&f, fds, PERF_FORMAT_GROUP));
	close_group(fds);
	for (uint64_t sub = 0; sub <= others; sub++) {
		if ((sub & ~others) || (sub & must) != must)
			continue;
		uint64_t rf = PERF_FORMAT_GROUP | sub;
		size_t size = pc_read_values_size(rf, MEMBERS);
		struct pc_read_values first = { 0 };

		ASSERT_ERRNO(0, -count_group(&f, fds, rf)) TH_LOG("read_format %#llx", (unsigned long long)rf);
		/* The documented size: 8 for nr, 8 per time, (8 + 8 per ID/LOST) per member. */
		ASSERT_EQ(8 + 8 * __builtin_popcountll(rf & TIMES) +
			  MEMBERS * (8 + 8 * __builtin_popcountll(rf & (PERF_FORMAT_ID | LOST_BIT))), size);
		for (int m = 0; m < MEMBERS; m++) {
			uint64_t buf[64];
			struct pc_read_values v;
			const char *err = NULL;

			memset(buf, 0xa5, sizeof(buf));
			ASSERT_EQ((ssize_t)size, read(fds[m], buf, sizeof(buf)))
				TH_LOG("read_format %#llx through member %d", (unsigned long long)rf, m);
			/* Nothing written past the size. */
			EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, buf[size / 8]);
			ASSERT_EQ((int)size, pc_read_values_decode(rf, buf, size, &v, &err)) TH_LOG("%s", err);
			ASSERT_EQ(MEMBERS, v.nr) TH_LOG("read_format %#llx through member %d",
							(unsigned long long)rf, m);
			for (int i = 0; i < MEMBERS; i++) {
				EXPECT_EQ(expected[i], v.values[i].value)
					TH_LOG("read_format %#llx through member %d, value %d",
					       (unsigned long long)rf, m, i);
				if (rf & PERF_FORMAT_ID) {
					EXPECT_EQ(pc_event_id(fds[i]), v.values[i].id)
						TH_LOG("read_format %#llx through member %d, id %d",
						       (unsigned long long)rf, m, i);
				}
				if (rf & LOST_BIT) {
					EXPECT_EQ(0, v.values[i].lost)
						TH_LOG("read_format %#llx through member %d, lost %d",
						       (unsigned long long)rf, m, i);
				}
			}
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) {
				EXPECT_LT(0, v.time_enabled) TH_LOG("read_format %#llx", (unsigned long long)rf);
			}
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) {
				EXPECT_LT(0, v.time_running) TH_LOG("read_format %#llx", (unsigned long long)rf);
			}
			if ((rf & TIMES) == TIMES) {
				EXPECT_EQ(v.time_enabled, v.time_running)
					TH_LOG("read_format %#llx", (unsigned long long)rf);
			}
			/*
			 * The leader's times, frozen since it was disabled: the
			 * same through every member (the last sibling, enabled
			 * later, has less time of its own).
			 */
			if (m == 0) {
				first = v;
			} else {
				EXPECT_EQ(first.time_enabled, v.time_enabled)
					TH_LOG("read_format %#llx through member %d", (unsigned long long)rf, m);
				EXPECT_EQ(first.time_running, v.time_running)
					TH_LOG("read_format %#llx through member %d", (unsigned long long)rf, m);
			}
		}
		close_group(fds);
	}
	pc_faults_unmap(&f);
}

/* The 8 combinations of TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING and ID with GROUP. */
TEST(every_combination_without_lost)
{
	every_combination(_metadata, TIMES | PERF_FORMAT_ID, 0);
}

/*
 * The 8 with LOST too: a counter loses nothing. SKIP where the kernel does
 * not know PERF_FORMAT_LOST (before 6.0; pinned).
 */
TEST(every_combination_with_lost)
{
	struct perfconf_attr attr = pc_attr_user_faults();

	attr.read_format = PERF_FORMAT_GROUP | LOST_BIT;
	int err = pc_open_errno(&attr, 0, -1, -1, 0);

	pc_observe_errno("errno", err);
	if (err)
		SKIP(return, "PERF_FORMAT_LOST refused (%s)", pc_errno_name(err));
	every_combination(_metadata, TIMES | PERF_FORMAT_ID | LOST_BIT, LOST_BIT);
}

#define GROUP_RF (PERF_FORMAT_GROUP | TIMES | PERF_FORMAT_ID)
#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * Read the group of the fds[members] through fd: the documented size, nr
 * members, each id its member's; the values and times in *v.
 */
static void read_group(struct __test_metadata *_metadata, int fd, const int *fds, int members,
		       struct pc_read_values *v, const char *when)
{
	uint64_t buf[64];
	const char *err = NULL;
	size_t size = pc_read_values_size(GROUP_RF, (unsigned int)members);

	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ((ssize_t)size, read(fd, buf, sizeof(buf))) TH_LOG("%s", when);
	ASSERT_EQ((int)size, pc_read_values_decode(GROUP_RF, buf, size, v, &err)) TH_LOG("%s", err);
	ASSERT_EQ((uint64_t)members, v->nr) TH_LOG("%s", when);
	for (int i = 0; i < members; i++) {
		EXPECT_EQ(pc_event_id(fds[i]), v->values[i].id) TH_LOG("%s, member %d", when, i);
	}
}

FIXTURE(exited) {
	struct pc_child child;
	int fds[3];
};
FIXTURE_VARIANT(exited) {
	bool counting;	/* the group still enabled when the task exits */
};
FIXTURE_VARIANT_ADD(exited, disabled_before_exit) { .counting = false };
FIXTURE_VARIANT_ADD(exited, counting_through_exit) { .counting = true };
FIXTURE_SETUP(exited)
{
	for (int i = 0; i < 3; i++)
		self->fds[i] = -1;
	ASSERT_EQ(0, pc_child_start(&self->child, 0));
	ASSERT_EQ(0, pc_child_do(&self->child, "timed_faults " STR(N)));	/* its path paged in */
}
FIXTURE_TEARDOWN(exited)
{
	pc_child_kill(&self->child);
	for (int i = 2; i >= 0; i--)
		if (self->fds[i] >= 0)
			close(self->fds[i]);
}

/*
 * A group on a child (all faults, minor faults, major faults) counts N
 * faults of the child and is read; the child exits and is reaped; read
 * again through every fd: nr 3 and every value, as before the exit (the
 * group disabled before it), or at least that (counting through it: the
 * exit's own faults, all minor), with times that ran.
 */
TEST_F(exited, group_of_an_exited_task_reads_every_member)
{
	static const uint64_t configs[3] = {
		PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
	};
	struct pc_read_values before, after;

	for (int i = 0; i < 3; i++) {
		struct perfconf_attr attr = pc_attr_user_faults();

		attr.config = configs[i];
		attr.read_format = GROUP_RF;
		attr.disabled = i == 0;
		self->fds[i] = pc_open(&attr, self->child.pid, -1, i ? self->fds[0] : -1, PERF_FLAG_FD_CLOEXEC);
		ASSERT_OPEN(self->fds[i]);
	}
	ASSERT_EQ(0, pc_enable(self->fds[0]));
	ASSERT_EQ(0, pc_child_do(&self->child, "timed_faults " STR(N)));
	if (!variant->counting)
		ASSERT_EQ(0, pc_disable(self->fds[0]));
	read_group(_metadata, self->fds[0], self->fds, 3, &before, "before the exit");
	const uint64_t expected[3] = { N, N, 0 };
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(expected[i], before.values[i].value) TH_LOG("member %d, before the exit", i);
	}
	EXPECT_LT(0, before.time_running);
	EXPECT_EQ(before.time_enabled, before.time_running);

	ASSERT_EQ(0, pc_child_finish(&self->child));
	for (int m = 0; m < 3; m++) {
		read_group(_metadata, self->fds[m], self->fds, 3, &after, "after the exit");
		if (variant->counting) {
			EXPECT_LE(before.values[0].value, after.values[0].value) TH_LOG("through member %d", m);
			EXPECT_EQ(after.values[0].value, after.values[1].value) TH_LOG("through member %d", m);
			EXPECT_EQ(0, after.values[2].value) TH_LOG("through member %d", m);
			EXPECT_LE(before.time_running, after.time_running);
		} else {
			for (int i = 0; i < 3; i++) {
				EXPECT_EQ(before.values[i].value, after.values[i].value)
					TH_LOG("through member %d, value %d", m, i);
			}
			EXPECT_EQ(before.time_running, after.time_running);
		}
		EXPECT_EQ(after.time_enabled, after.time_running);
	}
}

/*
 * This task's group (all faults, minor faults) enabled: N faults, read
 * while it counts; N more, read again; disabled, read (the control).
 * Every read has both times non-zero and equal (a software group never
 * waits for a counter), the counts so far, and times that grew with the
 * work in between.
 */
TEST(running_group_reads_live_times)
{
	struct pc_read_values r[3];
	struct pc_perf_clock clk;
	struct pc_faults f;
	int fds[2];

	ASSERT_EQ(0, pc_faults_map(&f, 4 * N + 1));
	for (int i = 0; i < 2; i++) {
		struct perfconf_attr attr = pc_attr_user_faults();

		attr.config = i ? PERF_COUNT_SW_PAGE_FAULTS_MIN : PERF_COUNT_SW_PAGE_FAULTS;
		attr.read_format = GROUP_RF;
		attr.disabled = i == 0;
		fds[i] = pc_open(&attr, 0, -1, i ? fds[0] : -1, PERF_FLAG_FD_CLOEXEC);
		ASSERT_OPEN(fds[i]);
	}
	/* Once unmeasured: the path is paged in. */
	ASSERT_EQ(1, pc_faults_next(&f, 1));
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	read_group(_metadata, fds[0], fds, 2, &r[0], "warm");
	ASSERT_EQ(0, pc_enable(fds[0]));
	for (int k = 0; k < 2; k++) {
		ASSERT_EQ(N, pc_faults_next(&f, N));
		ASSERT_EQ(0, pc_perf_clock_wait(&clk));
		read_group(_metadata, fds[0], fds, 2, &r[k], k ? "second read, counting" : "first read, counting");
	}
	ASSERT_EQ(0, pc_disable(fds[0]));
	read_group(_metadata, fds[1], fds, 2, &r[2], "after the disable");
	pc_perf_clock_close(&clk);
	for (int k = 0; k < 3; k++) {
		uint64_t faults = k ? 2 * N : N;

		EXPECT_LT(0, r[k].time_enabled) TH_LOG("read %d", k);
		EXPECT_LT(0, r[k].time_running) TH_LOG("read %d", k);
		EXPECT_EQ(r[k].time_enabled, r[k].time_running) TH_LOG("read %d", k);
		EXPECT_EQ(faults, r[k].values[0].value) TH_LOG("read %d", k);
		EXPECT_EQ(faults, r[k].values[1].value) TH_LOG("read %d", k);
	}
	EXPECT_LT(r[0].time_enabled, r[1].time_enabled) TH_LOG("times stood still while counting");
	EXPECT_LE(r[1].time_enabled, r[2].time_enabled);
	close(fds[1]);
	close(fds[0]);
	pc_faults_unmap(&f);
}

TEST_HARNESS_MAIN
