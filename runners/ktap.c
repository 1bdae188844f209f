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

/*
 * Text that a TAP parser would take for a result, plan or version line once
 * the "# " prefixes are stripped (LKFT's parser strips one per level).
 */
static bool looks_like_tap(const char *text)
{
	static const char *const starts[] = { "ok ", "not ok ", "1..", "TAP version", "KTAP version",
					      "Bail out!", "pragma ", "Subtest:", NULL };

	text += strspn(text, "# \t");
	if (!strcmp(text, "ok") || !strcmp(text, "not ok"))
		return true;
	for (int i = 0; starts[i]; i++)
		if (!strncmp(text, starts[i], strlen(starts[i])))
			return true;
	return false;
}

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
	/* Shown, never parsed: "| ok 1 x" is text to every parser. */
	sb_printf(out, "%s# %s%s\n", indent, looks_like_tap(copy) ? "| " : "", copy);
	free(copy);
}

/* "ok N name[ # DIRECTIVE reason]", the verdict's note on lines above. */
static void result_line(struct sbuf *out, const char *indent, size_t num, const char *name,
			const struct shown *sh)
{
	char *notes = sh->note ? xstrdup(sh->note) : NULL, *save = NULL;

	for (char *l = notes ? strtok_r(notes, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		ktap_diag(out, indent, l);
	free(notes);
	sb_printf(out, "%s%s %zu %s", indent, sh->kind == SHOWN_NOT_OK ? "not ok" : "ok", num, name);
	if (sh->directive)
		sb_printf(out, " # %s%s%s", sh->directive, sh->reason && *sh->reason ? " " : "",
			  sh->reason ? sh->reason : "");
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

/* The binary's line: not ok when any of its records is. */
static void binary_shown(const struct job *j, struct shown *top)
{
	struct shown own = { 0 };
	bool not_ok = false;

	for (size_t i = 0; i < j->tap.ncases; i++) {
		struct shown c;

		job_shown(j, i, &c);
		not_ok |= c.kind == SHOWN_NOT_OK;
		shown_free(&c);
	}
	if (j->has_bin_record)
		job_shown(j, j->recs.n - 1, &own);	/* the binary's own record comes last */
	*top = (struct shown){ .kind = SHOWN_OK };
	if (not_ok || own.kind == SHOWN_NOT_OK) {
		top->kind = SHOWN_NOT_OK;
		if (own.kind == SHOWN_NOT_OK && own.directive) {
			top->directive = own.directive;
			top->reason = own.reason ? xstrdup(own.reason) : NULL;
		}
	} else if (j->has_bin_record && own.kind != SHOWN_OK) {
		top->kind = own.kind;
		top->directive = own.directive;
		top->reason = own.reason ? xstrdup(own.reason) : NULL;
	} else if (j->bin_status == ST_SKIP) {
		top->kind = SHOWN_SKIP;
		top->directive = "SKIP";
		top->reason = j->bin_reason ? xstrdup(j->bin_reason) : NULL;
	}
	shown_free(&own);
}

char *ktap_job(const struct job *j, bool verbose, enum ktap_layout layout)
{
	const struct tap *t = &j->tap;
	bool ksft = layout == LAYOUT_KSELFTEST;
	/* Lines of the binary's subtest: indented (KTAP) or commented (kselftest). */
	const char *nest = ksft ? "# " : "  ";
	struct sbuf out = { 0 };
	struct logline *v;
	size_t n = split_log(&t->log, &v), from = 0, num = 0;
	bool block = t->ncases > 0;
	bool bin_problem = j->has_bin_record && status_bad(j->bin_status);
	char *name = ksft ? xasprintf("selftests: perfconf: %s", j->name) : xstrdup(j->name);
	struct shown sh;

	if (ksft)
		sb_printf(&out, "# %s\n", name);
	if (block && ksft)
		sb_printf(&out, "# TAP version 13\n# 1..%zu\n", t->ncases + j->has_bin_record);
	else if (block)
		sb_printf(&out, "  KTAP version 1\n  # Subtest: %s\n  1..%zu\n", j->name,
			  t->ncases + j->has_bin_record);
	for (size_t i = 0; i < n; i++) {
		const struct tcase *c;

		if (v[i].text)
			continue;
		c = &t->cases[v[i].case_index];
		if (verbose || case_needs_detail(j, v[i].case_index))
			diag_range(&out, nest, v, from, i, verbose ? 0 : DIAG_LINES);
		job_shown(j, v[i].case_index, &sh);
		result_line(&out, nest, ++num, c->r.id, &sh);
		shown_free(&sh);
		from = i + 1;
	}
	/* What it printed after its last result (or all of it, with no result). */
	if (verbose || bin_problem)
		diag_range(&out, block || ksft ? nest : "", v, from, n, verbose ? 0 : DIAG_LINES);
	free(v);
	/* The binary's own record, as a case of its own, so that parsers count it. */
	if (block && j->has_bin_record) {
		job_shown(j, j->recs.n - 1, &sh);
		result_line(&out, nest, ++num, "(binary)", &sh);
		shown_free(&sh);
	}

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
	if (block)
		binary_shown(j, &sh);
	else
		job_shown(j, j->recs.n - 1, &sh);	/* no cases: its own record tells it all */
	result_line(&out, "", j->num, name, &sh);
	shown_free(&sh);
	free(name);
	return out.s;
}
