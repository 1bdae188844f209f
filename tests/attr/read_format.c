// SPDX-License-Identifier: GPL-2.0
/*
 * read_format: "This field specifies the format of the data returned by
 * read(2) on a perf_event_open() file descriptor." Without
 * PERF_FORMAT_GROUP a read returns { value, time_enabled?, time_running?,
 * id?, lost? }; with it { nr, time_enabled?, time_running?, { value, id?,
 * lost? }[nr] }, the leader first. "If you attempt to read into a buffer
 * that is not big enough to hold the data, the error ENOSPC results."
 *
 * - TOTAL_TIME_ENABLED/RUNNING: the time the event was enabled and on the
 *   CPU; a software event runs whenever it is enabled, so they are equal.
 * - ID: "a globally unique value for this particular event", the value
 *   PERF_EVENT_IOC_ID returns.
 * - LOST (since 6.0): the samples the event could not write; with the ring
 *   full, the samples in it plus the lost ones are all it took.
 * Any other bit is refused with EINVAL ("read_format is out of range").
 *
 * Measured with page faults: n fresh pages are exactly n faults, all minor.
 */

#include "perfconf.h"
#include "work/mapping.h"
#include "work/clock.h"

#define N 64
#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define LOST_BIT (1ULL << 4)	/* PERF_FORMAT_LOST, in the table since 6.0 */

static int open_faults(uint64_t config, uint64_t read_format, int group_fd)
{
	struct perfconf_attr attr = pc_attr_sw(config);

	attr.read_format = read_format;
	attr.disabled = group_fd < 0;
	return pc_open(&attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* Is PERF_FORMAT_LOST known to this kernel? */
static bool lost_accepted(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.read_format = LOST_BIT;
	return pc_open_errno(&attr, 0, -1, -1, 0) == 0;
}

/* read(2) the event: exactly the documented size for nr events, decoded. */
static void read_values(struct __test_metadata *_metadata, int fd, uint64_t rf, unsigned int nr,
			struct pc_read_values *v)
{
	uint64_t buf[64];
	const char *err;
	size_t size = pc_read_values_size(rf, nr);

	memset(v, 0, sizeof(*v));
	ASSERT_EQ(size, read(fd, buf, sizeof(buf))) TH_LOG("read_format %#llx", (unsigned long long)rf);
	ASSERT_EQ(size, pc_read_values_decode(rf, buf, size, v, &err)) TH_LOG("%s", err);
}

/* Each combination of the bits that apply to one event: its size, its fields in their places. */
TEST(every_single_event_layout)
{
	uint64_t bits = TIMES | PERF_FORMAT_ID | (lost_accepted() ? LOST_BIT : 0);

	pc_work_page_faults(1);
	for (uint64_t rf = 0; rf <= bits; rf++) {
		struct pc_read_values v;

		if (rf & ~bits)
			continue;
		struct pc_perf_clock clk;
		int fd = open_faults(PERF_COUNT_SW_PAGE_FAULTS, rf, -1);
		ASSERT_OPEN(fd);
		ASSERT_EQ(0, pc_perf_clock_open(&clk));
		ASSERT_EQ(0, pc_enable(fd));
		pc_work_page_faults(N);
		ASSERT_EQ(0, pc_perf_clock_wait(&clk));	/* time must pass (work/clock.h) */
		ASSERT_EQ(0, pc_disable(fd));
		pc_perf_clock_close(&clk);
		read_values(_metadata, fd, rf, 1, &v);
		EXPECT_EQ(N, v.values[0].value) TH_LOG("read_format %#llx", (unsigned long long)rf);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) {
			EXPECT_LT(0, v.time_enabled);
		}
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) {
			EXPECT_LT(0, v.time_running);
		}
		if ((rf & TIMES) == TIMES) {
			EXPECT_EQ(v.time_enabled, v.time_running);
		}
		if (rf & PERF_FORMAT_ID) {
			EXPECT_EQ(pc_event_id(fd), v.values[0].id);
		}
		if (rf & LOST_BIT) {
			EXPECT_EQ(0, v.values[0].lost);
		}
		close(fd);
	}
}

