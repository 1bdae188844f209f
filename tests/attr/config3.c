// SPDX-License-Identifier: GPL-2.0
/*
 * config3 (since 6.3, PERF_ATTR_SIZE_VER8, 136 bytes) extends config2 for
 * PMUs whose format/ entries name it ("config3:..."). A kernel older than
 * 6.3 does not know it: its attr ends before config3, so a non-zero value
 * there is E2BIG, with attr.size overwritten by the kernel's own size. A
 * kernel that knows it hands it to the PMU, and PMUs that give it no
 * meaning (software, tracepoint, breakpoint, uprobe) ignore it. An attr
 * whose size ends before config3 (VER7) is never read that far.
 */
#define FIELD		config3
#define FIELD_WORD	3
#define FIELD_PATTERN	0x3333333333333333ULL
#define SIZE_BEFORE	7
#include "config_word_ext.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");
