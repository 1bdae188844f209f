// SPDX-License-Identifier: GPL-2.0
/*
 * One run of the suite: clean up after a dead run, discover, choose and
 * load the baseline, run the binaries (exec.c), print each one's KTAP in
 * order as they finish, then the summary, results.txt, JUnit, and the
 * recorded baseline.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline.h"
#include "discover.h"
#include "exec.h"
#include "expect.h"
#include "facts.h"
#include "fixes.h"
#include "health.h"
#include "job.h"
#include "module.h"
#include "profile.h"
#include "report.h"
#include "run.h"
#include "host/sysctl.h"

struct run {
	struct opts *o;
	struct job *jobs;	/* the binaries, then the parts of those run in phases */
	size_t n, nall, printed;
	struct judges judges;
	FILE *file[OUT_N];	/* stdout, ktap.txt, kselftest.txt */
};

static void emit(struct run *r, char *const text[OUT_N])
{
	for (int i = 0; i < OUT_N; i++) {
		if (r->file[i]) {
			fputs(text[i], r->file[i]);
			fflush(r->file[i]);
		}
	}
}

/* The same text to every output. */
static void emit_all(struct run *r, char *text)
{
	char *all[OUT_N];

	for (int i = 0; i < OUT_N; i++)
		all[i] = text;
	emit(r, all);
}

/* " reads=a,b" (kind 0), " writes=a" (1) or " serial=a" (2), as PERFCONF_META declares them, or "". */
static const char *state_words(const struct job *j, int kind)
{
	static char buf[3][256];
	static const char *const word[] = { " reads=", " writes=", " serial=" };
	const struct strv *keys = kind == 0 ? &j->reads : kind == 1 ? &j->writes : &j->serial;
	char *b = buf[kind];
	size_t used = 0;

	b[0] = 0;
	for (size_t i = 0; i < keys->n && used < sizeof(buf[0]); i++)
		used += snprintf(b + used, sizeof(buf[0]) - used, "%s%s", i ? "," : word[kind], keys->v[i]);
	return b;
}

static void job_done(void *ctx, struct job *j)
{
	struct run *r = ctx;
	int restored;

	/*
	 * Global state goes back as soon as a binary is done, so that the
	 * next ones run on the machine's own settings.
	 */
	restored = pc_sysctl_restore_owned(j->pid);
	if (restored > 0)
		j->sysctls_left = restored;
	else if (restored < 0)
		strv_addf(&j->notes, "cannot restore the sysctls saved in %s: %s",
			  pc_sysctl_state_path(), strerror(-restored));
	if (j->whole) {
		struct job *w = j->whole;

		if (--w->parts_left)
			return;
		job_join(w, r->jobs + r->n, r->nall - r->n);
		j = w;
	}
	job_outcome(j);
	job_judge(j, &r->judges);
	j->out[OUT_STDOUT] = ktap_job(j, r->o->verbose, r->o->layout);
	j->out[OUT_KTAP] = ktap_job(j, true, LAYOUT_KTAP);
	j->out[OUT_KSELFTEST] = ktap_job(j, true, LAYOUT_KSELFTEST);
	/* Print in order: this one and any finished ones after it. */
	while (r->printed < r->n && r->jobs[r->printed].done) {
		struct job *p = &r->jobs[r->printed++];

		emit(r, p->out);
		for (int i = 0; i < OUT_N; i++) {
			free(p->out[i]);
			p->out[i] = NULL;
		}
	}
}

/*
 * The binaries that declare phases= run as parts (runner.h): one per
 * phase, under the value the runner holds for it (exec.c), and one for
 * their cases of no phase, appended to the jobs. As root only (no one
 * else could hold the value), and never an exclusive binary. Returns the
 * number of jobs, parts included.
 */
static size_t split_phases(struct job **jobsp, size_t n)
{
	struct job *jobs = *jobsp;
	size_t all = n;

	for (size_t i = 0; i < n; i++)
		if (jobs[i].phases && !jobs[i].exclusive)
			all += jobs[i].phases->variant.n + 1;
	if (all == n || geteuid() != 0)
		return n;
	jobs = xrealloc(jobs, all * sizeof(*jobs));
	memset(jobs + n, 0, (all - n) * sizeof(*jobs));
	for (size_t i = 0, at = n; i < n; i++) {
		struct job *w = &jobs[i];
		size_t parts = w->phases ? w->phases->variant.n + 1 : 0;

		if (!parts || w->exclusive)
			continue;
		w->split = true;
		w->parts_left = parts;
		for (size_t k = 0; k < parts; k++, at++) {
			struct job *p = &jobs[at];

			*p = job_copy(w);
			p->last_s = w->last_s < 0 ? -1 : w->last_s / parts;
			p->phases = w->phases;
			p->whole = w;
			p->phase = k + 1 < parts ? (int)k : -1;
			p->held = k + 1 < parts;
		}
	}
	*jobsp = jobs;
	return all;
}

static void rerun_done(void *ctx, struct job *j)
{
	(void)ctx;
	pc_sysctl_restore_owned(j->pid);	/* as after any binary; the run's own changes stay */
}

