// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing a test binary's TAP as it streams in.
 *
 * Recognised lines (at column 0): "TAP version N" / "KTAP version N",
 * "1..N", "ok N desc [# DIRECTIVE reason]", "not ok N ...", the
 * observation diagnostic "# OBS key=value", the declaration "# DEPENDS
 * <fact>" (facts.h) and the cause diagnostic
 * "# CAUSE <instrument>: <why>" (lib/work/instrument.h). A SKIP whose reason
 * starts with "blocked" is BLOCKED. The harness's own lines about a case
 * that timed out or died by a signal make that case TIMEOUT or ERROR, and
 * so does a failed case that printed "# ERROR <why>" (perfconf.h's
 * CASE_ERROR: the case could not give a verdict). Everything else is a diagnostic: kept (up to a cap) for the report,
 * never fatal.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tap.h"

void sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x7f || ((unsigned char)*s < ' ' && *s != '\t'))
			*s = '?';
}

void tap_init(struct tap *t)
{
	memset(t, 0, sizeof(*t));
	t->plan = -1;
	t->log_max = TAP_LOG_MAX;
}

void tap_free(struct tap *t)
{
	for (size_t i = 0; i < t->ncases; i++) {
		record_free(&t->cases[i].r);
		free(t->cases[i].reason);
		free(t->cases[i].cause);
	}
	free(t->cases);
	record_free(&t->pending);
	free(t->harness_timeout);
	free(t->harness_crash);
	free(t->pending_cause);
	free(t->pending_error);
	sb_free(&t->log);
	for (size_t i = 0; i < TAP_TAIL; i++)
		free(t->tail[i]);
	strv_free(&t->problems);
	strv_free(&t->read);
	strv_free(&t->wrote);
	memset(t, 0, sizeof(*t));
}

void tap_append(struct tap *dst, struct tap *src)
{
	size_t base = dst->ncases;
	const char *p = src->log.s, *end = p ? p + src->log.len : p;

	dst->cases = xrealloc(dst->cases, (base + src->ncases + 1) * sizeof(*dst->cases));
	memcpy(dst->cases + base, src->cases, src->ncases * sizeof(*src->cases));
	dst->ncases += src->ncases;
	dst->cases_cap = dst->ncases + 1;
	src->ncases = 0;
	while (p && p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		if (*p == 'R')
			sb_printf(&dst->log, "R%zu\n", base + strtoul(p + 1, NULL, 10));
		else
			sb_add(&dst->log, p, len);
		p += len;
	}
	dst->version |= src->version;
	dst->bytes += src->bytes;
	dst->lines += src->lines;
	dst->dropped_lines += src->dropped_lines;
	dst->dropped_bytes += src->dropped_bytes;
	if (!dst->harness_timeout) {
		dst->harness_timeout = src->harness_timeout;
		src->harness_timeout = NULL;
	}
	if (!dst->harness_crash) {
		dst->harness_crash = src->harness_crash;
		dst->crash_signal = src->crash_signal;
		src->harness_crash = NULL;
	}
	strv_add_all_once(&dst->problems, &src->problems);
	strv_add_all_once(&dst->read, &src->read);
	strv_add_all_once(&dst->wrote, &src->wrote);
}

static void log_diag(struct tap *t, const char *text)
{
	size_t n = strlen(text);

	if (t->log.len + n + 2 > t->log_max) {
		size_t slot = (t->dropped_lines) % TAP_TAIL;

		free(t->tail[slot]);
		t->tail[slot] = xstrdup(text);
		if (t->tail_n < TAP_TAIL)
			t->tail_n++;
		t->dropped_lines++;
		t->dropped_bytes += n + 1;
		return;
	}
	sb_add(&t->log, "D", 1);
	sb_add(&t->log, text, n);
	sb_add(&t->log, "\n", 1);
}

