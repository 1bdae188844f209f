/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suite's kernel module, perfconf_pmu (module/): a synthetic AUX PMU
 * whose cases run on every kernel that loads it. The runner loads it for
 * its run with finit_module(2) and unloads it at the end, on a signal, and
 * (through the state file, lib/host/sysctl.h PC_MODULE_ENTRY) at the next
 * start or in `perfconf restore` after a SIGKILL; one loaded before the run
 * is used and left loaded. A module that cannot be loaded never fails the
 * run: every binary is told why (PC_MODULE_ENV), and its cases SKIP with
 * that reason.
 */
#ifndef PERFCONF_RUNNER_MODULE_H
#define PERFCONF_RUNNER_MODULE_H

#include <stdbool.h>
#include <stddef.h>

#include "host/sysctl.h"

#define PC_MODULE "perfconf_pmu"
/* Its entry in the state file. */
#define PC_MODULE_STATE PC_MODULE_ENTRY(PC_MODULE)
/* Given to every binary: "loaded", or the one-line reason it is not. */
#define PC_MODULE_ENV "PERFCONF_PMU_MODULE"
/* The fact: "loaded" or "absent" (facts.h). */
#define PC_MODULE_FACT "module." PC_MODULE
/* Where the build puts it, under the build directory (--dir); and why it is not there. */
#define PC_MODULE_FILE "module/" PC_MODULE ".ko"
#define PC_MODULE_WHY "module/why"

struct module_run {
	bool loaded;		/* its PMUs are there for the binaries */
	bool ours;		/* this run (or a dead one) loaded it: unloaded at the end */
	bool before;		/* it was loaded before the run: left loaded */
	bool stale;		/* a dead run's, still in use at start: this run's now */
	char *reason;		/* why it is not loaded (one line), or NULL */
	char *taints;		/* "O, E": its letters in sysfs, NULL when unread */
	char *load_complaint;	/* the kernel's complaint while it loaded (health.h), or NULL */
	char *unload_complaint;	/* ... while it unloaded */
};

/*
 * The module's sysfs directory (/sys/module/perfconf_pmu), or with rel a
 * file under it, into buf. PERFCONF_MODULE_SYSFS replaces /sys/module for
 * the runner's tests.
 */
const char *module_sysfs(const char *rel, char *buf, size_t len);
/* Whether it is loaded now (its sysfs directory exists). */
bool module_present(void);
/*
 * The taint bits the module's own taint letters stand for, of those a
 * load of it may set (O: bit 12, E: bit 13), read now from its sysfs
 * "taint" file: 0 when it is not loaded.
 */
unsigned long long module_taint_mask(void);

/*
 * Why file cannot be loaded because it is not there (module/why beside it,
 * or "not built"), or NULL when it is there. malloc'd.
 */
char *module_missing(const char *file, bool default_file);
/*
 * Unload the module a dead run loaded (the state file's entry): 0, -ENOENT
 * when there is none to unload (no entry, or it is not loaded: the entry
 * is dropped), or -errno (-EBUSY, -EAGAIN: still in use; the entry stays).
 */
int module_restore(void);
/*
 * A dead run's module: unload it before this run starts (0 when there was
 * one and it is gone, -ENOENT when there was none, or -errno: still in
 * use, this run takes it over, m->stale).
 */
int module_restore_stale(struct module_run *m);
/*
 * Load the module from file (skip: --no-module, only use one loaded
 * already). Never fails: m says whether it is loaded, and why not.
 * default_file: file is the default path, not --module's.
 */
void module_load(struct module_run *m, const char *file, bool default_file, bool skip);
/* The run header's line, without "# ": "module: perfconf_pmu loaded (taints O, E)". */
char *module_header(const struct module_run *m);
/*
 * Unload it if it is the run's (the state file's entry), after the run's
 * processes are gone. 0, or -errno with one line in *why (malloc'd). A
 * complaint of the kernel while it unloaded goes into m->unload_complaint.
 */
int module_unload(struct module_run *m, char **why);
void module_run_free(struct module_run *m);

#endif
