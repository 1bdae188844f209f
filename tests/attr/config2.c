// SPDX-License-Identifier: GPL-2.0
/*
 * config2 (since 2.6.39) "is a further extension of the config1 field",
 * encoded as the PMU's format/ entries say ("config2:..."). It shares a
 * union with bp_len, kprobe_addr and probe_offset: the breakpoint PMU
 * reads it as the length. It came with PERF_ATTR_SIZE_VER1 (72 bytes): an
 * attr of size VER0 (64) ends before it, so the kernel reads it as zero.
 * An event whose PMU gives it no meaning (software, tracepoint) ignores it.
 */
#include <linux/hw_breakpoint.h>

#define FIELD		config2
#define FIELD_WORD	2
#define FIELD_PATTERN	0xa5a5a5a5a5a5a5a5ULL
#include "config_word.h"

static volatile uint64_t watched;

/* A write watchpoint on `watched` with its length in config2, the attr `size` bytes long. */
static int open_watchpoint(uint64_t config2, uint32_t size)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_BREAKPOINT, 0);

	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (uintptr_t)&watched;
	attr.config2 = config2;
	attr.size = size;
	return pc_open(&attr, 0, -1, -1, 0);
}

static uint64_t writes_counted(int fd)
{
	uint64_t count = UINT64_MAX;

	if (pc_enable(fd) == 0) {
		for (int i = 0; i < N; i++)
			pc_work_touch(&watched);
		pc_disable(fd);
		pc_read_count(fd, &count);
	}
	return count;
}

/* The breakpoint PMU reads config2 as bp_len: 0 is no length (EINVAL), 8 watches the u64. */
TEST(breakpoint_reads_it_as_the_length)
{
	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	REQUIRE_PMU("breakpoint");
	int fd = open_watchpoint(0, PC_ATTR_SIZE_NEWEST);
	EXPECT_GT(0, fd);
	EXPECT_ERRNO(EINVAL, pc_last_open_errno());
	if (fd >= 0)
		close(fd);

	fd = open_watchpoint(sizeof(watched), PC_ATTR_SIZE_NEWEST);
	ASSERT_OPEN(fd);
	EXPECT_EQ(N, writes_counted(fd));
	close(fd);
}

/*
 * With attr.size = PERF_ATTR_SIZE_VER0 the kernel does not read config2:
 * a watchpoint whose length is there is refused as one of length 0, while
 * the same attr of size VER1 opens, and of size VER1 with config2 = 0 is
 * refused again: the length the kernel saw decides. The breakpoint PMU
 * checks the length when the event is opened, so no breakpoint has to
 * fire (whether one counts is breakpoint_reads_it_as_the_length's subject).
 */
TEST(size_ver0_ends_before_config2)
{
	REQUIRE_PMU("breakpoint");
	int fd = open_watchpoint(sizeof(watched), PC_ATTR_SIZE_VER0);
	EXPECT_GT(0, fd) TH_LOG("config2 read past attr.size");
	EXPECT_ERRNO(EINVAL, pc_last_open_errno());
	if (fd >= 0)
		close(fd);

	fd = open_watchpoint(sizeof(watched), PC_ATTR_SIZE_VER1);
	ASSERT_OPEN(fd);	/* size VER1 covers config2 */
	close(fd);

	fd = open_watchpoint(0, PC_ATTR_SIZE_VER1);
	EXPECT_GT(0, fd) TH_LOG("a zero bp_len in config2 accepted");
	EXPECT_ERRNO(EINVAL, pc_last_open_errno());
	if (fd >= 0)
		close(fd);
}

FORMATS_IN_FIELD_CASE

TEST_HARNESS_MAIN
