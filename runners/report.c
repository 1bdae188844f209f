// SPDX-License-Identifier: GPL-2.0
/* The end of a run: summary, results.txt, baselines, JUnit XML. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job.h"
#include "facts.h"
#include "report.h"

#define LIST_MAX 25	/* lines per summary section (results.txt has them all) */

/* The cause named `text` ("<name>: <why>"), added when new. */
static struct cause *cause_of(struct summary *s, const char *text)
{
	const char *colon = strstr(text, ": ");
	size_t len = colon ? (size_t)(colon - text) : strlen(text);

	for (size_t i = 0; i < s->ncauses; i++)
		if (strlen(s->causes[i].name) == len && !strncmp(s->causes[i].name, text, len))
			return &s->causes[i];
	grow(&s->causes, &s->causes_cap, s->ncauses + 1, sizeof(*s->causes));
	s->causes[s->ncauses] = (struct cause){ .name = xstrndup(text, len),
						 .why = xstrdup(colon ? colon + 2 : "") };
	return &s->causes[s->ncauses++];
}

void summary_add_verdict(struct summary *s, const struct record *r, const struct verdict *v, const char *reason)
{
	switch (v->kind) {
	case V_REGRESSION:
		strv_addf(&s->regressions, "%s: %s", r->id, v->detail);
		break;
	case V_NEW_FAILURE:
		strv_addf(&s->new_failures, "%s %s", r->id, status_name(r->st));
		break;
	case V_KNOWN:
		strv_addf(&s->known_failures, "%s %s", r->id, status_name(r->st));
		s->known++;
		break;
	case V_IMPROVEMENT:
		strv_addf(&s->improvements, "%s: %s", r->id, v->detail);
		break;
	case V_CHANGED:
		strv_addf(&s->changes, "%s: %s", r->id, v->detail);
		break;
	case V_NEW:
		strv_addf(&s->new_cases, "%s %s", r->id, status_name(r->st));
		break;
	case V_NEW_OBS:
		strv_addf(&s->new_obs, "%s: %s", r->id, v->detail);
		break;
	case V_UNJUDGED:
		strv_addf(&s->unjudged, "%s\t%s", v->detail, r->id);
		break;
	case V_TRANSIT:
		strv_addf(&s->transit, "%s: %s", r->id, v->detail);
		break;
	case V_BLOCKED:
		if (reason && !strncmp(reason, "blocked by ", 11)) {
			struct cause *k = cause_of(s, reason + 11);

			k->blocked++;
			strv_addf(&s->blocked, "%s (by %s)", r->id, k->name);
		} else {
			strv_addf(&s->blocked, "%s: %s", r->id, reason ? reason : "");
		}
		break;
	default:
		break;
	}
}

void summary_add_job(struct summary *s, const struct job *j)
{
	for (size_t i = 0; i < j->recs.n; i++) {
		const struct record *r = &j->recs.v[i];
		const struct verdict *v = &j->verdicts[i];
		const struct tcase *c = i < j->tap.ncases ? &j->tap.cases[i] : NULL;
		struct shown sh;

		s->cases++;
		if (!c && j->kernel_only)
			strv_addf(&s->complaints, "%s: %s", j->name, j->bin_reason ? j->bin_reason : "");
		else if (r->st == ST_ERROR || r->st == ST_TIMEOUT)
			s->faults++;
		if ((verdict_fails(v->kind) || status_bad(r->st)) && c && c->cause)
			cause_of(s, c->cause)->failed++;
		summary_add_verdict(s, r, v, c && c->reason ? c->reason : "");
		/* Counted as its KTAP line shows it, so that parsers agree. */
		job_shown(j, i, &sh);
		if (sh.kind == SHOWN_NOT_OK)
			s->failed++;
		else if (sh.kind == SHOWN_SKIP)
			s->skipped++;
		else
			s->passed++;	/* ok and XFAIL, known failures included */
		shown_free(&sh);
	}
}

