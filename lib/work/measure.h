/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting what one piece of work does, for tests that compare counts of
 * the same work under different attrs (the exclude_* filters, config):
 *
 *	struct perfconf_attr a = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
 *	a.exclude_user = 1;
 *	uint64_t n;
 *	ASSERT_EQ(0, pc_count_work(&a, pc_user_faults_work, PC_N(64), &n));
 *
 * The work functions are workload.h's pc_work_fns.
 */
#ifndef PERFCONF_MEASURE_H
#define PERFCONF_MEASURE_H

#include <stdint.h>

#include "abi/uapi.h"
#include "work/workload.h"

/*
 * Open attr on this task, do the work once unmeasured (so the code, stack
 * and PLT pages it runs through are there, with the same calls around
 * it), then reset, enable, do it again, disable, read. Returns 0 with *count set, or -errno of the open (a test SKIPs on
 * an unsupported one), the enabling, the disabling or the read.
 */
int pc_count_work(struct perfconf_attr *attr, pc_work_fn work, void *arg, uint64_t *count);
/*
 * An open event (of any target: a CPU, a cgroup) over one piece of work:
 * reset, enable, work, disable, read. 0 with *count set, or -errno.
 */
int pc_count_fd_work(int fd, pc_work_fn work, void *arg, uint64_t *count);
/*
 * The same as a value: what the event counted of the work, or UINT64_MAX
 * when it did not open (pc_last_open_errno() says why) or could not be read.
 */
uint64_t pc_count_of_work(struct perfconf_attr *attr, pc_work_fn work, void *arg);

/*
 * The event's value (read_format 0), or UINT64_MAX when the read fails:
 * EXPECT_EQ(n, pc_count_of(fd)) reads like the promise.
 */
uint64_t pc_count_of(int fd);

/*
 * For cases that read several events of this task over one piece of work:
 * n page faults with every event the task opened enabled at once, by
 * prctl(PR_TASK_PERF_EVENTS_ENABLE and _DISABLE), no user-space work in
 * between. One fault before, unmeasured, pages in the code the faults run
 * through. The window lasts until perf's clock has moved (work/clock.h: a
 * dummy event of the task, enabled and disabled with the others), so that
 * the events' time_enabled is not 0 on a coarse clock. 0, or -errno of a
 * prctl or of the clock (-ETIME: it stood still).
 */
int pc_count_faults_with_task_events(unsigned long n);

#endif
