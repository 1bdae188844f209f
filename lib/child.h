/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A child process held at a gate: forked and set up first, released later.
 * While it waits, a test can open an event on its pid, or look at it in
 * /proc; then it does its work and exits.
 *
 *	struct pc_child child;
 *	ASSERT_EQ(0, pc_child_start(&child, 0, "comm renamed"));
 *	int fd = pc_open(&attr, child.pid, -1, -1, 0);
 *	ASSERT_EQ(0, pc_child_finish(&child));
 *
 * The child dies with the process that started it (PR_SET_PDEATHSIG), and
 * a child still at the gate exits when the gate closes, so a test that
 * fails half-way leaves no process behind.
 */
#ifndef PERFCONF_CHILD_H
#define PERFCONF_CHILD_H

#include <sys/types.h>

struct pc_child {
	pid_t pid;	/* 0 when there is no child */
	int go;		/* write end: one byte releases the child */
	int ready;	/* read end: the child's setup result */
};

/*
 * fork a child that first unshares `unshare_flags` (0: nothing), then
 * waits for pc_child_finish() and does `work`: named work for pc_work_do(),
 * or "exec WORK" to exec this binary as a helper doing WORK. Returns 0
 * once the child waits at the gate, or -errno (a failed unshare in the
 * child returns its errno; the child is reaped then).
 */
int pc_child_start(struct pc_child *c, unsigned long unshare_flags, const char *work);
/* Release the child and reap it: 0 if it exited with status 0, else -ECHILD or -errno. */
int pc_child_finish(struct pc_child *c);
/* The two halves of pc_child_finish(): release it (0 or -errno), reap it later. */
int pc_child_go(struct pc_child *c);
int pc_child_wait(struct pc_child *c);
/* Kill and reap a child that is still there; safe on a finished or zeroed child. */
void pc_child_kill(struct pc_child *c);

#endif
