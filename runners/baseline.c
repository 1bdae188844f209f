// SPDX-License-Identifier: GPL-2.0
/* Choosing a baseline, comparing results with it, and diffing two of them. */
#include <dirent.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "expect.h"
#include "facts.h"
#include "fixes.h"
#include "util.h"

bool verdict_fails(enum verdict_kind k)
{
	return k == V_REGRESSION || k == V_NEW_FAILURE;
}

const char *verdict_label(enum verdict_kind k)
{
	switch (k) {
	case V_SAME: return "unchanged";
	case V_KNOWN: return "known failure";
	case V_REGRESSION: return "regression";
	case V_IMPROVEMENT: return "improvement";
	case V_CHANGED: return "changed";
	case V_NEW: return "new";
	case V_NEW_FAILURE: return "new failure";
	case V_GONE: return "gone";
	case V_FIXED: return "fixed";
	case V_BLOCKED: return "blocked";
	case V_NEW_OBS: return "new observation";
	case V_TRANSIT: return "ABI growth in transit";
	case V_UNJUDGED: return "not judged here";
	}
	return "?";
}

void verdict_free(struct verdict *v)
{
	free(v->detail);
	v->detail = NULL;
}

/*
 * The observations that differ, or NULL. Both lists are sorted by key:
 * merge them. Two wordings: against a baseline, or as a changelog.
 */
static char *describe_obs(const struct record *e, const struct record *o, bool changelog)
{
	struct sbuf b = { 0 };
	size_t i = 0, k = 0;

	while (i < e->nobs || k < o->nobs) {
		int c = i == e->nobs ? 1 : k == o->nobs ? -1 : strcmp(e->obs[i].key, o->obs[k].key);
		const char *sep = b.len ? "; " : "";

		if (c == 0) {
			if (strcmp(e->obs[i].value, o->obs[k].value))
				sb_printf(&b, changelog ? "%s%s: %s -> %s" : "%s%s: expected %s, observed %s",
					  sep, e->obs[i].key, e->obs[i].value, o->obs[k].value);
			i++, k++;
		} else if (c < 0) {
			sb_printf(&b, changelog ? "%s%s: %s, no longer reported" : "%s%s: expected %s, observed nothing",
				  sep, e->obs[i].key, e->obs[i].value);
			i++;
		} else {
			sb_printf(&b, changelog ? "%s%s: %s, newly reported" : "%s%s: observed %s, not in the baseline",
				  sep, o->obs[k].key, o->obs[k].value);
			k++;
		}
	}
	return b.s;
}

char *describe_change(const struct record *e, const struct record *o)
{
	char *obs = describe_obs(e, o, false), *all;

	if (e->st == o->st)
		return obs;
	all = xasprintf("expected %s, observed %s%s%s", status_name(e->st), status_name(o->st),
			obs ? "; " : "", obs ? obs : "");
	free(obs);
	return all;
}

/* A value of e that o changed or no longer reports. */
static bool obs_lost_or_changed(const struct record *e, const struct record *o)
{
	for (size_t i = 0; i < e->nobs; i++) {
		const char *v = record_obs(o, e->obs[i].key);

		if (!v || strcmp(v, e->obs[i].value))
			return true;
	}
	return false;
}

void judge(struct recset *base, const struct record *o, struct verdict *v)
{
	struct record *e = base ? recset_find(base, o->id) : NULL;

	if (e)
		e->seen = true;
	judge_record(e, o, v);
}

void judge_record(const struct record *e, const struct record *o, struct verdict *v)
{
	memset(v, 0, sizeof(*v));
	if (e) {
		v->exp = e;
		v->detail = describe_change(e, o);
	}
	if (o->st == ST_BLOCKED) {
		v->kind = e && e->st == ST_BLOCKED ? V_SAME : V_BLOCKED;
		return;
	}
	if (!e) {
		v->kind = status_bad(o->st) ? V_NEW_FAILURE : V_NEW;
		return;
	}
	if (e->st == o->st)
		v->kind = obs_lost_or_changed(e, o) ? V_REGRESSION
			: status_bad(o->st) ? V_KNOWN : v->detail ? V_NEW_OBS : V_SAME;
	else if (status_bad(o->st) || e->st == ST_PASS)
		v->kind = V_REGRESSION;
	else if (o->st == ST_PASS || (status_bad(e->st) && o->st == ST_XFAIL))
		v->kind = V_IMPROVEMENT;
	else
		v->kind = V_CHANGED;
}

