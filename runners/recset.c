// SPDX-License-Identifier: GPL-2.0
/* Case records: the line format of baselines and results files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "recset.h"
#include "util.h"

static const char *const names[ST__COUNT] = {
	[ST_PASS] = "PASS", [ST_FAIL] = "FAIL", [ST_SKIP] = "SKIP",
	[ST_XFAIL] = "XFAIL", [ST_TIMEOUT] = "TIMEOUT", [ST_ERROR] = "ERROR",
	[ST_BLOCKED] = "BLOCKED",
};

const char *status_name(enum status st)
{
	return st < ST__COUNT ? names[st] : "?";
}

enum status status_parse(const char *name)
{
	for (int i = 0; i < ST__COUNT; i++)
		if (!strcmp(name, names[i]))
			return i;
	return ST__COUNT;
}

bool status_bad(enum status st)
{
	return st == ST_FAIL || st == ST_TIMEOUT || st == ST_ERROR;
}

bool status_skipped(enum status st)
{
	return st == ST_SKIP || st == ST_BLOCKED;
}

bool obs_key_valid(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') ||
		      *k == '_' || *k == '.' || *k == '-'))
			return false;
	return true;
}

bool obs_value_valid(const char *v)
{
	if (!*v)
		return false;
	for (; *v; v++)
		if (*v <= ' ' || *v >= 0x7f || *v == '=' || *v == '#')
			return false;
	return true;
}

bool case_id_valid(const char *id)
{
	if (!*id)
		return false;
	for (; *id; id++)
		if (*id <= ' ' || *id >= 0x7f || *id == '#')
			return false;
	return true;
}

bool record_add_obs(struct record *r, const char *key, const char *value)
{
	if (record_obs(r, key))
		return false;
	grow(&r->obs, &r->obs_cap, r->nobs + 1, sizeof(*r->obs));
	r->obs[r->nobs].key = xstrdup(key);
	r->obs[r->nobs].value = xstrdup(value);
	r->nobs++;
	return true;
}

static int obs_cmp(const void *a, const void *b)
{
	return strcmp(((const struct obs *)a)->key, ((const struct obs *)b)->key);
}

void record_sort_obs(struct record *r)
{
	if (r->nobs > 1)
		qsort(r->obs, r->nobs, sizeof(*r->obs), obs_cmp);
}

const char *record_obs(const struct record *r, const char *key)
{
	for (size_t i = 0; i < r->nobs; i++)
		if (!strcmp(r->obs[i].key, key))
			return r->obs[i].value;
	return NULL;
}

void record_free(struct record *r)
{
	for (size_t i = 0; i < r->nobs; i++) {
		free(r->obs[i].key);
		free(r->obs[i].value);
	}
	free(r->obs);
	free(r->id);
	strv_free(&r->deps);
	memset(r, 0, sizeof(*r));
}

void record_format(const struct record *r, char **out)
{
	struct sbuf b = { 0 };

	sb_printf(&b, "%s %s", r->id, status_name(r->st));
	for (size_t i = 0; i < r->nobs; i++)
		sb_printf(&b, " %s=%s", r->obs[i].key, r->obs[i].value);
	*out = b.s;
}

struct record *recset_add(struct recset *s, struct record *r)
{
	grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v));
	s->v[s->n] = *r;
	memset(r, 0, sizeof(*r));
	s->sorted = false;
	return &s->v[s->n++];
}

static int rec_cmp(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : x->line - y->line;
}

void recset_sort(struct recset *s)
{
	if (s->n > 1)
		qsort(s->v, s->n, sizeof(*s->v), rec_cmp);
	s->sorted = true;
}

struct record *recset_find(const struct recset *s, const char *id)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(id, s->v[mid].id);

		if (!c)
			return &s->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

void recset_free(struct recset *s)
{
	for (size_t i = 0; i < s->n; i++)
		record_free(&s->v[i]);
	free(s->v);
	free(s->path);
	free(s->recorded_on);
	free(s->kernel);
	strv_free(&s->facts);
	memset(s, 0, sizeof(*s));
}

/* Parse one non-comment line into r; on error fill err and return -1. */
static int parse_line(char *line, struct record *r, char *err, size_t errlen,
		      const char *path, int lineno)
{
	char *save, *tok;
	enum status st;

	tok = strtok_r(line, " \t", &save);
	if (!case_id_valid(tok)) {
		snprintf(err, errlen, "%s:%d: bad case id \"%s\"", path, lineno, tok);
		return -1;
	}
	r->id = xstrdup(tok);
	r->line = lineno;
	tok = strtok_r(NULL, " \t", &save);
	if (!tok) {
		snprintf(err, errlen, "%s:%d: \"%s\" has no status (expected \"<case-id> <STATUS> [key=value]...\")",
			 path, lineno, r->id);
		return -1;
	}
	st = status_parse(tok);
	if (st == ST__COUNT) {
		snprintf(err, errlen, "%s:%d: unknown status \"%s\" (expected PASS, FAIL, SKIP, XFAIL, TIMEOUT or ERROR)",
			 path, lineno, tok);
		return -1;
	}
	r->st = st;
	while ((tok = strtok_r(NULL, " \t", &save))) {
		char *eq = strchr(tok, '=');

		if (!eq) {
			snprintf(err, errlen, "%s:%d: \"%s\" is not an observation (expected key=value)",
				 path, lineno, tok);
			return -1;
		}
		*eq = 0;
		if (!obs_key_valid(tok)) {
			snprintf(err, errlen, "%s:%d: bad observation key \"%s\" (allowed: a-z 0-9 _ . -)",
				 path, lineno, tok);
			return -1;
		}
		if (!obs_value_valid(eq + 1)) {
			snprintf(err, errlen, "%s:%d: bad value \"%s\" for observation \"%s\" (one token of printable ASCII, no '=' or '#')",
				 path, lineno, eq + 1, tok);
			return -1;
		}
		if (!record_add_obs(r, tok, eq + 1)) {
			snprintf(err, errlen, "%s:%d: observation \"%s\" given twice", path, lineno, tok);
			return -1;
		}
	}
	record_sort_obs(r);
	return 0;
}