void summary_add_gone(struct summary *s, const struct recset *base, const struct selection *sel,
		      const struct job *jobs, size_t n)
{
	char missing[512] = "";	/* the last binary counted as not found */

	if (!base)
		return;
	for (size_t i = 0; i < base->n; i++) {
		const struct record *e = &base->v[i];
		char bin[512];
		bool ran = false;

		if (e->seen)
			continue;
		case_binary(e->id, bin, sizeof(bin));
		if (!selected(sel, bin))
			continue;
		for (size_t k = 0; k < n && !ran; k++)
			ran = jobs[k].done && !strcmp(jobs[k].name, bin);
		if (!strchr(e->id, ':') && ran)
			strv_addf(&s->fixed, "%s: expected %s, now no problem with the binary itself",
				  e->id, status_name(e->st));
		else
			strv_addf(&s->gone, "%s %s%s", e->id, status_name(e->st),
				  ran ? "" : " (binary not found)");
		if (!ran && strcmp(missing, bin)) {
			s->faults++;	/* a binary that did not run: once per binary */
			snprintf(missing, sizeof(missing), "%s", bin);
		}
	}
}

static void section(struct sbuf *out, const char *title, const struct strv *l)
{
	char *head;

	if (!l->n)
		return;
	head = xasprintf("%s (%zu):", title, l->n);
	ktap_diag(out, "", head);
	free(head);
	for (size_t i = 0; i < l->n && i < LIST_MAX; i++) {
		char *line = xasprintf("  %s", l->v[i]);

		ktap_diag(out, "", line);
		free(line);
	}
	if (l->n > LIST_MAX) {
		char *more = xasprintf("  ... and %zu more (see results.txt)", l->n - LIST_MAX);

		ktap_diag(out, "", more);
		free(more);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "<why>\t<id>" lines, one line per why: how many cases, the first few. */
static void section_grouped(struct sbuf *out, const char *title, const struct strv *l)
{
	char **v;
	char *head;

	if (!l->n)
		return;
	v = xcalloc(l->n, sizeof(*v));
	memcpy(v, l->v, l->n * sizeof(*v));
	qsort(v, l->n, sizeof(*v), cmp_str);
	head = xasprintf("%s (%zu):", title, l->n);
	ktap_diag(out, "", head);
	free(head);
	for (size_t i = 0, end; i < l->n; i = end) {
		size_t wl = strcspn(v[i], "\t");
		struct sbuf line = { 0 };

		for (end = i; end < l->n && !strncmp(v[end], v[i], wl) && v[end][wl] == '\t'; end++)
			;
		sb_printf(&line, "  %.*s: %zu case%s: ", (int)wl, v[i], end - i, end - i == 1 ? "" : "s");
		for (size_t k = i; k < end && k < i + 3; k++)
			sb_printf(&line, "%s%s", k > i ? ", " : "", v[k] + wl + 1);
		if (end - i > 3)
			sb_printf(&line, ", ...");
		ktap_diag(out, "", line.s);
		sb_free(&line);
	}
	free(v);
}

size_t summary_failures(const struct summary *s, bool gate_suite)
{
	return gate_suite ? s->faults : s->failed;
}

void summary_print(struct sbuf *out, const struct summary *s, bool gate_suite)
{
	section(out, "regressions", &s->regressions);
	section(out, "new failures", &s->new_failures);
	section(out, "known failures, as in the baseline", &s->known_failures);
	section(out, "ABI growth in transit: as in the newer baseline or this line's on other arches, not regressions",
		&s->transit);
	section(out, "blocked: this machine cannot test them, not regressions", &s->blocked);
	section_grouped(out, "not judged here: no baseline was recorded under the facts they depend on, "
			"not regressions", &s->unjudged);
	section(out, "improvements", &s->improvements);
	section(out, "other changes", &s->changes);
	section(out, "new observations, not in the baseline", &s->new_obs);
	section(out, "fixed", &s->fixed);
	section(out, "new cases, not in the baseline", &s->new_cases);
	section(out, "gone: in the baseline, not reported", &s->gone);
	section(out, "KERNEL COMPLAINTS: the kernel warned or oopsed while the suite ran", &s->complaints);
	if (s->known) {
		char *k = xasprintf("%zu known failure%s, shown as XFAIL and counted as passed", s->known,
				    s->known == 1 ? "" : "s");

		ktap_diag(out, "", k);
		free(k);
	}
	for (size_t i = 0; i < s->ncauses; i++) {
		const struct cause *c = &s->causes[i];
		char *l = xasprintf("one cause, %s: %s: %zu failed, %zu blocked", c->name, c->why,
				    c->failed, c->blocked);

		ktap_diag(out, "", l);
		free(l);
	}
	if (gate_suite) {
		char *k = s->complaints.n ? xasprintf(" and %zu kernel complaint%s", s->complaints.n,
						      s->complaints.n == 1 ? "" : "s") : xstrdup("");
		char *l = xasprintf("--gate suite: %zu difference%s from the baseline%s shown, "
				    "not gating; %zu fault%s of the suite itself (ERROR, TIMEOUT, a binary not found)",
				    s->failed, s->failed == 1 ? "" : "s", k, s->faults, s->faults == 1 ? "" : "s");

		free(k);

		ktap_diag(out, "", l);
		free(l);
	}
	sb_printf(out, "%zu passed, %zu failed, %zu skipped\n", s->passed, summary_failures(s, gate_suite),
		  s->skipped);
}

void summary_free(struct summary *s)
{
	strv_free(&s->regressions);
	strv_free(&s->new_failures);
	strv_free(&s->known_failures);
	strv_free(&s->improvements);
	strv_free(&s->changes);
	strv_free(&s->new_cases);
	strv_free(&s->gone);
	strv_free(&s->fixed);
	strv_free(&s->blocked);
	strv_free(&s->new_obs);
	strv_free(&s->transit);
	strv_free(&s->unjudged);
	strv_free(&s->complaints);
	for (size_t i = 0; i < s->ncauses; i++) {
		free(s->causes[i].name);
		free(s->causes[i].why);
	}
	free(s->causes);
}

char *results_header(const struct kernel_id *k, const char *what, const struct strv *facts)
{
	char *f = facts_line(facts), *h;

	h = xasprintf("# perfconf %s: %s %d.%d %s\n"
		      "# recorded on: %s (%s, profile %s)\n"
		      FACTS_TAG "%s\n"
		      "# <case-id> <PASS|FAIL|SKIP|XFAIL|TIMEOUT|ERROR|BLOCKED> [observation=value]...\n",
		      what, k->arch, k->major, k->minor, k->profile,
		      k->release, k->arch, k->profile, f);
	free(f);
	return h;
}

static void copy_record(struct recset *dst, const struct record *r)
{
	struct record c = { .id = xstrdup(r->id), .st = r->st };

	for (size_t i = 0; i < r->nobs; i++)
		record_add_obs(&c, r->obs[i].key, r->obs[i].value);
	recset_add(dst, &c);
}

int write_results(const char *path, const struct job *jobs, size_t n, const char *header)
{
	struct recset all = { 0 };
	int err;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; jobs[i].done && k < jobs[i].recs.n; k++)
			copy_record(&all, &jobs[i].recs.v[k]);
	err = recset_write(&all, path, header);
	recset_free(&all);
	return err;
}

int record_baseline(const char *path, const struct job *jobs, size_t n,
		    const struct selection *sel, bool filtered, const char *header,
		    char *err, size_t errlen)
{
	struct recset old = { 0 }, out = { 0 };
	int rc;

	if (filtered && access(path, F_OK) == 0) {
		if (recset_load(&old, path, err, errlen)) {
			recset_free(&old);
			return -1;
		}
		for (size_t i = 0; i < old.n; i++) {
			char bin[512];

			case_binary(old.v[i].id, bin, sizeof(bin));
			if (!selected(sel, bin))
				copy_record(&out, &old.v[i]);
		}
		recset_free(&old);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; jobs[i].done && k < jobs[i].recs.n; k++)
			copy_record(&out, &jobs[i].recs.v[k]);
	if (strrchr(path, '/')) {
		char *dir = xstrndup(path, strrchr(path, '/') - path);

		if (*dir)
			mkdir_p(dir, 0755);
		free(dir);
	}
	rc = recset_write(&out, path, header);
	recset_free(&out);
	if (rc) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
		return -1;
	}
	return 0;
}

