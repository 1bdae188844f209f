/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A child process that runs in steps, on the parent's cue, so that a test
 * can open events on it before it has done anything, read them between
 * steps, and have it exec at a moment of its choosing (enable_on_exec,
 * remove_on_exec):
 *
 *	struct pc_stepchild c;
 *	ASSERT_EQ(0, pc_stepchild_start(&c));		// forked, waiting
 *	int fd = pc_open(&attr, c.pid, -1, -1, 0);
 *	ASSERT_EQ(0, pc_stepchild_do(&c, "calls 100"));	// done, waiting again
 *	... read fd: the child is parked in read(2) ...
 *	ASSERT_EQ(0, pc_stepchild_exec(&c, "calls 1000"));	// exec'd, worked, reaped
 *	... read fd: the child has exited ...
 *	pc_stepchild_finish(&c);			// teardown, safe to repeat
 *
 * Work strings are pc_work_do()'s. The cue socket is close-on-exec, and a
 * child whose parent is gone (its socket at EOF) exits by itself, so a test
 * that stops early leaks no process.
 */
#ifndef PERFCONF_STEPCHILD_H
#define PERFCONF_STEPCHILD_H

#include <sys/types.h>

struct pc_stepchild {
	pid_t pid;	/* 0 once reaped */
	int sock;	/* the parent's end: cues out, results back */
};

/*
 * fork the child; it returns once the child waits for its first cue,
 * having run through its wait once already (so that its first step starts
 * from warm code and stack). 0 or -errno.
 */
int pc_stepchild_start(struct pc_stepchild *c);
/*
 * The child does `work` (NULL: nothing) and waits again. 0, -EINVAL for
 * unknown work, or -errno.
 */
int pc_stepchild_do(struct pc_stepchild *c, const char *work);
/*
 * The child execs this binary as the helper doing `work` (pc_work_exec_self)
 * and is reaped. 0 when the helper exited with status 0, -ECHILD when it
 * did not, or -errno.
 */
int pc_stepchild_exec(struct pc_stepchild *c, const char *work);
/* Tell a child that is still waiting to exit, and reap it. 0 or -ECHILD. */
int pc_stepchild_finish(struct pc_stepchild *c);

#endif
