/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running the binaries: spawn, capture, time out, kill, reap, in parallel,
 * with exclusive binaries alone, and kernel health attributed to whatever
 * was running.
 */
#ifndef PERFCONF_RUNNER_EXEC_H
#define PERFCONF_RUNNER_EXEC_H

#include <stdbool.h>
#include <stddef.h>

#include "health.h"
#include "runner.h"

/*
 * Block the signals the runner handles (SIGCHLD, SIGINT, SIGTERM, SIGHUP)
 * and take them through a signalfd; ignore SIGPIPE; become the subreaper
 * of everything the binaries leave behind. 0, or -errno.
 */
int exec_init(void);

/*
 * Start-up clean-up after a runner that died under SIGKILL: kill the
 * processes it left running (they carry PERFCONF_RUNNER_PID=<its pid>) and
 * remove its temp directories. Returns the number of processes killed.
 */
int exec_cleanup_stale(void);

/*
 * Keep the tracepoints the suite's cases open registered with perf until
 * the runner exits (root only), so that no binary pays for unregistering
 * one. Returns how many it keeps.
 */
int exec_keep_tracepoints(void);
/*
 * Expedite the kernel's RCU grace periods for the run (PC_RCU_EXPEDITED,
 * saved and restored through host/sysctl.h like any changed sysctl). Most
 * of the suite's waiting is for grace periods that opening and closing
 * probe, tracepoint and BPF events starts (synchronize_rcu, and
 * synchronize_srcu of the tracepoints), often under the kernel's
 * event_mutex, where every other binary's probe waits too; expedited, the
 * host suite takes about 30% less time. No verdict depends on how long a
 * grace period takes. Returns 1 when it switched them on, 0 when they
 * already were, or -errno (no such switch, not root, refused).
 */
int exec_expedite_rcu(void);

typedef void (*job_done_fn)(void *ctx, struct job *j);

/*
 * Whether two binaries may not run side by side: either is exclusive, or
 * one writes global state (PERFCONF_META writes=) the other reads or writes.
 */
bool exec_conflict(const struct job *x, const struct job *y);

/*
 * Run the jobs, at most max_jobs at a time, never two that conflict side
 * by side; an exclusive job waits for the others to finish and runs alone.
 * They are numbered in the order given (j->num), and started so that the
 * run ends soonest: the exclusive ones first, back to back, then those
 * that write global state (so that each state's writers, one at a time,
 * start early), then the others, each group longest first by j->last_s
 * (the last run's duration; unknown, negative, counts as longest); a job
 * that conflicts with a running one is passed over until it no longer
 * does. So no long binary is left running alone at the end and no
 * exclusive one waits for the pool to drain in the middle. done() is
 * called as each finishes. Returns 0, or the signal (SIGINT, SIGTERM,
 * SIGHUP) that stopped the run after killing what was running.
 */
int exec_run(struct job *jobs, size_t n, int max_jobs, struct health *h,
	     job_done_fn done, void *ctx);

/* Kill and reap whatever the binaries left behind. Returns how many. */
int exec_kill_strays(void);

#endif
