/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel health while the suite runs: new taint bits in
 * /proc/sys/kernel/tainted, and kernel log lines (from /dev/kmsg) that mean
 * the kernel hit a bug: WARNING:, BUG:, Oops, general protection fault,
 * Call Trace:, and a few more (see health.c).
 *
 * Attribution is the runner's (exec.c): whatever is noticed fails every
 * binary that was running at the time.
 */
#ifndef PERFCONF_RUNNER_HEALTH_H
#define PERFCONF_RUNNER_HEALTH_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct health {
	int kmsg_fd;			/* -1 when the log cannot be read */
	char kmsg_error[128];		/* why not */
	bool any_facility;		/* also user-space lines (runner self-tests) */
	char taint_path[256];
	unsigned long long taint;	/* last value seen */
	bool taint_ok;
	int context;			/* lines still to attach after a trigger */
	struct strv orphan_log;		/* splats while no binary was running */
	bool orphan_open;		/* the current splat is one of those */
};

/*
 * Open /dev/kmsg at its end and read the taint. The environment variables
 * PERFCONF_TAINT_FILE and PERFCONF_KMSG_ANY_FACILITY=1 exist for the
 * runner's own tests.
 */
void health_open(struct health *h);
void health_close(struct health *h);

/*
 * Read every kernel log record written since the last call. fn gets each
 * line that starts a splat (trigger: the matched text, e.g. "WARNING:";
 * level 2 for a line that names a bug, 1 for "Call Trace:" and the like)
 * and the context lines that follow one (trigger NULL, level 0; up to 40,
 * or to the end of the trace).
 */
typedef void (*health_fn)(void *ctx, const char *line, const char *trigger, int level);
void health_read_log(struct health *h, health_fn fn, void *ctx);

/*
 * Taint bits set since the last call, 0 if none; `what` gets e.g.
 * "W (bit 9)". Bits never clear, so each new one is reported once.
 */
unsigned long long health_new_taint(struct health *h, char *what, size_t len);

#endif
