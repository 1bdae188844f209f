// SPDX-License-Identifier: GPL-2.0
/* What is expected of a case here, and why (expect.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "facts.h"

/* The facts that may separate the arches' values of a line, the most general first. */
static const char *const separating[] = { "byte_order", "word_size", "page_size", "arch", "userland" };
#define NSEPARATING (sizeof(separating) / sizeof(separating[0]))

/* A path's file name. */
static const char *leaf(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

const char *expect_rule_name(enum expect_rule r)
{
	switch (r) {
	case EX_NONE: return "first seen";
	case EX_OWN: return "own";
	case EX_ABI: return "abi";
	case EX_LINE: return "line";
	case EX_BETWEEN: return "between";
	}
	return "?";
}

/* The facts a baseline's file name gives (expect.h), for a kernel (arch as uname -m, profile with its variant). */
static void facts_of_kernel(struct strv *out, const char *arch, const char *profile, int major, int minor)
{
	const char *dash = strrchr(profile, '-'), *userland = arch;

	/* The compat variants run a 32-bit suite on a 64-bit kernel. */
	if (dash && (!strcmp(dash + 1, "i386") || !strcmp(dash + 1, "armhf")))
		userland = dash + 1;
	strv_addf(out, "arch=%s", arch);
	strv_addf(out, "userland=%s", userland);
	strv_addf(out, "word_size=%d", !strcmp(userland, "i386") || !strcmp(userland, "armhf") ? 32 : 64);
	strv_addf(out, "byte_order=%s", !strcmp(arch, "s390x") || !strcmp(arch, "ppc64") ? "big" : "little");
	strv_addf(out, "line=%d.%d", major, minor);
}

/* "<arch>-<M>.<m>-<profile>.txt" */
static bool parse_file_name(const char *name, char *arch, size_t alen, int *major, int *minor, char *profile,
			    size_t plen)
{
	const char *dash, *txt = strstr(name, ".txt");
	int used = 0;

	if (!txt || txt[4] || !(dash = strchr(name, '-')) || (size_t)(dash - name) >= alen)
		return false;
	snprintf(arch, alen, "%.*s", (int)(dash - name), name);
	if (sscanf(dash + 1, "%d.%d-%n", major, minor, &used) != 2 || !used || dash + 1 + used >= txt)
		return false;
	snprintf(profile, plen, "%.*s", (int)(txt - (dash + 1 + used)), dash + 1 + used);
	return true;
}

void expect_kernel_facts(struct recset *set)
{
	char arch[72], profile[256];
	struct strv add = { 0 };
	int major, minor;

	if (!(set->kernel && sscanf(set->kernel, "%71s %d.%d %255s", arch, &major, &minor, profile) == 4) &&
	    !parse_file_name(leaf(set->path), arch, sizeof(arch), &major, &minor, profile, sizeof(profile)))
		return;
	facts_of_kernel(&add, arch, profile, major, minor);
	for (size_t i = 0; i < add.n; i++) {
		size_t name = strcspn(add.v[i], "=");
		bool have = false;

		for (size_t k = 0; k < set->facts.n && !have; k++)
			have = !strncmp(set->facts.v[k], add.v[i], name + 1);
		if (!have)
			strv_add(&set->facts, add.v[i]);
	}
	strv_free(&add);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct expect_file *)a)->name, ((const struct expect_file *)b)->name);
}

int expect_load(struct expect_all *x, const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = 0;

	memset(x, 0, sizeof(*x));
	if (!d)
		return 0;	/* no baselines: nothing judges */
	while ((de = readdir(d))) {
		char arch[72], profile[256], *path;
		struct expect_file *f;
		int major, minor;

		if (!parse_file_name(de->d_name, arch, sizeof(arch), &major, &minor, profile, sizeof(profile)))
			continue;
		grow(&x->v, &cap, x->n + 1, sizeof(*x->v));
		f = &x->v[x->n];
		memset(f, 0, sizeof(*f));
		path = xasprintf("%s/%s", dir, de->d_name);
		if (recset_load(&f->set, path, err, errlen)) {
			free(path);
			closedir(d);
			recset_free(&f->set);
			expect_free(x);
			return -1;
		}
		free(path);
		x->n++;
		f->name = leaf(f->set.path);
		f->major = major;
		f->minor = minor;
		expect_kernel_facts(&f->set);
	}
	closedir(d);
	qsort(x->v, x->n, sizeof(*x->v), by_name);	/* the same order on every machine */
	return 0;
}

