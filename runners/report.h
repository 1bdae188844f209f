/* SPDX-License-Identifier: GPL-2.0 */
/* The end of a run: the summary and closing line, results.txt, JUnit XML, recording. */
#ifndef PERFCONF_RUNNER_REPORT_H
#define PERFCONF_RUNNER_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "baseline.h"
#include "discover.h"
#include "runner.h"

/* A root cause many cases share: an instrument broken on this machine. */
struct cause {
	char *name, *why;
	size_t failed, blocked;
};

struct summary {
	size_t passed, failed, skipped, known, cases;
	size_t faults;		/* the suite's own: ERROR, TIMEOUT, a binary not found */
	struct strv regressions, new_failures, known_failures, improvements, changes;
	struct strv new_cases, gone, fixed, blocked, new_obs, transit;
	struct strv unjudged;	/* "<why>\t<id>" */
	struct strv complaints;	/* the kernel's: a binary's that made one, and the run's */
	struct cause *causes;
	size_t ncauses, causes_cap;
};

/* Count a finished, judged binary. */
void summary_add_job(struct summary *s, const struct job *j);
/* List a case's verdict in its section (reason: its KTAP directive's, for BLOCKED). */
void summary_add_verdict(struct summary *s, const struct record *r, const struct verdict *v, const char *reason);
/* Baseline entries of the selected binaries that no run reported. */
void summary_add_gone(struct summary *s, const struct recset *base, const struct selection *sel,
		      const struct job *jobs, size_t n);
/*
 * The details (as "# " lines), then "N passed, N failed, N skipped".
 * gate_suite (--gate suite): "failed" counts the suite's own faults only,
 * and differences from the baseline are shown without failing the run.
 */
void summary_print(struct sbuf *out, const struct summary *s, bool gate_suite);
/* The exit code's failure count under the gate. */
size_t summary_failures(const struct summary *s, bool gate_suite);
void summary_free(struct summary *s);

/* The header of a results or baseline file, with this machine's facts (facts.h). */
char *results_header(const struct kernel_id *k, const char *what, const struct strv *facts);
/* results.txt: every record of the run, sorted. 0 or -errno. */
int write_results(const char *path, const struct job *jobs, size_t n, const char *header);
/*
 * Write or update a baseline: the records of this run replace those of the
 * selected binaries; other lines are kept. -1 with a message in err.
 */
int record_baseline(const char *path, const struct job *jobs, size_t n,
		    const struct selection *sel, bool filtered, const char *header,
		    char *err, size_t errlen);
/*
 * durations.txt: "<area>/<binary> <seconds>" per binary that ran, sorted,
 * and the earlier lines of the binaries this run did not run (a run of a
 * few keeps what a full run measured). The next run in the same results
 * directory starts the longest first.
 */
int write_durations(const char *path, const struct job *jobs, size_t n, const char *header);
/* Set each job's last_s from a durations.txt (-1 where it has none; a line it cannot read is ignored). */
void load_durations(const char *path, struct job *jobs, size_t n);
/* JUnit XML for CI dashboards. 0 or -errno. */
int write_junit(const char *path, const struct job *jobs, size_t n, double wall);

#endif
