// SPDX-License-Identifier: GPL-2.0
/* A child process run in steps on the parent's cue. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stepchild.h"
#include "workload.h"

/* One cue: what to do, and the work string. */
struct cue {
	char op;		/* 'n'othing, 'd'o, 'e'xec, 'q'uit */
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

static __attribute__((noreturn)) void child_main(int sock)
{
	struct cue c;

	/* EOF (the parent is gone) or a short read ends the child. */
	while (recv_all(sock, &c, sizeof(c)) == 0) {
		c.work[sizeof(c.work) - 1] = '\0';
		if (c.op == 'n' || c.op == 'd') {
			int result = c.op == 'd' ? pc_work_do(c.work) : 0;

			if (send_all(sock, &result, sizeof(result)))
				break;
		} else if (c.op == 'e') {
			pc_work_exec_self(c.work);
			_exit(127);
		} else {
			break;
		}
	}
	_exit(0);
}

int pc_stepchild_start(struct pc_stepchild *c)
{
	int sv[2];

	memset(c, 0, sizeof(*c));
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
		child_main(sv[1]);
	}
	close(sv[1]);
	c->pid = pid;
	c->sock = sv[0];
	/*
	 * One empty step. Once it is answered, the child has been through its
	 * loop once and waits in recv(2): what it did after the fork (its
	 * first page faults included) is over before the caller opens events
	 * on it, and it does nothing more until the next cue.
	 */
	int err = pc_stepchild_do(c, NULL);
	if (err)
		pc_stepchild_finish(c);
	return err;
}

static int send_cue(struct pc_stepchild *c, char op, const char *work)
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

/* Close the socket and reap the child: 0 if it exited with status 0. */
static int reap(struct pc_stepchild *c)
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

int pc_stepchild_do(struct pc_stepchild *c, const char *work)
{
	int result, err = send_cue(c, work ? 'd' : 'n', work);

	if (err)
		return err;
	if (recv_all(c->sock, &result, sizeof(result)))
		return -EPIPE;
	return result;
}

int pc_stepchild_exec(struct pc_stepchild *c, const char *work)
{
	int err = send_cue(c, 'e', work);

	if (err)
		return err;
	return reap(c);
}

int pc_stepchild_finish(struct pc_stepchild *c)
{
	if (c->pid)
		send_cue(c, 'q', NULL);
	return reap(c);
}