void expect_here(struct expect_all *x, const struct kernel_id *k, const struct strv *here)
{
	strv_free(&x->here);
	for (size_t i = 0; i < here->n; i++)
		strv_add(&x->here, here->v[i]);
	facts_of_kernel(&x->here, k->arch, k->profile, k->major, k->minor);
	x->major = k->major;
	x->minor = k->minor;
}

void expect_free(struct expect_all *x)
{
	for (size_t i = 0; i < x->n; i++) {
		recset_free(&x->v[i].set);
	}
	free(x->v);
	strv_free(&x->here);
	memset(x, 0, sizeof(*x));
}

void expectation_free(struct expectation *e)
{
	free(e->files);
	free(e->why);
	memset(e, 0, sizeof(*e));
}

/* The same status and the same observations. */
static bool same_value(const struct record *a, const struct record *b)
{
	if (a->st != b->st || a->nobs != b->nobs)
		return false;
	for (size_t i = 0; i < a->nobs; i++) {
		const char *v = record_obs(b, a->obs[i].key);

		if (!v || strcmp(v, a->obs[i].value))
			return false;
	}
	return true;
}

static const char *fact(const struct strv *facts, const char *name, char *buf, size_t len)
{
	const char *v = facts_get(facts, name, buf, len);

	return v && strcmp(v, FACT_UNKNOWN) ? v : NULL;
}

/* A baseline's record of the case, with its file. */
struct cand {
	const struct expect_file *f;
	const struct record *r;
};

static int line_cmp(const struct expect_file *f, int major, int minor)
{
	return f->major != major ? f->major - major : f->minor - minor;
}

/*
 * The one value of the candidates c[0..n) of one line, where they agree,
 * or where those that share this machine's value of a separating fact
 * agree, the most general fact first (*sep). NULL otherwise, with why.
 */
static const struct cand *line_value(const struct expect_all *x, const struct cand *c, size_t n,
				     const char **sep, char **why)
{
	char hb[8], fb[8];

	*sep = NULL;
	for (size_t i = 1; i < n; i++)
		if (!same_value(c[0].r, c[i].r))
			goto differ;
	return &c[0];
differ:
	for (size_t s = 0; s < NSEPARATING; s++) {
		const char *hv = fact(&x->here, separating[s], hb, sizeof(hb)), *fv;
		const struct cand *mine = NULL;
		bool agree = hv != NULL;

		for (size_t i = 0; i < n && agree; i++) {
			if (!(fv = fact(&c[i].f->set.facts, separating[s], fb, sizeof(fb))) || strcmp(fv, hv))
				continue;
			agree = !mine || same_value(mine->r, c[i].r);
			mine = mine ? mine : &c[i];
		}
		if (agree && mine) {
			*sep = separating[s];
			return mine;
		}
	}
	if (why)
		*why = xasprintf("its value differs between the baselines of %d.%d, and no fact that separates "
				 "them (byte order, word size, page size, arch, userland) is this machine's",
				 c[0].f->major, c[0].f->minor);
	return NULL;
}

/* The file names of c[0..n), comma-separated. */
static char *names(const struct cand *c, size_t n)
{
	struct sbuf b = { 0 };

	for (size_t i = 0; i < n; i++)
		sb_printf(&b, "%s%s", i ? ", " : "", c[i].f->name);
	return b.s ? b.s : xstrdup("");
}

/* The candidates of line major.minor (c sorted by line). */
static size_t of_line(const struct cand *c, size_t n, int major, int minor, size_t *first)
{
	size_t k = 0;

	*first = n;
	for (size_t i = 0; i < n; i++)
		if (!line_cmp(c[i].f, major, minor)) {
			if (*first == n)
				*first = i;
			k++;
		}
	return k;
}

