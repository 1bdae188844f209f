// SPDX-License-Identifier: GPL-2.0
/*
 * bp_len (since 2.6.33) "is the length of the breakpoint being measured
 * if type is PERF_TYPE_BREAKPOINT. Options are HW_BREAKPOINT_LEN_1,
 * HW_BREAKPOINT_LEN_2, HW_BREAKPOINT_LEN_4, and HW_BREAKPOINT_LEN_8. For an
 * execution breakpoint, set this to sizeof(long)."
 *
 * A watchpoint of length n on an address aligned to n covers exactly those
 * n bytes: a write to each counts, the bytes on either side do not. No
 * length is EINVAL, and so is a length that is neither a power of two nor
 * at most 8. The uapi also names lengths 3, 5, 6 and 7 (arm64 can watch
 * any bytes of a granule; x86 cannot) and x86 AMD CPUs with BPEXT take
 * power-of-two ranges beyond 8: what this machine accepts is pinned, and
 * whatever is accepted covers exactly its bytes.
 */
#include <linux/hw_breakpoint.h>

#include "perfconf.h"
#include "work/measure.h"

static volatile uint8_t area[2 * 4096] __attribute__((aligned(4096)));
#define BASE 4096	/* watched ranges start here: bytes on both sides are ours */

static noinline __attribute__((noipa)) void store_byte(volatile uint8_t *p)
{
	*p = (uint8_t)(*p + 1);
}

static int open_watchpoint(uint64_t len)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_W, &area[BASE], len);

	return pc_open(&attr, 0, -1, -1, 0);
}

/* Writes counted while storing once to each byte at the offsets (from BASE) given. */
static uint64_t writes_at(int fd, const long *offsets, size_t n)
{
	uint64_t count = UINT64_MAX;

	if (pc_reset(fd) || pc_enable(fd))
		return UINT64_MAX;
	for (size_t i = 0; i < n; i++)
		store_byte(&area[BASE + offsets[i]]);
	pc_disable(fd);
	pc_read_count(fd, &count);
	return count;
}


/* Every byte inside counts once; the byte before and the byte after do not. */
static void check_covers_exactly(struct __test_metadata *_metadata, int fd, uint64_t len)
{
	long inside[8], outside[2] = { -1, (long)len };
	size_t n = 0;

	if (len <= 8) {
		for (uint64_t i = 0; i < len; i++)
			inside[n++] = (long)i;
	} else {
		inside[n++] = 0;
		inside[n++] = (long)len - 1;
	}
	EXPECT_EQ(n, writes_at(fd, inside, n)) TH_LOG("bp_len %llu: writes inside the range",
						      (unsigned long long)len);
	EXPECT_EQ(0, writes_at(fd, outside, 2)) TH_LOG("bp_len %llu: writes just outside the range",
						       (unsigned long long)len);
}

/* Every case needs a breakpoint PMU. */
FIXTURE(global) {};

FIXTURE_SETUP(global)
{
	REQUIRE_PMU("breakpoint");
}

FIXTURE_TEARDOWN(global)
{
}

TEST_F(global, documented_lengths_cover_their_bytes)
{
	const uint64_t lens[] = { HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_LEN_2, HW_BREAKPOINT_LEN_4,
				  HW_BREAKPOINT_LEN_8 };

	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		int fd = open_watchpoint(lens[i]);

		ASSERT_LE(0, fd) TH_LOG("bp_len %llu: %s", (unsigned long long)lens[i], pc_errno_name(errno));
		check_covers_exactly(_metadata, fd, lens[i]);
		close(fd);
	}
}

TEST_F(global, zero_is_einval)
{
	int fd = open_watchpoint(0);
	EXPECT_GT(0, fd);
	EXPECT_ERRNO(EINVAL, pc_last_open_errno());
	if (fd >= 0)
		close(fd);
}

/* Neither a power of two nor a granule length: no arch takes it. */
TEST_F(global, odd_lengths_above_8_are_einval)
{
	const uint64_t lens[] = { 9, 12, 24, 4095 };

	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		int fd = open_watchpoint(lens[i]);

		EXPECT_GT(0, fd) TH_LOG("bp_len %llu accepted", (unsigned long long)lens[i]);
		if (fd >= 0)
			close(fd);
		else
			EXPECT_ERRNO(EINVAL, errno) TH_LOG("bp_len %llu", (unsigned long long)lens[i]);
	}
}

/* The uapi's 3, 5, 6 and 7, and power-of-two ranges: pinned; if accepted, exact. */
TEST_F(global, other_lengths)
{
	const uint64_t lens[] = { 3, 5, 6, 7, 16, 64, 4096 };

	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		char key[16];
		int fd = open_watchpoint(lens[i]);
		int err = fd < 0 ? errno : 0;

		snprintf(key, sizeof(key), "len.%llu", (unsigned long long)lens[i]);
		pc_observe_errno(key, err);
		if (fd < 0) {
			EXPECT_TRUE(err == EINVAL || err == EOPNOTSUPP)
				TH_LOG("bp_len %llu: %s", (unsigned long long)lens[i], pc_errno_name(err));
			continue;
		}
		check_covers_exactly(_metadata, fd, lens[i]);
		close(fd);
	}
}

/* An execute breakpoint takes sizeof(long), as the man page says to set it. */
TEST_F(global, execute_takes_sizeof_long)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_BREAKPOINT, 0);

	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	attr.bp_type = HW_BREAKPOINT_X;
	attr.bp_addr = (uintptr_t)pc_work_target;
	attr.bp_len = sizeof(long);
	ASSERT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
	EXPECT_EQ(21, pc_count_of_work(&attr, pc_calls_work, PC_N(21)));
}

TEST_HARNESS_MAIN
