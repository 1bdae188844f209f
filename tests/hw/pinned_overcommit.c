// SPDX-License-Identifier: GPL-2.0
/*
 * pinned: "the counter should always be on the CPU if at all possible. If
 * a pinned counter cannot be put onto the CPU (e.g., because there are
 * not enough hardware counters or because of a conflict with some other
 * event), then the counter goes into an 'error' state, where reads return
 * end-of-file (i.e., read(2) returns 0) until the counter is subsequently
 * enabled or disabled."
 *
 * More pinned events of one kind than the PMU has counters for it, all
 * enabled at once (prctl PR_TASK_PERF_EVENTS_ENABLE) around the exact
 * loop: the first ones opened count it exactly, the rest read EOF. How
 * many count is the PMU's number of counters for that event, pinned
 * (`counting`): on arm64, cycles may also use the dedicated cycle
 * counter. What poll(2) reports for an event in error state is pinned too
 * (`poll`: POLLHUP up to 6.12, POLLERR on 7.2). Enabling an event in error
 * state takes it out. Flexible
 * (not pinned) events beyond the counters are never in error: they wait
 * for their turn and read normally.
 */
#include <poll.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include "perfconf.h"
#include "event/hw.h"

#define N 1000
#define EVENTS 16
#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static void open_all(struct __test_metadata *_metadata, int *fds, uint64_t config, int pinned,
		     uint64_t read_format)
{
	for (int i = 0; i < EVENTS; i++) {
		struct perfconf_attr attr = pc_attr_hw(config);

		attr.exclude_kernel = 1;
		attr.pinned = pinned;
		attr.read_format = read_format;
		fds[i] = pc_open(&attr, 0, -1, -1, 0);
		ASSERT_OPEN(fds[i]);
	}
}

static void close_all(int *fds)
{
	for (int i = 0; i < EVENTS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/*
 * How many of the pinned events counted; they must be the first ones, each
 * `expected` (or just something, when expected is 0).
 */
static int counting(struct __test_metadata *_metadata, int *fds, uint64_t expected)
{
	int n = 0;

	for (int i = 0; i < EVENTS; i++) {
		uint64_t v = 0;

		if (pc_read_count(fds[i], &v) == 0) {
			EXPECT_EQ(n, i) TH_LOG("event %d counts after one in error state", i);
			if (expected) {
				EXPECT_EQ(expected, v) TH_LOG("event %d", i);
			} else {
				EXPECT_NE(0, v) TH_LOG("event %d", i);
			}
			n++;
		} else {
			EXPECT_ERRNO(ENODATA, errno) TH_LOG("event %d: read does not return EOF", i);
		}
	}
	return n;
}

/* What one user-mode event of config counts of the loop on its own. */
static uint64_t count_alone(struct __test_metadata *_metadata, uint64_t config)
{
	struct perfconf_attr one = pc_attr_hw(config);
	uint64_t count = 0;

	one.exclude_kernel = 1;
	ASSERT_EQ(0, pc_hw_count_loop(&one, N, &count));
	return count;
}

/* EVENTS pinned events of config, enabled together around the loop: how many counted. */
static int pinned_counting(struct __test_metadata *_metadata, uint64_t config, uint64_t expected)
{
	int fds[EVENTS];

	open_all(_metadata, fds, config, 1, 0);
	ASSERT_EQ(0, pc_hw_loop_task(N));
	int n = counting(_metadata, fds, expected);
	close_all(fds);
	return n;
}

static void overcommit(struct __test_metadata *_metadata, uint64_t config)
{
	uint64_t expected = 0;

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(config);
	REQUIRE_HW_LOOP();
	/* Instructions: what one event alone counts of the loop, the same for each. */
	if (config == PERF_COUNT_HW_INSTRUCTIONS)
		expected = count_alone(_metadata, config);
	int n = pinned_counting(_metadata, config, expected);
	pc_observe("counting", "%d", n);
	EXPECT_LT(0, n);
	EXPECT_GT(EVENTS, n) TH_LOG("all %d pinned events got a counter", EVENTS);
}

TEST(instructions)
{
	overcommit(_metadata, PERF_COUNT_HW_INSTRUCTIONS);
}

TEST(cycles)
{
	overcommit(_metadata, PERF_COUNT_HW_CPU_CYCLES);
}

static const char *poll_names(short revents)
{
	static char buf[64];
	size_t off = 0;

	buf[0] = '\0';
	if (revents & POLLIN)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "+IN");
	if (revents & POLLHUP)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "+HUP");
	if (revents & POLLERR)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "+ERR");
	if (revents & ~(POLLIN | POLLHUP | POLLERR))
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "+%#x", revents & ~(POLLIN | POLLHUP | POLLERR));
	return off ? buf + 1 : "none";
}

