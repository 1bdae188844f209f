// SPDX-License-Identifier: GPL-2.0
/* A child process that works in steps, on the test's cue. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "work/child.h"
#include "work/workload.h"

/* One cue: what to do, and the work string. */
struct cue {
	char op;		/* 'n'othing, 'd'o and answer, 'c'ue only, 'e'xec, 'q'uit */
	char work[63];
};

/* send(2) without SIGPIPE: a child that died makes the step fail, not the test. */
static int send_all(int fd, const void *buf, size_t len)
{
	ssize_t n;

	do
		n = send(fd, buf, len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

static int recv_all(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = recv(fd, buf, len, MSG_WAITALL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

/* Prepare, tell the test how that went, then follow its cues. */
static __attribute__((noreturn)) void child_main(int sock, unsigned long unshare_flags)
{
	int setup = 0;
	struct cue c;

	/* Whatever happens to the test, the child does not outlive it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0))
		setup = -errno;
	if (!setup && unshare_flags && unshare((int)unshare_flags))
		setup = -errno;
	if (send_all(sock, &setup, sizeof(setup)) || setup)
		_exit(1);
	/* EOF (the test is gone) or a short read ends the child. */
	while (recv_all(sock, &c, sizeof(c)) == 0) {
		c.work[sizeof(c.work) - 1] = '\0';
		if (c.op == 'n' || c.op == 'd') {
			int result = c.op == 'd' ? pc_work_do(c.work) : 0;

			if (send_all(sock, &result, sizeof(result)))
				break;
		} else if (c.op == 'c') {
			_exit(pc_work_do(c.work) ? 1 : 0);
		} else if (c.op == 'e') {
			pc_work_exec_self(c.work);
			_exit(127);
		} else {
			break;
		}
	}
	_exit(0);
}

/* Close the socket and reap the child: 0 if it exited with status 0. */
static int reap(struct pc_child *c)
{
	int status;

	if (!c->pid)
		return 0;	/* never started, or reaped already */
	close(c->sock);
	c->sock = -1;
	while (waitpid(c->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	c->pid = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

int pc_child_start(struct pc_child *c, unsigned long unshare_flags)
{
	int sv[2], setup;

	c->pid = 0;
	c->sock = -1;
	/* Close-on-exec: the exec'd helper holds no end. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(sv[0]);
		close(sv[1]);
		return err;
	}
	if (pid == 0) {
		close(sv[0]);
		child_main(sv[1], unshare_flags);
	}
	close(sv[1]);
	c->pid = pid;
	c->sock = sv[0];
	if (recv_all(c->sock, &setup, sizeof(setup)))
		setup = -ECHILD;
	/*
	 * Then one empty step. Once it is answered, the child has been through
	 * its loop once and waits in recv(2): what it did after the fork (its
	 * first page faults included) is over before the caller opens events
	 * on it, and it does nothing more until the next cue.
	 */
	int err = setup ? setup : pc_child_do(c, NULL);
	if (err)
		pc_child_kill(c);
	return err;
}

static int send_cue(struct pc_child *c, char op, const char *work)
{
	struct cue cue = { .op = op };

	if (!c->pid)
		return -ECHILD;
	if (work && strlen(work) >= sizeof(cue.work))
		return -EINVAL;
	if (work)
		strcpy(cue.work, work);
	return send_all(c->sock, &cue, sizeof(cue)) ? -EPIPE : 0;
}

int pc_child_do(struct pc_child *c, const char *work)
{
	int result, err = send_cue(c, work ? 'd' : 'n', work);

	if (err)
		return err;
	if (recv_all(c->sock, &result, sizeof(result)))
		return -EPIPE;
	return result;
}

int pc_child_cue(struct pc_child *c, const char *work)
{
	return send_cue(c, 'c', work);
}

int pc_child_exec(struct pc_child *c, const char *work)
{
	int err = send_cue(c, 'e', work);

	if (err)
		return err;
	return reap(c);
}

int pc_child_finish(struct pc_child *c)
{
	if (c->pid)
		send_cue(c, 'q', NULL);
	return reap(c);
}

void pc_child_kill(struct pc_child *c)
{
	if (c->pid) {
		kill(c->pid, SIGKILL);
		reap(c);
	}
}
