/* SPDX-License-Identifier: GPL-2.0 */
/* A run of the suite: options (parsed by main.c) and the run itself (run.c). */
#ifndef PERFCONF_RUNNER_RUN_H
#define PERFCONF_RUNNER_RUN_H

#include <stdbool.h>

#include "discover.h"
#include "runner.h"

struct opts {
	int jobs;
	struct selection sel;
	bool list, verbose, bisect, record;
	bool gate_suite;	/* --gate suite: only the suite's own faults fail the run */
	char *record_file, *baseline, *junit, *results, *dir, *expected, *timeouts;
	char *variant;		/* --variant: appended to the profile */
	enum ktap_layout layout;	/* --format */
	double timeout;
	bool timeout_given;
	bool rcu_normal;	/* --rcu-normal: leave the kernel's grace periods as they are */
	char *module;		/* --module FILE: the suite's module (default <dir>/module/perfconf_pmu.ko) */
	bool no_module;		/* --no-module: do not load it */
};

/* Exit code for `code` under --bisect (2 becomes 125). */
int exit_code(const struct opts *o, int code);
/* The directory of the running executable. */
char *self_dir(void);
/*
 * The suite runs as root (README, "Who runs it"): its cases build their
 * identities with libcap, set sysctls and read root-only kernel facts, and
 * the baselines are root's runs. 0 as root; otherwise one line saying so
 * and EXIT_SETUP. WHAT names the command ("the suite", "restore").
 */
int require_root(const char *what);
/* The run lock's error, -errno from pc_sysctl_lock_runs(), in words. */
const char *run_lock_why(int err);
/*
 * `perfconf explain CASE`: where the case's expectation comes from on this
 * machine (expect.h): the rule, the files, the value(s). Exit 2 for a
 * malformed or unknown case id.
 */
int cmd_explain(struct opts *o, const char *id);
/*
 * `perfconf diff RESULTS-DIR`: a saved run (results.txt, ktap.txt; of this
 * kernel or a guest's) judged again against o->expected, with its own
 * kernel and facts: the summary, and how many cases each rule judged.
 */
int cmd_judge(struct opts *o, const char *dir);
/* Run the suite as the options say; returns the exit code. */
int cmd_run(struct opts *o);

#endif
