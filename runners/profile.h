/* SPDX-License-Identifier: GPL-2.0 */
/* The running kernel and its PMU profile (the rule is in profile.c). */
#ifndef PERFCONF_RUNNER_PROFILE_H
#define PERFCONF_RUNNER_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct kernel_id;

/*
 * "nohw", "cpu", "armv8_pmuv3", "cpu_atom+cpu_core", ... For tests:
 * $PERFCONF_PMU_SYSFS overrides the sysfs directory, and $PERFCONF_PROFILE
 * the answer (a machine that pretends its profile is unrecorded).
 */
void profile_detect(char *out, size_t len);
/*
 * The PMUs' names (every one, or the core ones of the rule in profile.c),
 * instance suffixes dropped ("armv8_pmuv3_0" -> "armv8_pmuv3"), once each,
 * sorted, added to out.
 */
void pmu_names(struct strv *out, bool core_only);
/*
 * Release, arch, major.minor and profile of the running kernel. A variant
 * (NULL: none) names other semantics on the same kernel and PMUs, such as
 * "vhe": the profile becomes "<profile>-<variant>", so the baseline, its
 * fallback and the results directory are the variant's own. A runner
 * built for the kernel's compat ABI (i386 on x86_64, armhf on arm64) adds
 * that name first: "nohw-i386", "armv8_pmuv3-armhf-vhe".
 */
void kernel_identify(struct kernel_id *k, const char *variant);

#endif
