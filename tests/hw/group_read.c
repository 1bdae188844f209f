// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware events in a group "are scheduled onto the CPU as a unit": they
 * count the same interval, and with PERF_FORMAT_GROUP one read(2) of the
 * leader returns { nr, time_enabled, time_running, { value, id }[nr] }, the
 * leader first, each id the one PERF_EVENT_IOC_ID gives.
 *
 *  - instructions and cycles, either one leading: both run the whole
 *    time (time_running == time_enabled), instructions is the exact loop;
 *    whether cycles equals instructions is pinned (it does under qemu's
 *    -icount shift=0, where one instruction is one cycle);
 *  - the most members a group of one event takes is a count of the PMU's
 *    counters: the member past it is refused (pinned: how many, which errno);
 *  - a group that can never fit is not scheduled: it reads as
 *    time_running 0 (a leader opened disabled is not counted against the
 *    counters when its siblings open, so such a group can be built; whether
 *    it is, is pinned);
 *  - software events may join a hardware group, and a hardware event a
 *    software group (the group moves to the hardware context);
 *  - siblings opened enabled follow their leader: enabling and disabling
 *    the leader alone starts and stops them all at once. With
 *    PERF_IOC_FLAG_GROUP the disable turns every member off, and the
 *    enable that follows turns them on one after the other, leader first:
 *    the kernel's own instructions in between are counted by the leader
 *    only (pinned: `same_after_flag_group`);
 *  - a group read through a sibling's fd reads the whole group;
 *  - closing the leader does not close its siblings: each becomes an event
 *    of its own and, if it was active, goes on counting (perf_group_detach
 *    keeps it on the active list; tests/errors/close.c counts it exactly).
 *    A test here still reads every member before it closes any.
 */
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>

#include "perfconf.h"
#include "event/hw.h"

#define N 10000
#define FMT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | \
	     PERF_FORMAT_TOTAL_TIME_RUNNING)
#define MAX_MEMBERS 32

static int open_member(uint32_t type, uint64_t config, int group_fd)
{
	struct perfconf_attr attr = pc_attr(type, config);

	attr.exclude_kernel = 1;
	attr.read_format = FMT;
	attr.disabled = group_fd < 0;
	return pc_open(&attr, 0, -1, group_fd, 0);
}

/*
 * Two hardware events in a group: first leading (disabled), second
 * following; SKIP where the PMU or either event is not here.
 */
#define OPEN_HW_PAIR(first, second, leader, sibling) do { \
	REQUIRE_HW_PMU(); \
	REQUIRE_HW_EVENT(first); \
	REQUIRE_HW_EVENT(second); \
	REQUIRE_HW_LOOP(); \
	leader = open_member(PERF_TYPE_HARDWARE, first, -1); \
	ASSERT_OPEN(leader); \
	sibling = open_member(PERF_TYPE_HARDWARE, second, leader); \
	ASSERT_OPEN(sibling); \
} while (0)

static void read_group(struct __test_metadata *_metadata, int leader, unsigned int nr,
		       struct pc_read_values *v)
{
	uint64_t buf[64];
	const char *err;
	size_t size = pc_read_values_size(FMT, nr);

	memset(v, 0, sizeof(*v));
	ASSERT_EQ(size, read(leader, buf, sizeof(buf)));
	ASSERT_EQ(size, pc_read_values_decode(FMT, buf, size, v, &err)) TH_LOG("%s", err);
	ASSERT_EQ(nr, v->nr);
}

static uint64_t event_id(int fd)
{
	uint64_t id = 0;

	return ioctl(fd, PERF_EVENT_IOC_ID, &id) ? 0 : id;
}

/* A user-mode instructions count of the loop: exact, or one more (the trapping svc). */
static void expect_loop_insns(struct __test_metadata *_metadata, uint64_t insns)
{
	EXPECT_LE(pc_hw_loop_insns(N), insns);
	EXPECT_GE(pc_hw_loop_insns(N) + 1, insns);
}

