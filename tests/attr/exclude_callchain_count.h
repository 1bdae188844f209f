/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The case of exclude_callchain_kernel and exclude_callchain_user that
 * holds for both: the bit changes what samples hold, not what the event
 * counts. The field file defines FIELD (the bit, exclude_callchain_user)
 * and FAULTS, then includes this.
 */
#include "work/measure.h"
#include "perfconf.h"

TEST(count_unchanged)
{
	struct perfconf_attr attr = pc_attr_kernel_sampling(PERF_SAMPLE_CALLCHAIN);

	attr.FIELD = 1;
	EXPECT_EQ(FAULTS, pc_count_of_work(&attr, pc_kernel_faults_work, PC_N(FAULTS)))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}
