// SPDX-License-Identifier: GPL-2.0
/* Reading expected/fixes.txt and naming the change behind a regression (fixes.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixes.h"
#include "util.h"

void fixes_free(struct fixes *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct fix *x = &f->v[i];

		free(x->id);
		free(x->key);
		free(x->value);
		free(x->commit);
		free(x->title);
		free(x->stable);
		free(x->since);
		free(x->introduced);
		free(x->patch);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* The next space-separated token of *p (a "quoted title" whole), or NULL; *p moves past it. */
static char *token(char **p, bool *quoted)
{
	char *s = *p + strspn(*p, " \t"), *e;

	*quoted = *s == '"';
	if (!*s)
		return NULL;
	if (*quoted) {
		e = strchr(s + 1, '"');
		if (!e)
			return NULL;
		*p = e + 1;
		return xstrndup(s + 1, e - s - 1);
	}
	e = s + strcspn(s, " \t");
	*p = e;
	return xstrndup(s, e - s);
}

static bool is_commit(const char *c)
{
	if (!strcmp(c, "unknown") || !strcmp(c, "debian"))
		return true;
	return strlen(c) == 12 && strspn(c, "0123456789abcdef") == 12;
}

static int parse(struct fix *x, char *line, char *why, size_t len)
{
	char *p = line, *t, *eq;
	bool q;

	x->id = token(&p, &q);
	x->glob = x->id && strchr(x->id, '*');
	if (!x->id || q || (!x->glob && !case_id_valid(x->id))) {
		snprintf(why, len, "expected a case id first");
		return -1;
	}
	t = token(&p, &q);
	eq = t && !q ? strchr(t, '=') : NULL;
	if (!eq || eq == t || !eq[1]) {
		snprintf(why, len, "expected <key>=<value> after the case id");
		free(t);
		return -1;
	}
	x->key = xstrndup(t, eq - t);
	x->value = xstrdup(eq + 1);
	free(t);
	x->commit = token(&p, &q);
	if (!x->commit || q || !is_commit(x->commit)) {
		snprintf(why, len, "expected a 12-digit commit id, \"unknown\" or \"debian\" after %s=%s",
			 x->key, x->value);
		return -1;
	}
	x->title = token(&p, &q);
	if (!x->title || !q) {
		snprintf(why, len, "expected the \"title\" in double quotes after the commit");
		return -1;
	}
	while ((t = token(&p, &q))) {
		char **slot = NULL;

		if (!q && !strncmp(t, "stable=", 7))
			slot = &x->stable;
		else if (!q && !strncmp(t, "since=", 6))
			slot = &x->since;
		else if (!q && !strncmp(t, "introduced=", 11))
			slot = &x->introduced;
		else if (!q && !strncmp(t, "patch=", 6))
			slot = &x->patch;
		if (!slot || *slot) {
			snprintf(why, len, "\"%s\": expected stable=, since=, introduced= or patch=, each once", t);
			free(t);
			return -1;
		}
		*slot = xstrdup(strchr(t, '=') + 1);
		free(t);
	}
	return 0;
}

int fixes_load(struct fixes *f, const char *path, char *err, size_t errlen)
{
	char *text = read_file(path, NULL), *line, *save = NULL;
	int lineno = 0;

	memset(f, 0, sizeof(*f));
	if (!text) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	/* strtok_r would skip empty lines and lose the count: split by hand */
	for (line = text; line; line = save) {
		char why[256];

		save = strchr(line, '\n');
		if (save)
			*save++ = 0;
		lineno++;
		line += strspn(line, " \t");
		if (!*line || *line == '#')
			continue;
		grow(&f->v, &f->cap, f->n + 1, sizeof(*f->v));
		/* in the set even when malformed, so that fixes_free frees it */
		f->v[f->n++] = (struct fix){ .line = lineno };
		if (parse(&f->v[f->n - 1], line, why, sizeof(why))) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
			fixes_free(f);
			free(text);
			return -1;
		}
	}
	free(text);
	return 0;
}

static const struct fix *find(const struct fixes *f, const char *id, const char *key)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct fix *x = &f->v[i];

		if (strcmp(x->key, key))
			continue;
		if (x->glob ? !fnmatch(x->id, id, 0) : !strcmp(id, x->id))
			return x;
	}
	return NULL;
}

static const char *value_of(const struct record *r, const char *key)
{
	if (!r)
		return NULL;
	return strcmp(key, "status") ? record_obs(r, key) : status_name(r->st);
}

static void name_it(struct sbuf *b, const struct fix *x)
{
	if (!strcmp(x->commit, "debian")) {
		sb_printf(b, "Debian's patch \"%s\"%s%s%s", x->title, x->patch ? " (" : "", x->patch ? x->patch : "",
			  x->patch ? ")" : "");
		return;
	}
	sb_printf(b, "\"%s\" (%s", x->title, x->commit);
	if (x->since)
		sb_printf(b, ", mainline %s", x->since);
	if (x->stable)
		sb_printf(b, ", stable %s", x->stable);
	sb_puts(b, ")");
}

