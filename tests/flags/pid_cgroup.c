// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_FLAG_PID_CGROUP (since 2.6.39): the pid argument is then no process
 * id but a file descriptor open on a directory of the cgroup file system,
 * and the event monitors that cgroup on one CPU: it counts only while a
 * task of the cgroup (or of a cgroup below it) runs on that CPU. A cgroup
 * has no CPU of its own, so cpu -1 is refused (EINVAL), as is pid -1.
 * Without the flag the same number is an ordinary pid.
 *
 * The kernel (kernel/events/core.c: perf_event_open checks pid and cpu
 * before it looks at the descriptor; perf_cgroup_connect gives EBADF for
 * a descriptor that is not open, and css_tryget_online_from_dir,
 * kernel/cgroup/cgroup.c, EBADF for one that is not a directory of a
 * cgroup file system; the same in 5.10 and 6.x) needs CONFIG_CGROUP_PERF,
 * without which every such open is EINVAL: SKIP there.
 *
 * The cgroup is a fresh one in the hierarchy that hosts perf_event
 * (lib/host/cgroup.h; cgroup2 mounted in a private mount namespace where
 * no hierarchy is mounted) with one task in it: a child that does N page
 * faults in user mode on the test's CPU, while the test itself, outside
 * the cgroup, does M on the same CPU. The cgroup is removed after every
 * case, also a failed one.
 */
#include "perfconf.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>

#include "host/cgroup.h"
#include "work/affinity.h"
#include "work/child.h"
#include "work/measure.h"

#define N 16	/* the child's faults, in the cgroup */
#define M 96	/* the test's own, outside it, on the same CPU */
#define STR_(x) #x
#define STR(x) STR_(x)
#define CHILD_WORK "faults " STR(N)

FIXTURE(global) {
	struct pc_cgroup_fresh cg;
	int dir;		/* open on it */
	int cpu;		/* the test and the child are pinned there */
	struct pc_child child;	/* in the cgroup, waiting */
};

/* Undo what setup made, in reverse; safe on a half-made fixture. */
static void undo(FIXTURE_DATA(global) *self)
{
	pc_child_kill(&self->child);
	if (self->dir >= 0)
		close(self->dir);
	self->dir = -1;
	pc_cgroup_fresh_remove(&self->cg);
}

FIXTURE_SETUP(global)
{
	int err;

	self->dir = -1;
	self->cg.path[0] = '\0';
	self->cg.private_mount = false;
	self->child.pid = 0;
	REQUIRE_CONFIG("CGROUP_PERF");
	err = pc_cgroup_fresh_make(&self->cg);
	if (err)
		BLOCKED("cannot make a cgroup (%s)", pc_errno_name(-err));
	self->dir = open(self->cg.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	self->cpu = pc_pin_self();
	if (self->dir < 0 || self->cpu < 0) {
		err = self->dir < 0 ? -errno : self->cpu;
		undo(self);
		ASSERT_ERRNO(0, -err) TH_LOG("opening the cgroup's directory, or pinning");
	}
	err = pc_child_start(&self->child, 0);
	if (!err)
		err = pc_cgroup_attach(self->cg.path, self->child.pid);
	/* once unmeasured: the code and stack the work runs through are there */
	if (!err)
		err = pc_child_do(&self->child, CHILD_WORK);
	if (err) {
		undo(self);
		ASSERT_ERRNO(0, -err) TH_LOG("a child in the cgroup, working");
	}
	pc_work_page_faults(1);
}

FIXTURE_TEARDOWN(global)
{
	undo(self);
}

/* Open the cgroup's event; SKIP where the perf_event controller is not on that hierarchy. */
#define OPEN_CGROUP(fd, attr, cgroup_fd, cpu) do { \
	fd = pc_open(attr, cgroup_fd, cpu, -1, PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC); \
	if (fd == -ENOENT) \
		SKIP(return, "the perf_event controller is not on the hierarchy at %.200s", self->cg.m.dir); \
	ASSERT_OPEN(fd); \
} while (0)

/*
 * Enable the events, have the child do N faults and the test M, all on
 * the one CPU, disable.
 */
