// SPDX-License-Identifier: GPL-2.0
/* A child process that works in steps, on the test's cue. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/cgroup.h"
#include "host/privilege.h"
#include "work/child.h"
#include "work/workload.h"

/* One cue: what to do, and the work string or what to become. */
struct cue {
	char op;		/* 'n'othing, 'd'o, 'b'ecome, 'u' set dumpable: each answered; 'c'ue only,
				   'e'xec, 'q'uit */
	char work[63];
	const struct pc_identity *id;	/* 'b': the child is a fork, so the test's pointer is its own */
	int dumpable;			/* 'u' */
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

/* Whatever happens to the test, the child does not outlive it. 0 or -errno. */
static int die_with(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0))
		return -errno;
	if (getppid() != parent)
		_exit(1);	/* the test was gone before the signal was set */
	return 0;
}

static int become(const struct pc_identity *id, pid_t parent)
{
	char why[256];
	int err = pc_identity_become(id);

	if (!err)
		err = pc_identity_verify(id, why, sizeof(why));
	int again = die_with(parent);	/* a change of credentials cleared it */
	return err ? err : again;
}

/* What the child does for a cue it answers, and its answer. */
static int answer(const struct cue *c, pid_t parent)
{
	switch (c->op) {
	case 'd':
		return pc_work_do(c->work);
	case 'b':
		return become(c->id, parent);
	case 'u':
		return prctl(PR_SET_DUMPABLE, c->dumpable, 0, 0, 0) ? -errno : 0;
	default:
		return 0;
	}
}

/* Prepare, tell the test how that went, then follow its cues. */
static __attribute__((noreturn)) void child_main(int sock, unsigned long unshare_flags, pid_t parent)
{
	int setup = die_with(parent);
	struct cue c;

	if (!setup && unshare_flags && unshare((int)unshare_flags))
		setup = -errno;
	if (send_all(sock, &setup, sizeof(setup)) || setup)
		_exit(1);
	/* EOF (the test is gone) or a short read ends the child. */
	while (recv_all(sock, &c, sizeof(c)) == 0) {
		c.work[sizeof(c.work) - 1] = '\0';
		if (c.op && strchr("ndbu", c.op)) {
			int result = answer(&c, parent);

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
	pid_t parent = getpid();

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
		child_main(sv[1], unshare_flags, parent);
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

/* A cue of op with that work (NULL: none): 0, or -EINVAL when the work does not fit. */
static int cue_of(struct cue *cue, char op, const char *work)
{
	*cue = (struct cue){ .op = op };
	if (work && strlen(work) >= sizeof(cue->work))
		return -EINVAL;
	if (work)
		strcpy(cue->work, work);
	return 0;
}

static int send_cue(struct pc_child *c, const struct cue *cue)
{
	if (!c->pid)
		return -ECHILD;
	return send_all(c->sock, cue, sizeof(*cue)) ? -EPIPE : 0;
}

static int send_work(struct pc_child *c, char op, const char *work)
{
	struct cue cue;
	int err = cue_of(&cue, op, work);

	return err ? err : send_cue(c, &cue);
}

/* A cue the child answers: its result. */
static int ask(struct pc_child *c, const struct cue *cue)
{
	int result, err = send_cue(c, cue);

	if (err)
		return err;
	if (recv_all(c->sock, &result, sizeof(result)))
		return -EPIPE;
	return result;
}

int pc_child_do(struct pc_child *c, const char *work)
{
	struct cue cue;
	int err = cue_of(&cue, work ? 'd' : 'n', work);

	return err ? err : ask(c, &cue);
}

int pc_child_become(struct pc_child *c, const struct pc_identity *id)
{
	return ask(c, &(struct cue){ .op = 'b', .id = id });
}

int pc_child_set_dumpable(struct pc_child *c, int dumpable)
{
	return ask(c, &(struct cue){ .op = 'u', .dumpable = dumpable });
}

int pc_child_cue(struct pc_child *c, const char *work)
{
	return send_work(c, 'c', work);
}

int pc_child_exec(struct pc_child *c, const char *work)
{
	int err = send_work(c, 'e', work);

	if (err)
		return err;
	return reap(c);
}

int pc_child_finish(struct pc_child *c)
{
	if (c->pid)
		send_work(c, 'q', NULL);
	return reap(c);
}

void pc_child_kill(struct pc_child *c)
{
	if (c->pid) {
		kill(c->pid, SIGKILL);
		reap(c);
	}
}

int pc_echo_start(struct pc_echo *p, const char *cgroup)
{
	int to[2], from[2], err;
	char c = 0;

	p->pid = 0;
	if (pipe2(to, O_CLOEXEC))
		return -errno;
	if (pipe2(from, O_CLOEXEC)) {
		err = -errno;
		close(to[0]);
		close(to[1]);
		return err;
	}
	p->pid = fork();
	if (p->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		close(to[1]);
		close(from[0]);
		while (read(to[0], &c, 1) == 1 && write(from[1], &c, 1) == 1)
			;
		_exit(0);
	}
	err = p->pid < 0 ? -errno : 0;
	close(to[0]);
	close(from[1]);
	p->to = to[1];
	p->from = from[0];
	if (err) {
		p->pid = 0;
		close(p->to);
		close(p->from);
		return err;
	}
	if (cgroup)
		err = pc_cgroup_attach(cgroup, p->pid);
	if (!err)
		err = pc_echo_round_trips(p, 1);
	if (err)
		pc_echo_stop(p);
	return err;
}

int pc_echo_round_trips(struct pc_echo *p, unsigned long n)
{
	char c = 0;

	for (unsigned long i = 0; i < n; i++)
		if (write(p->to, &c, 1) != 1 || read(p->from, &c, 1) != 1)
			return -EIO;
	return 0;
}

void pc_echo_stop(struct pc_echo *p)
{
	if (p->pid <= 0)
		return;
	close(p->to);
	close(p->from);
	waitpid(p->pid, NULL, 0);
	p->pid = 0;
}
