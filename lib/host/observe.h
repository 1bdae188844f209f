/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Observations, errno names and skip reasons.
 *
 * An observation is a version-dependent fact a test reports for the
 * baseline to pin: which errno the kernel chose, the max attr size, which
 * records arrived. It is one KTAP diagnostic line on stdout, inside the
 * case's output:
 *
 *	# OBS <key>=<value>
 *
 * key:   [a-z0-9_.-]+, unique within the case (e.g. "errno", "size.ver8")
 * value: one token of printable ASCII without spaces, '=' or '#'
 *        (e.g. "EINVAL", "136", "MMAP,COMM,EXIT"); other bytes become '_'.
 *
 * The runner attaches it to the case whose "ok/not ok" line follows, and
 * the baseline line for that case lists its observations sorted by key.
 * Observations must be deterministic on a given kernel: never a pid, an
 * address, a time or a count that depends on load.
 */
#ifndef PERFCONF_OBSERVE_H
#define PERFCONF_OBSERVE_H

#include <stdbool.h>

/* "EINVAL" for EINVAL, "OK" for 0, "E123" for an unknown number. */
const char *pc_errno_name(int err);
/* The errno whose name is `name` ("EINVAL"), or -ENOENT for no errno's name. */
int pc_errno_from_name(const char *name);

/* Write one "# OBS key=value" line with a single write(2) (no stdio buffering). */
void pc_observe(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The errno an operation left: "OK" when it succeeded. */
void pc_observe_errno(const char *key, int err);

/*
 * A fact of this machine the case's verdict depends on (the runner's
 * facts: "cpus_online", "paranoid3", "config.KPROBES", "pmu.kprobe", ...):
 * one "# DEPENDS <fact>" line, like an observation. The runner judges the
 * case only against baselines recorded under the same value of the fact,
 * and lists it as "not judged here" where none was.
 */
void pc_depends(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Write line (a "# ..." diagnostic, newline included) to stdout, once per process. */
void pc_diag_once(const char *line);

/*
 * An errno that means "this PMU, event or feature is not here" rather than
 * a wrong answer: ENOENT, EOPNOTSUPP, ENODEV. Tests use it to SKIP.
 */
bool pc_errno_is_unsupported(int err);

#endif