static int cand_by_line(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int d = line_cmp(x->f, y->f->major, y->f->minor);

	return d ? d : strcmp(x->f->name, y->f->name);
}

/* The rules beyond the own baseline (expect.h), over every file of x. */
static void expect_rules(const struct expect_all *x, const struct record *o, struct expectation *e)
{
	struct cand *c = xcalloc(x->n ? x->n : 1, sizeof(*c));
	size_t n = 0, lines = 0, first, k;
	const char *excluded = NULL, *sep;
	const struct cand *lo = NULL, *hi = NULL, *v;
	char hb[64], fb[64];
	bool agree = true;

	/* A fact no recording baseline shares with this machine is the one to name. */
	bool *shared = xcalloc(o->deps.n + 1, sizeof(*shared));

	for (size_t i = 0; i < x->n; i++) {
		const struct expect_file *f = &x->v[i];
		const struct record *r = recset_find(&f->set, o->id);
		bool equal = true;

		if (!r || r->st == ST_BLOCKED)
			continue;
		e->recorded = true;
		for (size_t d = 0; d < o->deps.n; d++) {
			const char *fv = fact(&f->set.facts, o->deps.v[d], fb, sizeof(fb));
			const char *hv = fact(&x->here, o->deps.v[d], hb, sizeof(hb));

			if (!fv || !hv || strcmp(fv, hv)) {
				equal = false;
				if (!excluded)
					excluded = o->deps.v[d];
			} else {
				shared[d] = true;
			}
		}
		if (equal)
			c[n++] = (struct cand){ f, r };
	}
	for (size_t d = 0; d < o->deps.n && !n; d++)
		if (!shared[d]) {
			excluded = o->deps.v[d];
			break;
		}
	free(shared);
	if (!n) {
		if (excluded) {
			const char *hv = fact(&x->here, excluded, hb, sizeof(hb));

			e->why = xasprintf("no baseline records it under %s=%s", excluded, hv ? hv : FACT_UNKNOWN);
		}
		free(c);
		return;
	}
	qsort(c, n, sizeof(*c), cand_by_line);
	for (size_t i = 0; i < n; i++) {
		lines += i == 0 || line_cmp(c[i].f, c[i - 1].f->major, c[i - 1].f->minor);
		agree = agree && same_value(c[0].r, c[i].r);
	}
	/* abi: the same everywhere, over two lines or more. */
	if (agree && lines >= 2) {
		e->rule = EX_ABI;
		e->exp[0] = c[0].r;
		e->from[0] = &c[0].f->set;
		e->files = names(c, n);
		e->why = xasprintf("every baseline that records it agrees, over %zu kernel lines", lines);
		free(c);
		return;
	}
	/* line: this kernel line's baselines. */
	k = of_line(c, n, x->major, x->minor, &first);
	if (k) {
		v = line_value(x, c + first, k, &sep, &e->why);
		if (v) {
			e->rule = EX_LINE;
			e->exp[0] = v->r;
			e->from[0] = &v->f->set;
			e->files = names(c + first, k);
			e->why = sep ? xasprintf("the baselines of %d.%d, of this machine's %s", x->major, x->minor, sep)
				     : xasprintf("the baselines of %d.%d agree", x->major, x->minor);
		}
		free(c);
		return;
	}
	/* between: the nearest line on each side, each with one value here. */
	for (size_t i = 0; i < n; i++) {
		if (line_cmp(c[i].f, x->major, x->minor) < 0)
			lo = &c[i];
		else if (!hi)
			hi = &c[i];
	}
	if (!lo || !hi) {
		const struct cand *side = lo ? lo : hi;

		e->why = xasprintf("it was recorded on kernel lines %s %d.%d only (up to %d.%d), whose values it "
				   "cannot carry over alone", lo ? "below" : "above", x->major, x->minor,
				   side->f->major, side->f->minor);
		free(c);
		return;
	}
	{
		size_t flo, fhi, nlo = of_line(c, n, lo->f->major, lo->f->minor, &flo);
		size_t nhi = of_line(c, n, hi->f->major, hi->f->minor, &fhi);
		const char *seplo, *sephi;
		const struct cand *vlo = line_value(x, c + flo, nlo, &seplo, &e->why);
		const struct cand *vhi = vlo ? line_value(x, c + fhi, nhi, &sephi, &e->why) : NULL;

		if (vlo && vhi) {
			char *a = names(c + flo, nlo), *b = names(c + fhi, nhi);

			e->rule = EX_BETWEEN;
			e->exp[0] = vlo->r;
			e->from[0] = &vlo->f->set;
			if (!same_value(vlo->r, vhi->r)) {
				e->exp[1] = vhi->r;
				e->from[1] = &vhi->f->set;
			}
			e->files = xasprintf("%s; %s", a, b);
			e->why = xasprintf("the kernel lines either side, %d.%d and %d.%d%s", lo->f->major,
					   lo->f->minor, hi->f->major, hi->f->minor,
					   e->exp[1] ? ", whose values differ: either" : ", which agree");
			free(a);
			free(b);
		}
	}
	free(c);
}

