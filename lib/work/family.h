/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A task and the children that inherit its events (attr.inherit): what a
 * test needs to see what the children's copies report.
 *
 * The anchor. A child whose task context is a clone of its parent's can
 * swap whole contexts with the parent at a context switch: the kernel's
 * optimisation for equivalent contexts (both tasks on one CPU, the parent
 * blocked in waitpid() and the child next is enough). The exiting child
 * then carries the parent's original events, and what the ABI says happens
 * to the inherited copies at exit (inherit_stat's PERF_RECORD_READ,
 * per-thread PERF_SAMPLE_READ values) depends on scheduling. A uprobe
 * event counts only in the address space of the task it belongs to, so
 * after such a swap the parent's own calls go uncounted. A context with
 * an event that is not inherited is never cloned whole, so one such event
 * in every task that forks keeps every context where it belongs (a
 * child's child gets a copy of the child's context: the child that forks
 * needs an anchor of its own):
 *
 *	int anchor = pc_family_anchor();
 *	ASSERT_LE(0, anchor);
 *	... inherited events, children ...
 *	close(anchor);
 *
 * A thread's copies are dealt with late in its exit: pc_work_in_thread()
 * (workload.h) returns only once that is done.
 *
 * (To read the children's records, pin the family to one CPU and open the
 * events there: see affinity.h.)
 */
#ifndef PERFCONF_FAMILY_H
#define PERFCONF_FAMILY_H

/*
 * Open a disabled, non-inherited PERF_COUNT_SW_DUMMY event on the caller,
 * so that its children's contexts are no clones of its own. Returns the fd
 * (close it when done), or -errno.
 */
int pc_family_anchor(void);

#endif
