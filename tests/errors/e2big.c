// SPDX-License-Identifier: GPL-2.0
/*
 * E2BIG from perf_event_open(): attr.size is one the kernel will not take.
 * It is too small when it lies below the first published layout
 * (PERF_ATTR_SIZE_VER0, 64 bytes; 0 alone is read as that size), too big
 * when it exceeds a page, and too big as well when it exceeds the kernel's
 * own struct and any byte beyond the kernel's struct is non-zero. On every
 * such refusal the kernel stores the size of the struct it knows into
 * attr.size, so that the caller can learn it.
 *
 * In kernel/events/core.c (6.12) perf_copy_attr() maps size 0 to VER0
 * (line 12541), sends sizes below VER0 or above PAGE_SIZE to err_size
 * (line 12543), turns copy_struct_from_user()'s E2BIG for a non-zero tail
 * into err_size too (line 12548), and err_size writes sizeof(*attr) back
 * with put_user() (line 12648). 5.10 is the same (copy_struct_from_user
 * since 5.4). tests/attr/size_too_big.c and size_too_small.c look at the
 * size field in depth; this binary owns the errno, each cause beside its
 * control.
 *
 * E2BIG has one more cause, which the man page does not name: a group too
 * big to read. An event joins a group only while the read(2) size of
 * every member, counted with the newcomer, stays within 16 KiB, so that a
 * READ record fits in a sample: perf_event_validate_size() (line 2010)
 * checks the newcomer's own read_format, the leader's and each sibling's
 * with nr_siblings + 2 members, and perf_event_open() answers E2BIG
 * (line 13106). The boundary is exact: for each read_format the group of
 * the most members whose size is at most 16384 bytes opens, one more is
 * refused (`members` is pinned). A sibling that does not read as a group
 * is refused too when the leader's own group read would pass the limit
 * (382c27f4ed28, v6.7; before it only the newcomer's size was checked,
 * and with the record header counted in: a bound 8 bytes lower). Where no
 * member reads as a group the size never grows: the control.
 */
#include <stdlib.h>

#include "perfconf.h"

static uint32_t page_size(void)
{
	return (uint32_t)sysconf(_SC_PAGESIZE);
}

/*
 * Open from a page-sized buffer that claims `size` bytes and holds one
 * non-zero byte at offset `dirty` (0: none). The errno (0 if it opened);
 * *after is attr.size as the kernel left it.
 */
static int open_sized(uint32_t size, uint32_t dirty, uint32_t *after)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	unsigned char *page = pc_attr_page(&attr, size);

	if (!page)
		return ENOMEM;
	if (dirty)
		page[dirty] = 0x5a;
	int err = pc_open_raw_errno(page);
	*after = pc_attr_page_size(page);
	free(page);
	return err;
}

TEST(nonzero_byte_past_kernel_struct_is_e2big)
{
	uint32_t kernel_size = pc_attr_kernel_size(), after = 0;

	ASSERT_NE(0, kernel_size);
	EXPECT_ERRNO(E2BIG, open_sized(kernel_size + 8, kernel_size, &after));
	EXPECT_EQ(kernel_size, after) TH_LOG("the kernel wrote back %u", after);
	EXPECT_LE(PC_ATTR_SIZE_VER0, after);
	EXPECT_EQ(0, after % 8);
}

/* The control: the same oversized attr with only zeros past the kernel's struct. */
TEST(zero_bytes_past_kernel_struct_open)
{
	uint32_t kernel_size = pc_attr_kernel_size(), after = 0;

	ASSERT_NE(0, kernel_size);
	EXPECT_ERRNO(0, open_sized(kernel_size + 8, 0, &after));
	EXPECT_EQ(kernel_size + 8, after) TH_LOG("a successful open rewrote attr.size");
}

FIXTURE(below_ver0) {};
FIXTURE_SETUP(below_ver0) {}
FIXTURE_TEARDOWN(below_ver0) {}
FIXTURE_VARIANT(below_ver0) {
	uint32_t size;
};
FIXTURE_VARIANT_ADD(below_ver0, one) { .size = 1 };
FIXTURE_VARIANT_ADD(below_ver0, ver0_minus_8) { .size = PC_ATTR_SIZE_VER0 - 8 };
FIXTURE_VARIANT_ADD(below_ver0, ver0_minus_1) { .size = PC_ATTR_SIZE_VER0 - 1 };

TEST_F(below_ver0, size_below_ver0_is_e2big)
{
	uint32_t kernel_size = pc_attr_kernel_size(), after = 0;

	ASSERT_NE(0, kernel_size);
	EXPECT_ERRNO(E2BIG, open_sized(variant->size, 0, &after)) TH_LOG("size %u", variant->size);
	EXPECT_EQ(kernel_size, after);
}

/* The controls: VER0 itself opens, and so does 0, which the kernel reads as VER0. */
TEST(ver0_and_zero_size_open)
{
	uint32_t after = 0;

	EXPECT_ERRNO(0, open_sized(PC_ATTR_SIZE_VER0, 0, &after));
	EXPECT_EQ(PC_ATTR_SIZE_VER0, after);
	EXPECT_ERRNO(0, open_sized(0, 0, &after));
	EXPECT_EQ(0, after) TH_LOG("a successful open rewrote attr.size");
}

TEST(size_above_page_is_e2big)
{
	uint32_t kernel_size = pc_attr_kernel_size(), after = 0;

	ASSERT_NE(0, kernel_size);
	EXPECT_ERRNO(E2BIG, open_sized(page_size() + 1, 0, &after));
	EXPECT_EQ(kernel_size, after);
}

