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
#include "work/attr_probe.h"

#define FIELD "__reserved_1"

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

/* The check is on the attr itself: software, breakpoint, tracepoint and uprobe events alike. */
TEST(refused_on_every_kind_of_event)
{
	EXPECT_EACH_KIND_ERRNO(FIELD, 1, pc_attr_reserved_errno(FIELD));
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