/* "A", "A and B", "A, B and C" */
static char *names_of(const struct strv *v)
{
	struct sbuf b = { 0 };

	for (size_t i = 0; i < v->n; i++)
		sb_printf(&b, "%s%s", i == 0 ? "" : i + 1 == v->n ? " and " : ", ", v->v[i]);
	return b.s ? b.s : xstrdup("no binary");
}

#define RERUN_MAX 8	/* suspects re-run alone, at most */

/*
 * A complaint that named no task of ours: run each binary that was running
 * then alone, watching the log, to see which one brings it back. A
 * WARN_ONCE never comes back: then it says it could not reproduce it.
 * Returns what exec_run() does: a signal number when asked to stop.
 */
static int rerun_suspects(struct health *h, const struct job *jobs, size_t n)
{
	size_t count = h->ncomplaints;
	int stop = 0;

	for (size_t i = 0; i < count && !stop; i++) {
		struct strv suspects = { 0 }, made = { 0 };
		char *all;

		for (size_t k = 0; k < h->complaints[i].suspects.n; k++)
			strv_add(&suspects, h->complaints[i].suspects.v[k]);
		if (!suspects.n || suspects.n > RERUN_MAX) {
			strv_free(&suspects);
			continue;
		}
		for (size_t k = 0; k < suspects.n && !stop; k++) {
			const struct job *from = NULL;
			struct job one = { 0 };
			size_t before = h->ncomplaints;

			for (size_t x = 0; x < n && !from; x++)
				if (!strcmp(jobs[x].name, suspects.v[k]))
					from = &jobs[x];
			if (!from)
				continue;
			one = job_copy(from);
			h->keep_all = true;
			stop = exec_run(&one, 1, 1, h, rerun_done, NULL);
			h->keep_all = false;
			for (size_t x = before; x < h->ncomplaints; x++) {
				const char *want = h->complaints[i].title, *got = h->complaints[x].title;

				if (want && got && !strcmp(want, got))
					strv_add(&made, suspects.v[k]);
				complaint_free(&h->complaints[x]);
			}
			h->ncomplaints = before;
			job_free(&one);
		}
		all = names_of(&suspects);
		if (stop) {
			/* interrupted: it says nothing */
		} else if (made.n) {
			char *who = names_of(&made);

			h->complaints[i].repro = xasprintf("it came back running %s alone", who);
			free(who);
		} else {
			h->complaints[i].repro = xasprintf("not reproduced running %s alone (a WARN_ONCE does not "
							   "repeat until the next boot)", all);
		}
		free(all);
		strv_free(&suspects);
		strv_free(&made);
	}
	return stop;
}

/*
 * The kernel's complaints that no binary made (an interrupt, the idle
 * task, a kernel thread, or while nothing ran): one cause each, its lines
 * once. A failure of the run, except under --gate suite (the host's
 * kernel is not the suite's fault; summary_print shows them all the same).
 */
static void report_complaints(const struct health *h, struct sbuf *tail, struct summary *sum)
{
	for (size_t i = 0; i < h->ncomplaints; i++) {
		const struct complaint *c = &h->complaints[i];
		char *d = complaint_describe(c), *who = names_of(&c->suspects), *l;

		l = xasprintf("kernel complaint: %s, while %s ran%s%s%s%s", d, c->suspects.n ? who : "no binary",
			      c->taint ? "; " : "", c->taint ? c->taint : "", c->repro ? "; " : "",
			      c->repro ? c->repro : "");
		ktap_diag(tail, "", l);
		for (size_t k = 0; k < c->lines.n && k < 40; k++) {
			char *line = xasprintf("  %s", c->lines.v[k]);

			ktap_diag(tail, "", line);
			free(line);
		}
		strv_add(&sum->complaints, l + strlen("kernel complaint: "));
		sum->failed++;
		free(l);
		free(d);
		free(who);
	}
	if (h->orphan_log.n) {
		/* A taint with no complaint to go with it, while nothing ran. */
		for (size_t i = 0; i < h->orphan_log.n; i++) {
			char *l = xasprintf("(the kernel) %s, while no binary was running", h->orphan_log.v[i]);

			ktap_diag(tail, "", l);
			strv_add(&sum->complaints, l);
			sum->failed++;
			free(l);
		}
	}
}

/* What judges a run's cases (judging_open). */
struct judging {
	struct kernel_id kb;	/* whose baselines judge: k, or k as nohw where its profile has none */
	char *base_path, *newer_path;
	struct recset base, newer;
	struct expect_all all;
	struct fixes fixes;
	bool have_base, have_newer, fallback, plain, unrecorded;
};

int require_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	warnx_("%s runs as root, not uid %d: its cases build identities with libcap and set sysctls, "
	       "and the baselines are root's runs (as any user: -l, diff, abi, coverage, info)",
	       what, (int)geteuid());
	return EXIT_SETUP;
}

const char *run_lock_why(int err)
{
	if (err == -ENOSYS)	/* flock() is sys_ni_syscall */
		return "this kernel has no file locking (CONFIG_FILE_LOCKING)";
	return strerror(-err);
}

/*
 * The baselines that judge this kernel (expect.h): its own, or for a
 * variant or PMU profile with none the plain kernel's or the nohw ones;
 * the nearest older and newer for a kernel between two; every baseline
 * for the rules beyond them; and fixes.txt. -1 with a message in err.
 */
