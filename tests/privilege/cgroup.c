// SPDX-License-Identifier: GPL-2.0
/*
 * Counting a cgroup, in every cell of identity x perf_event_paranoid.
 *
 * perf_event_open(2): with PERF_FLAG_PID_CGROUP, pid is "a file descriptor
 * opened on a directory in the cgroup filesystem" and the event counts
 * the threads of that cgroup on one CPU (cpu >= 0). The kernel sees no
 * task in the request: find_get_context() asks perf_allow_cpu() as for a
 * CPU-wide event, so it is refused with EACCES at perf_event_paranoid >= 1
 * to users who are not perfmon_capable(). The event counts user space
 * only, so that the kernel rule (perf_allow_kernel(), level 2) is not what
 * decides.
 *
 * The cgroup is this task's own, in the hierarchy that hosts perf_event
 * (found in /proc/self/mountinfo and /proc/self/cgroup, never a fixed
 * path: lib/host/cgroup.h), and the CPU the one this task is pinned to.
 * The directory is opened by the identity itself, as any user may open a
 * cgroup directory (they are world-readable); BLOCKED where it cannot.
 * Where allowed, the event counts at least this task's N page faults
 * (other tasks of the cgroup on that CPU may add: it may be the root
 * cgroup). A kernel without CONFIG_CGROUP_PERF refuses every such event
 * with EINVAL, and one whose perf_event controller is not on that
 * hierarchy with ENOENT (css_tryget_online_from_dir()), both before the
 * permission check: SKIP there.
 */
#include <fcntl.h>

#include "cells.h"
#include "host/cgroup.h"
#include "work/affinity.h"
#include "work/measure.h"

#define N 32

/* This task's cgroup directory into dir; SKIP (false) where there is none. */
static bool own_cgroup(struct __test_metadata *_metadata, char *dir, size_t len)
{
	struct pc_cgroup_mount m;

	if (pc_cgroup_perf_mount(&m))
		SKIP(return false, "no cgroup hierarchy is mounted");
	int err = pc_cgroup_self(&m, dir, len);
	if (err)
		SKIP(return false, "this task's cgroup is not reachable under %.200s (%s)", m.dir, pc_errno_name(-err));
	return true;
}

CELL_CASE(count_own_cgroup)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	char dir[PATH_MAX];
	uint64_t count = 0;

	REQUIRE_CONFIG("CGROUP_PERF");
	if (!own_cgroup(_metadata, dir, sizeof(dir)))
		return;
	int cgroup = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgroup < 0)
		BLOCKED("uid %u cannot open its cgroup %.200s (%s)", (unsigned int)geteuid(), dir, pc_errno_name(errno));
	int cpu = pc_pin_self();
	ASSERT_LE(0, cpu) TH_LOG("pinning: %s", pc_errno_name(-cpu));
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	pc_work_page_faults(1);
	int fd = pc_open(&attr, cgroup, cpu, -1, PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	if (fd == -ENOENT)
		SKIP(goto out, "the perf_event controller is not on this hierarchy");
	if (!CELL_ALLOWS(fd < 0 ? -fd : 0, PC_GATE_CPU))
		goto out;
	ASSERT_EQ(0, pc_count_fd_work(fd, pc_user_faults_work, PC_N(N), &count));
	EXPECT_LE(N, count);
	close(fd);
out:
	close(cgroup);
}

TEST_HARNESS_MAIN
