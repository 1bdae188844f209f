// SPDX-License-Identifier: GPL-2.0
/*
 * __reserved_3: since Linux 6.13 the 29 bits of the aux_action union past
 * aux_start_paused, aux_pause and aux_resume; from 5.5 to 6.12 the whole
 * u32 after aux_sample_size ("align to u64"). Reserved means it must be
 * zero: each of its bits set alone is EINVAL, whatever the event, and it is
 * checked before the aux_action bits beside it are looked at.
 */
#include "perfconf.h"
#include "attr_probe.h"

#define FIELD "__reserved_3"

TEST(each_bit_alone_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	unsigned int bits = pc_attr_field_bits(FIELD);

	ASSERT_NE(0, bits);
	for (unsigned int b = 0; b < bits; b++) {
		EXPECT_ERRNO(pc_attr_reserved_errno(FIELD), pc_attr_probe(&attr, FIELD, 1ULL << b).err)
			TH_LOG("%s bit %u (aux_action bit %u)", FIELD, b, pc_attr_field(FIELD)->bit + b);
	}
}

TEST(all_bits_at_once_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	unsigned int bits = pc_attr_field_bits(FIELD);

	ASSERT_NE(0, bits);
	EXPECT_ERRNO(pc_attr_reserved_errno(FIELD), pc_attr_probe(&attr, FIELD, (1ULL << bits) - 1).err);
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
			TH_LOG("%s bit 0 on a %s event", FIELD, kinds[i].kind);
	}
}

/*
 * aux_start_paused alone on a software event is refused for want of an
 * AUX PMU (or, before 6.13, as reserved); with a reserved bit beside it
 * the reserved bit decides: EINVAL.
 */
TEST(checked_before_the_aux_action_bits)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	attr.aux_start_paused = 1;
	pc_observe_errno("errno.aux_start_paused", pc_open_errno(&attr, 0, -1, -1, 0));
	EXPECT_ERRNO(pc_attr_reserved_errno(FIELD), pc_attr_probe(&attr, FIELD, 1).err);
}

TEST(attr_size_rule)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	EXPECT_ATTR_SIZE_RULE(&attr, FIELD, 1);
}

TEST_HARNESS_MAIN