/* A case name usable in a case id: no spaces, no '#'. */
static char *case_name(const char *desc, long num, size_t index)
{
	char *name;

	while (*desc == ' ' || *desc == '\t')
		desc++;
	if (!*desc)
		return num >= 0 ? xasprintf("case%ld", num) : xasprintf("case%zu", index + 1);
	name = xstrdup(desc);
	for (char *p = name + strlen(name); p > name && (p[-1] == ' ' || p[-1] == '\t'); )
		*--p = 0;
	for (char *p = name; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '#')
			*p = '_';
	return name;
}

static bool name_taken(const struct tap *t, const char *name)
{
	for (size_t i = 0; i < t->ncases; i++)
		if (!strcmp(t->cases[i].r.id, name))
			return true;
	return false;
}

/*
 * "ok 3 global.x # SKIP reason" and friends. Returns false when the line
 * is not a result line. The description ends at the first '#'.
 */
static bool parse_result(struct tap *t, char *line)
{
	char *p = line, *desc, *hash, *directive = NULL, *reason = NULL;
	bool ok;
	long num = -1;
	enum status st;
	struct tcase *c;

	if (!strncmp(p, "ok", 2) && (p[2] == ' ' || !p[2])) {
		ok = true;
		p += 2;
	} else if (!strncmp(p, "not ok", 6) && (p[6] == ' ' || !p[6])) {
		ok = false;
		p += 6;
	} else {
		return false;
	}
	while (*p == ' ')
		p++;
	if (isdigit((unsigned char)*p)) {
		num = strtol(p, &p, 10);
		if (*p && *p != ' ' && *p != '#')
			return false;	/* "ok 12abc": not a result line */
	}
	while (*p == ' ')
		p++;
	if (p[0] == '-' && p[1] == ' ')
		p += 2;
	desc = p;
	hash = strchr(p, '#');
	if (hash) {
		*hash = 0;
		directive = hash + 1;
		while (*directive == ' ')
			directive++;
	}

	st = ok ? ST_PASS : ST_FAIL;
	if (directive && *directive) {
		size_t w = strcspn(directive, " \t");
		char *word = directive;

		reason = directive + w;
		while (*reason == ' ' || *reason == '\t')
			reason++;
		if (w == 4 && !strncasecmp(word, "SKIP", 4))
			st = ST_SKIP;
		else if (w == 5 && !strncasecmp(word, "XFAIL", 5))
			st = ST_XFAIL;
		else if (w == 5 && !strncasecmp(word, "XPASS", 5))
			st = ST_PASS;	/* expected to fail, passed: an improvement */
		else if (w == 4 && !strncasecmp(word, "TODO", 4))
			st = ok ? ST_PASS : ST_XFAIL;
		else if (w == 7 && !strncasecmp(word, "TIMEOUT", 7))
			st = ST_TIMEOUT;
		else if (w == 5 && !strncasecmp(word, "ERROR", 5))
			st = ST_ERROR;
		else
			reason = directive;	/* no directive: all of it is the reason */
		if (!*reason)
			reason = NULL;
		if (st == ST_SKIP && reason && !strncmp(reason, "blocked", 7) &&
		    (reason[7] == ':' || reason[7] == ' '))
			st = ST_BLOCKED;
	}

	if (t->ncases >= TAP_CASES_MAX) {
		if (t->ncases == TAP_CASES_MAX)
			strv_addf(&t->problems, "more than %d results: the rest are ignored",
				  TAP_CASES_MAX);
		return false;
	}
	grow(&t->cases, &t->cases_cap, t->ncases + 1, sizeof(*t->cases));
	c = &t->cases[t->ncases];
	memset(c, 0, sizeof(*c));
	c->r = t->pending;
	memset(&t->pending, 0, sizeof(t->pending));
	c->r.id = case_name(desc, num, t->ncases);
	if (name_taken(t, c->r.id)) {
		for (int k = 2;; k++) {
			char *alt = xasprintf("%s~%d", c->r.id, k);

			if (!name_taken(t, alt)) {
				free(c->r.id);
				c->r.id = alt;
				break;
			}
			free(alt);
		}
	}
	if (t->harness_timeout && !strcmp(t->harness_timeout, c->r.id) && st == ST_FAIL) {
		st = ST_TIMEOUT;
		if (!reason)
			reason = "timed out in the kselftest harness";
	}
	free(t->harness_timeout);
	t->harness_timeout = NULL;
	c->reason = reason ? xstrdup(reason) : NULL;
	if (t->harness_crash && !strcmp(t->harness_crash, c->r.id) && st == ST_FAIL) {
		st = ST_ERROR;
		free(c->reason);
		c->reason = xasprintf("killed by signal %d (%s)", t->crash_signal,
				      signal_name(t->crash_signal));
	}
	free(t->harness_crash);
	t->harness_crash = NULL;
	if (t->pending_error && st == ST_FAIL) {
		st = ST_ERROR;
		free(c->reason);
		c->reason = t->pending_error;
		t->pending_error = NULL;
	}
	free(t->pending_error);
	t->pending_error = NULL;
	c->r.st = st;
	c->cause = t->pending_cause;
	t->pending_cause = NULL;
	record_sort_obs(&c->r);
	t->ncases++;
	return true;
}

