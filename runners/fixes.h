/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The changes behind observations that differ between kernel lines
 * (expected/fixes.txt, LTP's .tags derived from the baselines): which
 * commit makes a case show which value, so that a regression reads
 *
 *	6.18.15+deb13-amd64 lacks "perf: Reject exited events as group
 *	leaders" (fa091f46c383; stable 7.1.10, 6.18.46, ...)
 *
 * One line per case and key (the file's header says the rest):
 *	<case-id or pattern> <key>=<value> <id12|unknown|debian> "<title>" [stable=..] [since=..] [introduced=..] [patch=..]
 */
#ifndef PERFCONF_RUNNER_FIXES_H
#define PERFCONF_RUNNER_FIXES_H

#include <stdbool.h>
#include <stddef.h>

#include "recset.h"

struct fix {
	char *id;		/* case id, or a pattern (fnmatch) when glob */
	int glob;		/* the id has a '*' */
	char *key, *value;	/* "status" or an observation key; what a kernel with the change shows */
	char *commit;		/* 12 hex digits, "unknown" or "debian" */
	char *title;
	char *stable, *since, *introduced, *patch;	/* NULL when not given */
	int line;
};

struct fixes {
	struct fix *v;
	size_t n, cap;
};

/* Load path; a missing file is no fixes (0). -1 with "file:line: what" in err. */
int fixes_load(struct fixes *f, const char *path, char *err, size_t errlen);
void fixes_free(struct fixes *f);

/*
 * What explains the change from exp (a baseline's record, recorded on
 * `was`) to obs (this run's, on `release`): "; <release> lacks/carries
 * '<title>' (<commit>...)" for each key that changed and has a line, or
 * NULL. A change is not named where the two kernels' versions say both
 * carry it or both lack it (since= and stable=): the difference has
 * another cause. *by_versions: every change is a fix that one of the two
 * kernels carries and the other lacks, by their versions (one is an older
 * stable release).
 */
char *fixes_explain(const struct fixes *f, const struct record *exp, const struct record *obs,
		    const char *release, const char *was, bool *by_versions);

#endif
