// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe PMU (since 4.17): uprobe_path names the file, probe_offset the
 * offset of the probed instruction in it. Probing a noinline function of
 * this test counts each call: n calls count exactly n.
 */
#include "perfconf.h"

TEST(counts_each_call)
{
	struct perfconf_attr attr;
	char path[4096];
	uint64_t count;
	int err = pc_attr_uprobe(&attr, pc_work_target, path, sizeof(path));

	if (err == -ENOENT)
		SKIP(return, "no uprobe PMU on this kernel");
	ASSERT_EQ(0, err);
	int fd = pc_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		SKIP_IF_UNSUPPORTED(errno, "a uprobe event");
	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_calls(200);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(0, pc_read_count(fd, &count));
	EXPECT_EQ(200, count);
	close(fd);
}

TEST_HARNESS_MAIN