/* Never enabled, no time has passed for the event; IDs differ between events. */
TEST(times_and_ids_of_idle_events)
{
	const uint64_t rf = TIMES | PERF_FORMAT_ID;
	struct pc_read_values a, b;
	int fa = open_faults(PERF_COUNT_SW_PAGE_FAULTS, rf, -1);
	int fb = open_faults(PERF_COUNT_SW_PAGE_FAULTS, rf, -1);

	ASSERT_OPEN(fa);
	ASSERT_OPEN(fb);
	pc_work_loop(100000);
	read_values(_metadata, fa, rf, 1, &a);
	read_values(_metadata, fb, rf, 1, &b);
	EXPECT_EQ(0, a.time_enabled);
	EXPECT_EQ(0, a.time_running);
	EXPECT_NE(a.values[0].id, b.values[0].id);
	EXPECT_EQ(pc_event_id(fa), a.values[0].id);
	EXPECT_EQ(pc_event_id(fb), b.values[0].id);
	close(fb);
	close(fa);
}

/*
 * A leader and two siblings read as a group: nr = 3, the leader first,
 * then the siblings as they were added, each with its own id. The leader
 * read without PERF_FORMAT_GROUP gives its own value alone.
 */
TEST(group_layout)
{
	const uint64_t rf = PERF_FORMAT_GROUP | TIMES | PERF_FORMAT_ID |
			    (lost_accepted() ? LOST_BIT : 0);
	struct pc_read_values v;
	int fds[3];

	pc_work_page_faults(1);
	fds[0] = open_faults(PERF_COUNT_SW_PAGE_FAULTS, rf, -1);
	ASSERT_OPEN(fds[0]);
	fds[1] = open_faults(PERF_COUNT_SW_PAGE_FAULTS_MIN, rf, fds[0]);
	ASSERT_OPEN(fds[1]);
	fds[2] = open_faults(PERF_COUNT_SW_PAGE_FAULTS_MAJ, 0, fds[0]);
	ASSERT_OPEN(fds[2]);
	struct pc_perf_clock clk;
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	ASSERT_EQ(0, pc_enable(fds[0]));
	pc_work_page_faults(N);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));	/* time must pass (work/clock.h) */
	ASSERT_EQ(0, pc_disable(fds[0]));
	pc_perf_clock_close(&clk);

	read_values(_metadata, fds[0], rf, 3, &v);
	ASSERT_EQ(3, v.nr);
	EXPECT_LT(0, v.time_enabled);
	EXPECT_EQ(v.time_enabled, v.time_running);
	const uint64_t expected[3] = { N, N, 0 };
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(expected[i], v.values[i].value) TH_LOG("member %d", i);
		EXPECT_EQ(pc_event_id(fds[i]), v.values[i].id) TH_LOG("member %d", i);
		EXPECT_EQ(0, v.values[i].lost);
	}
	/* Through a sibling's fd, the same group, leader first. */
	struct pc_read_values w;
	read_values(_metadata, fds[1], rf, 3, &w);
	ASSERT_EQ(3, w.nr);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(v.values[i].id, w.values[i].id) TH_LOG("member %d", i);
	}
	/* A sibling without GROUP reads alone. */
	uint64_t alone[2];
	EXPECT_EQ(8, read(fds[2], alone, sizeof(alone)));
	EXPECT_EQ(0, alone[0]);
	for (int i = 2; i >= 0; i--)
		close(fds[i]);
}

/*
 * One byte short of the layout's size is ENOSPC, grouped or not. A group
 * read needs room for every member: with two siblings, the size of a
 * one-member group is short, through the leader and through a sibling.
 * (tests/errors/read.c tries every read_format with one to three members.)
 */
