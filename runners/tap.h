/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An incremental parser for the TAP a test binary prints (the kselftest
 * harness's TAP 13, or KTAP): it is fed the binary's output as it arrives,
 * keeps the cases with their observations, and a capped log of the lines.
 */
#ifndef PERFCONF_RUNNER_TAP_H
#define PERFCONF_RUNNER_TAP_H

#include <stdbool.h>
#include <stddef.h>

#include "recset.h"
#include "util.h"

#define TAP_LINE_MAX	4096		/* longer lines are cut */
#define TAP_LOG_MAX	(1u << 20)	/* diagnostics kept per binary */
#define TAP_TAIL	32		/* last lines kept past the cap */
#define TAP_CASES_MAX	10000

struct tcase {
	struct record r;	/* id: the case name, e.g. "global.size_zero" */
	char *reason;		/* text after the directive, or NULL */
	char *cause;		/* "<instrument>: <why>" from a "# CAUSE" line, or NULL */
};

/*
 * The log: one entry per line, "D<text>\n" for a diagnostic or any other
 * line, "R<case index>\n" where a result line was.
 */
struct tap {
	char line[TAP_LINE_MAX + 1];
	size_t llen;
	bool ltrunc;

	bool version;		/* saw "TAP version" / "KTAP version" */
	long plan;		/* -1 until a "1..N" line */
	struct tcase *cases;
	size_t ncases, cases_cap;
	struct record pending;	/* observations waiting for their result line */
	char *harness_timeout;	/* "<case>: Test terminated by timeout" seen */
	char *harness_crash;	/* "<case>: Test terminated unexpectedly by signal N" seen */
	int crash_signal;
	char *pending_cause;	/* a "# CAUSE" line waiting for its result line */
	char *pending_error;	/* a "# ERROR" line: the case could not give a verdict */

	struct sbuf log;
	size_t log_max;
	size_t dropped_lines, dropped_bytes;
	char *tail[TAP_TAIL];
	size_t tail_n;

	size_t bytes, lines;
	struct strv problems;	/* malformed observations and the like */
	struct strv read, wrote;	/* the global state it said it read and changed ("# READS <key>") */
};

void tap_init(struct tap *t);
void tap_feed(struct tap *t, const char *buf, size_t n);
/* End of output: the last partial line, leftovers. */
void tap_finish(struct tap *t);
void tap_free(struct tap *t);
/*
 * After tap_finish() of both: src's cases and log after dst's (a binary
 * run in parts), with what it said it read and changed, its problems and
 * the harness's timeout or crash if dst has none. src keeps its plan and
 * no case.
 */
void tap_append(struct tap *dst, struct tap *src);

/* Replace every byte that is not printable ASCII (or tab) with '?'. */
void sanitize(char *s);

#endif
