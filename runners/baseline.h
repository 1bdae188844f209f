/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Baselines: which file applies to this kernel, how a result compares with
 * it, and the diff between two files.
 *
 * File name: expected/<arch>-<major>.<minor>-<profile>.txt
 * Comparing one case, expected E (from the baseline) and observed O:
 *	O is BLOCKED (and E is not)	blocked: this machine cannot test it
 *	same status and observations	unchanged (a FAIL/ERROR/TIMEOUT is a known failure)
 *	same status, a value differs or vanished	regression
 *	same status, only keys E lacks	new observation
 *	O is FAIL/ERROR/TIMEOUT, or E is PASS	regression
 *	O is PASS, or E failed and O is XFAIL	improvement
 *	anything else (FAIL->SKIP, SKIP<->XFAIL)	changed
 *	no E: O failed			new failure; otherwise new
 *	no O (case not reported)	gone; a binary's own ERROR/TIMEOUT line that
 *					no longer appears is an improvement (fixed)
 * Between two baselines (a kernel with none of its own, older and newer
 * ones of the same arch and profile): a regression or new failure against
 * the older one whose every differing value (the status, each
 * observation) equals the newer one's is ABI growth in transit.
 */
#ifndef PERFCONF_RUNNER_BASELINE_H
#define PERFCONF_RUNNER_BASELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "recset.h"

enum verdict_kind {
	V_SAME, V_KNOWN, V_REGRESSION, V_IMPROVEMENT, V_CHANGED,
	V_NEW, V_NEW_FAILURE, V_GONE, V_FIXED,
	V_BLOCKED, V_NEW_OBS, V_TRANSIT,
};

struct verdict {
	enum verdict_kind kind;
	const struct record *exp;	/* NULL for new cases */
	char *detail;			/* "expected PASS, observed FAIL; errno: expected EINVAL, observed E2BIG" */
};

/* Judge one observed record against the baseline (which may be NULL); marks the match seen. */
void judge(struct recset *base, const struct record *obs, struct verdict *v);
/* The same between an older baseline and a newer one (which may be NULL). */
void judge_between(struct recset *older, const struct recset *newer, const struct record *obs,
		   struct verdict *v);
/* A failing verdict: makes the run exit 1. */
bool verdict_fails(enum verdict_kind k);
const char *verdict_label(enum verdict_kind k);
void verdict_free(struct verdict *v);

/* "expected X, observed Y" for a status and/or observations that differ; NULL if equal. */
char *describe_change(const struct record *exp, const struct record *obs);

struct kernel_id {
	char release[128];	/* uname -r */
	char arch[72];		/* uname -m */
	int major, minor;
	char profile[256];	/* see profile.c */
};

/* expected/<arch>-<major>.<minor>-<profile>.txt for this kernel. */
char *baseline_path(const char *dir, const struct kernel_id *k);
/*
 * The baseline for this kernel, or the nearest older kernel of the same
 * arch and profile (*fallback set), or NULL when there is none.
 */
char *baseline_find(const char *dir, const struct kernel_id *k, bool *fallback);
/* The nearest newer kernel's baseline of the same arch and profile, or NULL. */
char *baseline_find_newer(const char *dir, const struct kernel_id *k);

/*
 * `perfconf diff A B`: what changed from A to B, as a changelog. Returns 0
 * when they are the same, 1 when they differ.
 */
int baseline_diff(struct recset *a, struct recset *b, FILE *out);

#endif
