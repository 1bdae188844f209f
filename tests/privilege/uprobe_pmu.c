// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe PMU creates a probe in the kernel for its event, so its
 * event_init asks for privilege at every level: CAP_SYS_ADMIN, and
 * perfmon_capable() from 5.8 until a 2025 fix made it CAP_SYS_ADMIN again
 * (host/paranoid.h; the errno is pinned per kernel). EACCES otherwise.
 * The request is the same in every cell: a
 * user-space-only uprobe on a noinline function of this program, which,
 * where allowed, counts each call exactly.
 */
#define CELL_SERIAL " serial=probes"	/* each allowed cell creates a probe */
#include "cells.h"
#include "work/measure.h"

/* Its cells probe its own code as every identity: from a copy they can reach. */
PERFCONF_REACHABLE_BY_EVERY_IDENTITY()

#define CALLS 50

CELL_CASE(probe_own_function)
{
	struct perfconf_attr attr;
	uint64_t count = UINT64_MAX;

	int e = pc_attr_uprobe_on(&attr, pc_work_target);

	if (e == -ENOENT)
		SKIP(return, "no uprobe PMU on this kernel");
	ASSERT_EQ(0, e);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	REQUIRE_UPROBE_PATH_VISIBLE(&attr);
	pc_instrument_note(PC_INSTR_UPROBES);	/* where uprobes are broken, the count below fails */
	int err = pc_count_work(&attr, pc_calls_work, PC_N(CALLS), &count);
	/* Past the gate, the probe itself: none on an AArch32 task on arm64. */
	if (err == -EOPNOTSUPP)
		REQUIRE_UPROBES_ON_TASK();
	if (CELL_ALLOWS(-err, PC_GATE_UPROBE))
		EXPECT_EQ(CALLS, count);
}

TEST_HARNESS_MAIN