static int both_work(FIXTURE_DATA(global) *self, const int *fds, int n)
{
	int err = 0;

	for (int i = 0; i < n && !err; i++)
		err = pc_reset(fds[i]) ?: pc_enable(fds[i]);
	if (!err)
		err = pc_child_do(&self->child, CHILD_WORK);
	if (!err)
		err = pc_work_page_faults(M);
	for (int i = 0; i < n; i++)
		pc_disable(fds[i]);
	return err;
}

/*
 * The cgroup's event counts the child's faults and none of the test's; a
 * CPU-wide event on that CPU, the control, counts both.
 */
TEST_F(global, counts_only_tasks_of_the_cgroup)
{
	struct perfconf_attr attr = pc_attr_user_faults();
	int fds[2];

	OPEN_CGROUP(fds[0], &attr, self->dir, self->cpu);
	fds[1] = pc_open(&attr, -1, self->cpu, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fds[1]);
	ASSERT_EQ(0, both_work(self, fds, 2));
	uint64_t cgroup = pc_count_of(fds[0]), cpu = pc_count_of(fds[1]);
	EXPECT_EQ(N, cgroup) TH_LOG("the child did %d faults in the cgroup, the test %d outside it", N, M);
	EXPECT_LE(N + M, cpu) TH_LOG("the CPU-wide control");
	close(fds[0]);
	close(fds[1]);
}

/* Also while the cgroup's task is moved away: nothing then. */
TEST_F(global, task_moved_out_is_not_counted)
{
	struct perfconf_attr attr = pc_attr_user_faults();
	char own[PATH_MAX];
	int fd;

	OPEN_CGROUP(fd, &attr, self->dir, self->cpu);
	ASSERT_EQ(0, pc_cgroup_self(&self->cg.m, own, sizeof(own))) TH_LOG("the test's own cgroup");
	ASSERT_EQ(0, pc_cgroup_attach(own, self->child.pid));
	ASSERT_EQ(0, pc_child_do(&self->child, CHILD_WORK));	/* warm in the new place */
	ASSERT_EQ(0, both_work(self, &fd, 1));
	EXPECT_EQ(0, pc_count_of(fd)) TH_LOG("an empty cgroup counted");
	ASSERT_EQ(0, pc_cgroup_attach(self->cg.path, self->child.pid));
	ASSERT_EQ(0, pc_child_do(&self->child, CHILD_WORK));
	ASSERT_EQ(0, both_work(self, &fd, 1));
	EXPECT_EQ(N, pc_count_of(fd)) TH_LOG("the control: the child back in the cgroup");
	close(fd);
}

/* A cgroup needs a CPU: cpu -1 is EINVAL, as is pid -1. */
TEST_F(global, cpu_minus_1_is_einval)
{
	struct perfconf_attr attr = pc_attr_user_faults();
	int fd;

	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, self->dir, -1, -1, PERF_FLAG_PID_CGROUP));
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, -1, self->cpu, -1, PERF_FLAG_PID_CGROUP)) TH_LOG("pid -1");
	OPEN_CGROUP(fd, &attr, self->dir, self->cpu);	/* the control */
	close(fd);
}

/*
 * pid must be a descriptor open on a cgroup directory: EBADF for one
 * that is not open, and for a regular file, a directory elsewhere, a file
 * of the cgroup, a pipe. The control: the cgroup's own opens.
 */
static void expect_ebadf(struct __test_metadata *_metadata, FIXTURE_DATA(global) *self, int bad)
{
	struct perfconf_attr attr = pc_attr_user_faults();
	int fd;

	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, bad, self->cpu, -1, PERF_FLAG_PID_CGROUP));
	OPEN_CGROUP(fd, &attr, self->dir, self->cpu);
	close(fd);
}

TEST_F(global, not_open_fd_is_ebadf)
{
	int bad = dup(self->dir);

	ASSERT_LE(0, bad);
	close(bad);
	expect_ebadf(_metadata, self, bad);
}

TEST_F(global, regular_file_is_ebadf)
{
	int bad = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, bad);
	expect_ebadf(_metadata, self, bad);
	close(bad);
}

TEST_F(global, other_directory_is_ebadf)
{
	int bad = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ASSERT_LE(0, bad);
	expect_ebadf(_metadata, self, bad);
	close(bad);
}