/* first leads, second follows: read together, both ran all the time. */
static void pair(struct __test_metadata *_metadata, uint64_t first, uint64_t second)
{
	struct pc_read_values v;
	int leader, sibling;

	OPEN_HW_PAIR(first, second, leader, sibling);
	ASSERT_EQ(0, pc_hw_loop_fd(leader, 0, N));
	read_group(_metadata, leader, 2, &v);
	EXPECT_EQ(event_id(leader), v.values[0].id);
	EXPECT_EQ(event_id(sibling), v.values[1].id);
	EXPECT_LT(0, v.time_enabled);
	EXPECT_EQ(v.time_enabled, v.time_running);

	uint64_t insns = v.values[first == PERF_COUNT_HW_INSTRUCTIONS ? 0 : 1].value;
	uint64_t cycles = v.values[first == PERF_COUNT_HW_CPU_CYCLES ? 0 : 1].value;
	expect_loop_insns(_metadata, insns);
	EXPECT_LT(0, cycles);
	pc_observe("cycles_eq_instructions", "%s", cycles == insns ? "yes" : "no");
	close(sibling);
	close(leader);
}

TEST(instructions_leads_cycles)
{
	pair(_metadata, PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES);
}

TEST(cycles_leads_instructions)
{
	pair(_metadata, PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS);
}

/*
 * An enabled leader and enabled siblings of one event until the kernel
 * refuses one: the group's size is the counters the event can use. Then
 * a group of exactly that size counts, every member the exact loop.
 */
static void fill(struct __test_metadata *_metadata, uint64_t config)
{
	int fds[MAX_MEMBERS];
	unsigned int n = 0;
	int err = 0;
	struct pc_read_values v;

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(config);
	REQUIRE_HW_LOOP();
	while (n < MAX_MEMBERS) {
		struct perfconf_attr attr = pc_attr_hw(config);

		attr.exclude_kernel = 1;
		attr.disabled = 0;
		fds[n] = pc_open(&attr, 0, -1, n ? fds[0] : -1, 0);
		if (fds[n] < 0) {
			err = errno;
			break;
		}
		n++;
	}
	for (unsigned int i = 0; i < n; i++)
		close(fds[i]);
	ASSERT_LT(0, n);
	ASSERT_GT(MAX_MEMBERS, n) TH_LOG("%u members and no refusal", n);
	pc_observe("members", "%u", n);
	pc_observe_errno("refused", err);
	EXPECT_TRUE(pc_hw_refusal_documented(err) || err == ENOSPC) TH_LOG("%s", pc_errno_name(err));

	/* That many, opened the usual way (leader disabled), count together. */
	for (unsigned int i = 0; i < n; i++) {
		fds[i] = open_member(PERF_TYPE_HARDWARE, config, i ? fds[0] : -1);
		ASSERT_OPEN(fds[i]);
	}
	ASSERT_EQ(0, pc_hw_loop_fd(fds[0], 0, N));
	read_group(_metadata, fds[0], n, &v);
	EXPECT_EQ(v.time_enabled, v.time_running);
	for (unsigned int i = 0; i < n; i++) {
		EXPECT_NE(0, v.values[i].value) TH_LOG("member %u", i);
		if (config == PERF_COUNT_HW_INSTRUCTIONS) {
			EXPECT_EQ(v.values[0].value, v.values[i].value) TH_LOG("member %u", i);
		}
		close(fds[i]);
	}
}

TEST(fill_with_instructions)
{
	fill(_metadata, PERF_COUNT_HW_INSTRUCTIONS);
}

TEST(fill_with_cycles)
{
	fill(_metadata, PERF_COUNT_HW_CPU_CYCLES);
}

/*
 * A disabled leader is not counted against the counters when siblings
 * join it: add enabled siblings until refused, then enable the group. If
 * it holds more events than the PMU has counters it never runs.
 */
TEST(oversized_group_never_runs)
{
	int fds[MAX_MEMBERS];
	unsigned int n = 1;
	struct pc_read_values v;

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(PERF_COUNT_HW_INSTRUCTIONS);
	REQUIRE_HW_LOOP();
	fds[0] = open_member(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, -1);
	ASSERT_OPEN(fds[0]);
	while (n < MAX_MEMBERS) {
		fds[n] = open_member(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, fds[0]);
		if (fds[n] < 0)
			break;
		n++;
	}
	ASSERT_GT(MAX_MEMBERS, n);
	pc_observe("members", "%u", n);
	ASSERT_EQ(0, pc_hw_loop_fd(fds[0], 0, N));
	read_group(_metadata, fds[0], n, &v);
	EXPECT_LT(0, v.time_enabled);
	pc_observe("runs", "%s", v.time_running ? "yes" : "no");
	if (v.time_running) {
		EXPECT_EQ(v.time_enabled, v.time_running);
		for (unsigned int i = 0; i < n; i++) {
			EXPECT_EQ(v.values[0].value, v.values[i].value) TH_LOG("member %u", i);
		}
	} else {
		for (unsigned int i = 0; i < n; i++) {
			EXPECT_EQ(0, v.values[i].value) TH_LOG("member %u", i);
		}
	}
	for (unsigned int i = 0; i < n; i++)
		close(fds[i]);
}