/* durations.txt's lines, kept for the binaries this run did not run. */
struct duration_line {
	char *name;
	double secs;
};

static int by_duration_name(const void *a, const void *b)
{
	return strcmp(((const struct duration_line *)a)->name, ((const struct duration_line *)b)->name);
}

int write_durations(const char *path, const struct job *jobs, size_t n, const char *header)
{
	struct duration_line *lines = xcalloc(n ? n : 1, sizeof(*lines));
	size_t nlines = 0, cap = n ? n : 1;
	FILE *old = fopen(path, "re");
	struct sbuf b = { 0 };
	char line[1024], name[512];
	double secs;
	int err;

	for (size_t i = 0; i < n; i++)
		if (jobs[i].done && jobs[i].started)
			lines[nlines++] = (struct duration_line){ xstrdup(jobs[i].name), jobs[i].end - jobs[i].start };
	while (old && fgets(line, sizeof(line), old)) {
		bool ran = false;

		if (line[0] == '#' || sscanf(line, "%511s %lf", name, &secs) != 2 || secs < 0)
			continue;
		for (size_t i = 0; i < n && !ran; i++)
			ran = jobs[i].done && jobs[i].started && !strcmp(jobs[i].name, name);
		if (ran)
			continue;
		if (nlines == cap)
			lines = xrealloc(lines, (cap *= 2) * sizeof(*lines));
		lines[nlines++] = (struct duration_line){ xstrdup(name), secs };
	}
	if (old)
		fclose(old);
	qsort(lines, nlines, sizeof(*lines), by_duration_name);
	sb_puts(&b, header);
	for (size_t i = 0; i < nlines; i++) {
		sb_printf(&b, "%s %.3f\n", lines[i].name, lines[i].secs);
		free(lines[i].name);
	}
	free(lines);
	err = write_file_atomic(path, b.s, b.len);
	sb_free(&b);
	return err;
}

