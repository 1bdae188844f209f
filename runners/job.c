// SPDX-License-Identifier: GPL-2.0
/*
 * A binary's outcome: from how it ended (exit status, signal, timeout),
 * what it printed (TAP cases) and what the kernel did meanwhile, to its
 * records and the status of its KTAP line.
 *
 * The binary itself gets a record ("area/binary STATUS") only when its
 * cases cannot tell the whole story: it crashed, timed out, printed no
 * parsable TAP or fewer results than planned, exited non-zero with no
 * failing case, left processes behind, printed malformed observations, or
 * the kernel complained while it ran (ERROR or TIMEOUT); or it has no cases
 * at all (SKIP).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "baseline.h"
#include "job.h"

/* Whether j declares key among what it writes (or, for a read, reads or writes). */
bool job_declares(const struct job *j, const char *key, bool write)
{
	return strv_has(&j->writes, key) || (!write && strv_has(&j->reads, key));
}

void job_free(struct job *j)
{
	free(j->name);
	free(j->path);
	free(j->timeout_from);
	strv_free(&j->reads);
	strv_free(&j->writes);
	strv_free(&j->serial);
	if (j->phases && !j->whole) {
		free(j->phases->sysctl);
		free(j->phases->key);
		strv_free(&j->phases->variant);
		free(j->phases->value);
		free(j->phases);
	}
	free(j->tmpdir);
	free(j->spawn_error);
	tap_free(&j->tap);
	strv_free(&j->kernel_log);
	free(j->kernel_reason);
	strv_free(&j->health);
	free(j->bin_reason);
	strv_free(&j->notes);
	if (j->verdicts)
		for (size_t i = 0; i < j->recs.n; i++)
			verdict_free(&j->verdicts[i]);
	free(j->verdicts);
	recset_free(&j->recs);
	for (int i = 0; i < OUT_N; i++)
		free(j->out[i]);
	memset(j, 0, sizeof(*j));
}

/* Keep the most serious status; collect every reason. */
static void problem(struct job *j, enum status st, struct sbuf *why, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void problem(struct job *j, enum status st, struct sbuf *why, const char *fmt, ...)
{
	va_list ap;

	if (!j->has_bin_record || j->bin_status == ST_SKIP ||
	    (j->bin_status == ST_ERROR && st == ST_TIMEOUT))
		j->bin_status = st;
	j->has_bin_record = true;
	if (why->len)
		sb_puts(why, "; ");
	va_start(ap, fmt);
	sb_vprintf(why, fmt, ap);
	va_end(ap);
}

static const char *secs(double s)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "%g s", s);
	return buf;
}

struct job job_copy(const struct job *from)
{
	struct job j = { .name = xstrdup(from->name), .path = xstrdup(from->path), .timeout = from->timeout,
			 .timeout_from = xstrdup(from->timeout_from), .exclusive = from->exclusive,
			 .last_s = from->last_s, .fd = -1 };

	strv_add_all_once(&j.reads, &from->reads);
	strv_add_all_once(&j.writes, &from->writes);
	strv_add_all_once(&j.serial, &from->serial);
	tap_init(&j.tap);
	return j;
}

/* The worse of two wait statuses: a signal, then an exit status other than 0 or 4 (skip), then 0, then 4. */
static int worse_status(int a, int b)
{
	int ra = WIFSIGNALED(a) ? 3 : WEXITSTATUS(a) == 4 ? 0 : WEXITSTATUS(a) ? 2 : 1;
	int rb = WIFSIGNALED(b) ? 3 : WEXITSTATUS(b) == 4 ? 0 : WEXITSTATUS(b) ? 2 : 1;

	return rb > ra ? b : a;
}

void job_join(struct job *w, struct job *parts, size_t n)
{
	double ran = 0;
	bool first = true, planned = true;
	long plan = 0;

	tap_free(&w->tap);
	tap_init(&w->tap);
	for (size_t i = 0; i < n; i++) {
		struct job *p = &parts[i];

		if (p->whole != w)
			continue;
		if (first) {
			w->pid = p->pid;
			w->start = p->start;
			w->wstatus = p->wstatus;
		}
		first = false;
		w->start = p->start < w->start ? p->start : w->start;
		ran += p->end - p->start;
		w->wstatus = worse_status(w->wstatus, p->wstatus);
		w->timed_out |= p->timed_out;
		w->pipe_abandoned |= p->pipe_abandoned;
		w->leaked += p->leaked;
		w->sysctls_left += p->sysctls_left;
		if (!w->spawn_error && p->spawn_error)
			w->spawn_error = xstrdup(p->spawn_error);
		if (p->kernel_reason && (!w->kernel_reason || p->kernel_level > w->kernel_level)) {
			free(w->kernel_reason);
			w->kernel_reason = xstrdup(p->kernel_reason);
			w->kernel_level = p->kernel_level;
		}
		for (size_t k = 0; k < p->kernel_log.n; k++)
			strv_add(&w->kernel_log, p->kernel_log.v[k]);
		strv_add_all_once(&w->health, &p->health);
		for (size_t k = 0; k < p->notes.n; k++)
			strv_add(&w->notes, p->notes.v[k]);
		planned &= p->tap.plan >= 0;
		plan += p->tap.plan;
		tap_append(&w->tap, &p->tap);
	}
	w->tap.plan = planned ? plan : -1;
	w->end = w->start + ran;
	w->started = w->exited = w->done = true;
}

