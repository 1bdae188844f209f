/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's shared types: a job is one test binary, from discovery
 * through its run to its verdict.
 */
#ifndef PERFCONF_RUNNER_H
#define PERFCONF_RUNNER_H

#include <stdbool.h>
#include <sys/types.h>

#include "recset.h"
#include "tap.h"
#include "util.h"

#define DEFAULT_TIMEOUT 60.0

struct verdict;

/*
 * phases= (PERFCONF_META): a binary whose cases each need one value of a
 * sysctl, one harness variant per value (the privilege matrix: one per
 * perf_event_paranoid level). The runner may set each value once and run
 * every such binary's cases of that value side by side (run.c, exec.c).
 */
struct phase_set {
	char *sysctl;		/* "kernel/perf_event_paranoid" */
	char *key;		/* its key in declarations: "perf_event_paranoid" */
	struct strv variant;	/* each phase's harness variant: "paranoid_m1" */
	long *value;		/* and the value the runner holds for it: -1 */
};

enum ktap_layout {
	LAYOUT_KTAP,		/* KTAP v1: indented subtests (kunit.py, KernelCI) */
	LAYOUT_KSELFTEST,	/* kselftest's runner: TAP 13, "# "-prefixed subtests (LKFT) */
};

/* Where a run's text goes: stdout, and ktap.txt and kselftest.txt in full (-v). */
enum { OUT_STDOUT, OUT_KTAP, OUT_KSELFTEST, OUT_N };

struct job {
	/* discover.c */
	char *name;		/* "area/binary" */
	char *path;		/* absolute path */
	double timeout;		/* seconds */
	char *timeout_from;	/* "default", "--timeout", "timeouts.conf:3", "PERFCONF_META" */
	bool exclusive;		/* beside nothing */
	struct strv reads, writes;	/* the global state it declares (PERFCONF_META reads=, writes=) */
	struct strv serial;	/* kernel locks its cases hold for long (serial=): one at a time per key */
	double last_s;		/* its duration in the last run (durations.txt), or -1 */
	struct phase_set *phases;	/* phases=, or NULL (owned by the binary, not its parts) */

	/* run.c: a binary run as parts, one per phase and one for its other cases */
	bool split;		/* this binary's parts run, not it; their outcome becomes its own */
	size_t parts_left;	/* its parts not done yet */
	struct job *whole;	/* a part: its binary */
	int phase;		/* a part: its phase, or -1 for the cases of no phase */
	bool held;		/* a part run while the runner holds its phase's value */

	/* exec.c */
	int num;		/* 1-based position in the run */
	pid_t pid;		/* also its session and process group */
	int fd;			/* output pipe; -1 at EOF */
	char *tmpdir;
	double start, end, deadline, grace;
	bool started, exited, done, timed_out, pipe_abandoned;
	int wstatus;
	int leaked;		/* processes left behind, killed */
	char *spawn_error;
	struct tap tap;
	struct strv kernel_log;	/* kernel log lines while it ran */
	char *kernel_reason;	/* "kernel log: WARNING" */
	int kernel_level;	/* 2: a line naming a bug, 1: a "Call Trace:" and the like */
	struct strv health;	/* "new kernel taint: W (bit 9)" */
	int sysctls_left;	/* saved sysctls the runner restored after it */

	/* job.c: the outcome */
	bool has_bin_record;	/* the binary itself has a line in the results */
	bool kernel_only;	/* ... for a kernel complaint or taint alone: no fault of the suite */
	enum status bin_status;	/* shown on its KTAP line */
	char *bin_reason;	/* directive reason on its KTAP line */
	struct strv notes;	/* diagnostics about the binary ("exit status 1") */
	struct recset recs;	/* its records, ids "area/binary[:case]" */
	struct verdict *verdicts;	/* parallel to recs.v, after comparing */

	/* main.c */
	char *out[OUT_N];	/* rendered blocks, waiting for their turn */
};

void job_free(struct job *j);
/* Whether j declares key among what it writes (write) or among what it reads or writes. */
bool job_declares(const struct job *j, const char *key, bool write);

#endif