/* The control: exactly a page, all zeros past the attr, opens. */
TEST(size_of_a_page_opens)
{
	uint32_t after = 0;

	EXPECT_ERRNO(0, open_sized(page_size(), 0, &after));
	EXPECT_EQ(page_size(), after);
}

/* Room for the largest group below: every member reading 8 bytes, plus one. */
#define GROUP_FDS 2100
#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static int group_fds[GROUP_FDS];

/* A page-fault counter (any software event would do) reading with read_format. */
static struct perfconf_attr reading(uint64_t read_format)
{
	struct perfconf_attr attr = pc_attr_user_faults();

	attr.read_format = read_format;
	return attr;
}

FIXTURE(read_size) {};
FIXTURE_VARIANT(read_size) {
	uint64_t read_format;
};
/* 8 + 8 * nr: 2047 members read exactly 16384 bytes. */
FIXTURE_VARIANT_ADD(read_size, group) { .read_format = PERF_FORMAT_GROUP };
/* 8 + 16 * nr: 1023 members read 16376. */
FIXTURE_VARIANT_ADD(read_size, group_id) { .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID };
/* 24 + 16 * nr: 1022 members read 16376 (perf_event_tests' huge_group_start reads so). */
FIXTURE_VARIANT_ADD(read_size, group_times_id) {
	.read_format = PERF_FORMAT_GROUP | TIMES | PERF_FORMAT_ID,
};
FIXTURE_SETUP(read_size)
{
	REQUIRE_NOFILE(GROUP_FDS + 64);
}
FIXTURE_TEARDOWN(read_size) {}

/*
 * Members join while the group's read size stays within 16 KiB; the one
 * that would take it past is E2BIG. The control: the last one that
 * joined, closed and opened again, joins again.
 */
TEST_F(read_size, past_16k_is_e2big)
{
	struct perfconf_attr attr = reading(variant->read_format);
	unsigned int max = pc_read_values_max_nr(variant->read_format);
	int err, n;

	ASSERT_GT(GROUP_FDS, max);
	n = pc_group_open(&attr, &attr, 0, -1, group_fds, (int)max + 1, &err);
	pc_observe("members", "%d", n);
	EXPECT_EQ((int)max, n) TH_LOG("%d members joined; %u read %zu bytes, %u would read %zu", n, max,
				      pc_read_values_size(variant->read_format, max), max + 1,
				      pc_read_values_size(variant->read_format, max + 1));
	EXPECT_ERRNO(E2BIG, err) TH_LOG("member %d", n + 1);
	if (n > 1 && n <= (int)max) {
		close(group_fds[n - 1]);
		group_fds[n - 1] = pc_open(&attr, 0, -1, group_fds[0], PERF_FLAG_FD_CLOEXEC);
		EXPECT_LE(0, group_fds[n - 1]) TH_LOG("the control, member %d again: %s", n,
						      pc_errno_name(pc_last_open_errno()));
		EXPECT_ERRNO(E2BIG, pc_open_errno(&attr, 0, -1, group_fds[0], 0)) TH_LOG("member %d again", n + 1);
	}
	pc_group_close(group_fds, n);
}

/*
 * Siblings that read alone (read_format 0: 8 bytes each, whatever the
 * group) under a leader that reads the group with ID: the sibling that
 * would take the leader's read past 16 KiB is E2BIG although its own read
 * stays 8 bytes (382c27f4ed28). Its read still works at the limit: the
 * group's 16376 bytes.
 */
TEST(sibling_past_the_leaders_16k_is_e2big)
{
	const uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	struct perfconf_attr leader = reading(rf), sibling = reading(0);
	unsigned int max = pc_read_values_max_nr(rf);
	int err, n;

	REQUIRE_NOFILE(GROUP_FDS + 64);
	n = pc_group_open(&leader, &sibling, 0, -1, group_fds, (int)max + 1, &err);
	pc_observe("members", "%d", n);
	EXPECT_EQ((int)max, n) TH_LOG("%d members joined a leader whose read of %u is %zu bytes", n, max,
				      pc_read_values_size(rf, max));
	EXPECT_ERRNO(E2BIG, err) TH_LOG("member %d", n + 1);
	if (n == (int)max) {
		size_t size = pc_read_values_size(rf, max);
		uint64_t *buf = calloc(1, size + 64);

		ASSERT_NE(NULL, buf);
		EXPECT_EQ((ssize_t)size, read(group_fds[0], buf, size + 64));
		EXPECT_EQ(max, buf[0]);
		EXPECT_EQ(8, read(group_fds[1], buf, size + 64)) TH_LOG("a sibling reads alone");
		free(buf);
	}
	pc_group_close(group_fds, n);
}

/* The control: no member reads as a group, so as many join as the ID-reading leader took, and more. */
TEST(siblings_of_a_leader_without_group_format_open)
{
	struct perfconf_attr attr = reading(0);
	unsigned int max = pc_read_values_max_nr(PERF_FORMAT_GROUP | PERF_FORMAT_ID);
	int err, n;

	REQUIRE_NOFILE(GROUP_FDS + 64);
	n = pc_group_open(&attr, &attr, 0, -1, group_fds, (int)max + 2, &err);
	EXPECT_EQ((int)max + 2, n) TH_LOG("refused at member %d: %s", n + 1, pc_errno_name(err));
	pc_group_close(group_fds, n);
}

TEST_HARNESS_MAIN
