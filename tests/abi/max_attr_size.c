// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own sizeof(struct perf_event_attr). E2BIG: "larger than the
 * kernel supports and the extra bytes are not zero. When E2BIG is returned,
 * the perf_event_attr size field is overwritten by the kernel to be the
 * size of the structure it was expecting." That size is the newest
 * PERF_ATTR_SIZE_VERn of this kernel's release.
 */
#include "perfconf.h"

TEST(is_the_size_of_this_release)
{
	const struct pc_kernel *k = pc_kernel();
	uint32_t size = pc_attr_kernel_size();

	ASSERT_NE(0, size) TH_LOG("the E2BIG probe did not report a size");
	pc_observe("max_attr_size", "%u", size);
	ASSERT_NE(0, k->kver) TH_LOG("kernel release %s not understood", k->release);
	EXPECT_EQ(pc_abi_size_for_kernel(k->kver), size)
		TH_LOG("Linux %d.%d: the ABI table expects %u bytes, the kernel has %u",
		       k->major, k->minor, pc_abi_size_for_kernel(k->kver), size);
}

TEST(is_a_published_size)
{
	uint32_t size = pc_attr_kernel_size();
	int ver;

	ASSERT_NE(0, size) TH_LOG("the E2BIG probe did not report a size");
	ver = pc_abi_size_ver_of(size);
	EXPECT_LE(0, ver) TH_LOG("%u is no PERF_ATTR_SIZE_VERn", size);
	if (ver >= 0)
		pc_observe("max_attr_size_ver", "%d", ver);
	else
		pc_observe("max_attr_size_ver", "none");
}

TEST_HARNESS_MAIN
