/* SPDX-License-Identifier: GPL-2.0 */
/* The running kernel and its PMU profile (the rule is in profile.c). */
#ifndef PERFCONF_RUNNER_PROFILE_H
#define PERFCONF_RUNNER_PROFILE_H

#include <stddef.h>

struct kernel_id;

/* "nohw", "cpu", "armv8_pmuv3", "cpu_atom+cpu_core", ... $PERFCONF_PMU_SYSFS overrides the sysfs directory (tests). */
void profile_detect(char *out, size_t len);
/* Release, arch, major.minor and profile of the running kernel. */
void kernel_identify(struct kernel_id *k);

#endif
