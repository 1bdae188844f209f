/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cases every __reserved_* field shares: reserved means it must be
 * zero, so each of its bits, and all at once, is refused on every kind of
 * event. The field file defines, then includes this:
 *	FIELD		the field (__reserved_1), as the attr probes name it
 *	FIELD_BITS	(optional) how many bits the ABI table must give it
 * and ends with ATTR_SIZE_RULE_CASE, after its own cases.
 */
#include "perfconf.h"
#include "work/attr_probe.h"
#include "fragment.h"

TEST(each_bit_alone_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

#ifdef FIELD_BITS
	ASSERT_EQ(FIELD_BITS, pc_field_bits(FIELD_NAME));
#endif
	EXPECT_EACH_BIT_REFUSED(&attr, FIELD_NAME);
}

TEST(all_bits_at_once_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	EXPECT_ALL_BITS_REFUSED(&attr, FIELD_NAME);
}

/* The check is on the attr itself: software, breakpoint, tracepoint and uprobe events alike. */
TEST(refused_on_every_kind_of_event)
{
	EXPECT_EACH_KIND_ERRNO(FIELD_NAME, 1, pc_field_reserved_errno(FIELD_NAME));
}

/* The attr size rule for the field (EXPECT_ATTR_SIZE_RULE): the file's last case. */
#define ATTR_SIZE_RULE_CASE						\
TEST(attr_size_rule)							\
{									\
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK); \
									\
	EXPECT_ATTR_SIZE_RULE(&attr, FIELD_NAME, 1);			\
}
