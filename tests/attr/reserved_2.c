// SPDX-License-Identifier: GPL-2.0
/*
 * __reserved_2, the u16 after sample_max_stack that aligns the attr to u64
 * (since Linux 4.8; in 4.1 it was a u32 and took sample_max_stack's place
 * too). Reserved means it must be zero: each of its bits set alone is
 * EINVAL, whatever the event.
 */
#define FIELD		__reserved_2
#define FIELD_BITS	16
#include "reserved_word.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

/* Its neighbour sample_max_stack may be set: the refusal is for __reserved_2's bytes alone. */
TEST(sample_max_stack_beside_it_is_not_reserved)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_CPU_CLOCK, 100000,
							PERF_SAMPLE_CALLCHAIN);

	attr.sample_max_stack = 1;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
	EXPECT_ERRNO(pc_field_reserved_errno(FIELD_NAME), pc_field_probe(&attr, FIELD_NAME, 1).err);
}

ATTR_SIZE_RULE_CASE

TEST_HARNESS_MAIN
