/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Deterministic workloads. Each does an exact, known amount of the thing a
 * test counts, so a test can assert equality, not a range.
 */
#ifndef PERFCONF_WORKLOAD_H
#define PERFCONF_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef noinline
#define noinline __attribute__((noinline))
#endif

/*
 * Work as a function that a lib helper runs between enabling and disabling
 * an event (pc_capture_run, pc_count_work), its amount passed as PC_N(n).
 */
typedef void (*pc_work_fn)(void *arg);
#define PC_N(n) ((void *)(uintptr_t)(n))

/* Calls a noinline, non-clonable empty function n times. */
void pc_work_calls(unsigned long n);
/* The function pc_work_calls() calls: a breakpoint/uprobe target. */
void pc_work_target(void);
/*
 * A noinline function that reads and writes *p once (one load, one store
 * of its first long): a data breakpoint target.
 */
void pc_work_touch(volatile uint64_t *p);
/* A noinline function that reads *p once (its first long) and nothing else. */
uint64_t pc_work_peek(const volatile uint64_t *p);
/* A loop of n iterations with no calls and no memory traffic. */
uint64_t pc_work_loop(unsigned long n);

/*
 * Touch n fresh anonymous pages: exactly n minor page faults in user mode
 * (MAP_POPULATE is not used; each page is written once, see faults.h).
 * 0 or -errno.
 */
int pc_work_page_faults(unsigned long n);
/*
 * Exactly n page faults taken in kernel mode: uname(2) writes into n
 * fresh pages, one each. 0 or -errno.
 */
int pc_work_kernel_faults(unsigned long n);
/* n getppid() system calls (syscalls:sys_enter_getppid fires n times). */
void pc_work_getppid_calls(unsigned long n);
/*
 * n round trips over a pipe with a partner child: with the caller pinned
 * to one CPU first (affinity.h), each one switches the caller out at least
 * once. Returns the partner's pid (reaped), or -errno.
 */
pid_t pc_work_context_switches(unsigned long n);
/* fork a child that exits with `code`; waits for it. The child's pid, or -errno. */
pid_t pc_work_fork_exit(int code);
/*
 * Named work, so a child, a thread or an exec'd helper can be told what to
 * do: "exit", "calls N" (N calls of pc_work_target), "loop N",
 * "faults N" (N page faults), "timed_faults N" (N page faults, then a
 * wait until perf time has moved, work/clock.h: an event enabled around
 * them, by an exec say, sees time pass on a coarse clock too; the wait's
 * witness is opened first, a few faults more), "comm NAME", "task_events on"
 * or "task_events off" (pc_work_task_events), "touch_a N" and "touch_b N"
 * (N calls of pc_work_touch on pc_work_word(0) or (1): a data breakpoint's
 * hits in a child or a thread). Returns 0, or -EINVAL for
 * unknown work, or the workload's -errno.
 */
int pc_work_do(const char *work);
/* The word "touch_a" (i = 0) or "touch_b" (i = 1) writes: 8 bytes, alone on a cache line. */
volatile uint64_t *pc_work_word(unsigned int i);
/* fork; the child does the work and exits; waits. The child's pid, or -errno. */
pid_t pc_work_in_child(const char *work);
/*
 * A thread (CLONE_THREAD) does the work; it returns once the thread is
 * joined and the kernel is done with it (its perf events' copies counted
 * and reported). Its tid, or -errno (-ETIMEDOUT if it lingers for seconds).
 */
pid_t pc_work_in_thread(const char *work);
/* The same for fn(arg): its tid once it is joined and gone, or -errno. */
pid_t pc_work_fn_in_thread(pc_work_fn fn, void *arg);
/*
 * Wait until a joined thread of this process is gone from
 * /proc/self/task: the kernel is done with it (its perf events' copies
 * counted and reported). 0, or -ETIMEDOUT if it lingers for seconds.
 */
int pc_work_thread_gone(pid_t tid);

/*
 * fork + exec of this very binary (/proc/self/exe) as a helper: a
 * constructor in the lib sees PC_EXEC_WORK_ENV in the new image and does
 * that work (pc_work_do) before main, then exits 0. Returns the helper's pid after it was reaped
 * with exit status 0, or -errno / -ECHILD when it failed.
 */
#define PC_EXEC_WORK_ENV "PERFCONF_EXEC_WORK"
pid_t pc_work_exec(const char *work);
/* The same without fork: the caller becomes the helper (for enable_on_exec). */
int pc_work_exec_self(const char *work);
/*
 * prctl(PR_TASK_PERF_EVENTS_ENABLE) (on) or _DISABLE (off): the events the
 * calling thread opened. 0 or -errno.
 */
int pc_work_task_events(int on);
/* prctl(PR_SET_NAME): a COMM record. 0 or -errno. */
int pc_work_set_comm(const char *name);

/* The workloads as pc_work_fns: pass PC_N(n). */
void pc_user_faults_work(void *n);	/* pc_work_page_faults(n) */
void pc_kernel_faults_work(void *n);	/* pc_work_kernel_faults(n) */
void pc_calls_work(void *n);		/* pc_work_calls(n) */
void pc_loop_work(void *n);		/* pc_work_loop(n) */
void pc_getppid_work(void *n);		/* pc_work_getppid_calls(n) */
/* n prctl(PR_SET_NAME): the task:task_rename tracepoint fires n times, in the kernel. */
void pc_rename_work(void *n);
/* Both kinds of fault: n page faults in user mode, then n / 2 in the kernel. */
void pc_mixed_faults_work(void *n);

#endif