/* "# OBS key=value": true when the line is an observation (valid or not). */
static bool parse_obs(struct tap *t, const char *line)
{
	const char *p = line + 6, *eq;
	char *key, *value;
	size_t n;

	if (strncmp(line, "# OBS ", 6))
		return false;
	while (*p == ' ')
		p++;
	n = strcspn(p, " \t");
	eq = memchr(p, '=', n);
	if (!eq || p[n + strspn(p + n, " \t")]) {
		strv_addf(&t->problems, "malformed observation \"%s\" (expected \"# OBS key=value\")", line);
		return true;
	}
	key = xstrndup(p, eq - p);
	value = xstrndup(eq + 1, p + n - eq - 1);
	if (!obs_key_valid(key) || !obs_value_valid(value))
		strv_addf(&t->problems, "malformed observation \"%s\" (key: a-z 0-9 _ . -; value: one token without '=' or '#')",
			  line);
	else if (!record_add_obs(&t->pending, key, value))
		strv_addf(&t->problems, "observation \"%s\" given twice before result %zu",
			  key, t->ncases + 1);
	free(key);
	free(value);
	return true;
}

static void process_line(struct tap *t, char *line)
{
	size_t n = strlen(line);
	static const char timeout_tail[] = ": Test terminated by timeout";
	static const char crash_mid[] = ": Test terminated unexpectedly by signal ";
	const size_t tl = sizeof(timeout_tail) - 1;
	const char *crash;

	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		line[--n] = 0;
	sanitize(line);
	t->lines++;

	if (!t->version && t->ncases == 0 && t->plan < 0 &&
	    (!strncmp(line, "TAP version ", 12) || !strncmp(line, "KTAP version ", 13))) {
		t->version = true;
		return;
	}
	if (t->plan < 0 && line[0] == '1' && line[1] == '.' && line[2] == '.' &&
	    isdigit((unsigned char)line[3])) {
		char *end;
		long plan = strtol(line + 3, &end, 10);

		if (!*end || *end == ' ' || *end == '#') {
			t->plan = plan;
			return;
		}
	}
	if (line[0] == 'o' || line[0] == 'n') {
		char *copy = xstrdup(line);
		bool is_result = parse_result(t, copy);

		free(copy);
		if (is_result) {
			char idx[32];

			snprintf(idx, sizeof(idx), "R%zu\n", t->ncases - 1);
			sb_puts(&t->log, idx);
			return;
		}
	}
	if (line[0] == '#') {
		const char *name = line + 1;

		while (*name == ' ')
			name++;
		parse_obs(t, line);
		if (!strncmp(line, "# DEPENDS ", 10) && line[10]) {
			const char *fact = line + 10;
			bool dup = false;

			for (size_t i = 0; i < t->pending.deps.n; i++)
				dup |= !strcmp(t->pending.deps.v[i], fact);
			if (!dup && strcspn(fact, " \t=") == strlen(fact))
				strv_add(&t->pending.deps, fact);
		}
		if (!strncmp(line, "# READS ", 8) || !strncmp(line, "# WRITES ", 9)) {
			bool writes = line[2] == 'W';
			const char *key = line + (writes ? 9 : 8);
			struct strv *said = writes ? &t->wrote : &t->read;

			if (!strv_has(said, key) && *key && strcspn(key, " \t=,") == strlen(key))
				strv_add(said, key);
		}
		if (!strncmp(line, "# CAUSE ", 8) && line[8]) {
			free(t->pending_cause);
			t->pending_cause = xstrdup(line + 8);
		}
		if (!strncmp(line, "# ERROR ", 8) && line[8]) {
			free(t->pending_error);
			t->pending_error = xstrdup(line + 8);
		}
		if (n > tl && !strcmp(line + n - tl, timeout_tail)) {
			free(t->harness_timeout);
			t->harness_timeout = xstrndup(name, line + n - tl - name);
		}
		crash = strstr(line, crash_mid);
		if (crash && isdigit((unsigned char)crash[sizeof(crash_mid) - 1])) {
			free(t->harness_crash);
			t->harness_crash = xstrndup(name, crash - name);
			t->crash_signal = atoi(crash + sizeof(crash_mid) - 1);
		}
	}
	log_diag(t, line);
}

