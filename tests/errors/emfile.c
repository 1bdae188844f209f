// SPDX-License-Identifier: GPL-2.0
/*
 * EMFILE from perf_event_open(): the process has reached its limit of open
 * file descriptors (RLIMIT_NOFILE), so the new event gets none.
 *
 * In kernel/events/core.c (6.12) the descriptor is reserved with
 * get_unused_fd_flags() (line 12906) before group_fd, the task or the
 * event are looked at, so EMFILE comes before their errors. The limit is
 * lowered to the lowest free descriptor number: no number is left below
 * it. The control: with one more allowed, the same open succeeds and gets
 * that very number. The harness runs each case in a process of its own, so
 * the lowered limit ends with it.
 */
#include <fcntl.h>
#include <sys/resource.h>

#include "perfconf.h"

/* The lowest free descriptor number. */
static int lowest_free_fd(void)
{
	int fd = fcntl(0, F_DUPFD, 0);

	if (fd >= 0)
		close(fd);
	return fd;
}

/* Lower the soft RLIMIT_NOFILE to n. 0 or -errno. */
static int limit_fds(rlim_t n)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return -errno;
	r.rlim_cur = n;
	return setrlimit(RLIMIT_NOFILE, &r) ? -errno : 0;
}

FIXTURE(global) {
	struct perfconf_attr attr;
	int lowest;
};

FIXTURE_SETUP(global)
{
	self->attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	self->lowest = lowest_free_fd();
	ASSERT_LE(0, self->lowest);
}

FIXTURE_TEARDOWN(global)
{
}

TEST_F(global, no_descriptor_left_is_emfile)
{
	ASSERT_EQ(0, limit_fds(self->lowest));
	EXPECT_ERRNO(EMFILE, pc_open_errno(&self->attr, 0, -1, -1, 0));
}

/* The control: one more descriptor allowed, the open takes it. */
TEST_F(global, one_descriptor_left_opens)
{
	ASSERT_EQ(0, limit_fds(self->lowest + 1));
	int fd = pc_open(&self->attr, 0, -1, -1, 0);

	ASSERT_OPEN(fd);
	EXPECT_EQ(self->lowest, fd);
	/* That was the last one: a second open is refused. */
	EXPECT_ERRNO(EMFILE, pc_open_errno(&self->attr, 0, -1, -1, 0));
	close(fd);
}

/* The descriptor is reserved first: EMFILE wins over a bad group_fd and a missing pid. */
TEST_F(global, checked_before_group_fd_and_pid)
{
	int pipefd[2];

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	self->lowest = lowest_free_fd();
	EXPECT_ERRNO(EBADF, pc_open_errno(&self->attr, 0, -1, pipefd[0], 0)) TH_LOG("the control");
	ASSERT_EQ(0, limit_fds(self->lowest));
	EXPECT_ERRNO(EMFILE, pc_open_errno(&self->attr, 0, -1, pipefd[0], 0));
	close(pipefd[0]);
	close(pipefd[1]);
}

TEST_HARNESS_MAIN
