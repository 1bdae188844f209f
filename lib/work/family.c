// SPDX-License-Identifier: GPL-2.0
/* A task and the children that inherit its events: the anchor. */

#include "event/event.h"
#include "work/family.h"

int pc_family_anchor(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	return pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}
