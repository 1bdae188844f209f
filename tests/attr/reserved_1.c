// SPDX-License-Identifier: GPL-2.0
/*
 * __reserved_1: the bits of the flags word past the last defined flag. The
 * man page counts "the flags value is out of range" and set reserved bits
 * among the reasons for EINVAL: each bit the ABI table marks reserved is
 * refused when set alone, whatever the event, and before the kernel even
 * looks up the event's type. (Flags newer than the running kernel are still
 * reserved there; defer_callchain and defer_output test their own.)
 */
#include "perfconf.h"
#include "attr_probe.h"

#define FIELD "__reserved_1"

TEST(each_bit_alone_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	unsigned int bits = pc_attr_field_bits(FIELD);

	ASSERT_NE(0, bits);
	for (unsigned int b = 0; b < bits; b++) {
		EXPECT_ERRNO(pc_attr_reserved_errno(FIELD), pc_attr_probe(&attr, FIELD, 1ULL << b).err)
			TH_LOG("%s bit %u (flags bit %u)", FIELD, b, pc_attr_field(FIELD)->bit + b);
	}
}

TEST(all_bits_at_once_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	unsigned int bits = pc_attr_field_bits(FIELD);

	ASSERT_NE(0, bits);
	EXPECT_ERRNO(pc_attr_reserved_errno(FIELD), pc_attr_probe(&attr, FIELD, (1ULL << bits) - 1).err);
}

/* The check is on the attr itself: software, breakpoint, tracepoint and uprobe events alike. */
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
 * A type no PMU has is ENOENT ("the type setting is not valid"), but with
 * a reserved bit set the attr is refused first.
 */
TEST(checked_before_the_event_type)
{
	struct perfconf_attr attr = pc_attr(UINT32_MAX, 0);

	pc_observe_errno("errno.no_such_type", pc_open_errno(&attr, 0, -1, -1, 0));
	EXPECT_ERRNO(pc_attr_reserved_errno(FIELD), pc_attr_probe(&attr, FIELD, 1).err);
}

TEST(attr_size_rule)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	EXPECT_ATTR_SIZE_RULE(&attr, FIELD, 1);
}

TEST_HARNESS_MAIN
