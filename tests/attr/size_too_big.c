// SPDX-License-Identifier: GPL-2.0
/*
 * E2BIG "Returned if the perf_event_attr size value is ... too big (larger
 * than the page size), or larger than the kernel supports and the extra
 * bytes are not zero. When E2BIG is returned, the perf_event_attr size
 * field is overwritten by the kernel to be the size of the structure it was
 * expecting." A larger size whose extra bytes are all zero is accepted.
 */
#include "perfconf.h"

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/*
 * Open with a page-sized buffer claiming `size` bytes, with one non-zero
 * byte at `dirty` (0: none). Returns the errno (0 if it opened) and the
 * size field as the kernel left it.
 */
static int open_big(uint32_t size, uint32_t dirty, uint32_t *size_after)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	unsigned char *page = pc_attr_page(&attr, size);

	if (dirty)
		page[dirty] = 0x5a;
	int err = pc_open_raw_errno(page);
	*size_after = pc_attr_page_size(page);
	free(page);
	return err;
}

TEST(larger_with_zero_tail_is_accepted)
{
	uint32_t kernel_size = pc_attr_kernel_size(), after;
	const uint32_t sizes[] = { kernel_size + 8, kernel_size + 64, (uint32_t)page_size() };

	ASSERT_NE(0, kernel_size);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		EXPECT_ERRNO(0, open_big(sizes[i], 0, &after))
			TH_LOG("size %u with a zero tail", sizes[i]);
		EXPECT_EQ(sizes[i], after) TH_LOG("a successful open rewrote attr.size");
	}
}

TEST(nonzero_tail_first_byte)
{
	uint32_t kernel_size = pc_attr_kernel_size(), after;

	ASSERT_NE(0, kernel_size);
	EXPECT_ERRNO(E2BIG, open_big(kernel_size + 8, kernel_size, &after));
	EXPECT_EQ(kernel_size, after);
}

TEST(nonzero_tail_last_byte)
{
	uint32_t kernel_size = pc_attr_kernel_size(), after;
	uint32_t size = (uint32_t)page_size();

	ASSERT_NE(0, kernel_size);
	EXPECT_ERRNO(E2BIG, open_big(size, size - 1, &after));
	EXPECT_EQ(kernel_size, after);
}

/* A non-zero byte past the claimed size is never read. */
TEST(byte_past_claimed_size_is_ignored)
{
	uint32_t kernel_size = pc_attr_kernel_size(), after;

	ASSERT_NE(0, kernel_size);
	EXPECT_ERRNO(0, open_big(kernel_size + 8, kernel_size + 8, &after));
}

TEST(larger_than_page)
{
	uint32_t kernel_size = pc_attr_kernel_size(), after;

	ASSERT_NE(0, kernel_size);
	EXPECT_ERRNO(E2BIG, open_big((uint32_t)page_size() + 8, 0, &after));
	EXPECT_EQ(kernel_size, after);
	EXPECT_ERRNO(E2BIG, open_big(UINT32_MAX, 0, &after));
	EXPECT_EQ(kernel_size, after);
}

/* On E2BIG the kernel writes the size field and nothing else. */
TEST(e2big_writes_only_size)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	uint32_t size = (uint32_t)page_size();
	unsigned char *page = pc_attr_page(&attr, size);
	unsigned char *before = malloc(size);

	ASSERT_NE(NULL, page);
	ASSERT_NE(NULL, before);
	page[size - 1] = 0x5a;
	memcpy(before, page, size);
	ASSERT_GT(0, pc_open_raw(page, 0, -1, -1, 0));
	ASSERT_ERRNO(E2BIG, errno);
	memcpy(before + offsetof(struct perfconf_attr, size), page + offsetof(struct perfconf_attr, size),
	       sizeof(uint32_t));
	EXPECT_EQ(0, memcmp(before, page, size)) TH_LOG("bytes besides attr.size changed");
	free(before);
	free(page);
}

TEST_HARNESS_MAIN
