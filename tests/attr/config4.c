// SPDX-License-Identifier: GPL-2.0
/*
 * config4 (since 6.19, PERF_ATTR_SIZE_VER9, 144 bytes) extends config3 for
 * PMUs whose format/ entries name it ("config4:..."). A kernel older than
 * 6.19 does not know it: its attr ends before config4, so a non-zero value
 * there is E2BIG, with attr.size overwritten by the kernel's own size. A
 * kernel that knows it hands it to the PMU, and PMUs that give it no
 * meaning (software, tracepoint, breakpoint, uprobe) ignore it. An attr
 * whose size ends before config4 (VER8) is never read that far.
 */
#define FIELD		config4
#define FIELD_WORD	4
#define FIELD_PATTERN	0x4444444444444444ULL
#define SIZE_BEFORE	8
#include "config_word_ext.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");
