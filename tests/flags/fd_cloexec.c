// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_FLAG_FD_CLOEXEC (since Linux 3.14): the new event's file descriptor
 * is opened with the close-on-exec flag set, in the same step as the open,
 * so that no exec in another thread can slip between the open and an
 * fcntl(F_SETFD). Without the flag the descriptor has no FD_CLOEXEC and is
 * inherited by the new program image, as any other descriptor.
 *
 * The effect is checked from both sides: fcntl(F_GETFD) on the event, and
 * a helper (this binary exec'd, see work/workload.h) that looks at the
 * inherited descriptor number before main: with the flag, fcntl() on it
 * fails with EBADF; without it, the number is still the perf event.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "perfconf.h"

/* The environment variable that tells the exec'd helper which fd to look at. */
#define FD_ENV "PERFCONF_CLOEXEC_FD"

/* The helper's exit statuses. */
#define GONE 10		/* fcntl(fd, F_GETFD) failed with EBADF */
#define PERF_FD 11	/* the fd is open and is a perf event */
#define OTHER_FD 12	/* the fd is open and is something else */
#define FCNTL_ERR 13	/* fcntl failed with another errno */

/*
 * In the exec'd helper, before the harness and the lib's own helper
 * constructor (a lower priority number runs first): report on the
 * inherited fd number and exit.
 */
__attribute__((constructor(101))) static void cloexec_helper(void)
{
	const char *s = getenv(FD_ENV);
	char path[64], link[128];
	ssize_t n;

	if (!s)
		return;
	int fd = atoi(s);

	if (fcntl(fd, F_GETFD) < 0)
		_exit(errno == EBADF ? GONE : FCNTL_ERR);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		_exit(FCNTL_ERR);
	link[n] = 0;
	_exit(strstr(link, "perf_event") ? PERF_FD : OTHER_FD);
}

/* Exec this binary as the helper looking at fd; its exit status, or -1. */
static int exec_helper_on(int fd)
{
	char s[16];
	int status;
	pid_t pid;

	snprintf(s, sizeof(s), "%d", fd);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (setenv(FD_ENV, s, 1) == 0)
			pc_work_exec_self("exit");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static const char *helper_saw(int code)
{
	switch (code) {
	case GONE: return "EBADF (the fd is gone)";
	case PERF_FD: return "the perf event fd";
	case OTHER_FD: return "another file at that number";
	case FCNTL_ERR: return "fcntl failed with another errno";
	default: return "the helper did not run";
	}
}

FIXTURE(global) {
	int fd;
};

FIXTURE_VARIANT(global) {
	unsigned long flags;
	int cloexec;	/* FD_CLOEXEC expected on the fd */
};

FIXTURE_VARIANT_ADD(global, with_flag) { .flags = PERF_FLAG_FD_CLOEXEC, .cloexec = 1 };
/* The control: the same open without the flag. */
FIXTURE_VARIANT_ADD(global, without_flag) { .flags = 0, .cloexec = 0 };

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	self->fd = pc_open(&attr, 0, -1, -1, variant->flags);
	ASSERT_OPEN(self->fd);
}

FIXTURE_TEARDOWN(global)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(global, fd_flag_matches)
{
	int fdflags = fcntl(self->fd, F_GETFD);

	ASSERT_LE(0, fdflags);
	EXPECT_EQ(variant->cloexec, !!(fdflags & FD_CLOEXEC));
	/* O_CLOEXEC is a descriptor flag only: the file is O_RDWR either way. */
	EXPECT_EQ(O_RDWR, fcntl(self->fd, F_GETFL) & O_ACCMODE);
}

TEST_F(global, exec_closes_only_with_flag)
{
	int code = exec_helper_on(self->fd);

	EXPECT_EQ(variant->cloexec ? GONE : PERF_FD, code)
		TH_LOG("after exec the helper saw %s at fd %d", helper_saw(code), self->fd);
	/* The exec was in a child: here the event is still open. */
	EXPECT_LE(0, fcntl(self->fd, F_GETFD));
}

/* Setting FD_CLOEXEC afterwards with fcntl has the same effect as the flag. */
TEST_F(global, fcntl_is_the_same)
{
	int fdflags = fcntl(self->fd, F_GETFD);

	ASSERT_LE(0, fdflags);
	ASSERT_EQ(0, fcntl(self->fd, F_SETFD, fdflags ^ FD_CLOEXEC));
	int code = exec_helper_on(self->fd);

	EXPECT_EQ(variant->cloexec ? PERF_FD : GONE, code)
		TH_LOG("after exec the helper saw %s at fd %d", helper_saw(code), self->fd);
}

TEST_HARNESS_MAIN
