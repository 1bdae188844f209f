// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe PMU (since 4.17): uprobe_path names the file, probe_offset the
 * offset of the probed instruction in it. Probing a noinline function of
 * this test counts each call: n calls count exactly n.
 */
#include "perfconf.h"
#include "work/measure.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

TEST(counts_each_call)
{
	struct perfconf_attr attr;

	UPROBE_ATTR(&attr, pc_work_target);
	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "a uprobe event");
	EXPECT_EQ(200, pc_count_of_work(&attr, pc_calls_work, PC_N(200)));
}

TEST_HARNESS_MAIN