/* A file of the cgroup file system, not a directory: EBADF too. */
TEST_F(global, cgroup_file_is_ebadf)
{
	char file[PATH_MAX + 16];

	snprintf(file, sizeof(file), "%s/cgroup.procs", self->cg.path);
	int bad = open(file, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, bad) TH_LOG("%s: %s", file, pc_errno_name(errno));
	expect_ebadf(_metadata, self, bad);
	close(bad);
}

TEST_F(global, pipe_is_ebadf)
{
	int p[2];

	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
	expect_ebadf(_metadata, self, p[0]);
	close(p[0]);
	close(p[1]);
}

/* What the first process of a new pid namespace saw, for the test to assert. */
struct as_pid_one {
	int dup_err, open_err;		/* 0 or an errno */
	uint64_t count;			/* its own faults, per-task event on pid 1 */
	int flag_any_cpu, flag_on_cpu;	/* with PERF_FLAG_PID_CGROUP: errnos (0: opened) */
};

/*
 * Run as pid 1 of a new pid namespace: descriptor 1 becomes the cgroup's
 * directory, so the number 1 is both this process's pid and the cgroup.
 */
static int be_pid_one(int dir, int cpu, int out)
{
	struct perfconf_attr attr = pc_attr_user_faults();
	struct as_pid_one r = { 0 };
	int fd;

	pc_work_page_faults(1);	/* once unmeasured: the stack and code the work runs through */
	if (dup2(dir, 1) != 1)
		r.dup_err = errno;
	fd = r.dup_err ? -1 : pc_open(&attr, 1, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		r.open_err = r.dup_err ? 0 : -fd;
	} else {
		pc_enable(fd);
		pc_work_page_faults(N);
		pc_disable(fd);
		r.count = pc_count_of(fd);
		close(fd);
	}
	r.flag_any_cpu = pc_open_errno(&attr, 1, -1, -1, PERF_FLAG_PID_CGROUP);
	r.flag_on_cpu = pc_open_errno(&attr, 1, cpu, -1, PERF_FLAG_PID_CGROUP);
	return write(out, &r, sizeof(r)) == sizeof(r) ? 0 : 1;
}

/*
 * Without the flag the same number is a pid. A pid is a small number only
 * in a new pid namespace (a machine up for weeks has pids past any
 * descriptor limit): its first process is pid 1 there, holds the
 * cgroup's directory as descriptor 1, and opens with pid 1 a per-task
 * event on itself (on any CPU), which counts its own faults, not the
 * cgroup's. The control: with the flag the same number is the cgroup
 * (cpu -1 refused, one CPU opens).
 */
TEST_F(global, without_flag_the_fd_is_a_pid)
{
	struct as_pid_one r = { 0 };
	int pipefd[2], st;
	pid_t pid;

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	if (unshare(CLONE_NEWPID))
		BLOCKED("cannot make a pid namespace (%s): no pid here is a small number", pc_errno_name(errno));
	pid = fork();	/* the namespace's pid 1 */
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(pipefd[0]);
		_exit(be_pid_one(self->dir, self->cpu, pipefd[1]));
	}
	close(pipefd[1]);
	ssize_t got = read(pipefd[0], &r, sizeof(r));
	close(pipefd[0]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_EQ(sizeof(r), (size_t)got) TH_LOG("pid 1 of the namespace said nothing (status %#x)", st);
	ASSERT_ERRNO(0, r.dup_err) TH_LOG("dup2 onto descriptor 1");
	ASSERT_ERRNO(0, r.open_err) TH_LOG("pid 1 without the flag: a per-task event on itself");
	EXPECT_EQ(N, r.count);
	EXPECT_ERRNO(EINVAL, r.flag_any_cpu) TH_LOG("with the flag, cpu -1");
	if (r.flag_on_cpu == ENOENT)
		SKIP(return, "the perf_event controller is not on the hierarchy at %.200s", self->cg.m.dir);
	EXPECT_ERRNO(0, r.flag_on_cpu) TH_LOG("with the flag, cpu %d", self->cpu);
}

TEST_HARNESS_MAIN