int recset_load(struct recset *s, const char *path, char *err, size_t errlen)
{
	size_t len;
	char *data = read_file(path, &len), *p, *next;
	int lineno = 0;

	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	if (!data) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	for (p = data; p < data + len; p = next) {
		char *nl = memchr(p, '\n', data + len - p);
		struct record r = { 0 };
		char *q;

		lineno++;
		next = nl ? nl + 1 : data + len;
		if (nl)
			*nl = 0;
		else
			data[len] = 0;
		if (strlen(p) != (size_t)((nl ? nl : data + len) - p)) {
			snprintf(err, errlen, "%s:%d: NUL byte in line", path, lineno);
			goto fail;
		}
		for (q = p; *q; q++) {
			if ((unsigned char)*q >= 0x80 || ((unsigned char)*q < ' ' && *q != '\t' && *q != '\r')) {
				snprintf(err, errlen, "%s:%d: unexpected byte 0x%02x (baselines are ASCII text)",
					 path, lineno, (unsigned char)*q);
				goto fail;
			}
		}
		while (q > p && (q[-1] == '\r' || q[-1] == ' ' || q[-1] == '\t'))
			*--q = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			continue;
		if (*p == '#') {
			const char *tag = "# recorded on: ";

			if (!s->kernel && !strncmp(p, "# perfconf ", 11) && strstr(p, ": "))
				s->kernel = xstrdup(strstr(p, ": ") + 2);
			if (!s->recorded_on && !strncmp(p, tag, strlen(tag))) {
				char *v = p + strlen(tag);

				s->recorded_on = xstrndup(v, strcspn(v, " \t"));
			}
			if (!s->has_facts && !strncmp(p, FACTS_TAG, strlen(FACTS_TAG))) {
				char why[200];

				s->has_facts = true;
				if (!facts_parse(p + strlen(FACTS_TAG), &s->facts, why, sizeof(why))) {
					snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
					goto fail;
				}
			}
			continue;
		}
		if (parse_line(p, &r, err, errlen, path, lineno)) {
			record_free(&r);
			goto fail;
		}
		recset_add(s, &r);
	}
	free(data);
	recset_sort(s);
	for (size_t i = 1; i < s->n; i++) {
		if (!strcmp(s->v[i - 1].id, s->v[i].id)) {
			snprintf(err, errlen, "%s:%d: case \"%s\" listed twice (first at line %d)",
				 path, s->v[i].line, s->v[i].id, s->v[i - 1].line);
			return -1;
		}
	}
	return 0;
fail:
	free(data);
	return -1;
}

int recset_write(struct recset *s, const char *path, const char *header)
{
	struct sbuf b = { 0 };
	int err;

	recset_sort(s);
	sb_puts(&b, header ? header : "");
	for (size_t i = 0; i < s->n; i++) {
		char *line;

		record_sort_obs(&s->v[i]);
		record_format(&s->v[i], &line);
		sb_puts(&b, line);
		sb_puts(&b, "\n");
		free(line);
	}
	err = write_file_atomic(path, b.s ? b.s : "", b.len);
	sb_free(&b);
	return err;
}

void case_binary(const char *id, char *buf, size_t len)
{
	size_t n = strcspn(id, ":");

	snprintf(buf, len, "%.*s", (int)n, id);
}
