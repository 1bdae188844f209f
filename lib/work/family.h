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

#include <pthread.h>
#include <semaphore.h>
#include <sys/types.h>

#include "work/child.h"

/*
 * Open a disabled, non-inherited PERF_COUNT_SW_DUMMY event on the caller,
 * so that its children's contexts are no clones of its own. Returns the fd
 * (close it when done), or -errno.
 */
int pc_family_anchor(void);

/*
 * A thread of this process that works in steps, on the test's cue (the
 * thread's counterpart of work/child.h's pc_child): started before the
 * test acts on the events it inherited, so that what an ioctl on the
 * parent's fd does to an existing thread's copy can be seen.
 *
 *	struct pc_family_thread t;
 *	ASSERT_EQ(0, pc_family_thread_start(&t));	// created, waiting
 *	ASSERT_EQ(0, pc_family_thread_do(&t, "calls 100"));	// done, waiting again
 *	ASSERT_EQ(0, pc_family_thread_stop(&t));	// joined and gone
 *
 * Work strings are pc_work_do()'s. The thread waits on a semaphore
 * (futex waits: no page faults, no calls of pc_work_target).
 */
struct pc_family_thread {
	pthread_t thread;
	pid_t tid;		/* 0 when there is no thread */
	sem_t cue, done;
	const char *work;	/* NULL: exit */
	int err;		/* the last work's result */
};
/* Create the thread; it runs once through its wait before this returns. 0 or -errno. */
int pc_family_thread_start(struct pc_family_thread *t);
/* The thread does `work` and waits again: the work's result (0, or -errno). */
int pc_family_thread_do(struct pc_family_thread *t, const char *work);
/*
 * The thread exits; it is joined and gone from /proc/self/task (its copies
 * folded into the parents' counts). 0 or -errno. Safe to repeat.
 */
int pc_family_thread_stop(struct pc_family_thread *t);

/*
 * A child process or a thread of this one, as a case's variant asks: one
 * handle for pc_child and pc_family_thread, which take the same cues.
 * Zero it before the first start, so that finish is safe after a setup
 * that never started it.
 */
struct pc_family_task {
	int thread;		/* a thread, else a child process */
	struct pc_child child;
	struct pc_family_thread t;
};
/* Start the task (a child forked with nothing unshared). 0 or -errno. */
int pc_family_task_start(struct pc_family_task *k, int thread);
/* The task does `work` and waits again: the work's result (0, or -errno). */
int pc_family_task_do(struct pc_family_task *k, const char *work);
/* The task ends and is reaped or joined, gone. 0 or -errno. Safe to repeat. */
int pc_family_task_finish(struct pc_family_task *k);

#endif
