/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A child process that works in steps, on the test's cue: forked and set
 * up first (namespaces unshared), then waiting, so that a test can open
 * events on its pid or look at it in /proc before it has done anything,
 * read the events between steps, and have it exec at a moment of its
 * choosing (enable_on_exec, remove_on_exec):
 *
 *	struct pc_child c;
 *	ASSERT_EQ(0, pc_child_start(&c, 0));		// forked, waiting
 *	int fd = pc_open(&attr, c.pid, -1, -1, 0);
 *	ASSERT_EQ(0, pc_child_do(&c, "calls 100"));	// done, waiting again
 *	... read fd: the child is parked, waiting for its next cue ...
 *	ASSERT_EQ(0, pc_child_exec(&c, "calls 1000"));	// exec'd, worked, reaped
 *	pc_child_finish(&c);				// teardown, safe to repeat
 *
 * Work strings are pc_work_do()'s. The child dies with the process that
 * started it (PR_SET_PDEATHSIG) and exits when its cue socket (close-on-exec)
 * reaches EOF, so a test that stops half-way leaves no process behind.
 *
 * A child started as root may become someone else on cue, before the test
 * itself gives up root or after, so that a test can reach into the task of
 * another user, or of its own identity but with credentials of its own:
 *
 *	ASSERT_EQ(0, pc_child_start(&c, 0));		// as root
 *	BECOME_IDENTITY(pc_identity("unprivileged"));
 *	ASSERT_EQ(0, pc_child_become(&c, &pc_stranger));
 *	ASSERT_EQ(0, pc_child_set_dumpable(&c, 0));
 */
#ifndef PERFCONF_CHILD_H
#define PERFCONF_CHILD_H

#include <sys/types.h>

struct pc_identity;

struct pc_child {
	pid_t pid;	/* 0 when there is no child (never started, or reaped) */
	int sock;	/* the test's end: cues out, results back */
};

/*
 * fork a child that first unshares `unshare_flags` (0: nothing), then
 * waits for its first cue. It returns once the child has been through its
 * wait once already, so that its first step starts from warm code and
 * stack. 0, or -errno (the child's, for a failed unshare; it is reaped).
 */
int pc_child_start(struct pc_child *c, unsigned long unshare_flags);
/*
 * The child does `work` (NULL: nothing) and waits again. 0, -EINVAL for
 * unknown work, the work's -errno, or -EPIPE when the child is gone.
 */
int pc_child_do(struct pc_child *c, const char *work);
/*
 * The child becomes the identity (host/privilege.h: pc_identity_become(),
 * then pc_identity_verify()) and waits again, its parent-death signal set
 * again (a change of credentials clears it). 0, or the -errno of the
 * change (-EPERM when the child is not root, or does not verify as id).
 */
int pc_child_become(struct pc_child *c, const struct pc_identity *id);
/* The child sets its dumpable attribute to 0 or 1 (PR_SET_DUMPABLE) and waits again. 0 or -errno. */
int pc_child_set_dumpable(struct pc_child *c, int dumpable);
/*
 * The child starts on `work` and the test goes on without waiting for it
 * (a busy partner on the same CPU): end it with pc_child_kill(). 0 or -errno.
 */
int pc_child_cue(struct pc_child *c, const char *work);
/*
 * The child execs this binary as the helper doing `work` (pc_work_exec_self)
 * and is reaped. 0 when the helper exited with status 0, -ECHILD when it
 * did not, or -errno.
 */
int pc_child_exec(struct pc_child *c, const char *work);
/* Tell a waiting child to exit, and reap it: 0 if it exited with status 0, else -ECHILD. */
int pc_child_finish(struct pc_child *c);
/*
 * Kill and reap a child that is still there; safe on a finished child. A
 * child the test may not signal (it became another user, or stayed root
 * while the test did not) exits at the EOF of its cue socket instead, once
 * it waits for a cue.
 */
void pc_child_kill(struct pc_child *c);

/*
 * An echo partner: a forked child that answers every byte written to it.
 * With both tasks on one CPU each round trip blocks each of them once,
 * which makes switch counts exact.
 */
struct pc_echo {
	pid_t pid;		/* 0 when there is none */
	int to, from;		/* our ends of its pipes */
};
/*
 * Fork it (with cgroup not NULL, moved into that cgroup first), then one
 * round trip, unmeasured. 0, or -errno with nothing left behind.
 */
int pc_echo_start(struct pc_echo *p, const char *cgroup);
/* n round trips: 0, or -EIO. */
int pc_echo_round_trips(struct pc_echo *p, unsigned long n);
/* Close its pipes (it reads EOF and exits) and reap it. Safe to repeat. */
void pc_echo_stop(struct pc_echo *p);

#endif