TEST(short_buffer_is_enospc)
{
	const uint64_t formats[] = { 0, TIMES | PERF_FORMAT_ID, PERF_FORMAT_GROUP | PERF_FORMAT_ID };
	uint64_t buf[16];

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		int fd = open_faults(PERF_COUNT_SW_PAGE_FAULTS, formats[i], -1);

		ASSERT_OPEN(fd);
		size_t size = pc_read_values_size(formats[i], 1);
		EXPECT_EQ(-1, read(fd, buf, size - 1));
		EXPECT_ERRNO(ENOSPC, errno) TH_LOG("read_format %#llx", (unsigned long long)formats[i]);
		EXPECT_EQ(size, read(fd, buf, size));
		close(fd);
	}

	const uint64_t rf = PERF_FORMAT_GROUP | TIMES | PERF_FORMAT_ID;
	const size_t one = pc_read_values_size(rf, 1), three = pc_read_values_size(rf, 3);
	int fds[3];

	fds[0] = open_faults(PERF_COUNT_SW_PAGE_FAULTS, rf, -1);
	ASSERT_OPEN(fds[0]);
	fds[1] = open_faults(PERF_COUNT_SW_PAGE_FAULTS_MIN, rf, fds[0]);
	ASSERT_OPEN(fds[1]);
	fds[2] = open_faults(PERF_COUNT_SW_PAGE_FAULTS_MAJ, rf, fds[0]);
	ASSERT_OPEN(fds[2]);
	for (int m = 0; m < 3; m += 2) {
		struct pc_read_values v;
		const char *err = NULL;

		memset(buf, 0xa5, sizeof(buf));
		EXPECT_EQ(-1, read(fds[m], buf, one)) TH_LOG("member %d, room for one member", m);
		EXPECT_ERRNO(ENOSPC, errno) TH_LOG("member %d, room for one member", m);
		EXPECT_EQ(-1, read(fds[m], buf, three - 1)) TH_LOG("member %d, one byte short", m);
		EXPECT_ERRNO(ENOSPC, errno) TH_LOG("member %d, one byte short", m);
		EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, buf[0]) TH_LOG("refused, yet written");
		/* The control: room for three reads three. */
		ASSERT_EQ((ssize_t)three, read(fds[m], buf, three)) TH_LOG("member %d", m);
		ASSERT_EQ((int)three, pc_read_values_decode(rf, buf, three, &v, &err)) TH_LOG("%s", err);
		EXPECT_EQ(3, v.nr);
		for (int i = 0; i < 3; i++) {
			EXPECT_EQ(pc_event_id(fds[i]), v.values[i].id) TH_LOG("member %d, id %d", m, i);
		}
	}
	for (int i = 2; i >= 0; i--)
		close(fds[i]);
}

/*
 * PERF_FORMAT_LOST (since 6.0, pinned): page-fault samples into a ring of
 * one page, never read until the end. Every fault is a sample; those that
 * did not fit are the lost count.
 */
TEST(lost_counts_samples_that_did_not_fit)
{
	const uint64_t rf = LOST_BIT | PERF_FORMAT_ID;
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
							PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	struct pc_read_values v;
	struct pc_capture cap;
	const size_t FAULTS = pc_scaled_to_page(512);	/* more than one data page holds */

	attr.read_format = rf;
	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	pc_observe_errno("errno", err);
	if (err)
		SKIP(return, "PERF_FORMAT_LOST refused (%s)", pc_errno_name(err));
	attr.exclude_kernel = 1;
	ASSERT_ERRNO(0, -pc_capture_open_pages(&cap, &attr, 0, -1, 0));
	pc_work_page_faults(1);
	ASSERT_EQ(0, pc_enable(cap.fd));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, pc_disable(cap.fd));
	read_values(_metadata, cap.fd, rf, 1, &v);
	ASSERT_CAPTURE_READ(&cap);

	size_t kept = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	EXPECT_EQ(FAULTS, v.values[0].value);
	EXPECT_LT(0, v.values[0].lost);
	EXPECT_EQ(FAULTS, kept + v.values[0].lost)
		TH_LOG("%zu samples kept, %llu lost", kept, (unsigned long long)v.values[0].lost);
	pc_capture_close(&cap);
}

/* Every bit past those the ABI defines is refused. */
TEST(unknown_bits_refused)
{
	uint64_t known = 0;

	for (size_t i = 0; i < pc_abi_read_format_bits_count; i++)
		known |= 1ULL << pc_abi_read_format_bits[i].bit;
	for (unsigned int bit = 0; bit < 64; bit++) {
		struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

		if (known & (1ULL << bit))
			continue;
		attr.read_format = 1ULL << bit;
		EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("bit %u", bit);
	}
}

TEST_HARNESS_MAIN