void load_durations(const char *path, struct job *jobs, size_t n)
{
	FILE *f = fopen(path, "re");
	char line[1024], name[512];
	double secs;

	for (size_t i = 0; i < n; i++)
		jobs[i].last_s = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || sscanf(line, "%511s %lf", name, &secs) != 2 || secs < 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(jobs[i].name, name))
				jobs[i].last_s = secs;
	}
	fclose(f);
}

static void xml_text(struct sbuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '&': sb_puts(b, "&amp;"); break;
		case '<': sb_puts(b, "&lt;"); break;
		case '>': sb_puts(b, "&gt;"); break;
		case '"': sb_puts(b, "&quot;"); break;
		case '\'': sb_puts(b, "&apos;"); break;
		default:
			if ((unsigned char)s[i] < ' ' && s[i] != '\n' && s[i] != '\t')
				sb_puts(b, "?");
			else
				sb_add(b, &s[i], 1);
		}
	}
}

static void xml_attr(struct sbuf *b, const char *name, const char *value)
{
	sb_printf(b, " %s=\"", name);
	xml_text(b, value, strlen(value));
	sb_puts(b, "\"");
}

/* The binary's captured output, as text (result markers shown as such). */
static void job_output(struct sbuf *b, const struct job *j)
{
	const struct sbuf *log = &j->tap.log;
	const char *p = log->s, *end = log->s + log->len;

	while (p && p < end) {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			break;
		if (*p == 'R') {
			size_t c = strtoul(p + 1, NULL, 10);

			sb_printf(b, "[%s %s]\n", status_name(j->tap.cases[c].r.st), j->tap.cases[c].r.id);
		} else {
			xml_text(b, p + 1, nl - p - 1);
			sb_puts(b, "\n");
		}
		p = nl + 1;
	}
}

