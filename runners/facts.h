/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Facts: what a verdict depends on besides the kernel's ABI. A Debian
 * kernel answers perf_event_paranoid 3 with its own patch, a VM has one
 * CPU, a config leaves kprobes out: the same kernel line, built or run
 * differently, answers differently, and that is no regression.
 *
 * The runner establishes them once per run, by probing the kernel wherever
 * a probe exists (the config file only where no probe does), and writes
 * them into results.txt and every baseline it records:
 *
 *	# facts: cpus_online=2 paranoid3=as2 config.KPROBES=n pmu.core=nohw ...
 *
 * A value is one token; "unknown" where neither a probe nor the config
 * could tell. A case declares the facts it depends on ("# DEPENDS <fact>",
 * lib/perfconf.h DEPENDS_ON and the REQUIRE_* macros), and is judged only
 * against baselines recorded under the same values (baseline.h).
 *
 * Derived names: "pmu.<name>" is yes or no by the "pmus" list, for any PMU.
 * "kernel_el" (arm64's: 2 with VHE, 1 without) is there on aarch64 only.
 * "perf_clock" is coarse where perf's clock steps by the tick (no usable
 * TSC: sched_clock() falls back to jiffies), fine elsewhere (lib
 * work/clock.h measures the step). "module.perfconf_pmu" is loaded or
 * absent (runners/module.h): a run's is probed after the runner loaded it.
 */
#ifndef PERFCONF_RUNNER_FACTS_H
#define PERFCONF_RUNNER_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct kernel_id;

/* The header line's tag. */
#define FACTS_TAG "# facts: "

/* The value "unknown". */
#define FACT_UNKNOWN "unknown"

/*
 * Probe this machine: "name=value" strings, sorted by name. The paranoid3
 * probe changes perf_event_paranoid for a moment (through the lib's
 * sysctl layer, restored at once); without `may_change_sysctls` (the
 * caller does not hold the run lock) it says unknown unless the level is 3.
 */
void facts_probe(struct strv *out, const struct kernel_id *k, bool may_change_sysctls);

/*
 * The value of `name` in facts (derived names included), or NULL when
 * the facts do not say. buf holds a derived value.
 */
const char *facts_get(const struct strv *facts, const char *name, char *buf, size_t len);

/* "k=v k=v ..." on one line, without the tag or a newline. */
char *facts_line(const struct strv *facts);

/* Parse "k=v k=v ..." (after the tag) into facts; false on a malformed token. */
bool facts_parse(const char *line, struct strv *facts, char *err, size_t errlen);

/* The lockdown LSM's state: none, integrity, confidentiality, or unknown. */
const char *facts_lockdown(void);

/* The config options tests/config lists, NULL-terminated (a unit test checks they agree). */
extern const char *const facts_config_options[];

#endif
