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
 *
 * Under equal facts (facts.h): a case that declared the facts it depends
 * on is judged only against a baseline recorded under the same values
 * (what equals the baseline's line, status and values, is unchanged
 * whatever the facts). Where the chosen baseline's differ (or are unknown
 * on either side), or it lacks the case, the rules across every baseline
 * judge it (expect.h); where none does, the case is "not judged here:
 * <fact> differs (baseline: X; here: Y)" or the rules' reason, never a
 * regression (a FAIL, ERROR or TIMEOUT is still a new failure: the case's
 * own assertions failed).
 */
#ifndef PERFCONF_RUNNER_BASELINE_H
#define PERFCONF_RUNNER_BASELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "recset.h"

struct fixes;

enum verdict_kind {
	V_SAME, V_KNOWN, V_REGRESSION, V_IMPROVEMENT, V_CHANGED,
	V_NEW, V_NEW_FAILURE, V_GONE, V_FIXED,
	V_BLOCKED, V_NEW_OBS, V_TRANSIT, V_UNJUDGED,
};

struct verdict {
	enum verdict_kind kind;
	const struct record *exp;	/* NULL for new cases */
	char *detail;			/* "expected PASS, observed FAIL; errno: expected EINVAL, observed E2BIG" */
};

/* Judge one observed record against the baseline (which may be NULL); marks the match seen. */
void judge(struct recset *base, const struct record *obs, struct verdict *v);
/* The same against one expected record (NULL: none). */
void judge_record(const struct record *exp, const struct record *obs, struct verdict *v);
struct expect_all;
/* The baselines a run judges with, and this machine's facts. */
struct judges {
	struct recset *base, *newer;	/* this kernel's, and the newer one for a kernel between two; or NULL */
	bool base_other_line;		/* base is the nearest kernel line of this arch, not this one */
	const struct expect_all *all;	/* every baseline, for the rules beyond the own (expect.h); or NULL */
	const struct strv *here;	/* this machine's facts (facts.h) */
	const struct fixes *fixes;	/* the changes behind known differences (fixes.h), or NULL */
	const char *release;		/* this kernel's, for their wording */
};
/*
 * A case against what expect() says of it (expect.h): the own baseline
 * under equal facts (above), else the rules across arches and kernel
 * lines; a failing or changed verdict names the change behind it where
 * fixes.txt has one.
 */
void judge_facts(const struct judges *j, const struct record *obs, struct verdict *v);
/*
 * Why set cannot judge obs here: its facts differ from here's, or one side
 * does not know them, for a fact obs depends on; NULL when it can.
 */
char *facts_differ(const struct recset *set, const struct record *obs, const struct strv *here);

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
	char variant[64];	/* what profile adds to the PMUs' part: "i386", "vhe"; "" for none */
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