/*
 * Whether every value of o is one of the alternatives' (e's, up to the
 * first NULL): its status, each observation, each one it no longer
 * reports (gone where some alternative lacks it too).
 */
static bool in_transit(const struct expectation *e, const struct record *o)
{
	size_t n = 0;
	bool ok = false;

	while (n < EXPECT_MAX && e->exp[n])
		n++;
	for (size_t a = 0; a < n; a++)
		ok = ok || o->st == e->exp[a]->st;
	for (size_t i = 0; ok && i < o->nobs; i++) {
		ok = false;
		for (size_t a = 0; a < n && !ok; a++) {
			const char *v = record_obs(e->exp[a], o->obs[i].key);

			ok = v && !strcmp(v, o->obs[i].value);
		}
	}
	for (size_t i = 0; ok && i < e->exp[0]->nobs; i++) {
		bool somewhere_gone = false;

		if (record_obs(o, e->exp[0]->obs[i].key))
			continue;
		for (size_t a = 0; a < n; a++)
			somewhere_gone = somewhere_gone || !record_obs(e->exp[a], e->exp[0]->obs[i].key);
		ok = somewhere_gone;
	}
	return ok;
}

/* A fact's value in words, where a bare token would puzzle. */
static const char *fact_words(const char *fact, const char *value)
{
	if (!strcmp(fact, "paranoid3")) {
		if (!strcmp(value, "as2"))
			return "upstream level 3, as 2";
		if (!strcmp(value, "restrict"))
			return "the restrict patch, CAP_SYS_ADMIN only";
	}
	return value;
}

char *facts_differ(const struct recset *set, const struct record *o, const struct strv *here)
{
	struct sbuf b = { 0 };

	for (size_t i = 0; i < o->deps.n; i++) {
		const char *d = o->deps.v[i], *bv, *hv;
		char bbuf[8], hbuf[8];

		if (!set->has_facts) {
			sb_printf(&b, "the baseline records no facts (record it again with this perfconf)");
			break;
		}
		bv = facts_get(&set->facts, d, bbuf, sizeof(bbuf));
		hv = facts_get(here, d, hbuf, sizeof(hbuf));
		if (!bv || !strcmp(bv, FACT_UNKNOWN))
			sb_printf(&b, "%s%s unknown in the baseline", b.len ? "; " : "", d);
		else if (!hv || !strcmp(hv, FACT_UNKNOWN))
			sb_printf(&b, "%s%s unknown here", b.len ? "; " : "", d);
		else if (strcmp(bv, hv))
			sb_printf(&b, "%s%s differs (baseline: %s; here: %s)", b.len ? "; " : "", d,
				  fact_words(d, bv), fact_words(d, hv));
	}
	return b.s;
}

static const char *base_name(const struct recset *s)
{
	const char *slash = strrchr(s->path, '/');

	return slash ? slash + 1 : s->path;
}

/* detail + "; " + more (either may be NULL), into v->detail. */
static void detail_add(struct verdict *v, char *more)
{
	char *d;

	if (!more)
		return;
	d = v->detail ? xasprintf("%s; %s", v->detail, more) : more;
	if (v->detail) {
		free(v->detail);
		free(more);
	}
	v->detail = d;
}

