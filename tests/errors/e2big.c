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
 */
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

TEST_HARNESS_MAIN
