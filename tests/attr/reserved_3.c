// SPDX-License-Identifier: GPL-2.0
/*
 * __reserved_3: since Linux 6.13 the 29 bits of the aux_action union past
 * aux_start_paused, aux_pause and aux_resume; from 5.5 to 6.12 the whole
 * u32 after aux_sample_size ("align to u64"). Reserved means it must be
 * zero: each of its bits set alone is EINVAL, whatever the event, and it is
 * checked before the aux_action bits beside it are looked at.
 */
#define FIELD	__reserved_3
#include "reserved_word.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

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
	EXPECT_ERRNO(pc_field_reserved_errno(FIELD_NAME), pc_field_probe(&attr, FIELD_NAME, 1).err);
}

ATTR_SIZE_RULE_CASE

TEST_HARNESS_MAIN