int write_junit(const char *path, const struct job *jobs, size_t n, double wall)
{
	struct sbuf b = { 0 };
	size_t tests = 0, failures = 0, skipped = 0;
	int err;

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; jobs[i].done && k < jobs[i].recs.n; k++) {
			enum verdict_kind v = jobs[i].verdicts[k].kind;

			tests++;
			failures += verdict_fails(v);
			skipped += !verdict_fails(v) && (jobs[i].recs.v[k].st == ST_SKIP || v == V_KNOWN);
		}
	}
	sb_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sb_printf(&b, "<testsuites name=\"perfconf\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\">\n",
		  tests, failures, skipped, wall);
	for (size_t i = 0; i < n; i++) {
		const struct job *j = &jobs[i];
		size_t f = 0, s = 0;

		if (!j->done)
			continue;
		for (size_t k = 0; k < j->recs.n; k++) {
			f += verdict_fails(j->verdicts[k].kind);
			s += !verdict_fails(j->verdicts[k].kind) &&
			     (j->recs.v[k].st == ST_SKIP || j->verdicts[k].kind == V_KNOWN);
		}
		sb_puts(&b, "  <testsuite");
		xml_attr(&b, "name", j->name);
		sb_printf(&b, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\">\n",
			  j->recs.n, f, s, j->end - j->start);
		for (size_t k = 0; k < j->recs.n; k++) {
			const struct record *r = &j->recs.v[k];
			const struct verdict *v = &j->verdicts[k];
			const char *colon = strchr(r->id, ':');

			sb_puts(&b, "    <testcase");
			xml_attr(&b, "classname", j->name);
			xml_attr(&b, "name", colon ? colon + 1 : "(binary)");
			sb_puts(&b, " time=\"0\"");
			if (verdict_fails(v->kind)) {
				char *msg = v->detail ? xasprintf("%s: %s", verdict_label(v->kind), v->detail)
						      : xasprintf("%s: %s", verdict_label(v->kind),
								  status_name(r->st));

				sb_puts(&b, "><failure");
				xml_attr(&b, "message", msg);
				xml_attr(&b, "type", status_name(r->st));
				sb_puts(&b, "/></testcase>\n");
				free(msg);
			} else if (v->kind == V_KNOWN) {
				sb_puts(&b, "><skipped");
				xml_attr(&b, "message", "known failure, as in the baseline");
				sb_puts(&b, "/></testcase>\n");
			} else if (r->st == ST_SKIP) {
				const char *reason = "";

				if (colon && (size_t)(r - j->recs.v) < j->tap.ncases)
					reason = j->tap.cases[r - j->recs.v].reason ?: "";
				else if (!colon && j->bin_reason)
					reason = j->bin_reason;
				sb_puts(&b, "><skipped");
				xml_attr(&b, "message", reason);
				sb_puts(&b, "/></testcase>\n");
			} else {
				sb_puts(&b, "/>\n");
			}
		}
		sb_puts(&b, "    <system-out>");
		job_output(&b, j);
		for (size_t k = 0; k < j->notes.n; k++) {
			xml_text(&b, j->notes.v[k], strlen(j->notes.v[k]));
			sb_puts(&b, "\n");
		}
		for (size_t k = 0; k < j->kernel_log.n; k++) {
			sb_puts(&b, "kernel: ");
			xml_text(&b, j->kernel_log.v[k], strlen(j->kernel_log.v[k]));
			sb_puts(&b, "\n");
		}
		sb_puts(&b, "</system-out>\n  </testsuite>\n");
	}
	sb_puts(&b, "</testsuites>\n");
	err = write_file_atomic(path, b.s, b.len);
	sb_free(&b);
	return err;
}
