// SPDX-License-Identifier: GPL-2.0
/*
 * Counting another task (pid > 0), in every cell of identity x
 * perf_event_paranoid.
 *
 * perf_event_open(2): with pid > 0 the event measures that process or
 * thread, and the caller must pass a ptrace access mode
 * PTRACE_MODE_READ_REALCREDS check on it (ptrace(2)), unless it holds
 * CAP_PERFMON (since 5.8). The kernel asks perfmon_capable() (CAP_PERFMON
 * or CAP_SYS_ADMIN) or ptrace_may_access() (perf_check_permission();
 * open-coded in 5.8 to 5.12, the ptrace check alone before) and refuses
 * with EACCES. ptrace(2)'s
 * "Ptrace access mode checking": a task whose real, effective and saved
 * user and group IDs all match the caller's real ones may be read, if it
 * is dumpable; another user's task, or an undumpable one, needs
 * CAP_SYS_PTRACE. The capability module then wants the target's permitted
 * set to be a subset of the caller's (true here: the targets have the
 * cell's capabilities or none), and Yama restricts attaching, not reading.
 * So the task of one's own uid is open to all, as one's own task is (up
 * to level 2; Debian's 3 closes it), and the task of another uid or an
 * undumpable one needs CAP_SYS_PTRACE or perfmon_capable(), at any level.
 *
 * The targets:
 *   own_child        forked by the case after it became its identity: its
 *                    credentials are the case's, inherited.
 *   same_uid_task    started while the case was root (CELL_PREPARE), it
 *                    becomes the cell's identity itself once the case has:
 *                    the same IDs and capabilities, in credentials of its
 *                    own. It is still the case's child, which a read-mode
 *                    check does not look at (only Yama's attach rule would).
 *   other_uid_task   the same, becoming another user (pc_stranger: uid and
 *                    gid 65533, no capabilities, dumpable).
 *   undumpable_task  as same_uid_task, then PR_SET_DUMPABLE 0.
 *
 * The event counts user space only (exclude_kernel, so that
 * perf_allow_kernel() does not decide) and is opened on the target while it
 * waits for a cue; then it takes N page faults in user mode. Where the open
 * is allowed, the event counts exactly N.
 */
#define CELL_PREPARE(_metadata) start_peer(_metadata)

#include "cells.h"
#include "work/child.h"
#include "work/measure.h"

#define N 32
#define WORK "faults 32"	/* N of them */

/* Started as root, before the case became its identity; every case ends it. */
static struct pc_child peer;

static void start_peer(struct __test_metadata *_metadata)
{
	int err = pc_child_start(&peer, 0);

	if (err)
		BLOCKED("cannot start a child (%s)", pc_errno_name(-err));
}

/* The peer becomes id, then dumpable or not. 0 or -errno. */
static int make_peer(const struct pc_identity *id, int dumpable)
{
	int err = pc_child_become(&peer, id);

	return err ? err : pc_child_set_dumpable(&peer, dumpable);
}

/*
 * Count the target's user-space page faults from its pid, an open that
 * passes the gate or is refused by it. Where it opens, the target faults N
 * times on cue and the event counts them all; the same work once before
 * the open runs its code in, so that the counted faults are the work's
 * own. made: 0, or the -errno of making the target (a fault of the suite).
 * Neither child is left.
 */
static void attach(struct __test_metadata *_metadata, const struct cell *cell, struct pc_child *target,
		   int made, enum pc_gate gate)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	int err = made ? made : pc_child_do(target, WORK);

	attr.disabled = 0;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	if (!err) {
		int fd = pc_open(&attr, target->pid, -1, -1, PERF_FLAG_FD_CLOEXEC);

		if (CELL_ALLOWS(fd < 0 ? -fd : 0, gate)) {
			EXPECT_EQ(0, pc_child_do(target, WORK));
			EXPECT_EQ(N, pc_count_of(fd));
			close(fd);
		}
	}
	pc_child_kill(target);
	pc_child_kill(&peer);
	if (err)
		CASE_ERROR("the target could not be made (%s)", pc_errno_name(-err));
}

CELL_CASE(own_child)
{
	struct pc_child child;

	attach(_metadata, cell, &child, pc_child_start(&child, 0), PC_GATE_USER);
}

CELL_CASE(same_uid_task)
{
	attach(_metadata, cell, &peer, make_peer(cell->id, 1), PC_GATE_USER);
}

CELL_CASE(other_uid_task)
{
	attach(_metadata, cell, &peer, make_peer(&pc_stranger, 1), PC_GATE_PTRACE);
}

CELL_CASE(undumpable_task)
{
	attach(_metadata, cell, &peer, make_peer(cell->id, 0), PC_GATE_PTRACE);
}

TEST_HARNESS_MAIN
