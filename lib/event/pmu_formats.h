/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which PMU formats use which attr word. A PMU describes its event
 * encoding in sysfs format/ entries ("config1:0-15"); config1..config4
 * are read only by PMUs that name them there (or by the probe and
 * breakpoint PMUs, whose fields share the unions).
 */
#ifndef PERFCONF_PMU_FORMATS_H
#define PERFCONF_PMU_FORMATS_H

#include <stddef.h>

/*
 * Every format/ entry of every PMU here that lives in attr word `word`
 * (0 = config, 1 = config1 ... 4 = config4), as "pmu:name" joined by ','
 * in sorted order into buf, or "none". Returns how many, or -EINVAL when
 * an entry cannot be parsed (buf then holds "pmu:name" of that entry).
 */
int pc_pmu_formats_in_word(int word, char *buf, size_t len);
/*
 * That list, pinned as the observation "formats" (the entry that cannot be
 * parsed, when one cannot). Returns pc_pmu_formats_in_word()'s count.
 */
int pc_observe_formats_in_word(int word);

#endif
