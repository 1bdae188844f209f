// SPDX-License-Identifier: GPL-2.0
/*
 * __reserved_3: since Linux 6.13 the 29 bits of the aux_action union past
 * aux_start_paused, aux_pause and aux_resume; from 5.5 to 6.12 the whole
 * u32 after aux_sample_size ("align to u64"). Reserved means it must be
 * zero: each of its bits set alone is EINVAL, whatever the event, and it is
 * checked before the aux_action bits beside it are looked at.
 */
#include "perfconf.h"
#include "work/attr_probe.h"

#define FIELD "__reserved_3"

TEST(each_bit_alone_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

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