void tap_feed(struct tap *t, const char *buf, size_t n)
{
	t->bytes += n;
	while (n) {
		const char *nl = memchr(buf, '\n', n);
		size_t take = nl ? (size_t)(nl - buf) : n;
		size_t room = TAP_LINE_MAX - t->llen;

		if (take > room) {
			t->ltrunc = true;
			memcpy(t->line + t->llen, buf, room);
			t->llen += room;
		} else {
			memcpy(t->line + t->llen, buf, take);
			t->llen += take;
		}
		if (!nl)
			break;
		t->line[t->llen] = 0;
		/* NUL bytes inside a line would end it early: make them visible. */
		for (size_t i = 0; i < t->llen; i++)
			if (!t->line[i])
				t->line[i] = '?';
		if (t->ltrunc) {
			static const char mark[] = " [line cut]";

			memcpy(t->line + TAP_LINE_MAX - sizeof(mark) + 1, mark, sizeof(mark));
		}
		process_line(t, t->line);
		t->llen = 0;
		t->ltrunc = false;
		buf = nl + 1;
		n -= take + 1;
	}
}

void tap_finish(struct tap *t)
{
	if (t->llen || t->ltrunc) {
		tap_feed(t, "\n", 1);
		t->bytes--;
	}
	if (t->pending.nobs) {
		strv_addf(&t->problems, "%zu observation(s) not followed by a result line", t->pending.nobs);
		record_free(&t->pending);
	}
	if (t->dropped_lines) {
		size_t keep = t->tail_n, first = t->dropped_lines - keep, tail_bytes = 0;
		char *note;
		size_t max = t->log_max;

		for (size_t i = 0; i < keep; i++)
			tail_bytes += strlen(t->tail[(first + i) % TAP_TAIL]) + 1;
		note = xasprintf("[output over %zu KiB: %zu lines (%zu bytes) not kept; the last %zu follow]",
				 t->log_max >> 10, t->dropped_lines - keep,
				 t->dropped_bytes - tail_bytes, keep);

		t->log_max = (size_t)-1;
		log_diag(t, note);
		free(note);
		for (size_t i = 0; i < keep; i++)
			log_diag(t, t->tail[(first + i) % TAP_TAIL]);
		t->log_max = max;
	}
}
