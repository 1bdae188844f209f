/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For exclude_guest and exclude_host, the KVM pair: on a hardware PMU,
 * whether a cycles counter accepts the bit is pinned (observation
 * "errno": the open's, 0 if it opened). The field file defines FIELD (the
 * bit, exclude_guest), then includes this.
 */
#include "work/measure.h"
#include "perfconf.h"

/*
 * The cycles of a loop, counted with the bit, into *count: true when the
 * event opened and counted. SKIPs (false) where there is no hardware PMU.
 */
static bool hw_cycles_with_bit(struct __test_metadata *_metadata, uint64_t *count)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	if (pc_errno_is_unsupported(err))
		SKIP(return false, "no hardware PMU (%s)", pc_errno_name(err));
	attr.FIELD = 1;
	err = pc_count_work(&attr, pc_loop_work, PC_N(1000000), count);
	pc_observe_errno("errno", pc_last_open_errno());
	if (pc_last_open_errno())
		return false;
	ASSERT_EQ(0, err);
	return true;
}
