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
 */
#include "perfconf.h"
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

TEST_HARNESS_MAIN
