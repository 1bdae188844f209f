// SPDX-License-Identifier: GPL-2.0
/*
 * EBADF from perf_event_open(): the group_fd argument is not a valid file
 * descriptor of a perf event; or, with PERF_FLAG_PID_CGROUP, the pid
 * argument is not a valid descriptor of a cgroup directory.
 *
 * In kernel/events/core.c (6.12) group_fd is looked up by perf_fget_light()
 * (not open, or open but not a perf event file: EBADF), and the cgroup fd
 * by perf_cgroup_connect() (not open: EBADF; open but not a directory of
 * the perf_event cgroup hierarchy: css_tryget_online_from_dir()'s EBADF).
 * Every refusal has its control: the same open with a real leader, or a
 * real cgroup directory, succeeds.
 */
#include <fcntl.h>

#include "host/cgroup.h"
#include "perfconf.h"

static struct perfconf_attr counter(void)
{
	return pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
}

/* A descriptor number that is not open in this process (the lowest free one). */
static int closed_fd(void)
{
	int fd = fcntl(0, F_DUPFD, 10);

	if (fd >= 0)
		close(fd);
	return fd;
}

/* The control: a perf event as group_fd. */
TEST(real_leader_opens)
{
	struct perfconf_attr attr = counter();
	int leader = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(leader);
	int member = pc_open(&attr, 0, -1, leader, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(member);
	close(member);
	close(leader);
}

TEST(group_fd_not_open)
{
	struct perfconf_attr attr = counter();
	int fd = closed_fd();

	ASSERT_LE(0, fd);
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, fd, 0));
}

/* -1 means "no group"; any other negative number is no descriptor. */
TEST(group_fd_negative)
{
	struct perfconf_attr attr = counter();

	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, -2, 0));
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, -1000, 0));
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("the control");
}

/* An open descriptor of something else: a pipe, a regular file, a directory. */
TEST(group_fd_not_a_perf_event)
{
	struct perfconf_attr attr = counter();
	int pipefd[2];

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, pipefd[0], 0)) TH_LOG("a pipe");
	close(pipefd[0]);
	close(pipefd[1]);

	int file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, file);
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, file, 0)) TH_LOG("a regular file");
	close(file);

	int dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ASSERT_LE(0, dir);
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, dir, 0)) TH_LOG("a directory");
	close(dir);
}

/* A perf event that was closed: its number no longer names it. */
TEST(group_fd_closed_event)
{
	struct perfconf_attr attr = counter();
	int leader = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(leader);
	close(leader);
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, leader, 0));
}

/*
 * PERF_FLAG_PID_CGROUP: pid is a cgroup directory's fd, on one CPU. The
 * fixture opens this process's own cgroup directory as the control.
 */
FIXTURE(cgroup) {
	int cgroup_fd;
};

FIXTURE_SETUP(cgroup)
{
	struct pc_cgroup_mount m;
	char path[PATH_MAX];

	self->cgroup_fd = -1;
	REQUIRE_CONFIG("CONFIG_CGROUP_PERF");
	if (pc_cgroup_perf_mount(&m))
		SKIP(return, "no cgroup hierarchy is mounted");
	if (pc_cgroup_self(&m, path, sizeof(path)))
		SKIP(return, "this process's cgroup is not reachable in %.200s", m.dir);
	self->cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, self->cgroup_fd) TH_LOG("open %s", path);
}

FIXTURE_TEARDOWN(cgroup)
{
	if (self->cgroup_fd >= 0)
		close(self->cgroup_fd);
}

TEST_F(cgroup, real_cgroup_opens)
{
	struct perfconf_attr attr = counter();

	EXPECT_ERRNO(0, pc_open_errno(&attr, self->cgroup_fd, 0, -1, PERF_FLAG_PID_CGROUP));
}

TEST_F(cgroup, cgroup_fd_not_open)
{
	struct perfconf_attr attr = counter();
	int fd = closed_fd();

	ASSERT_LE(0, fd);
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, fd, 0, -1, PERF_FLAG_PID_CGROUP));
}

TEST_F(cgroup, cgroup_fd_not_a_cgroup)
{
	struct perfconf_attr attr = counter();
	int pipefd[2];

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, pipefd[0], 0, -1, PERF_FLAG_PID_CGROUP))
		TH_LOG("a pipe");
	close(pipefd[0]);
	close(pipefd[1]);

	int dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ASSERT_LE(0, dir);
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, dir, 0, -1, PERF_FLAG_PID_CGROUP))
		TH_LOG("a directory outside cgroupfs");
	close(dir);
}

TEST_HARNESS_MAIN
