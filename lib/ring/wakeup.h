/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Overflow notifications as poll() sees them: "POLL_IN is indicated" once
 * wakeup_events samples or wakeup_watermark bytes were written. The kernel
 * reports a pending notification once; a poll clears it.
 *
 * A wake-up pattern is one character per step of a workload, '.' when
 * poll (timeout 0) found nothing after the step and 'w' when it found
 * POLLIN: "..w..w..w" is a wake-up after every third step.
 */
#ifndef PERFCONF_WAKEUP_H
#define PERFCONF_WAKEUP_H

#include <stddef.h>
#include <stdint.h>

#include "ring/ring.h"
#include "abi/uapi.h"

/* 1 if POLLIN is pending on fd now (poll with timeout 0), else 0. */
int pc_pollin(int fd);

/*
 * The wake-up pattern of a page-fault sampler, one sample per step:
 * `attr` is a PERF_COUNT_SW_PAGE_FAULTS event with sample_period 1 and the
 * wakeup fields under test (exclude_kernel is set here). It is opened on
 * this task with a ring of 1 + 2^pages_log2 pages. Each step faults one
 * page, polls, then drains the ring so that it never fills. A rehearsal
 * of one step on a throwaway event comes first, so that the code, stack
 * and heap pages the loop goes through are already there, and the pattern
 * is written before it (a calloc'd one may lie on a page never written,
 * whose first write would be one more sample). The pattern goes
 * into pattern[steps + 1] and the event's count into *count (== steps
 * when every sample was a step's).
 * Returns 0 or -errno.
 */
int pc_wakeup_pattern(struct perfconf_attr *attr, unsigned int pages_log2, size_t steps,
			  char *pattern, uint64_t *count);

/*
 * Whether a record that is no sample wakes a reader: `attr` gets comm = 1
 * and is opened on this task with its ring, then the task renames itself
 * once. 1 when poll then finds POLLIN, 0 when not, or -errno;
 * *comm_records is how many COMM records the ring held.
 */
int pc_comm_wakes(struct perfconf_attr *attr, size_t *comm_records);

#endif