static int judging_open(const struct opts *o, const struct kernel_id *k, struct judging *g, char *err, size_t len)
{
	char *path;

	memset(g, 0, sizeof(*g));
	g->kb = *k;
	if (o->baseline) {
		g->base_path = xstrdup(o->baseline);
	} else {
		g->base_path = baseline_find(o->expected, k, &g->fallback);
		if (!g->base_path && !o->record && k->variant[0]) {
			/* A variant with no baseline of its own: the plain kernel's, under equal facts. */
			g->kb.profile[strlen(g->kb.profile) - strlen(k->variant) - 1] = 0;	/* "<pmu>-<variant>" */
			g->base_path = baseline_find(o->expected, &g->kb, &g->fallback);
			g->plain = g->base_path != NULL;
		}
		if (!g->base_path && !o->record && strncmp(g->kb.profile, "nohw", 4)) {
			/*
			 * A PMU profile no baseline has: the nohw baselines judge
			 * every case that does not depend on the core PMU (fact
			 * pmu.core).
			 */
			snprintf(g->kb.profile, sizeof(g->kb.profile), "nohw");
			g->base_path = baseline_find(o->expected, &g->kb, &g->fallback);
			g->unrecorded = g->base_path != NULL;
		}
	}
	if (g->base_path && (!o->record || access(g->base_path, F_OK) == 0)) {
		if (recset_load(&g->base, g->base_path, err, len))
			return -1;
		expect_kernel_facts(&g->base);
		g->have_base = true;
	}
	/* A kernel between two baselines is judged against both. */
	if (g->have_base && g->fallback && !o->record)
		g->newer_path = baseline_find_newer(o->expected, &g->kb);
	if (g->newer_path) {
		if (recset_load(&g->newer, g->newer_path, err, len))
			return -1;
		expect_kernel_facts(&g->newer);
		g->have_newer = true;
	}
	/* Every baseline, for the rules beyond this kernel's own. */
	if (!o->record && !o->baseline && expect_load(&g->all, o->expected, err, len))
		return -1;
	/* The changes behind known differences, to name them in a regression. */
	path = xasprintf("%s/fixes.txt", o->expected);
	if (fixes_load(&g->fixes, path, err, len)) {
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

/* This machine's facts are known: the judges of its cases. */
static struct judges judging_judges(struct judging *g, const struct kernel_id *k, const struct strv *here)
{
	expect_here(&g->all, k, here);
	return (struct judges){ .base = g->have_base ? &g->base : NULL, .newer = g->have_newer ? &g->newer : NULL,
				.base_other_line = g->have_base && g->fallback,
				.all = g->all.n ? &g->all : NULL, .here = &g->all.here, .fixes = &g->fixes,
				.release = k->release };
}

static void judging_close(struct judging *g)
{
	recset_free(&g->base);
	recset_free(&g->newer);
	expect_free(&g->all);
	fixes_free(&g->fixes);
	free(g->base_path);
	free(g->newer_path);
}

int cmd_run(struct opts *o)
{
	struct kernel_id k;
	struct job *jobs = NULL;
	size_t n = 0, nall;
	struct timeouts tmo = { 0 };
	struct judging g;
	struct strv here = { 0 };
	char err[1024], *results_dir, *path, *header;
	struct sbuf head = { 0 }, tail = { 0 };
	struct health h;
	struct module_run mod = { 0 };
	struct summary sum = { 0 };
	struct run run = { .o = o };
	double t0 = now_s(), wall;
	int killed, restored, stop, code, strays, expedited, stale_module;
	bool filtered = o->sel.include.n || o->sel.exclude.n;

	if (!o->dir)
		o->dir = self_dir();
	if (!o->expected)
		o->expected = xasprintf("%s/../expected", o->dir);
	kernel_identify(&k, o->variant);

	if (discover(o->dir, &o->sel, &jobs, &n, err, sizeof(err))) {
		warnx_("%s", err);
		return exit_code(o, EXIT_SETUP);
	}
	{
		char *tpath = o->timeouts ? xstrdup(o->timeouts) : xasprintf("%s/../runners/timeouts.conf", o->dir);

		if (timeouts_load(&tmo, tpath, o->timeouts != NULL, err, sizeof(err))) {
			warnx_("%s", err);
			free(tpath);
			return exit_code(o, EXIT_SETUP);
		}
		free(tpath);
	}
	apply_timeouts(jobs, n, &tmo, o->timeout, o->timeout_given ? "--timeout" : "the default");
	if (o->list) {
		for (size_t i = 0; i < n; i++) {
			char phases[300] = "";

			if (!o->verbose) {
				printf("%s\n", jobs[i].name);
				continue;
			}
			if (jobs[i].phases)
				snprintf(phases, sizeof(phases), " phases=%s(%zu)", jobs[i].phases->sysctl,
					 jobs[i].phases->variant.n);
			printf("%-40s timeout=%gs (%s)%s%s%s%s%s\n", jobs[i].name, jobs[i].timeout,
			       jobs[i].timeout_from, jobs[i].exclusive ? " exclusive" : "",
			       state_words(&jobs[i], 0), state_words(&jobs[i], 1), state_words(&jobs[i], 2), phases);
		}
		return EXIT_OK;
	}
	if (n == 0) {
		warnx_(filtered ? "no test binary under %s/tests matches the selection"
				: "no test binaries under %s/tests", o->dir);
		return exit_code(o, EXIT_SETUP);
	}
	if (require_root("the suite"))
		return exit_code(o, EXIT_SETUP);

	if (judging_open(o, &k, &g, err, sizeof(err))) {
		warnx_("%s", err);
		return exit_code(o, EXIT_SETUP);
	}
	if (!g.have_base && o->bisect && !o->record) {
		warnx_("no baseline for %s %d.%d %s in %s: cannot judge (give --baseline)",
		       k.arch, k.major, k.minor, k.profile, o->expected);
		return exit_code(o, EXIT_SETUP);
	}

	/*
	 * One run at a time on this machine's sysctls (taken before signals
	 * are blocked, so that ^C ends the wait).
	 */
	{
		long holder;
		int err = pc_sysctl_lock_runs(false, &holder);

		if (err == -EWOULDBLOCK) {
			warnx_("waiting for the perfconf run pid %ld to finish (one run at a time changes "
			       "this machine's sysctls: /run/perfconf/run.lock)", holder);
			err = pc_sysctl_lock_runs(true, &holder);
		}
		if (err) {
			warnx_("cannot take the run lock /run/perfconf/run.lock: %s", run_lock_why(err));
			return exit_code(o, EXIT_SETUP);
		}
	}
	if (exec_init()) {
		warnx_("cannot set up signal handling: %s", strerror(errno));
		return exit_code(o, EXIT_SETUP);
	}
	/* Clean up after a run that died under SIGKILL, then restore global state. */
	killed = exec_cleanup_stale();
	restored = pc_sysctl_restore_all();
	if (restored < 0) {
		warnx_("cannot restore the sysctls saved in %s: %s (fix it, then run: perfconf restore)",
		       pc_sysctl_state_path(), strerror(-restored));
		return exit_code(o, EXIT_SETUP);
	}
	/* The module a dead run loaded, now that its processes are gone (module.h). */
	stale_module = module_restore_stale(&mod);
	/* Grace periods expedited (restored at the end): before the facts, whose probes wait for some. */
	expedited = o->rcu_normal ? 0 : exec_expedite_rcu();

	results_dir = o->results ? xstrdup(o->results)
				 : xasprintf("%s/results/%s-%s-%s", o->dir, k.release, k.arch, k.profile);
	if (mkdir_p(results_dir, 0755)) {
		warnx_("cannot create %s: %s", results_dir, strerror(errno));
		if (expedited == 1)
			pc_sysctl_restore(PC_RCU_EXPEDITED);
		return exit_code(o, EXIT_SETUP);
	}
	/*
	 * The suite's module, before the kernel's health is first read (its
	 * load taints O and E) and before the facts (its PMUs are in pmus=).
	 * Every binary is told whether it is there, or why not.
	 */
	{
		char *file = o->module ? xstrdup(o->module) : xasprintf("%s/" PC_MODULE_FILE, o->dir);

		module_load(&mod, file, !o->module, o->no_module);
		free(file);
		setenv(PC_MODULE_ENV, mod.loaded ? "loaded" : mod.reason, 1);
	}
	/* What the verdicts depend on, once per run (under the run lock: one probe sets a sysctl). */
	facts_probe(&here, &k, true);
	/* The last run's durations here decide the start order (exec_run). */
	path = xasprintf("%s/durations.txt", results_dir);
	load_durations(path, jobs, n);
	free(path);
	nall = split_phases(&jobs, n);
	run.file[OUT_STDOUT] = stdout;
	for (int i = OUT_KTAP; i < OUT_N; i++) {
		path = xasprintf("%s/%s", results_dir, i == OUT_KTAP ? "ktap.txt" : "kselftest.txt");
		run.file[i] = fopen(path, "we");
		if (!run.file[i])
			warnx_("cannot write %s: %s", path, strerror(errno));
		free(path);
	}

	health_open(&h);
	if (mod.load_complaint)	/* while no binary ran: a failure of the run, as any such */
		strv_addf(&h.orphan_log, "loading %s: %s", PC_MODULE, mod.load_complaint);
	{
		char *l = xasprintf("perfconf: %s %s, profile %s, %zu binar%s, -j %d", k.release, k.arch,
				    k.profile, n, n == 1 ? "y" : "ies", o->jobs);

		ktap_diag(&head, "", l);
		free(l);
		if (g.have_newer)
			l = xasprintf("baseline: %s and %s, the kernels either side (there is none for %s %d.%d %s)",
				      g.base_path, g.newer_path, k.arch, k.major, k.minor, k.profile);
		else if (g.have_base && g.fallback)
			l = xasprintf("baseline: %s (nearest older kernel: there is none for %s %d.%d %s)",
				      g.base_path, k.arch, k.major, k.minor, k.profile);
		else if (g.have_base)
			l = xasprintf("baseline: %s", g.base_path);
		else if (g.all.n)
			l = xasprintf("baseline: none for %s %d.%d %s in %s: the rules across arches and kernel lines "
				      "judge it (README: Which baseline judges a case; record one with --record)",
				      k.arch, k.major, k.minor, k.profile, o->expected);
		else
			l = xasprintf("baseline: none for %s %d.%d %s in %s: every case is new (record one with --record)",
				      k.arch, k.major, k.minor, k.profile, o->expected);
		ktap_diag(&head, "", l);
		free(l);
		if (g.plain && !g.unrecorded) {
			l = xasprintf("variant %s: no baseline of its own; the %s baselines judge it, under equal facts",
				      k.variant, g.kb.profile);
			ktap_diag(&head, "", l);
			free(l);
		}
		if (g.unrecorded) {
			l = xasprintf("profile %s: no baseline has it; the %s baselines judge every case that "
				      "does not depend on the core PMU (fact pmu.core)", k.profile, g.kb.profile);
			ktap_diag(&head, "", l);
			free(l);
		}
		{
			char *f = facts_line(&here);

			l = xasprintf("facts: %s", f);
			ktap_diag(&head, "", l);
			free(f);
			free(l);
		}
		if (killed) {
			l = xasprintf("killed %d process%s left running by an earlier run that died",
				      killed, killed == 1 ? "" : "es");
			ktap_diag(&head, "", l);
			free(l);
		}
		if (restored) {
			l = xasprintf("restored %d sysctl%s an earlier run left changed", restored,
				      restored == 1 ? "" : "s");
			ktap_diag(&head, "", l);
			free(l);
		}
		if (stale_module != -ENOENT) {
			l = !stale_module ? xasprintf("unloaded %s, which an earlier run left loaded", PC_MODULE)
			    : xasprintf("could not unload %s, which an earlier run left loaded: %s", PC_MODULE,
					strerror(-stale_module));
			ktap_diag(&head, "", l);
			free(l);
		}
		l = module_header(&mod);
		ktap_diag(&head, "", l);
		free(l);
		if (expedited == 1 || (expedited < 0 && expedited != -ENOENT && expedited != -EPERM)) {
			l = expedited == 1 ? xasprintf("RCU grace periods expedited for this run (%s 0 -> 1, restored at "
						       "its end; --rcu-normal leaves it)", PC_RCU_EXPEDITED)
					   : xasprintf("RCU grace periods not expedited: %s: %s", PC_RCU_EXPEDITED,
						       strerror(-expedited));
			ktap_diag(&head, "", l);
			free(l);
		}
		if (h.kmsg_fd < 0) {
			l = xasprintf("kernel log not checked: %s", h.kmsg_error);
			ktap_diag(&head, "", l);
			free(l);
		}
	}
	sb_printf(&head, "1..%zu\n", n);
	{
		/* The same diagnostics under each layout's version line. */
		char *ktap = xasprintf("KTAP version 1\n%s", head.s);
		char *ksft = xasprintf("TAP version 13\n%s", head.s);
		char *heads[OUT_N] = { [OUT_STDOUT] = o->layout == LAYOUT_KSELFTEST ? ksft : ktap,
				       [OUT_KTAP] = ktap, [OUT_KSELFTEST] = ksft };

		emit(&run, heads);
		free(ktap);
		free(ksft);
	}
	sb_free(&head);

	run.jobs = jobs;
	run.n = n;
	run.nall = nall;
	run.judges = judging_judges(&g, &k, &here);
	exec_keep_tracepoints();
	stop = exec_run(jobs, nall, o->jobs, &h, job_done, &run);
	if (!stop)
		stop = rerun_suspects(&h, jobs, n);
	if (expedited == 1)
		pc_sysctl_restore(PC_RCU_EXPEDITED);	/* not one the tests left changed */
	report_complaints(&h, &tail, &sum);
	health_close(&h);
	strays = exec_kill_strays();
	{
		/* After every process of the run, whose events held it, is gone. */
		char *why;

		if (module_unload(&mod, &why)) {
			ktap_diag(&tail, "", why);
			free(why);
		}
		if (mod.unload_complaint) {
			char *l = xasprintf("kernel complaint: unloading %s: %s, while no binary ran", PC_MODULE,
					    mod.unload_complaint);

			ktap_diag(&tail, "", l);
			strv_add(&sum.complaints, l + strlen("kernel complaint: "));
			sum.failed++;
			free(l);
		}
	}
	restored = pc_sysctl_restore_all();
	wall = now_s() - t0;

	if (stop) {
		char *l = xasprintf("interrupted by %s: the running binaries were killed%s",
				    stop > 0 ? signal_name(stop) : "an error",
				    restored > 0 ? ", the saved sysctls restored" : "");

		ktap_diag(&tail, "", l);
		free(l);
		emit_all(&run, tail.s);
		return o->bisect && stop > 0 ? 128 + stop : EXIT_SETUP;
	}

	for (size_t i = 0; i < n; i++)
		summary_add_job(&sum, &jobs[i]);
	summary_add_gone(&sum, run.judges.base, &o->sel, jobs, n);
	if (strays) {
		char *l = xasprintf("killed %d stray process%s that escaped their binary's session",
				    strays, strays == 1 ? "" : "es");

		ktap_diag(&tail, "", l);
		free(l);
	}
	if (restored > 0) {
		char *l = xasprintf("restored %d sysctl%s the tests left changed", restored,
				    restored == 1 ? "" : "s");

		ktap_diag(&tail, "", l);
		free(l);
	} else if (restored < 0) {
		char *l = xasprintf("could not restore the saved sysctls (%s): see %s",
				    strerror(-restored), pc_sysctl_state_path());

		ktap_diag(&tail, "", l);
		free(l);
	}
	{
		char *l = xasprintf("%zu binar%s, %zu cases, %.1f s, -j %d; results in %s", n,
				    n == 1 ? "y" : "ies", sum.cases, wall, o->jobs, results_dir);

		ktap_diag(&tail, "", l);
		free(l);
	}

	{
		/*
		 * What bounds the run's time, whatever -j: the exclusive binaries,
		 * then the longest of: the longest other one, the writers of one
		 * state, which run one at a time, and the phases of a held sysctl.
		 */
		double alone = 0, longest = -1, chain = 0, phases_s = 0;
		size_t nalone = 0, at = 0, nchain = 0, phases_n = 0, phases_bins = 0;
		const char *chain_key = NULL, *phases_key = NULL;
		int chain_serial = 0;
		char *l, *other;

		for (size_t i = 0; i < n; i++) {
			double d = jobs[i].end - jobs[i].start;

			if (!jobs[i].started)
				continue;
			if (jobs[i].exclusive) {
				alone += d;
				nalone++;
			} else if (d > longest) {
				longest = d;
				at = i;
			}
			/* the binaries that write one state, or name one serial= key, run one at a time */
			for (int kind = 0; kind < 2 && !jobs[i].exclusive; kind++) {
				const struct strv *keys = kind ? &jobs[i].serial : &jobs[i].writes;

				for (size_t w = 0; w < keys->n; w++) {
					double sum = 0;
					size_t count = 0;

					for (size_t k = 0; k < n; k++) {
						bool in = kind ? strv_has(&jobs[k].serial, keys->v[w])
							       : job_declares(&jobs[k], keys->v[w], true) &&
								 !(jobs[k].split && !strcmp(jobs[k].phases->key, keys->v[w]));

						if (jobs[k].started && !jobs[k].exclusive && in) {
							sum += jobs[k].end - jobs[k].start;
							count++;
						}
					}
					if (sum > chain) {
						chain = sum;
						nchain = count;
						chain_key = keys->v[w];
						chain_serial = kind;
					}
				}
			}
		}
		/* the phases of a held sysctl, one after the other, each as long as its longest part */
		for (size_t i = n; i < nall; i++) {
			const struct phase_set *ps = jobs[i].whole->phases;
			double span = 0;
			size_t nbin = 0;

			if (jobs[i].phase != 0 || phases_key)
				continue;
			for (size_t k = 0; k < ps->variant.n; k++) {
				double first = -1, last = -1;

				for (size_t x = n; x < nall; x++) {
					const struct job *p = &jobs[x];

					if (p->phase != (int)k || !p->started || strcmp(p->whole->phases->sysctl, ps->sysctl))
						continue;
					first = first < 0 || p->start < first ? p->start : first;
					last = p->end > last ? p->end : last;
					nbin += k == 0;
				}
				span += first < 0 ? 0 : last - first;
			}
			phases_key = ps->key;
			phases_n = ps->variant.n;
			phases_bins = nbin;
			phases_s = span;
		}
		if (phases_key && phases_s > chain && phases_s > longest)
			other = xasprintf("the %zu phases of %s (%zu binaries side by side in each), %.2f s", phases_n,
					  phases_key, phases_bins, phases_s);
		else if (chain_key && chain > longest)
			other = xasprintf("the %zu %s %s, one at a time, %.2f s", nchain,
					  chain_serial ? (nchain == 1 ? "binary of" : "binaries of")
						       : (nchain == 1 ? "writer of" : "writers of"),
					  chain_key, chain);
		else
			other = longest < 0 ? xstrdup("no other binary")
					    : xasprintf("the longest other, %s, %.2f s", jobs[at].name, longest);
		l = xasprintf("critical path: %zu exclusive binar%s %.2f s, alone; %s; durations.txt", nalone,
			      nalone == 1 ? "y" : "ies", alone, other);
		ktap_diag(&tail, "", l);
		free(other);
		free(l);
	}
	header = results_header(&k, "results", &here);
	path = xasprintf("%s/results.txt", results_dir);
	if (write_results(path, jobs, n, header))
		warnx_("cannot write %s: %s", path, strerror(errno));
	free(path);
	path = xasprintf("%s/durations.txt", results_dir);
	if (write_durations(path, jobs, n, "# perfconf durations: <area>/<binary> <seconds>, the next run here starts the longest first\n"))
		warnx_("cannot write %s: %s", path, strerror(errno));
	free(path);
	free(header);
	if (o->junit && write_junit(o->junit, jobs, n, wall))
		warnx_("cannot write %s: %s", o->junit, strerror(errno));

	code = summary_failures(&sum, o->gate_suite) ? EXIT_FAILED : EXIT_OK;
	if (o->record) {
		char *target = o->record_file ? xstrdup(o->record_file)
			     : o->baseline ? xstrdup(o->baseline) : baseline_path(o->expected, &k);
		char *l;

		header = results_header(&k, "baseline", &here);
		if (record_baseline(target, jobs, n, &o->sel, filtered, header, err, sizeof(err))) {
			warnx_("%s", err);
			code = EXIT_SETUP;
		} else {
			l = xasprintf("recorded %zu cases into %s", sum.cases, target);
			ktap_diag(&tail, "", l);
			free(l);
			code = EXIT_OK;
		}
		free(header);
		free(target);
	}
	summary_print(&tail, &sum, o->gate_suite);
	emit_all(&run, tail.s);
	for (int i = OUT_KTAP; i < OUT_N; i++)
		if (run.file[i])
			fclose(run.file[i]);
	summary_free(&sum);
	sb_free(&tail);
	for (size_t i = nall; i-- > 0;)
		job_free(&jobs[i]);	/* parts first: their binary owns the phases */
	free(jobs);
	judging_close(&g);
	strv_free(&here);
	timeouts_free(&tmo);
	module_run_free(&mod);
	free(results_dir);
	return exit_code(o, code);
}

/*
 * The facts each case of a saved run depends on: the "# DEPENDS" lines of
 * ktap.txt under dir, onto its records in rs. False when dir has no ktap.txt.
 */
static bool deps_from_ktap(const char *dir, struct recset *rs)
{
	char *path = xasprintf("%s/ktap.txt", dir), *text = read_file(path, NULL), *line, *save;
	char binary[512] = "";
	struct strv pending = { 0 };

	free(path);
	if (!text)
		return false;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *l = line + strspn(line, " ");
		const char *name;

		if (!strncmp(l, "# Subtest: ", 11)) {
			snprintf(binary, sizeof(binary), "%s", l + 11);
		} else if (!strncmp(l, "#  RUN ", 7)) {
			strv_free(&pending);
		} else if (!strncmp(l, "# DEPENDS ", 10)) {
			strv_add_once(&pending, l + 10);
		} else if ((!strncmp(l, "ok ", 3) || !strncmp(l, "not ok ", 7)) &&
			   (name = strchr(l + (*l == 'n' ? 7 : 3), ' '))) {
			char *id = xasprintf("%s:%.*s", binary, (int)strcspn(name + 1, " "), name + 1);
			struct record *r = recset_find(rs, id);

			if (r)
				strv_add_all_once(&r->deps, &pending);
			free(id);
			strv_free(&pending);
		}
	}
	strv_free(&pending);
	free(text);
	return true;
}

/* A saved run (results.txt and ktap.txt under dir): its cases, their facts, and its kernel. */
struct saved_run {
	struct recset set;
	struct kernel_id k;
};

/* 0, 1 when dir holds no run, or -1 with the reason in err (a run that cannot be read). */
static int saved_run_load(struct saved_run *s, const char *dir, char *err, size_t len)
{
	char *path = xasprintf("%s/results.txt", dir), *dash;
	struct kernel_id *k = &s->k;
	int rc;

	memset(s, 0, sizeof(*s));
	if (access(path, F_OK)) {
		free(path);
		return 1;
	}
	rc = recset_load(&s->set, path, err, len);
	if (!rc && (!s->set.kernel || !s->set.has_facts ||
		    sscanf(s->set.kernel, "%71s %d.%d %255s", k->arch, &k->major, &k->minor, k->profile) != 4)) {
		snprintf(err, len, "%s: no \"# perfconf results: <arch> <M.m> <profile>\" and facts header: "
			 "not a run's results", path);
		rc = -1;
	}
	free(path);
	if (rc) {
		recset_free(&s->set);
		return -1;
	}
	snprintf(k->release, sizeof(k->release), "%s", s->set.recorded_on ? s->set.recorded_on : "");
	dash = strchr(k->profile, '-');
	snprintf(k->variant, sizeof(k->variant), "%s", dash ? dash + 1 : "");
	deps_from_ktap(dir, &s->set);
	return 0;
}

int cmd_explain(struct opts *o, const char *id)
{
	struct kernel_id k;
	struct judging g;
	struct judges j;
	struct saved_run run;
	struct strv here = { 0 };
	struct record none = { 0 };
	const struct record *obs = &none;
	struct expectation e;
	char err[1024], *results, *line;
	const char *colon = id ? strchr(id, ':') : NULL;
	long holder;
	int no_run;	/* saved_run_load(): 1 when results holds no run */

	if (!id || !case_id_valid(id) || !colon || colon == id || !colon[1] || !strchr(id, '/') ||
	    strchr(id, '/') > colon) {
		warnx_("explain: \"%s\" is not a case id (<area>/<binary>:<case>, as in a baseline)", id ? id : "");
		return EXIT_SETUP;
	}
	if (!o->dir)
		o->dir = self_dir();
	if (!o->expected)
		o->expected = xasprintf("%s/../expected", o->dir);
	kernel_identify(&k, o->variant);
	results = o->results ? xstrdup(o->results)
			     : xasprintf("%s/results/%s-%s-%s", o->dir, k.release, k.arch, k.profile);
	/* A saved run is explained as it was judged: its kernel, its facts. */
	no_run = saved_run_load(&run, results, err, sizeof(err));
	if (no_run < 0) {
		warnx_("%s", err);
		return EXIT_SETUP;
	}
	if (!no_run) {
		k = run.k;
		strv_add_all_once(&here, &run.set.facts);
		if (recset_find(&run.set, id))
			obs = recset_find(&run.set, id);
	} else {
		facts_probe(&here, &k, pc_sysctl_lock_runs(false, &holder) == 0);
	}
	if (judging_open(o, &k, &g, err, sizeof(err))) {
		warnx_("%s", err);
		return EXIT_SETUP;
	}
	j = judging_judges(&g, &k, &here);
	none.id = xstrdup(id);
	expect(&j, obs, &e);
	if (!e.recorded && obs == &none) {
		warnx_("explain: no baseline in %s records %s, and no run of it is in %s", o->expected, id, results);
		return EXIT_SETUP;
	}
	printf("case: %s\nkernel: %s %s, kernel line %d.%d, profile %s%s\n", id, k.release, k.arch, k.major,
	       k.minor, k.profile, no_run ? "" : " (the saved run's)");
	printf("depends on:");
	for (size_t i = 0; i < obs->deps.n; i++) {
		char buf[64];
		const char *v = facts_get(&g.all.here, obs->deps.v[i], buf, sizeof(buf));

		printf(" %s=%s", obs->deps.v[i], v ? v : FACT_UNKNOWN);
	}
	printf("%s (%s)\n", obs->deps.n ? "" : " nothing",
	       obs != &none ? "as its run declared" : "no run of it here: run it once to know its facts");
	printf("rule: %s: %s\n", expect_rule_name(e.rule), e.why ? e.why : "no baseline records it");
	if (e.files)
		printf("files: %s\n", e.files);
	for (int i = 0; i < EXPECT_MAX && e.exp[i]; i++) {
		record_format(e.exp[i], &line);
		printf("%s %s\n", i ? "or:" : "expected:", line + strlen(id) + 1);
		free(line);
	}
	if (e.same_anyway && e.rule != EX_OWN) {
		record_format(e.same_anyway, &line);
		printf("also accepted, whatever the facts: %s (%s)\n", line + strlen(id) + 1, g.base_path);
		free(line);
	}
	if (obs != &none) {
		struct verdict v;

		judge_facts(&j, obs, &v);
		record_format(obs, &line);
		printf("observed: %s\nverdict: %s%s%s\n", line + strlen(id) + 1, verdict_label(v.kind),
		       v.detail ? ": " : "", v.detail ? v.detail : "");
		free(line);
		verdict_free(&v);
	}
	expectation_free(&e);
	record_free(&none);
	strv_free(&here);
	judging_close(&g);
	if (!no_run)
		recset_free(&run.set);
	free(results);
	return EXIT_OK;
}

int cmd_judge(struct opts *o, const char *dir)
{
	struct saved_run run;
	struct judging g;
	struct judges j;
	struct summary sum = { 0 };
	struct sbuf out = { 0 };
	size_t by_rule[EX_BETWEEN + 1] = { 0 }, anyway = 0;
	char err[1024];
	int rc = saved_run_load(&run, dir, err, sizeof(err));

	if (rc > 0)
		warnx_("diff: %s has no results.txt: give a run's results directory (results/<release>-<arch>-<profile>)",
		       dir);
	if (rc < 0)
		warnx_("diff: %s", err);
	if (rc)
		return EXIT_SETUP;
	if (!o->dir)
		o->dir = self_dir();
	if (!o->expected)
		o->expected = xasprintf("%s/../expected", o->dir);
	if (judging_open(o, &run.k, &g, err, sizeof(err))) {
		warnx_("%s", err);
		recset_free(&run.set);
		return EXIT_SETUP;
	}
	j = judging_judges(&g, &run.k, &run.set.facts);
	for (size_t i = 0; i < run.set.n; i++) {
		const struct record *r = &run.set.v[i];
		struct expectation e;
		struct verdict v;

		if (!strchr(r->id, ':'))
			continue;	/* a binary's own line */
		expect(&j, r, &e);
		judge_facts(&j, r, &v);
		sum.cases++;
		if (e.rule != EX_NONE)
			by_rule[e.rule]++;
		else if (e.same_anyway && (v.kind == V_SAME || v.kind == V_KNOWN))
			anyway++;
		if (verdict_fails(v.kind))
			sum.failed++;
		else if (status_skipped(r->st))
			sum.skipped++;
		else
			sum.passed++;
		summary_add_verdict(&sum, r, &v, NULL);
		verdict_free(&v);
		expectation_free(&e);
	}
	sb_printf(&out, "# %s %d.%d %s (%s), judged against %s\n", run.k.arch, run.k.major, run.k.minor,
		  run.k.profile, run.k.release, o->expected);
	sb_printf(&out, "# judged %zu of %zu cases: own %zu, abi %zu, line %zu, between %zu, the own baseline's "
		  "value whatever the facts %zu; first seen %zu\n",
		  by_rule[EX_OWN] + by_rule[EX_ABI] + by_rule[EX_LINE] + by_rule[EX_BETWEEN] + anyway, sum.cases,
		  by_rule[EX_OWN], by_rule[EX_ABI], by_rule[EX_LINE], by_rule[EX_BETWEEN], anyway,
		  sum.cases - (by_rule[EX_OWN] + by_rule[EX_ABI] + by_rule[EX_LINE] + by_rule[EX_BETWEEN] + anyway));
	summary_print(&out, &sum, false);
	fputs(out.s ? out.s : "", stdout);
	rc = summary_failures(&sum, false) ? EXIT_FAILED : EXIT_OK;
	sb_free(&out);
	summary_free(&sum);
	judging_close(&g);
	recset_free(&run.set);
	return rc;
}