/* "6.12.117+deb13-amd64", "v7.2", "6.18": major, minor, patch (0 when absent); false if none. */
static bool version_parse(const char *s, int v[3])
{
	int n = 0;

	v[0] = v[1] = v[2] = 0;
	if (!s)
		return false;
	if (*s == 'v')
		s++;
	if (sscanf(s, "%d.%d.%d%n", &v[0], &v[1], &v[2], &n) == 3)
		return true;
	v[2] = 0;
	return sscanf(s, "%d.%d", &v[0], &v[1]) == 2;
}

/*
 * Whether a kernel of `release` carries the fix by its version: 1 yes, 0 no,
 * -1 when the versions cannot tell (no since=, an unparsable release).
 * Mainline from since= on; before it, the stable branch of its line from
 * the listed release on; a line with no backport listed lacks it.
 */
static int fix_carried(const struct fix *x, const char *release)
{
	int r[3], v[3];
	const char *p;

	if (!x->since || !version_parse(x->since, v) || !version_parse(release, r))
		return -1;
	if (r[0] != v[0] ? r[0] > v[0] : r[1] >= v[1])
		return 1;
	for (p = x->stable; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		int b[3];

		if (version_parse(p, b) && b[0] == r[0] && b[1] == r[1])
			return r[2] >= b[2];
	}
	return 0;
}

/* The same M.m.p release (6.12.117 and 6.12.117+deb13-amd64), or unknown: false. */
static bool same_version(const char *a, const char *b)
{
	int x[3], y[3];

	return a && b && sscanf(a, "%d.%d.%d", &x[0], &x[1], &x[2]) == 3 &&
	       sscanf(b, "%d.%d.%d", &y[0], &y[1], &y[2]) == 3 && !memcmp(x, y, sizeof(x));
}

char *fixes_explain(const struct fixes *f, const struct record *e, const struct record *o,
		    const char *release, const char *was, bool *by_versions)
{
	struct sbuf b = { 0 };
	const char *keys[64];
	size_t nk = 0, changed = 0, explained = 0;

	*by_versions = false;
	if (!f || !f->n || !e)
		return NULL;
	keys[nk++] = "status";
	for (size_t i = 0; i < e->nobs && nk < 64; i++)
		keys[nk++] = e->obs[i].key;
	for (size_t i = 0; i < nk; i++) {
		const char *ev = value_of(e, keys[i]), *ov = value_of(o, keys[i]);
		const struct fix *x;

		if (!ev || (ov && !strcmp(ev, ov)))
			continue;
		changed++;
		if (!(x = find(f, o->id, keys[i])))
			continue;
		/*
		 * Two kernels that both carry it, or both lack it, by their
		 * versions: of one version, not this fix; of two, the one that
		 * shows its value has it from elsewhere (a backport, a patch).
		 */
		if (fix_carried(x, release) >= 0 && fix_carried(x, release) == fix_carried(x, was)) {
			const char *shows = ov && !strcmp(ov, x->value) ? release : !strcmp(ev, x->value) ? was : NULL;

			if (same_version(release, was) || !shows || !strcmp(x->commit, "unknown"))
				continue;
			if (fix_carried(x, release)) {	/* both carry it: the other lost it */
				sb_printf(&b, "; %s lacks what ", shows == release ? was : release);
				name_it(&b, x);
				sb_printf(&b, " brings, though its version carries it (a revert or a patch); %s shows it",
					  shows);
			} else {			/* both lack it: the one that shows it got it elsewhere */
				sb_printf(&b, "; %s shows what ", shows);
				name_it(&b, x);
				sb_printf(&b, " brings, though its version lacks it (a backport or a patch); %s does not",
					  shows == release ? was : release);
			}
			continue;
		}
		sb_puts(&b, "; ");
		if (!strcmp(x->commit, "unknown")) {
			sb_printf(&b, "a known difference between kernels: %s (commit unknown)", x->title);
		} else if (ov && !strcmp(ov, x->value)) {
			explained += fix_carried(x, release) == 1 && fix_carried(x, was) == 0;
			sb_printf(&b, "%s carries ", release);
			name_it(&b, x);
			sb_printf(&b, ", which %s lacks", was ? was : "the baseline's kernel");
		} else if (!strcmp(ev, x->value)) {
			explained += fix_carried(x, release) == 0 && fix_carried(x, was) == 1;
			sb_printf(&b, "%s lacks ", release);
			name_it(&b, x);
			sb_printf(&b, ", which %s carries", was ? was : "the baseline's kernel");
		} else {
			sb_puts(&b, "see ");
			name_it(&b, x);
		}
	}
	*by_versions = changed && explained == changed;
	return b.s;
}