void job_outcome(struct job *j)
{
	struct tap *t = &j->tap;
	struct sbuf why = { 0 };
	bool any_bad = false, all_skip = t->ncases > 0, no_tap;
	int code = -1;

	for (size_t i = 0; i < t->ncases; i++) {
		any_bad |= status_bad(t->cases[i].r.st);
		all_skip &= status_skipped(t->cases[i].r.st);
	}
	no_tap = !t->version && t->plan < 0 && t->ncases == 0;

	if (j->spawn_error) {
		problem(j, ST_ERROR, &why, "%s", j->spawn_error);
	} else if (j->timed_out) {
		problem(j, ST_TIMEOUT, &why, "timeout after %s", secs(j->timeout));
		strv_addf(&j->notes, "timeout after %s (from %s): its session was killed with SIGKILL",
			  secs(j->timeout), j->timeout_from);
	} else if (j->wstatus == -1) {
		problem(j, ST_ERROR, &why, "did not exit");
	} else if (WIFSIGNALED(j->wstatus)) {
		int sig = WTERMSIG(j->wstatus);

		problem(j, ST_ERROR, &why, "killed by signal %d (%s)", sig, signal_name(sig));
	} else if (WIFEXITED(j->wstatus)) {
		code = WEXITSTATUS(j->wstatus);
		if (code)
			strv_addf(&j->notes, "exit status %d", code);
	}

	if (code >= 0) {
		if (no_tap && code == 4) {
			problem(j, ST_SKIP, &why, "exit status 4 (skip) and no TAP output");
		} else if (no_tap) {
			problem(j, ST_ERROR, &why, "unparsable output: no TAP plan or result line (exit status %d)",
				code);
		} else if (t->plan == 0 && t->ncases == 0 && (code == 0 || code == 4)) {
			problem(j, ST_SKIP, &why, "no test cases");
		} else if (t->plan < 0 && t->ncases == 0) {
			problem(j, ST_ERROR, &why, "no result line (exit status %d)", code);
		} else if (t->plan >= 0 && (size_t)t->plan != t->ncases) {
			problem(j, ST_ERROR, &why, "planned %ld cases, reported %zu (exit status %d)",
				t->plan, t->ncases, code);
		} else if (code != 0 && code != 4 && !any_bad) {
			problem(j, ST_ERROR, &why, "exit status %d but no case failed", code);
		}
	} else if (t->plan >= 0 && (size_t)t->plan > t->ncases) {
		strv_addf(&j->notes, "stopped after %zu of %ld planned cases", t->ncases, t->plan);
	}

	for (size_t i = 0; i < t->problems.n; i++) {
		strv_add(&j->notes, t->problems.v[i]);
		if (i == 0)
			problem(j, ST_ERROR, &why, "%s", t->problems.v[i]);
	}
	if (j->leaked)
		problem(j, ST_ERROR, &why, "left %d process%s running (killed)", j->leaked,
			j->leaked == 1 ? "" : "es");
	if (j->pipe_abandoned)
		problem(j, ST_ERROR, &why, "a process outside its session kept its output open");
	for (int w = 0; w < 2 && !j->exclusive; w++) {
		const struct strv *did = w ? &j->tap.wrote : &j->tap.read;

		for (size_t i = 0; i < did->n; i++)
			if (!job_declares(j, did->v[i], w) && (w || !strv_has(&j->tap.wrote, did->v[i])))
				problem(j, ST_ERROR, &why, "%s %s without declaring it: PERFCONF_META(\"%s=%s\")",
					w ? "changed" : "read", did->v[i], w ? "writes" : "reads", did->v[i]);
	}
	if (j->sysctls_left)
		strv_addf(&j->notes, "left %d sysctl%s changed: the runner restored %s", j->sysctls_left,
			  j->sysctls_left == 1 ? "" : "s", j->sysctls_left == 1 ? "it" : "them");
	/* The kernel's complaints last: a binary with no other problem failed on the kernel's account only. */
	j->kernel_only = !j->has_bin_record && (j->kernel_reason || j->health.n);
	if (j->kernel_reason)
		problem(j, ST_ERROR, &why, "%s", j->kernel_reason);
	for (size_t i = 0; i < j->health.n; i++)
		problem(j, ST_ERROR, &why, "%s", j->health.v[i]);

	if (j->has_bin_record) {
		j->bin_reason = why.s;
	} else {
		sb_free(&why);
		j->bin_status = any_bad ? ST_FAIL : all_skip ? ST_SKIP : ST_PASS;
		if (all_skip)
			j->bin_reason = xstrdup("all cases skipped");
	}

	/* Records. */
	for (size_t i = 0; i < t->ncases; i++) {
		const struct record *c = &t->cases[i].r;
		struct record r = { 0 };

		r.id = xasprintf("%s:%s", j->name, c->id);
		r.st = c->st;
		for (size_t k = 0; k < c->nobs; k++)
			record_add_obs(&r, c->obs[k].key, c->obs[k].value);
		for (size_t k = 0; k < c->deps.n; k++)
			strv_add(&r.deps, c->deps.v[k]);
		recset_add(&j->recs, &r);
	}
	if (j->has_bin_record) {
		struct record r = { .id = xstrdup(j->name), .st = j->bin_status };

		recset_add(&j->recs, &r);
	}
	/* Case order stays as run (the results file sorts). */
}