/*
 * A kernel judged by its arch's other lines: where the rules over every
 * baseline give other values (this line's other arches; the nearest lines
 * either side whose facts are this machine's), any of them is accepted.
 */
static void also_the_rules(const struct expect_all *x, const struct record *o, struct expectation *e)
{
	struct expectation l = { 0 };
	size_t n = 0, added = 0;
	char *s;

	expect_rules(x, o, &l);
	while (n < EXPECT_MAX && e->exp[n])
		n++;
	for (size_t k = 0; (l.rule == EX_LINE || l.rule == EX_BETWEEN) && k < EXPECT_MAX && l.exp[k]; k++) {
		bool known = false;

		for (size_t i = 0; i < n; i++)
			known = known || same_value(e->exp[i], l.exp[k]);
		if (known || n == EXPECT_MAX)
			continue;
		e->exp[n] = l.exp[k];
		e->from[n++] = l.from[k];
		added++;
	}
	if (added) {
		s = xasprintf("%s; %s", e->files, l.files);
		free(e->files);
		e->files = s;
		s = xasprintf("%s, or by the %s rule, %s, whose value differs: any", e->why, expect_rule_name(l.rule),
			      l.why);
		free(e->why);
		e->why = s;
	}
	expectation_free(&l);
}

void expect(const struct judges *j, const struct record *o, struct expectation *e)
{
	struct record *r = j->base ? recset_find(j->base, o->id) : NULL;
	char *differ = NULL;

	memset(e, 0, sizeof(*e));
	if (r)
		r->seen = true;
	if (r && o->deps.n)
		differ = facts_differ(j->base, o, j->here);
	/* own: this kernel's baseline (and the newer one for a kernel between two). */
	if (r && !differ) {
		char *newer_differs = j->newer && o->deps.n ? facts_differ(j->newer, o, j->here) : NULL;
		const struct record *n = j->newer && !newer_differs ? recset_find(j->newer, o->id) : NULL;

		e->rule = EX_OWN;
		e->recorded = true;
		e->exp[0] = r;
		e->from[0] = j->base;
		if (n && !same_value(r, n)) {
			e->exp[1] = n;
			e->from[1] = j->newer;
		}
		e->files = n ? xasprintf("%s; %s", leaf(j->base->path), leaf(j->newer->path))
			     : xstrdup(leaf(j->base->path));
		e->why = xstrdup(j->newer ? "this kernel's arch and profile, the kernel lines either side"
				 : j->base_other_line ? "this kernel's arch and profile, the nearest kernel line"
						      : "this kernel's baseline");
		free(newer_differs);
		if (j->base_other_line && j->all)
			also_the_rules(j->all, o, e);
		return;
	}
	e->same_anyway = r;
	if (j->all)
		expect_rules(j->all, o, e);
	if (r)
		e->recorded = true;
	if (e->rule == EX_NONE && differ) {
		free(e->why);
		e->why = differ;	/* the own baseline's fact, in its words */
		differ = NULL;
	}
	free(differ);
}
