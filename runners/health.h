/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel health while the suite runs: new taint bits in
 * /proc/sys/kernel/tainted, and kernel log lines (from /dev/kmsg) that mean
 * the kernel hit a bug: WARNING:, BUG:, Oops, general protection fault,
 * Call Trace:, and a few more (see health.c).
 *
 * A splat is parsed into a complaint: its first line, the function the
 * CPU was in (RIP / pc), the task (Comm and PID), whether it came from an
 * interrupt or the idle task, and the top frames of its trace.
 * Attribution is the runner's (exec.c): the binary whose task the
 * complaint names (by PID, its session being the binary's, or else by
 * Comm) fails with it; one that names no task of ours (an interrupt, the
 * idle task, a kernel thread) is one cause of the run, "while A, B and C
 * ran", and those binaries keep their own verdicts.
 */
#ifndef PERFCONF_RUNNER_HEALTH_H
#define PERFCONF_RUNNER_HEALTH_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* One kernel complaint (a splat). */
struct complaint {
	char *title;		/* "WARNING at fs/ext4/inode.c:460 ext4_check_map_extents_env" */
	char *where;		/* the function the CPU was in (RIP, pc), or NULL */
	char comm[64];		/* the task it names ("" when none) */
	long pid;		/* and its pid, -1 when none */
	bool irq;		/* from an interrupt, or the idle task */
	int level;		/* the strongest trigger seen: 2 names a bug */
	bool in_trace;		/* after "Call Trace:" */
	struct strv frames;	/* the first frames of the trace ("?" ones left out) */
	struct strv lines;	/* every line (capped) */
	struct strv suspects;	/* the binaries running when it came */
	char *owner;		/* the binary that made it, when one did */
	char *taint;		/* "W (bit 9)": a taint that came with it */
	char *repro;		/* what running the suspects alone showed, or NULL */
};

/* Add a line of the splat (trigger and level as health_fn gets them). */
void complaint_feed(struct complaint *c, const char *line, const char *trigger, int level);
/* "WARNING at ... in f (Comm x, PID n; from an interrupt): a < b < c" */
char *complaint_describe(const struct complaint *c);
void complaint_free(struct complaint *c);

struct health {
	int kmsg_fd;			/* -1 when the log cannot be read */
	char kmsg_error[128];		/* why not */
	bool any_facility;		/* also user-space lines (runner self-tests) */
	char taint_path[256];
	unsigned long long taint;	/* last value seen */
	bool taint_ok;
	int context;			/* lines still to attach after a trigger */
	struct strv orphan_log;		/* taint while no binary was running */
	struct complaint *complaints;	/* the run's, that no binary made (exec.c) */
	size_t ncomplaints, complaints_cap;
	bool keep_all;			/* every complaint goes there, its owner named (re-runs) */
};

/*
 * Open /dev/kmsg at its end and read the taint. The environment variables
 * PERFCONF_TAINT_FILE and PERFCONF_KMSG_ANY_FACILITY=1 exist for the
 * runner's own tests.
 */
void health_open(struct health *h);
void health_close(struct health *h);

/*
 * The next message of the kernel log open at fd (/dev/kmsg), its text cut
 * at the first newline and sanitized, in rec (len bytes): 1 with *msg set,
 * or 0 at the end. User space's records are skipped unless any_facility;
 * records overwritten meanwhile are passed over.
 */
int kmsg_next(int fd, bool any_facility, char *rec, size_t len, char **msg);

/*
 * Read every kernel log record written since the last call. fn gets each
 * line that starts a splat (trigger: the matched text, e.g. "WARNING:";
 * level 2 for a line that names a bug, 1 for "Call Trace:" and the like)
 * and the context lines that follow one (trigger NULL, level 0; up to 40,
 * or to the end of the trace).
 */
typedef void (*health_fn)(void *ctx, const char *line, const char *trigger, int level);
/* Whether a kernel log message starts a complaint: 2 a line naming a bug, 1 a weaker one, 0 not. */
int health_trigger(const char *msg);
void health_read_log(struct health *h, health_fn fn, void *ctx);

/*
 * Taint bits set since the last call, 0 if none; `what` gets e.g.
 * "W (bit 9)". Bits never clear, so each new one is reported once. O and
 * E are not reported while the suite's module (module.h) has that letter
 * in its sysfs taint file (PERFCONF_MODULE_SYSFS for the tests): its load
 * set them, not a binary.
 */
unsigned long long health_new_taint(struct health *h, char *what, size_t len);

#endif