void job_judge(struct job *j, const struct judges *judges)
{
	j->verdicts = xcalloc(j->recs.n, sizeof(*j->verdicts));
	for (size_t i = 0; i < j->recs.n; i++)
		judge_facts(judges, &j->recs.v[i], &j->verdicts[i]);
}

void job_shown(const struct job *j, size_t rec, struct shown *s)
{
	const struct record *r = &j->recs.v[rec];
	const struct verdict *v = j->verdicts ? &j->verdicts[rec] : NULL;
	enum verdict_kind k = v ? v->kind : V_NEW;
	const char *reason = rec < j->tap.ncases ? j->tap.cases[rec].reason : j->bin_reason;
	const char *detail = v && v->detail ? v->detail : NULL;

	*s = (struct shown){ 0 };
	if (verdict_fails(k)) {
		s->kind = SHOWN_NOT_OK;
		/* A SKIP or XFAIL directive would hide the failure from parsers. */
		if (r->st == ST_TIMEOUT || r->st == ST_ERROR) {
			s->directive = status_name(r->st);
			s->reason = reason ? xstrdup(reason) : NULL;
		}
		if (k == V_NEW_FAILURE && detail)
			s->note = xasprintf("new failure: %s: %s, %s", r->id, status_name(r->st), detail);
		else if (k == V_NEW_FAILURE)
			s->note = xasprintf("new failure: %s: %s, not in the baseline", r->id,
					    status_name(r->st));
		else
			s->note = xasprintf("regression: %s: %s", r->id, detail ? detail : "");
		if (!s->directive && reason && *reason) {
			char *n = xasprintf("%s (%s: %s)", s->note, status_name(r->st), reason);

			free(s->note);
			s->note = n;
		}
		return;
	}
	if (status_bad(r->st)) {
		/* As the baseline (or the newer one, in transit) expects. */
		s->kind = SHOWN_XFAIL;
		s->directive = "XFAIL";
		s->reason = k == V_TRANSIT
			? xasprintf("ABI growth in transit: %s", detail ? detail : status_name(r->st))
			: xasprintf("known failure: %s as in the baseline%s%s", status_name(r->st),
				    reason && *reason ? ": " : "", reason && *reason ? reason : "");
		return;
	}
	if (k == V_IMPROVEMENT || k == V_CHANGED || k == V_TRANSIT || k == V_UNJUDGED)
		s->note = xasprintf("%s: %s: %s", verdict_label(k), r->id, detail ? detail : "");
	if (status_skipped(r->st) || r->st == ST_XFAIL) {
		s->kind = r->st == ST_XFAIL ? SHOWN_XFAIL : SHOWN_SKIP;
		s->directive = r->st == ST_XFAIL ? "XFAIL" : "SKIP";
		s->reason = reason ? xstrdup(reason) : NULL;
		return;
	}
	s->kind = SHOWN_OK;
	if (reason && *reason) {
		/* A plain pass says why on a line above. */
		char *n = s->note ? xasprintf("%s\n%s: %s", s->note, r->id, reason)
				  : xasprintf("%s: %s", r->id, reason);

		free(s->note);
		s->note = n;
	}
}

void shown_free(struct shown *s)
{
	free(s->reason);
	free(s->note);
}

const struct verdict *job_case_verdict(const struct job *j, size_t case_index)
{
	if (!j->verdicts || case_index >= j->recs.n)
		return NULL;
	return &j->verdicts[case_index];	/* cases come first, in order */
}
