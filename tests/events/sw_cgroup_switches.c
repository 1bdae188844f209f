// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_COUNT_SW_CGROUP_SWITCHES (since Linux 5.13) counts the context
 * switches at which the task that leaves the CPU and the one that takes it
 * belong to different cgroups of the perf_event controller. It is counted
 * where PERF_COUNT_SW_CONTEXT_SWITCHES is, in perf_event_task_sched_out()
 * (6.12 include/linux/perf_event.h:1546-1560, called from
 * prepare_task_switch() before the switch, so while the outgoing task's
 * events are still scheduled in): a per-task event counts the switches of
 * its own task out to a task of another cgroup, never the switches into
 * it. The comparison is of the two tasks' perf_event css
 * (perf_cgroup_from_task): a child cgroup is another cgroup. On cgroup2
 * the perf_event controller is implicitly on in every cgroup
 * (kernel/events/core.c:14339, implicit_on_dfl), so every cgroup has its
 * own. Without CONFIG_CGROUP_PERF the event opens and never counts (the
 * code is under #ifdef): SKIP there. Before 5.13 the config is past
 * PERF_COUNT_SW_MAX and perf_swevent_init() refuses it with ENOENT, the
 * refusal pinned here.
 *
 * This task sits alone in a fresh cgroup A and plays ping-pong over pipes
 * with a partner, both pinned to one CPU; the partner sits in a fresh
 * sibling B, in a child of A, or in A itself. With both SCHED_FIFO at one
 * priority nothing else on the CPU runs between them, so each round trip
 * is exactly one switch of this task, to the partner: n round trips are n
 * cgroup switches when the partner is in another cgroup, none when it
 * shares A, while a CONTEXT_SWITCHES counter in the same group counts n
 * in both. (Another SCHED_FIFO task of the same priority could still run
 * when this one blocks: a CPU-wide switch counter picks a window where the
 * CPU had exactly the 2n switches of the two.) Without SCHED_FIFO other
 * tasks may run in between, but none of them is in A: where the partner is
 * elsewhere every switch of this task is a cgroup switch, and the two
 * counters agree exactly.
 *
 * The cgroups are made in the hierarchy lib/host/cgroup.h finds (cgroup2
 * mounted in a private mount namespace where none is mounted); the test
 * moves back to its own cgroup and removes them after every case, also a
 * failed one.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "perfconf.h"
#include "work/child.h"
#include "host/cgroup.h"
#include "work/affinity.h"
#include "work/measure.h"

#define ROUND_TRIPS 200

enum where { SAME, SIBLING, CHILD };

FIXTURE(cgroups) {
	struct pc_cgroup_fresh a, b;	/* b only for SIBLING */
	char child[PATH_MAX];		/* A's child cgroup, for CHILD; "" when none */
	char own[PATH_MAX];		/* the test's own cgroup, to go back to */
	const char *partner_cgroup;	/* where the partner goes */
	bool moved;			/* the test is in A */
	int cpu;
	struct pc_echo p;
};

FIXTURE_VARIANT(cgroups) {
	enum where where;
	int switches;	/* per round trip */
};

FIXTURE_VARIANT_ADD(cgroups, partner_in_same_cgroup) { .where = SAME, .switches = 0 };
FIXTURE_VARIANT_ADD(cgroups, partner_in_sibling_cgroup) { .where = SIBLING, .switches = 1 };
FIXTURE_VARIANT_ADD(cgroups, partner_in_child_cgroup) { .where = CHILD, .switches = 1 };

static void back_to_other(void)
{
	struct sched_param other = { .sched_priority = 0 };

	sched_setscheduler(0, SCHED_OTHER, &other);
}

/* mkdir <parent>/child into path[] ("" on failure). 0 or -errno. */
static int make_child(const char *parent, char *path, size_t len)
{
	int err = 0;

	if ((size_t)snprintf(path, len, "%s/child", parent) >= len)
		err = -ENAMETOOLONG;
	else if (mkdir(path, 0755))
		err = -errno;
	if (err)
		path[0] = '\0';
	return err;
}

/* Undo what setup made, in reverse; safe on a half-made fixture. */
static void undo(FIXTURE_DATA(cgroups) *self)
{
	back_to_other();
	pc_echo_stop(&self->p);
	if (self->moved && !pc_cgroup_attach(self->own, getpid()))
		self->moved = false;
	if (self->child[0])
		pc_cgroup_remove(self->child);
	self->child[0] = '\0';
	pc_cgroup_fresh_remove(&self->b);
	pc_cgroup_fresh_remove(&self->a);	/* last: it may own the private mount */
}

FIXTURE_SETUP(cgroups)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CGROUP_SWITCHES);
	int err, fd, dir;

	self->a.path[0] = self->b.path[0] = self->child[0] = '\0';
	self->a.private_mount = self->b.private_mount = false;
	self->moved = false;
	self->p.pid = 0;
	fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd == -ENOENT && pc_kernel()->kver < PC_KVER(5, 13))
		SKIP(return, "PERF_COUNT_SW_CGROUP_SWITCHES is new in 5.13 (kernel %s: ENOENT)",
		     pc_kernel()->release);
	ASSERT_OPEN(fd);
	close(fd);
	REQUIRE_CONFIG("CGROUP_PERF");

	err = pc_cgroup_fresh_make(&self->a);
	if (!err && variant->where == SIBLING)
		err = pc_cgroup_fresh_make(&self->b);
	if (!err && variant->where == CHILD)
		err = make_child(self->a.path, self->child, sizeof(self->child));
	if (err) {
		undo(self);
		BLOCKED("cannot make the cgroups (%s)", pc_errno_name(-err));
	}
	self->partner_cgroup = variant->where == SIBLING ? self->b.path :
			       variant->where == CHILD ? self->child : self->a.path;

	/* The perf_event controller must be on this hierarchy: a cgroup event opens there. */
	self->cpu = pc_pin_self();
	dir = open(self->a.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (self->cpu < 0 || dir < 0) {
		err = self->cpu < 0 ? self->cpu : -errno;
		if (dir >= 0)
			close(dir);
		undo(self);
		ASSERT_ERRNO(0, -err) TH_LOG("pinning, or opening %s", self->a.path);
	}
	fd = pc_open(&attr, dir, self->cpu, -1, PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	close(dir);
	if (fd == -ENOENT || fd == -EINVAL) {
		undo(self);
		SKIP(return, "no perf_event controller on the hierarchy at %.200s (a cgroup event: %s)",
		     self->a.m.dir, pc_errno_name(-fd));
	}
	if (fd < 0) {
		undo(self);
		ASSERT_ERRNO(0, -fd) TH_LOG("a cgroup event on %s", self->a.path);
	}
	close(fd);

	err = pc_cgroup_self(&self->a.m, self->own, sizeof(self->own));
	if (err) {
		undo(self);
		BLOCKED("this test's own cgroup is not reachable (%s)", pc_errno_name(-err));
	}
	err = pc_cgroup_attach(self->a.path, getpid());
	if (err) {
		undo(self);
		BLOCKED("cannot move this test into a cgroup (%s)", pc_errno_name(-err));
	}
	self->moved = true;
}

FIXTURE_TEARDOWN(cgroups)
{
	undo(self);
}

/* fds[0] CONTEXT_SWITCHES, the leader; fds[1] CGROUP_SWITCHES: one group, enabled at once. */
static int open_pair(int fds[2])
{
	struct perfconf_attr cs = pc_attr_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct perfconf_attr cg = pc_attr_sw(PERF_COUNT_SW_CGROUP_SWITCHES);

	cg.disabled = 0;
	fds[0] = pc_open(&cs, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fds[0] < 0)
		return fds[0];
	fds[1] = pc_open(&cg, 0, -1, fds[0], PERF_FLAG_FD_CLOEXEC);
	if (fds[1] < 0) {
		close(fds[0]);
		return fds[1];
	}
	return 0;
}

/*
 * One measured window: the group (fds[0], fds[1]) and the CPU-wide switch
 * counter cpu_fd enabled around n round trips; the counts it added into
 * got[3]. 0 or -errno.
 */
static int measured_window(struct pc_echo *p, const int fds[2], int cpu_fd, uint64_t got[3])
{
	uint64_t before[3], after[3];
	const int all[3] = { fds[0], fds[1], cpu_fd };
	int err = 0;

	for (int i = 0; i < 3 && !err; i++)
		err = pc_read_count(all[i], &before[i]);
	if (err)
		return err;
	err = pc_enable(cpu_fd) ?: pc_enable(fds[0]);
	if (!err)
		err = pc_echo_round_trips(p, ROUND_TRIPS);
	pc_disable(fds[0]);
	pc_disable(cpu_fd);
	for (int i = 0; i < 3 && !err; i++)
		err = pc_read_count(all[i], &after[i]);
	for (int i = 0; i < 3 && !err; i++)
		got[i] = after[i] - before[i];
	return err;
}

#define ATTEMPTS 10

/*
 * Under SCHED_FIFO, n round trips with the partner: n switches of this
 * task, each to the partner, so n cgroup switches where it is in another
 * cgroup (a sibling, or a child of this one) and none where it shares this
 * task's. Another SCHED_FIFO task of the same priority on the CPU (another
 * test like this one) may still run when this task blocks; a CPU-wide
 * switch counter tells the windows where the two had the CPU to
 * themselves (exactly 2n switches, each task n), and only such a window
 * gives the verdict.
 */
TEST_F(cgroups, counts_switches_to_another_cgroup)
{
	struct perfconf_attr cpu_attr = pc_attr_sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct sched_param fifo = { .sched_priority = 1 };
	uint64_t got[3] = { 0, 0, 0 };
	int fds[2], cpu_fd, attempt;

	REQUIRE_INSTRUMENT(PC_INSTR_SCHED_FIFO);
	ASSERT_EQ(0, open_pair(fds)) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
	cpu_fd = pc_open(&cpu_attr, -1, self->cpu, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(cpu_fd);
	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		BLOCKED("cannot make this task SCHED_FIFO (%s)", pc_errno_name(errno));
	/* the partner inherits SCHED_FIFO and the CPU */
	int err = pc_echo_start(&self->p, self->partner_cgroup);
	if (err == -EINVAL || err == -EPERM)
		BLOCKED("cannot move a SCHED_FIFO task into %s (%s)", self->partner_cgroup,
			pc_errno_name(-err));
	ASSERT_ERRNO(0, -err) TH_LOG("the partner, in %s", self->partner_cgroup);
	for (attempt = 0; attempt < ATTEMPTS && !err; attempt++) {
		err = measured_window(&self->p, fds, cpu_fd, got);
		if (got[2] == 2 * ROUND_TRIPS)
			break;
	}
	pc_echo_stop(&self->p);
	back_to_other();
	ASSERT_EQ(0, err);
	if (attempt == ATTEMPTS)
		BLOCKED("other tasks ran on CPU %d in each of %d windows (last: %llu switches for %d round trips)",
			self->cpu, ATTEMPTS, (unsigned long long)got[2], ROUND_TRIPS);
	EXPECT_EQ(ROUND_TRIPS, got[0]) TH_LOG("the control: every round trip is a switch");
	EXPECT_EQ(ROUND_TRIPS * variant->switches, got[1])
		TH_LOG("%d switches from %s to the partner in %s", ROUND_TRIPS, self->a.path,
		       self->partner_cgroup);
	close(cpu_fd);
	close(fds[1]);
	close(fds[0]);
}

/*
 * Without SCHED_FIFO (any machine): where the partner is elsewhere this
 * task is alone in its cgroup, so whatever task takes the CPU from it (the
 * partner, another task, the idle task) is of another cgroup: the two
 * counts are equal, and at least one per round trip. Where the partner
 * shares the cgroup, only the switches to other tasks count: no more than
 * the switches.
 */
TEST_F(cgroups, agrees_with_the_context_switches)
{
	int fds[2];

	ASSERT_EQ(0, open_pair(fds)) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
	ASSERT_EQ(0, pc_echo_start(&self->p, self->partner_cgroup));
	ASSERT_EQ(0, pc_enable(fds[0]));
	int err = pc_echo_round_trips(&self->p, ROUND_TRIPS);
	ASSERT_EQ(0, pc_disable(fds[0]));
	pc_echo_stop(&self->p);
	ASSERT_EQ(0, err);
	uint64_t switches = pc_count_of(fds[0]);

	EXPECT_LE(ROUND_TRIPS, switches);
	EXPECT_NE(UINT64_MAX, switches);
	uint64_t cgroup_switches = pc_count_of(fds[1]);

	if (variant->where == SAME) {
		EXPECT_GE(switches, cgroup_switches);
	} else {
		EXPECT_EQ(switches, cgroup_switches);
	}
	close(fds[1]);
	close(fds[0]);
}

TEST_HARNESS_MAIN