/*
 * Instructions and a software event (page faults: none in the loop) in one
 * group, the hardware event leading or following; the sibling's open is
 * pinned (`open`). A software leader that takes no hardware sibling
 * refuses it with a documented errno; one that takes it moves the group to
 * the PMU. The group counts the loop: instructions exactly, page faults
 * nothing.
 */
static void with_software(struct __test_metadata *_metadata, bool hw_leads)
{
	unsigned int hw = hw_leads ? 0 : 1;	/* the instructions member's place */
	struct pc_read_values v;
	int leader, sibling;

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(PERF_COUNT_HW_INSTRUCTIONS);
	REQUIRE_HW_LOOP();
	if (hw_leads) {
		leader = open_member(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, -1);
		ASSERT_OPEN(leader);
		sibling = open_member(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, leader);
	} else {
		leader = open_member(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, -1);
		ASSERT_OPEN(leader);
		sibling = open_member(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, leader);
	}
	int err = sibling < 0 ? errno : 0;
	pc_observe_errno("open", err);
	if (err && !hw_leads) {
		EXPECT_TRUE(pc_hw_refusal_documented(err)) TH_LOG("%s", pc_errno_name(err));
		close(leader);
		return;
	}
	ASSERT_OPEN(sibling);
	ASSERT_EQ(0, pc_hw_loop_fd(leader, 0, N));
	read_group(_metadata, leader, 2, &v);
	expect_loop_insns(_metadata, v.values[hw].value);
	EXPECT_EQ(0, v.values[!hw].value);
	close(sibling);
	close(leader);
}

TEST(software_sibling)
{
	with_software(_metadata, true);
}

TEST(hardware_sibling_of_software_leader)
{
	with_software(_metadata, false);
}

/* Two kernel-only instructions events; the gap shows in kernel-mode counts only. */
TEST(flag_group_reenable)
{
	uint64_t a, b;

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(PERF_COUNT_HW_INSTRUCTIONS);
	REQUIRE_HW_LOOP();
	struct perfconf_attr attr = pc_attr_hw(PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_user = 1;
	int leader = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(leader);
	attr.disabled = 0;
	int sibling = pc_open(&attr, 0, -1, leader, 0);
	ASSERT_OPEN(sibling);

	/* The leader alone: together. */
	ASSERT_EQ(0, pc_hw_loop_fd(leader, 0, N));
	ASSERT_EQ(0, pc_read_count(leader, &a));
	ASSERT_EQ(0, pc_read_count(sibling, &b));
	EXPECT_LT(0, a);
	EXPECT_EQ(a, b);

	/* With the flag twice: the second enable finds the sibling off. */
	for (int round = 0; round < 2; round++) {
		ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
		ASSERT_EQ(0, pc_hw_loop_fd(leader, PERF_IOC_FLAG_GROUP, N));
	}
	ASSERT_EQ(0, pc_read_count(leader, &a));
	ASSERT_EQ(0, pc_read_count(sibling, &b));
	EXPECT_LE(b, a);
	pc_observe("same_after_flag_group", "%s", a == b ? "yes" : "no");

	/* The sibling enabled on its own follows the leader again. */
	ASSERT_EQ(0, pc_enable(sibling));
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, pc_hw_loop_fd(leader, 0, N));
	ASSERT_EQ(0, pc_read_count(leader, &a));
	ASSERT_EQ(0, pc_read_count(sibling, &b));
	EXPECT_EQ(a, b);
	close(sibling);
	close(leader);
}

/*
 * A group read through a sibling's fd reads the whole group: PERF_FORMAT_GROUP
 * reads "all events in a group at once", so nr is 2 and the values carry
 * both members' ids, each with what a read of the leader gives (the
 * instructions member the exact loop). The man page states no order of the
 * values: which comes first is pinned (`first`; perf_read_group() starts
 * at event->group_leader, kernel/events/core.c:5762 in 6.12); `nr` stays
 * pinned beside the assertion.
 */