void judge_facts(const struct judges *j, const struct record *o, struct verdict *v)
{
	struct expectation e;
	const struct recset *from;
	char *why;

	expect(j, o, &e);
	memset(v, 0, sizeof(*v));
	if (o->st == ST_BLOCKED) {
		/* Never a regression whatever the facts: judged as ever, for its cause. */
		judge_record(e.rule == EX_OWN ? e.exp[0] : e.same_anyway, o, v);
		expectation_free(&e);
		return;
	}
	/* What the own baseline has, status and every value, is no regression whatever the facts. */
	if (e.same_anyway) {
		judge_record(e.same_anyway, o, v);
		if (v->kind == V_SAME || v->kind == V_KNOWN || v->kind == V_NEW_OBS) {
			expectation_free(&e);
			return;
		}
		verdict_free(v);
	}
	if (e.rule == EX_NONE) {
		memset(v, 0, sizeof(*v));
		v->exp = e.same_anyway;
		if (!e.recorded) {
			v->kind = status_bad(o->st) ? V_NEW_FAILURE : V_NEW;
		} else if (status_bad(o->st)) {
			v->kind = V_NEW_FAILURE;	/* the case's own assertions failed */
			v->detail = xasprintf("not judged here: %s", e.why ? e.why : "no baseline records it here");
		} else {
			v->kind = V_UNJUDGED;
			v->detail = e.why ? xstrdup(e.why) : xstrdup("no baseline records it here");
		}
		expectation_free(&e);
		return;
	}
	judge_record(e.exp[0], o, v);
	from = e.from[0];
	/* A kernel between two lines: every value as in one of them is ABI growth in transit. */
	if (e.exp[1] && verdict_fails(v->kind) && in_transit(&e, o)) {
		char *was = v->detail ? v->detail : xasprintf("%s, not in the older baseline", status_name(o->st));

		v->detail = xasprintf("%s; as in %s%s%s", was, base_name(e.from[1]), e.exp[2] ? " or " : "",
				      e.exp[2] ? base_name(e.from[2]) : "");
		v->kind = V_TRANSIT;
		free(was);
	}
	if (e.rule != EX_OWN && v->detail)
		detail_add(v, xasprintf("judged by the %s rule: %s (%s)", expect_rule_name(e.rule), e.why, e.files));
	/* A failing or changed verdict names the change behind it where fixes.txt has one. */
	if (j->fixes && v->detail && v->kind != V_SAME && v->kind != V_KNOWN && v->kind != V_NEW_OBS) {
		bool by_versions;

		why = fixes_explain(j->fixes, v->exp, o, j->release ? j->release : "this kernel", from->recorded_on,
				    &by_versions);
		/* A fix one kernel carries and the other lacks, by their versions: a known difference. */
		if (by_versions && v->kind == V_REGRESSION)
			v->kind = V_CHANGED;
		if (why) {
			char *d = xasprintf("%s%s", v->detail, why);

			free(v->detail);
			free(why);
			v->detail = d;
		}
	}
	expectation_free(&e);
}

char *baseline_path(const char *dir, const struct kernel_id *k)
{
	return xasprintf("%s/%s-%d.%d-%s.txt", dir, k->arch, k->major, k->minor, k->profile);
}

/* "<arch>-<major>.<minor>-<profile>.txt" → major, minor when arch and profile match. */
static bool parse_name(const char *name, const struct kernel_id *k, int *major, int *minor)
{
	size_t al = strlen(k->arch), pl = strlen(k->profile), nl = strlen(name);
	int used = 0;

	if (strncmp(name, k->arch, al) || name[al] != '-')
		return false;
	if (sscanf(name + al + 1, "%d.%d-%n", major, minor, &used) != 2 || !used)
		return false;
	name += al + 1 + used;
	nl = strlen(name);
	return nl == pl + 4 && !strncmp(name, k->profile, pl) && !strcmp(name + pl, ".txt");
}

/* The nearest kernel of the same arch and profile below (or above) k, or NULL. */
static char *nearest(const char *dir, const struct kernel_id *k, bool newer)
{
	char *best = NULL;
	int bmaj = -1, bmin = -1;
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		int maj, min, side;

		if (!parse_name(e->d_name, k, &maj, &min))
			continue;
		side = maj != k->major ? maj - k->major : min - k->minor;
		if (side == 0 || (side > 0) != newer)
			continue;
		if (!best || (newer ? (maj < bmaj || (maj == bmaj && min < bmin))
				    : (maj > bmaj || (maj == bmaj && min > bmin)))) {
			bmaj = maj;
			bmin = min;
			free(best);
			best = xasprintf("%s/%s", dir, e->d_name);
		}
	}
	closedir(d);
	return best;
}

char *baseline_find(const char *dir, const struct kernel_id *k, bool *fallback)
{
	char *exact = baseline_path(dir, k), *best;
	FILE *f = fopen(exact, "r");

	*fallback = false;
	if (f) {
		fclose(f);
		return exact;
	}
	free(exact);
	best = nearest(dir, k, false);
	*fallback = best != NULL;
	return best;
}

