/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding the test binaries: every executable <dir>/tests/<area>/<binary>,
 * named "<area>/<binary>", selected by globs, with the metadata compiled
 * into it (PERFCONF_META) and the timeout that applies to it.
 */
#ifndef PERFCONF_RUNNER_DISCOVER_H
#define PERFCONF_RUNNER_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

#include "runner.h"

struct selection {
	struct strv include;	/* -t: none means all */
	struct strv exclude;	/* -x */
};

/* A glob matches "<area>/<binary>" or the area alone ('*' crosses '/'). */
bool selected(const struct selection *s, const char *name);

/* Sorted jobs; -1 with a message in err when dir/tests cannot be read. */
int discover(const char *dir, const struct selection *sel, struct job **jobs, size_t *n,
	     char *err, size_t errlen);

/* timeouts.conf: "<glob> <seconds>" lines, '#' comments; the first match wins. */
struct timeout_rule {
	char *glob;
	double secs;
	int line;
};
struct timeouts {
	struct timeout_rule *v;
	size_t n, cap;
	char *path;
};
/* A missing file is an empty one unless `required`; -1 with "file:line: what" in err. */
int timeouts_load(struct timeouts *t, const char *path, bool required, char *err, size_t errlen);
void timeouts_free(struct timeouts *t);

/*
 * Each job's timeout: its own PERFCONF_META timeout=, else the first
 * matching rule, else the default.
 */
void apply_timeouts(struct job *jobs, size_t n, const struct timeouts *t, double dflt,
		    const char *dflt_from);

/* Parse a positive number of seconds ("60", "0.5"); false if it is not one. */
bool parse_seconds(const char *s, double *out);

#endif