TEST(read_through_a_sibling)
{
	uint64_t buf[64];
	struct pc_read_values v, lv;
	const char *err;
	int leader, sibling;

	OPEN_HW_PAIR(PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES, leader, sibling);
	ASSERT_EQ(0, pc_hw_loop_fd(leader, 0, N));
	ssize_t len = read(sibling, buf, sizeof(buf));
	ASSERT_EQ(pc_read_values_size(FMT, 2), len);
	ASSERT_LE(0, pc_read_values_decode(FMT, buf, (size_t)len, &v, &err)) TH_LOG("%s", err);
	pc_observe("nr", "%llu", (unsigned long long)v.nr);
	pc_observe("first", "%s", v.values[0].id == event_id(leader) ? "leader" :
		   v.values[0].id == event_id(sibling) ? "sibling" : "other");
	ASSERT_EQ(2, v.nr) TH_LOG("a group of 2 read through its sibling");

	/* The same group through the leader, the group stopped: the same values, by id. */
	read_group(_metadata, leader, 2, &lv);
	EXPECT_LT(0, v.time_enabled);
	EXPECT_EQ(v.time_enabled, v.time_running);
	EXPECT_EQ(lv.time_enabled, v.time_enabled);
	EXPECT_EQ(lv.time_running, v.time_running);
	EXPECT_NE(v.values[0].id, v.values[1].id);
	for (unsigned int m = 0; m < 2; m++) {
		uint64_t id = event_id(m ? sibling : leader);
		int at = v.values[0].id == id ? 0 : v.values[1].id == id ? 1 : -1;
		int lat = lv.values[0].id == id ? 0 : lv.values[1].id == id ? 1 : -1;

		ASSERT_LE(0, at) TH_LOG("no value with the %s's id %llu", m ? "sibling" : "leader",
					(unsigned long long)id);
		ASSERT_LE(0, lat) TH_LOG("the leader's read has no id %llu", (unsigned long long)id);
		EXPECT_EQ(lv.values[lat].value, v.values[at].value) TH_LOG("member %u", m);
		if (!m)
			expect_loop_insns(_metadata, v.values[at].value);
		else
			EXPECT_LT(0, v.values[at].value);
	}
	close(sibling);
	close(leader);
}

/*
 * The sibling's own value in a group read of it, whatever the group now
 * holds; *nr the group's size, *len what read(2) returned.
 */
static uint64_t own_value(int fd, uint64_t *nr, ssize_t *len)
{
	uint64_t buf[64], id = event_id(fd);
	struct pc_read_values v;
	const char *err;

	*len = read(fd, buf, sizeof(buf));
	if (*len <= 0 || pc_read_values_decode(FMT, buf, (size_t)*len, &v, &err) < 0)
		return UINT64_MAX;
	*nr = v.nr;
	for (uint64_t i = 0; i < v.nr; i++)
		if (v.values[i].id == id)
			return v.values[i].value;
	return UINT64_MAX;
}

/*
 * Close the leader, sleep (scheduled out and in again), count a loop: the
 * sibling is a group of one now, and counts. A group read of it returns
 * the size of a group of one; the bytes read(2) returns are pinned
 * (`read_bytes`): a kernel that keeps the size the group had when the
 * sibling joined it returns the old size, zero-padded.
 */
TEST(siblings_outlive_the_leader)
{
	struct pc_hw_call none = { SYS_getppid, 0, 0, 0 };
	struct timespec ms = { 0, 1000000 };
	uint64_t before, after, nr = 0;
	ssize_t len;
	int leader, sibling;

	OPEN_HW_PAIR(PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_INSTRUCTIONS, leader, sibling);
	close(leader);
	ASSERT_EQ(0, nanosleep(&ms, NULL));
	before = own_value(sibling, &nr, &len);
	ASSERT_NE(UINT64_MAX, before) TH_LOG("read %zd bytes", len);
	EXPECT_EQ(1, nr);
	pc_observe("read_bytes", "%zd", len);
	EXPECT_EQ(pc_read_values_size(FMT, 1), len) TH_LOG("a group of %llu read as %zd bytes",
							(unsigned long long)nr, len);
	ASSERT_LT(0, pc_hw_loop_between(&none, &none, N));
	after = own_value(sibling, &nr, &len);
	ASSERT_NE(UINT64_MAX, after);
	EXPECT_LE(pc_hw_loop_insns(N), after - before) TH_LOG("%llu counted across the loop",
							     (unsigned long long)(after - before));
	close(sibling);
}

TEST_HARNESS_MAIN