char *baseline_find_newer(const char *dir, const struct kernel_id *k)
{
	return nearest(dir, k, true);
}

static void list_section(FILE *out, const char *title, struct strv *lines)
{
	if (!lines->n)
		return;
	fprintf(out, "\n%s (%zu):\n", title, lines->n);
	for (size_t i = 0; i < lines->n; i++)
		fprintf(out, "  %s\n", lines->v[i]);
}

int baseline_diff(struct recset *a, struct recset *b, FILE *out)
{
	struct strv worse = { 0 }, better = { 0 }, changed = { 0 }, obs = { 0 };
	struct strv added = { 0 }, removed = { 0 };
	size_t same = 0;

	recset_sort(a);
	recset_sort(b);
	for (size_t i = 0; i < a->n; i++)
		a->v[i].seen = false;
	for (size_t i = 0; i < b->n; i++) {
		struct record *r = &b->v[i];
		struct verdict v;
		char *line, *o;

		judge(a, r, &v);
		switch (v.kind) {
		case V_SAME:
		case V_KNOWN:
			same++;
			break;
		case V_NEW:
		case V_NEW_FAILURE:
		added:
			record_format(r, &line);
			strv_add(&added, line);
			free(line);
			break;
		case V_REGRESSION:
		case V_NEW_OBS:
			o = describe_obs(v.exp, r, true);
			if (v.exp->st == r->st)
				strv_addf(&obs, "%s: %s", r->id, o);
			else
				strv_addf(&worse, "%s: %s -> %s%s%s%s", r->id, status_name(v.exp->st),
					  status_name(r->st), o ? " (" : "", o ? o : "", o ? ")" : "");
			free(o);
			break;
		case V_IMPROVEMENT:
			strv_addf(&better, "%s: %s -> %s", r->id, status_name(v.exp->st), status_name(r->st));
			break;
		default:
			if (!v.exp)
				goto added;	/* a new BLOCKED case */
			strv_addf(&changed, "%s: %s -> %s", r->id, status_name(v.exp->st), status_name(r->st));
			break;
		}
		verdict_free(&v);
	}
	for (size_t i = 0; i < a->n; i++) {
		char *line;

		if (a->v[i].seen)
			continue;
		record_format(&a->v[i], &line);
		strv_add(&removed, line);
		free(line);
	}

	fprintf(out, "perfconf diff\n--- %s%s%s%s\n+++ %s%s%s%s\n",
		a->path, a->recorded_on ? " (recorded on " : "", a->recorded_on ? a->recorded_on : "",
		a->recorded_on ? ")" : "",
		b->path, b->recorded_on ? " (recorded on " : "", b->recorded_on ? b->recorded_on : "",
		b->recorded_on ? ")" : "");
	{
		/* The facts the two were recorded under, where they differ. */
		struct strv facts = { 0 };

		for (size_t i = 0; i < a->facts.n; i++) {
			char name[128], buf[8];
			const char *av = strchr(a->facts.v[i], '=') + 1, *bv;

			snprintf(name, sizeof(name), "%.*s", (int)(av - 1 - a->facts.v[i]), a->facts.v[i]);
			bv = facts_get(&b->facts, name, buf, sizeof(buf));
			if (b->has_facts && (!bv || strcmp(av, bv)))
				strv_addf(&facts, "%s: %s -> %s", name, av, bv ? bv : FACT_UNKNOWN);
		}
		list_section(out, "Facts that differ (cases that depend on them are compared all the same here)",
			     &facts);
		strv_free(&facts);
	}
	list_section(out, "Now failing or no longer passing", &worse);
	list_section(out, "Observations changed", &obs);
	list_section(out, "Now passing", &better);
	list_section(out, "Other status changes", &changed);
	list_section(out, "Added cases", &added);
	list_section(out, "Removed cases", &removed);
	fprintf(out, "\n%zu unchanged, %zu changed, %zu added, %zu removed\n", same,
		worse.n + obs.n + better.n + changed.n, added.n, removed.n);
	{
		int differ = worse.n || obs.n || better.n || changed.n || added.n || removed.n;

		strv_free(&worse);
		strv_free(&better);
		strv_free(&changed);
		strv_free(&obs);
		strv_free(&added);
		strv_free(&removed);
		return differ;
	}
}
