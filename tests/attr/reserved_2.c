// SPDX-License-Identifier: GPL-2.0
/*
 * __reserved_2, the u16 after sample_max_stack that aligns the attr to u64
 * (since Linux 4.8; in 4.1 it was a u32 and took sample_max_stack's place
 * too). Reserved means it must be zero: each of its bits set alone is
 * EINVAL, whatever the event.
 */
#include "perfconf.h"
#include "work/attr_probe.h"

#define FIELD "__reserved_2"

TEST(each_bit_alone_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	ASSERT_EQ(16, pc_attr_field_bits(FIELD));
	EXPECT_EACH_BIT_REFUSED(&attr, FIELD);
}

TEST(all_bits_at_once_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	EXPECT_ALL_BITS_REFUSED(&attr, FIELD);
}

TEST(refused_on_every_kind_of_event)
{
	EXPECT_EACH_KIND_ERRNO(FIELD, 1, pc_attr_reserved_errno(FIELD));
}

/* Its neighbour sample_max_stack may be set: the refusal is for __reserved_2's bytes alone. */
TEST(sample_max_stack_beside_it_is_not_reserved)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_CPU_CLOCK, 100000,
							PERF_SAMPLE_CALLCHAIN);

	attr.sample_max_stack = 1;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
	EXPECT_ERRNO(pc_attr_reserved_errno(FIELD), pc_attr_probe(&attr, FIELD, 1).err);
}

TEST(attr_size_rule)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	EXPECT_ATTR_SIZE_RULE(&attr, FIELD, 1);
}

TEST_HARNESS_MAIN
