// SPDX-License-Identifier: GPL-2.0
/*
 * attr.size: "The size of the perf_event_attr structure for forward/backward
 * compatibility. Set this using sizeof(struct perf_event_attr) to allow the
 * kernel to see the struct size at the time of compilation." Every published
 * PERF_ATTR_SIZE_VERn is accepted, whether the kernel knows that many fields
 * or not (the bytes past its own size are zero), and a size of 0 is taken as
 * PERF_ATTR_SIZE_VER0.
 */
#include "perfconf.h"

/* Open a software event whose attr claims `size` bytes; the errno, 0 if it opened. */
static int open_with_size(uint32_t size)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	void *page = pc_attr_page(&attr, size);
	int err = pc_open_raw_errno(page);

	free(page);
	return err;
}

FIXTURE(size_version) {};
FIXTURE_SETUP(size_version) {}
FIXTURE_TEARDOWN(size_version) {}

FIXTURE_VARIANT(size_version) {
	uint32_t size;
};
#define SIZE_VERSION(n) \
	FIXTURE_VARIANT_ADD(size_version, ver##n) { .size = PC_ATTR_SIZE_VER##n }
SIZE_VERSION(0);
SIZE_VERSION(1);
SIZE_VERSION(2);
SIZE_VERSION(3);
SIZE_VERSION(4);
SIZE_VERSION(5);
SIZE_VERSION(6);
SIZE_VERSION(7);
SIZE_VERSION(8);
SIZE_VERSION(9);

TEST_F(size_version, accepted)
{
	uint32_t kernel_size = pc_attr_kernel_size();

	ASSERT_NE(0, kernel_size) TH_LOG("the kernel's attr size could not be probed");
	pc_observe("within_kernel_size", "%s", variant->size <= kernel_size ? "yes" : "no");
	EXPECT_ERRNO(0, open_with_size(variant->size));
}

TEST(size_zero_is_ver0)
{
	/*
	 * A reserved field past VER0 is set: read as a full attr it would
	 * be refused (EINVAL), read as VER0 it is never seen.
	 */
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	attr.__reserved_2 = 1;
	attr.size = 0;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
	attr.size = PC_ATTR_SIZE_VER0;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
	attr.size = PC_ATTR_SIZE_VER5;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST(size_zero_is_not_written_back)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	int fd;

	attr.size = 0;
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_EQ(0, attr.size) TH_LOG("a successful open must leave attr.size alone");
	close(fd);
}

/* Sizes that fall between two published versions: not documented, so pinned. */
TEST(sizes_between_versions)
{
	static const uint32_t sizes[] = { 65, 68, 76, 100, 108, 116, 124, 132 };
	uint32_t kernel_size = pc_attr_kernel_size();
	char key[32];

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		int err = open_with_size(sizes[i]);

		snprintf(key, sizeof(key), "size.%u", sizes[i]);
		pc_observe_errno(key, err);
		/* Whatever the kernel chose, it is no documented refusal of a size it can read. */
		if (sizes[i] <= kernel_size)
			EXPECT_NE(E2BIG, err) TH_LOG("size %u <= kernel size %u gave E2BIG",
						     sizes[i], kernel_size);
	}
}

TEST_HARNESS_MAIN
