// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP v1 output (Documentation/dev-tools/ktap.rst): one block per binary,
 *
 *	  KTAP version 1
 *	  # Subtest: attr/size
 *	  1..12
 *	  ok 1 global.size_zero
 *	  ok 2 global.size_ver9 # SKIP reason
 *	# binary-level diagnostics
 *	ok 1 attr/size
 *
 * Result lines are regenerated here (numbering, directives), never copied,
 * so a binary's output cannot break the structure. Diagnostics always start
 * with "# ", and the few texts that the kernel's kunit.py parser treats
 * specially anywhere on a line are defused.
 */
#include <stdlib.h>
#include <string.h>

#include "job.h"

#define DIAG_LINES 40	/* per failing case, when not verbose */
#define LINE_SHOWN 300	/* bytes of a line, when not verbose */

/* Phrases kunit.py's parser acts on wherever they appear (it stops parsing). */
static const char *const stoppers[] = {
	"List of all partitions:", "Kernel panic - not syncing: VFS:", "reboot: System halted", NULL,
};

void ktap_diag(struct sbuf *out, const char *indent, const char *text)
{
	char *copy;

	if (text[0] == '#')
		text += text[1] == ' ' ? 2 : 1;
	copy = xstrdup(text);
	for (int i = 0; stoppers[i]; i++) {
		char *p;

		while ((p = strstr(copy, stoppers[i])))
			p[0] ^= 0x20;	/* swap the case of the first letter */
	}
	sb_puts(out, indent);
	/* "# Subtest: x" would start a subtest. */
	sb_puts(out, !strncmp(copy, "Subtest:", 8) ? "# (Subtest)" : "# ");
	sb_puts(out, !strncmp(copy, "Subtest:", 8) ? copy + 8 : copy);
	sb_puts(out, "\n");
	free(copy);
}

static const char *directive(enum status st)
{
	switch (st) {
	case ST_SKIP: return "SKIP";
	case ST_BLOCKED: return "SKIP";	/* its reason starts with "blocked" */
	case ST_XFAIL: return "XFAIL";
	case ST_TIMEOUT: return "TIMEOUT";
	case ST_ERROR: return "ERROR";
	default: return NULL;
	}
}

/* "ok N name[ # DIRECTIVE reason]"; the reason of a plain pass/fail goes on a line above. */
static void result_line(struct sbuf *out, const char *indent, size_t num, const char *name,
			enum status st, const char *reason)
{
	const char *d = directive(st);
	bool ok = st == ST_PASS || status_skipped(st) || st == ST_XFAIL;

	if (!d && reason && *reason) {
		char *r = xasprintf("%s: %s", name, reason);

		ktap_diag(out, indent, r);
		free(r);
	}
	sb_printf(out, "%s%s %zu %s", indent, ok ? "ok" : "not ok", num, name);
	if (d)
		sb_printf(out, " # %s%s%s", d, reason && *reason ? " " : "", reason ? reason : "");
	sb_puts(out, "\n");
}

/* Walk the log: D lines and R markers. */
struct logline {
	const char *text;	/* for D: the text; for R: NULL */
	size_t len;
	size_t case_index;
};

static size_t split_log(const struct sbuf *log, struct logline **out)
{
	struct logline *v = NULL;
	size_t n = 0, cap = 0;
	const char *p = log->s, *end = log->s + log->len;

	while (p && p < end) {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			break;
		grow(&v, &cap, n + 1, sizeof(*v));
		if (*p == 'R') {
			v[n].text = NULL;
			v[n].case_index = strtoul(p + 1, NULL, 10);
		} else {
			v[n].text = p + 1;
			v[n].len = nl - p - 1;
		}
		n++;
		p = nl + 1;
	}
	*out = v;
	return n;
}

static void diag_range(struct sbuf *out, const char *indent, const struct logline *v,
		       size_t from, size_t to, size_t max)
{
	if (max && to - from > max) {
		char *note = xasprintf("[%zu earlier lines not shown; -v shows all]", to - from - max);

		ktap_diag(out, indent, note);
		free(note);
		from = to - max;
	}
	for (size_t i = from; i < to; i++) {
		/* Quiet mode shows the start of very long lines only. */
		char *t = max && v[i].len > LINE_SHOWN ? xasprintf("%.*s [... %zu more bytes]",
				LINE_SHOWN, v[i].text, v[i].len - LINE_SHOWN)
			: xstrndup(v[i].text, v[i].len);

		ktap_diag(out, indent, t);
		free(t);
	}
}

static bool case_needs_detail(const struct job *j, size_t i)
{
	const struct verdict *v = job_case_verdict(j, i);

	return status_bad(j->tap.cases[i].r.st) || (v && verdict_fails(v->kind));
}

char *ktap_job(const struct job *j, bool verbose)
{
	const struct tap *t = &j->tap;
	struct sbuf out = { 0 };
	struct logline *v;
	size_t n = split_log(&t->log, &v), from = 0, num = 0;
	bool block = t->ncases > 0;
	bool bin_problem = j->has_bin_record && status_bad(j->bin_status);

	if (block)
		sb_printf(&out, "  KTAP version 1\n  # Subtest: %s\n  1..%zu\n", j->name, t->ncases);
	for (size_t i = 0; i < n; i++) {
		const struct tcase *c;

		if (v[i].text)
			continue;
		c = &t->cases[v[i].case_index];
		if (verbose || case_needs_detail(j, v[i].case_index))
			diag_range(&out, "  ", v, from, i, verbose ? 0 : DIAG_LINES);
		result_line(&out, "  ", ++num, c->r.id, c->r.st, c->reason);
		from = i + 1;
	}
	/* What it printed after its last result (or all of it, with no result). */
	if (verbose || bin_problem)
		diag_range(&out, block ? "  " : "", v, from, n, verbose ? 0 : DIAG_LINES);
	free(v);

	for (size_t i = 0; i < j->notes.n; i++)
		ktap_diag(&out, "", j->notes.v[i]);
	if (j->kernel_log.n) {
		ktap_diag(&out, "", "kernel log while it ran:");
		for (size_t i = 0; i < j->kernel_log.n; i++) {
			char *l = xasprintf("  %s", j->kernel_log.v[i]);

			ktap_diag(&out, "", l);
			free(l);
		}
	}
	for (size_t i = 0; j->verdicts && i < j->recs.n; i++) {
		const struct verdict *vd = &j->verdicts[i];
		const struct record *r = &j->recs.v[i];
		char *l = NULL;

		switch (vd->kind) {
		case V_REGRESSION:
		case V_IMPROVEMENT:
		case V_CHANGED:
			l = xasprintf("%s: %s: %s", verdict_label(vd->kind), r->id, vd->detail);
			break;
		case V_NEW_FAILURE:
			l = xasprintf("new failure: %s: %s, not in the baseline", r->id, status_name(r->st));
			break;
		case V_KNOWN:
			l = xasprintf("known failure: %s: %s, as in the baseline", r->id, status_name(r->st));
			break;
		default:
			break;
		}
		if (l)
			ktap_diag(&out, "", l);
		free(l);
	}
	result_line(&out, "", j->num, j->name, j->bin_status, j->bin_reason);
	return out.s;
}
