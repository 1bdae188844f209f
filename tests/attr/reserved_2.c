// SPDX-License-Identifier: GPL-2.0
/*
 * __reserved_2, the u16 after sample_max_stack that aligns the attr to u64
 * (since Linux 4.8; in 4.1 it was a u32 and took sample_max_stack's place
 * too). Reserved means it must be zero: each of its bits set alone is
 * EINVAL, whatever the event.
 */
#include "perfconf.h"
#include "attr_probe.h"

#define FIELD "__reserved_2"

TEST(each_bit_alone_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	unsigned int bits = pc_attr_field_bits(FIELD);

	ASSERT_EQ(16, bits);
	for (unsigned int b = 0; b < bits; b++) {
		EXPECT_ERRNO(pc_attr_reserved_errno(FIELD), pc_attr_probe(&attr, FIELD, 1ULL << b).err)
			TH_LOG("%s bit %u", FIELD, b);
	}
}

TEST(all_bits_at_once_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	EXPECT_ERRNO(pc_attr_reserved_errno(FIELD), pc_attr_probe(&attr, FIELD, UINT16_MAX).err);
}

TEST(refused_on_every_kind_of_event)
{
	struct pc_attr_kind kinds[PC_ATTR_KINDS_MAX];
	size_t n = pc_attr_kinds(kinds, PC_ATTR_KINDS_MAX);

	ASSERT_LE(1, n);
	for (size_t i = 0; i < n; i++) {
		EXPECT_ERRNO(0, pc_open_errno(&kinds[i].attr, 0, -1, -1, 0))
			TH_LOG("a plain %s event", kinds[i].kind);
		EXPECT_ERRNO(pc_attr_reserved_errno(FIELD), pc_attr_probe(&kinds[i].attr, FIELD, 1).err)
			TH_LOG("%s = 1 on a %s event", FIELD, kinds[i].kind);
	}
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
