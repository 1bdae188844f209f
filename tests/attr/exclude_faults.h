/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the exclude_* bits: what a page-fault counter counts of N faults of
 * one kind, taken by user code (pc_user_faults_work) or by the kernel
 * writing to user memory (pc_kernel_faults_work), with the bit set or
 * clear. The field file defines FIELD (the bit, exclude_kernel) and N,
 * then includes this.
 */
#include "work/measure.h"
#include "perfconf.h"

/* The count, or UINT64_MAX when the event did not open. */
static uint64_t faults_counted(pc_work_fn faults, int bit)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.FIELD = bit;
	return pc_count_of_work(&attr, faults, PC_N(N));
}
