/* SPDX-License-Identifier: GPL-2.0 */
/* A finished binary: its outcome, records and verdicts (job.c), and its KTAP block (ktap.c). */
#ifndef PERFCONF_RUNNER_JOB_H
#define PERFCONF_RUNNER_JOB_H

#include <stdbool.h>

#include "baseline.h"
#include "runner.h"

/* A job to run from's binary again: its name, path, timeout and declarations, not run yet. */
struct job job_copy(const struct job *from);
/*
 * A binary run in parts (run.c: phases=), once every part is done: the
 * parts' cases, in the parts' order, and how they ended, as though one
 * process had run them all (then job_outcome as for any binary). Its
 * duration is the sum of theirs.
 */
void job_join(struct job *whole, struct job *parts, size_t n);
/* Decide the binary's own status and build its records. */
void job_outcome(struct job *j);
/* Compare its records with the baselines, under equal facts (judge_facts). */
void job_judge(struct job *j, const struct judges *judges);
/* The verdict on case i (records list the cases first, in order). */
const struct verdict *job_case_verdict(const struct job *j, size_t case_index);

/*
 * What record i shows on its result line: the verdict against the
 * baseline, in the words every TAP parser knows.
 *	a regression or new failure	not ok (TIMEOUT/ERROR keep their directive)
 *	a failure the baseline expects	ok # XFAIL known failure: ...
 *	  (or a newer baseline's: ABI growth in transit)
 *	SKIP, BLOCKED			ok # SKIP reason
 *	XFAIL				ok # XFAIL reason
 *	PASS				ok
 * The closing line counts the same: ok and XFAIL passed, SKIP skipped,
 * not ok failed.
 */
enum shown_kind { SHOWN_OK, SHOWN_XFAIL, SHOWN_SKIP, SHOWN_NOT_OK };

struct shown {
	enum shown_kind kind;
	const char *directive;	/* "SKIP", "XFAIL", "TIMEOUT", "ERROR" or NULL */
	char *reason;		/* the directive's text, or NULL */
	char *note;		/* the verdict, for a diagnostic above the line, or NULL */
};

void job_shown(const struct job *j, size_t rec, struct shown *s);
void shown_free(struct shown *s);

/*
 * The binary's block, numbered j->num: its cases as a subtest in the
 * layout's form, then its own result line. verbose: every line it printed;
 * otherwise the diagnostics of the cases that went wrong.
 */
char *ktap_job(const struct job *j, bool verbose, enum ktap_layout layout);

/* A diagnostic line made safe for KTAP and TAP parsers (indent + "# " + text + "\n"). */
void ktap_diag(struct sbuf *out, const char *indent, const char *text);

#endif
