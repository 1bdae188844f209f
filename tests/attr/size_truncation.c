// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel reads exactly attr.size bytes: fields past that size are never
 * seen, fields within it are. A reserved field that must be zero makes the
 * difference visible: __reserved_2 (at offset 110, within VER5) and the
 * flags word's __reserved_1 (within VER0).
 */
#include "perfconf.h"

static struct perfconf_attr cpu_clock(void)
{
	return pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
}

TEST(field_past_size_is_ignored)
{
	struct perfconf_attr attr = cpu_clock();

	attr.__reserved_2 = 1;
	attr.size = PC_ATTR_SIZE_VER4;	/* 104: ends before __reserved_2 */
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST(field_within_size_is_checked)
{
	struct perfconf_attr attr = cpu_clock();

	attr.__reserved_2 = 1;
	attr.size = PC_ATTR_SIZE_VER5;	/* 112: covers __reserved_2 */
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST(reserved_flag_bits_checked_at_ver0)
{
	struct perfconf_attr attr = cpu_clock();

	attr.__reserved_1 = 1;
	attr.size = PC_ATTR_SIZE_VER0;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 0));
}

/* A size that cuts a field in half: the kernel sees only its low bytes. */
TEST(partial_field_is_truncated)
{
	struct perfconf_attr attr = cpu_clock();

	/* __reserved_2 is bytes 110..111; a size of 110 leaves it out. */
	attr.__reserved_2 = 1;
	attr.size = 110;
	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	pc_observe_errno("size.110", err);
	EXPECT_ERRNO(0, err);
}

TEST_HARNESS_MAIN