/* Every extra reads EOF, with or without times in read_format; poll(2) is pinned. */
TEST(extras_read_eof)
{
	int fds[EVENTS];
	struct pollfd p;
	uint64_t buf[3];

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(PERF_COUNT_HW_INSTRUCTIONS);
	REQUIRE_HW_LOOP();
	open_all(_metadata, fds, PERF_COUNT_HW_INSTRUCTIONS, 1, TIMES);
	ASSERT_EQ(0, pc_hw_loop_task(N));
	int last = EVENTS - 1;
	EXPECT_EQ(0, read(fds[last], buf, sizeof(buf)));
	EXPECT_EQ(sizeof(buf), read(fds[0], buf, sizeof(buf)));
	p.fd = fds[last];
	p.events = POLLIN;
	p.revents = 0;
	int r = poll(&p, 1, 0);
	EXPECT_LE(0, r);
	pc_observe("poll", "%s", r <= 0 ? "none" : poll_names(p.revents));
	close_all(fds);
}

/*
 * Close a counting event, enable one in error state: it leaves the error
 * state and counts the next loop exactly.
 */
TEST(enable_leaves_error_state)
{
	int fds[EVENTS];
	uint64_t v;

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(PERF_COUNT_HW_INSTRUCTIONS);
	REQUIRE_HW_LOOP();
	open_all(_metadata, fds, PERF_COUNT_HW_INSTRUCTIONS, 1, 0);
	ASSERT_EQ(0, pc_hw_loop_task(N));
	int last = EVENTS - 1;
	ASSERT_NE(0, pc_read_count(fds[last], &v));
	close(fds[0]);
	fds[0] = -1;
	ASSERT_EQ(0, pc_enable(fds[last]));
	ASSERT_EQ(0, pc_disable(fds[last]));
	ASSERT_EQ(0, pc_reset(fds[last]));
	ASSERT_EQ(0, pc_read_count(fds[last], &v)) TH_LOG("still in error state: %s", pc_errno_name(errno));
	EXPECT_EQ(0, v);
	ASSERT_EQ(0, pc_hw_loop_fd(fds[last], 0, N));
	ASSERT_EQ(0, pc_read_count(fds[last], &v));
	EXPECT_LE(pc_hw_loop_insns(N), v);
	EXPECT_GE(pc_hw_loop_insns(N) + 1, v);
	close_all(fds);
}

/*
 * Flexible events beyond the counters: every read returns a value and
 * times; those that ran the whole time counted the exact loop, and no more
 * of them ran at once than pinned ones count.
 */
TEST(flexible_extras_read_normally)
{
	int fds[EVENTS];
	uint64_t buf[3];
	int full = 0;

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(PERF_COUNT_HW_INSTRUCTIONS);
	REQUIRE_HW_LOOP();
	uint64_t expected = count_alone(_metadata, PERF_COUNT_HW_INSTRUCTIONS);
	int counters = pinned_counting(_metadata, PERF_COUNT_HW_INSTRUCTIONS, expected);

	open_all(_metadata, fds, PERF_COUNT_HW_INSTRUCTIONS, 0, TIMES);
	ASSERT_EQ(0, pc_hw_loop_task(N));
	for (int i = 0; i < EVENTS; i++) {
		ASSERT_EQ(sizeof(buf), read(fds[i], buf, sizeof(buf))) TH_LOG("event %d", i);
		EXPECT_GE(buf[1], buf[2]) TH_LOG("event %d: running longer than enabled", i);
		if (buf[1] == buf[2]) {
			EXPECT_EQ(expected, buf[0]) TH_LOG("event %d", i);
			full++;
		}
	}
	EXPECT_GE(counters, full);
	close_all(fds);
}

TEST_HARNESS_MAIN
