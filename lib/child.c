// SPDX-License-Identifier: GPL-2.0
/* A child process held at a gate. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "workload.h"

static void child_main(int go, int ready, unsigned long unshare_flags, const char *work)
{
	int err = 0;
	char c;

	/* Whatever happens to the test, the child does not outlive it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0))
		err = errno;
	if (!err && unshare_flags && unshare((int)unshare_flags))
		err = errno;
	if (write(ready, &err, sizeof(err)) != sizeof(err) || err)
		_exit(1);
	/* EOF instead of a byte: the parent gave up on us. */
	if (read(go, &c, 1) != 1)
		_exit(1);
	if (!strncmp(work, "exec ", 5))
		pc_work_exec_self(work + 5);
	else
		_exit(pc_work_do(work) ? 1 : 0);
	_exit(127);
}

static int reap(struct pc_child *c)
{
	int status;
	pid_t pid;

	do
		pid = waitpid(c->pid, &status, 0);
	while (pid < 0 && errno == EINTR);
	c->pid = 0;
	if (pid < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

static void close_fds(struct pc_child *c)
{
	if (c->go >= 0)
		close(c->go);
	if (c->ready >= 0)
		close(c->ready);
	c->go = c->ready = -1;
}

int pc_child_start(struct pc_child *c, unsigned long unshare_flags, const char *work)
{
	int go[2], ready[2], err = 0;

	c->pid = 0;
	c->go = c->ready = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(ready, O_CLOEXEC)) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		return err;
	}
	c->pid = fork();
	if (c->pid == 0) {
		close(go[1]);
		close(ready[0]);
		child_main(go[0], ready[1], unshare_flags, work);
	}
	if (c->pid < 0)
		err = -errno;
	close(go[0]);
	close(ready[1]);
	c->go = go[1];
	c->ready = ready[0];
	if (err) {
		c->pid = 0;
		close_fds(c);
		return err;
	}
	ssize_t n;
	do
		n = read(c->ready, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	if (n != sizeof(err) || err) {
		err = n == sizeof(err) ? -err : -ECHILD;
		close_fds(c);
		reap(c);
		return err;
	}
	return 0;
}

int pc_child_go(struct pc_child *c)
{
	char go = 1;
	int err = 0;

	if (c->pid <= 0)
		return -ECHILD;
	if (write(c->go, &go, 1) != 1)
		err = -errno;
	close_fds(c);
	return err;
}

int pc_child_wait(struct pc_child *c)
{
	if (c->pid <= 0)
		return -ECHILD;
	close_fds(c);
	return reap(c);
}

int pc_child_finish(struct pc_child *c)
{
	int err = pc_child_go(c);
	int reaped = pc_child_wait(c);

	return err ? err : reaped;
}

void pc_child_kill(struct pc_child *c)
{
	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		close_fds(c);
		reap(c);
	}
}
