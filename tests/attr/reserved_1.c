// SPDX-License-Identifier: GPL-2.0
/*
 * __reserved_1: the bits of the flags word past the last defined flag. The
 * man page counts "the flags value is out of range" and set reserved bits
 * among the reasons for EINVAL: each bit the ABI table marks reserved is
 * refused when set alone, whatever the event, and before the kernel even
 * looks up the event's type. (Flags newer than the running kernel are still
 * reserved there; defer_callchain and defer_output test their own.)
 */
#define FIELD	__reserved_1
#include "reserved_word.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

/*
 * A type no PMU has is ENOENT ("the type setting is not valid"), but with
 * a reserved bit set the attr is refused first.
 */
TEST(checked_before_the_event_type)
{
	struct perfconf_attr attr = pc_attr(UINT32_MAX, 0);

	pc_observe_errno("errno.no_such_type", pc_open_errno(&attr, 0, -1, -1, 0));
	EXPECT_ERRNO(pc_field_reserved_errno(FIELD_NAME), pc_field_probe(&attr, FIELD_NAME, 1).err);
}

ATTR_SIZE_RULE_CASE

TEST_HARNESS_MAIN
