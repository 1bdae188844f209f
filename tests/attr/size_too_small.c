// SPDX-License-Identifier: GPL-2.0
/*
 * E2BIG "Returned if the perf_event_attr size value is too small (smaller
 * than PERF_ATTR_SIZE_VER0) ... When E2BIG is returned, the perf_event_attr
 * size field is overwritten by the kernel to be the size of the structure
 * it was expecting."
 */
#include "perfconf.h"

FIXTURE(too_small) {};
FIXTURE_SETUP(too_small) {}
FIXTURE_TEARDOWN(too_small) {}

FIXTURE_VARIANT(too_small) {
	uint32_t size;
};
FIXTURE_VARIANT_ADD(too_small, size_1) { .size = 1 };
FIXTURE_VARIANT_ADD(too_small, size_8) { .size = 8 };
FIXTURE_VARIANT_ADD(too_small, size_32) { .size = 32 };
FIXTURE_VARIANT_ADD(too_small, size_63) { .size = PC_ATTR_SIZE_VER0 - 1 };

TEST_F(too_small, e2big_and_size_written_back)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	uint32_t kernel_size = pc_attr_kernel_size();

	ASSERT_NE(0, kernel_size);
	attr.size = variant->size;
	EXPECT_ERRNO(E2BIG, pc_open_errno(&attr, 0, -1, -1, 0));
	EXPECT_EQ(kernel_size, attr.size)
		TH_LOG("size %u: the kernel wrote back %u, its own size is %u",
		       variant->size, attr.size, kernel_size);
}

TEST_HARNESS_MAIN
