// SPDX-License-Identifier: GPL-2.0
/*
 * Global state and kernel health: lib/host/sysctl.c's state file; the runner
 * restoring perf_event_paranoid after being killed with SIGKILL (and on
 * SIGTERM) while a test had lowered it; exclusive binaries running alone;
 * kernel log lines and taint bits failing the binary that ran.
 *
 * The binary doubles as a fake test: with --fake-lower-paranoid it lowers
 * perf_event_paranoid through lib/sysctl, says so, and hangs.
 */
#include <sys/file.h>

#include "perfconf.h"
#include "fake.h"

#define PARANOID "kernel/perf_event_paranoid"
#define MAX_STACK "kernel/perf_event_max_stack"

static long target_for(long orig)
{
	return orig > -1 ? orig - 1 : 0;
}

/* The fake test: TAP, lower the sysctl, note our pid, hang (or pass and leave). */
static int fake_lower_paranoid(bool hang)
{
	const char *out = getenv("FAKE_OUT");
	char path[PATH_MAX], pid[32];
	long orig;
	int err;

	printf("TAP version 13\n1..1\n");
	fflush(stdout);
	if (pc_sysctl_get(PARANOID, &orig) || (err = pc_sysctl_set(PARANOID, target_for(orig)))) {
		printf("not ok 1 lower_paranoid # cannot lower it\n");
		return 1;
	}
	printf("# lowered perf_event_paranoid from %ld to %ld, now hanging\n", orig, target_for(orig));
	fflush(stdout);
	snprintf(path, sizeof(path), "%s/lowered", out ? out : "/tmp");
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	fk_write(path, pid, 0644);
	while (hang)
		pause();
	printf("ok 1 lower_paranoid_and_forget_it\n");
	return 0;
}

static long paranoid(void)
{
	long v = -99;

	pc_sysctl_get(PARANOID, &v);
	return v;
}

static long max_stack(void)
{
	long v = -99;

	pc_sysctl_get(MAX_STACK, &v);
	return v;
}

FIXTURE(state) {
	struct tree t;
	struct res r;
	long paranoid, max_stack;
	long rcu_expedited;	/* -1: no such switch */
};

/*
 * What a restart restores after a killed run that lowered paranoid: that,
 * and the RCU switch the runner turned on for its run (exec_expedite_rcu)
 * where it was off.
 */
static const char *restored_after_kill(FIXTURE_DATA(state) *self)
{
	return self->rcu_expedited == 0 ? "# restored 2 sysctls an earlier run left changed"
					 : "# restored 1 sysctl an earlier run left changed";
}

static long rcu_expedited(void)
{
	long v = -1;

	pc_sysctl_get(PC_RCU_EXPEDITED, &v);
	return v;
}

FIXTURE_SETUP(state)
{
	char dir[PATH_MAX + 16];

	fk_tree(&self->t);
	memset(&self->r, 0, sizeof(self->r));
	snprintf(dir, sizeof(dir), "%s/state", self->t.root);
	setenv("PERFCONF_STATE_DIR", dir, 1);	/* never the real /run/perfconf */
	ASSERT_EQ(0, pc_sysctl_get(PARANOID, &self->paranoid));
	ASSERT_EQ(0, pc_sysctl_get(MAX_STACK, &self->max_stack));
	self->rcu_expedited = rcu_expedited();
	if (geteuid() != 0)
		SKIP(return, "changing sysctls needs root");
}

FIXTURE_TEARDOWN(state)
{
	char buf[32];

	/* Whatever happened, put the real values back. */
	snprintf(buf, sizeof(buf), "%ld\n", self->paranoid);
	fk_write("/proc/sys/" PARANOID, buf, 0644);
	snprintf(buf, sizeof(buf), "%ld\n", self->max_stack);
	fk_write("/proc/sys/" MAX_STACK, buf, 0644);
	if (self->rcu_expedited >= 0) {
		snprintf(buf, sizeof(buf), "%ld\n", self->rcu_expedited);
		fk_write(PC_RCU_EXPEDITED, buf, 0644);
	}
	fk_res_free(&self->r);
	fk_tree_free(&self->t);
}

/* --- lib/host/sysctl.c --- */

TEST_F(state, first_saved_value_wins_and_restore_drops_it)
{
	char *st, want[64];
	long v;

	/* the original value, and the session of the binary that saved it */
	snprintf(want, sizeof(want), PARANOID " %ld %ld\n", self->paranoid, (long)getsid(0));
	ASSERT_EQ(0, pc_sysctl_set(PARANOID, target_for(self->paranoid)));
	EXPECT_EQ(target_for(self->paranoid), paranoid());
	ASSERT_EQ(0, pc_sysctl_set(PARANOID, self->paranoid + 1));
	st = fk_read(pc_sysctl_state_path());
	ASSERT_TRUE(st != NULL);
	EXPECT_STREQ(want, st);
	free(st);
	ASSERT_EQ(0, pc_sysctl_set(MAX_STACK, self->max_stack + 1));
	ASSERT_EQ(0, pc_sysctl_restore(PARANOID));
	EXPECT_EQ(self->paranoid, paranoid());
	EXPECT_EQ(-ENOENT, pc_sysctl_restore(PARANOID));
	ASSERT_EQ(0, pc_sysctl_get(MAX_STACK, &v));
	EXPECT_EQ(self->max_stack + 1, v);
	EXPECT_EQ(1, pc_sysctl_restore_all());
	ASSERT_EQ(0, pc_sysctl_get(MAX_STACK, &v));
	EXPECT_EQ(self->max_stack, v);
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
	EXPECT_EQ(0, pc_sysctl_restore_all());
}

TEST_F(state, bad_names_and_malformed_state_file)
{
	int saved = dup(2), fd;
	char *err, *st, path[PATH_MAX + 16];

	EXPECT_EQ(-EINVAL, pc_sysctl_set("../../etc/passwd", 1));
	EXPECT_EQ(-EINVAL, pc_sysctl_set("/proc/sys/kernel/perf_event_paranoid", 1));
	EXPECT_EQ(-EINVAL, pc_sysctl_set("kernel/perf event", 1));
	/* the one absolute name is a CPU's online switch, spelled exactly */
	EXPECT_EQ(-EINVAL, pc_sysctl_set("/sys/devices/system/cpu/cpu1/../cpu0/online", 1));
	EXPECT_EQ(-EINVAL, pc_sysctl_set("/sys/devices/system/cpu/cpu01/online", 1));
	EXPECT_EQ(-EINVAL, pc_sysctl_set("/sys/devices/system/cpu/cpu1/online/x", 1));
	EXPECT_EQ(-ENOENT, pc_sysctl_set("/sys/devices/system/cpu/cpu99999/online", 1));
	EXPECT_EQ(-ENOENT, pc_sysctl_set("kernel/no_such_sysctl", 1));
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));	/* nothing saved for those */

	fk_mkdirs(fk_path(&self->t, "state"));
	fk_write(pc_sysctl_state_path(), PARANOID " 2\nnot a valid line\n", 0600);
	snprintf(path, sizeof(path), "%s/stderr.txt", self->t.root);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	EXPECT_EQ(-EINVAL, pc_sysctl_restore_all());
	dup2(saved, 2);
	close(fd);
	err = fk_read(path);
	EXPECT_TRUE(strstr(err, "sysctl.state:2: malformed entry \"not a valid line\"") != NULL) TH_LOG("%s", err);
	free(err);
	st = fk_read(pc_sysctl_state_path());
	EXPECT_TRUE(st != NULL);	/* kept for a human */
	free(st);

	/* the runner refuses to start on it, with the same message */
	fk_pass(&self->t, "a/pass", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "sysctl.state:2: malformed entry") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run_cmd(&self->t, &self->r, "restore", NULL);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
}

TEST_F(state, restore_subcommand)
{
	ASSERT_EQ(0, pc_sysctl_set(PARANOID, target_for(self->paranoid)));
	fk_run_cmd(&self->t, &self->r, "restore", NULL);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "restored 1 sysctl ") != NULL) SHOW(&self->r);
	EXPECT_EQ(self->paranoid, paranoid());
}

/* --- the runner --- */

static void lowering_tree(struct tree *t)
{
	char body[PATH_MAX + 128], self_exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);

	self_exe[n > 0 ? n : 0] = 0;
	snprintf(body, sizeof(body), "# perfconf-meta: exclusive\nexec %s --fake-lower-paranoid\n", self_exe);
	fk_script(t, "state/lower", body);
	fk_pass(t, "a/pass", 2);
}

TEST_F_TIMEOUT(state, sigkill_then_restart_restores_paranoid, 60)
{
	char *pid;
	pid_t runner;
	int st;
	double start = fk_now();

	lowering_tree(&self->t);
	runner = fk_start_v(&self->t, NULL, (char *[]){ "-j", "2", NULL });
	ASSERT_TRUE(fk_wait_file(fk_path(&self->t, "out/lowered"), 20)) {
		kill(runner, SIGKILL);
		waitpid(runner, NULL, 0);
	}
	EXPECT_EQ(target_for(self->paranoid), paranoid());
	/* The runner dies without a chance to clean up. */
	kill(runner, SIGKILL);
	waitpid(runner, &st, 0);
	EXPECT_EQ(target_for(self->paranoid), paranoid());
	EXPECT_EQ(0, access(pc_sysctl_state_path(), F_OK));
	pid = fk_read(fk_path(&self->t, "out/lowered"));
	ASSERT_TRUE(pid != NULL);
	EXPECT_TRUE(fk_pid_alive(atoi(pid)));	/* orphaned, still hanging */

	/* The next run cleans up first. */
	fk_run(&self->t, &self->r, "-t", "a");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, restored_after_kill(self))) SHOW(&self->r);
	EXPECT_EQ(self->rcu_expedited, rcu_expedited());
	EXPECT_TRUE(fk_has_line(self->r.out, "# killed 1 process left running by an earlier run that died"))
		SHOW(&self->r);
	EXPECT_EQ(self->paranoid, paranoid());
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
	usleep(100000);
	EXPECT_FALSE(fk_pid_alive(atoi(pid)));
	free(pid);
	EXPECT_LT(fk_now() - start, 30);
}

/* A process's state letter from /proc/<pid>/stat, or 0. */
static char proc_state(pid_t pid)
{
	char path[64], *text = NULL, *p, st = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	text = fk_read(path);
	p = text ? strrchr(text, ')') : NULL;
	if (p && p[1] == ' ')
		st = p[2];
	free(text);
	return st;
}

/*
 * A runner killed but not yet reaped by its parent is a zombie that still
 * holds its pid: the next run takes it for dead all the same, kills what
 * it left running and removes its temporary directory.
 */
TEST_F_TIMEOUT(state, a_killed_runner_not_yet_reaped_is_dead, 60)
{
	char tmp[PATH_MAX + 16], left[PATH_MAX + 64];
	pid_t runner;
	int st;

	snprintf(tmp, sizeof(tmp), "%s/tmp", self->t.root);
	fk_mkdirs(tmp);
	setenv("TMPDIR", tmp, 1);
	fk_script(&self->t, "a/hang", "echo $$ > \"$FAKE_OUT/hanging\"\nexec sleep 30\n");
	runner = fk_start_v(&self->t, NULL, (char *[]){ "-j", "1", NULL });
	ASSERT_TRUE(fk_wait_file(fk_path(&self->t, "out/hanging"), 20)) {
		kill(runner, SIGKILL);
		waitpid(runner, NULL, 0);
	}
	kill(runner, SIGKILL);
	for (int i = 0; i < 200 && proc_state(runner) != 'Z'; i++)
		usleep(10000);
	ASSERT_EQ('Z', proc_state(runner)) waitpid(runner, &st, 0);
	snprintf(left, sizeof(left), "ls -d %s/perfconf-run.%d* >/dev/null 2>&1", tmp, (int)runner);
	EXPECT_EQ(0, system(left));	/* the dead run's directory is there */

	fk_pass(&self->t, "b/pass", 1);
	fk_run(&self->t, &self->r, "-t", "b");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# killed 1 process left running by an earlier run that died"))
		SHOW(&self->r);
	EXPECT_NE(0, system(left)) TH_LOG("%s/perfconf-run.%d* left behind", tmp, (int)runner);
	EXPECT_EQ('Z', proc_state(runner));	/* still not reaped: the cleanup did not wait for that */
	waitpid(runner, &st, 0);
	unsetenv("TMPDIR");
}

/*
 * The same with a real privilege binary: the whole run (runner, binary,
 * the case that became another identity) is stopped at a moment when a
 * cell has perf_event_paranoid lowered, then SIGKILLed. Nothing puts it
 * back until the next start, which does.
 */
TEST_F_TIMEOUT(state, sigkill_during_a_privilege_cell_then_restart_restores, 90)
{
	char real[PATH_MAX + 64];
	bool lowered = false;
	pid_t runner;
	double start = fk_now();

	snprintf(real, sizeof(real), "%s/tests/privilege/own_task", fk_build());
	ASSERT_EQ(0, fk_copy(&self->t, real, "tests/privilege/own_task")) TH_LOG("%s", real);
	fk_pass(&self->t, "a/pass", 1);
	runner = fk_start_v(&self->t, NULL, (char *[]){ "-j", "2", "-t", "privilege", NULL });
	while (!lowered && fk_now() - start < 30) {
		fk_signal_run(runner, SIGSTOP);
		lowered = paranoid() < self->paranoid;
		if (!lowered) {
			fk_signal_run(runner, SIGCONT);
			usleep(2000);
		}
	}
	fk_signal_run(runner, SIGKILL);
	waitpid(runner, NULL, 0);
	ASSERT_TRUE(lowered) TH_LOG("no cell lowered perf_event_paranoid (%ld) within 30 s", self->paranoid);
	usleep(100000);
	EXPECT_GT(self->paranoid, paranoid());
	EXPECT_EQ(0, access(pc_sysctl_state_path(), F_OK));

	fk_run(&self->t, &self->r, "-t", "a");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, restored_after_kill(self))) SHOW(&self->r);
	EXPECT_EQ(self->rcu_expedited, rcu_expedited());
	EXPECT_EQ(self->paranoid, paranoid());
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
}

TEST_F_TIMEOUT(state, sigterm_kills_and_restores, 60)
{
	char *pid, last[256];
	pid_t runner;
	double start = fk_now();

	lowering_tree(&self->t);
	runner = fk_start_v(&self->t, NULL, (char *[]){ "-j", "2", "--timeout", "300", NULL });
	ASSERT_TRUE(fk_wait_file(fk_path(&self->t, "out/lowered"), 20)) {
		kill(runner, SIGKILL);
		waitpid(runner, NULL, 0);
	}
	EXPECT_EQ(target_for(self->paranoid), paranoid());
	kill(runner, SIGTERM);
	fk_collect(&self->t, runner, &self->r, fk_now(), 20);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_STREQ("# interrupted by SIGTERM: the running binaries were killed, the saved sysctls restored",
		     fk_last_line(self->r.out, last, sizeof(last))) SHOW(&self->r);
	EXPECT_EQ(self->paranoid, paranoid());
	pid = fk_read(fk_path(&self->t, "out/lowered"));
	ASSERT_TRUE(pid != NULL);
	EXPECT_FALSE(fk_pid_alive(atoi(pid)));
	free(pid);
	EXPECT_LT(fk_now() - start, 30);
}

/*
 * The runner restores after every binary: one that forgot to is told so;
 * one that changed a sysctl it did not declare (writes=) is an error.
 */
TEST_F(state, restored_after_each_binary)
{
	char body[PATH_MAX + 128], self_exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);

	self_exe[n > 0 ? n : 0] = 0;
	snprintf(body, sizeof(body), "# perfconf-meta: exclusive\nexec %s --fake-lower-and-leave\n", self_exe);
	fk_script(&self->t, "a/excl", body);
	/* every later binary sees the machine's own value */
	snprintf(body, sizeof(body),
		 "echo 'TAP version 13'\necho '1..1'\n"
		 "[ \"$(cat /proc/sys/kernel/perf_event_paranoid)\" = %ld ] && echo 'ok 1 x' || echo 'not ok 1 x'\n",
		 self->paranoid);
	fk_script(&self->t, "b/check", body);
	snprintf(body, sizeof(body), "exec %s --fake-lower-and-leave\n", self_exe);
	fk_script(&self->t, "c/plain", body);
	snprintf(body, sizeof(body), "# perfconf-meta: writes=perf_event_paranoid\nexec %s --fake-lower-and-leave\n",
		 self_exe);
	fk_script(&self->t, "d/writer", body);
	fk_run(&self->t, &self->r, "-j", "1");
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# left 1 sysctl changed: the runner restored it")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 1 a/excl")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 2 b/check")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "not ok 3 c/plain # ERROR changed perf_event_paranoid without "
				"declaring it: PERFCONF_META(\"writes=perf_event_paranoid\")")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 4 d/writer")) SHOW(&self->r);
	EXPECT_EQ(self->paranoid, paranoid());
}

/* The start and end times (ns) the fake binaries logged, by name; 0 when missing. */
static void read_times(struct tree *t, const char *const *names, int n, long long *start, long long *end)
{
	char *log = fk_read(fk_path(t, "out/log")), *line, *save;

	memset(start, 0, n * sizeof(*start));
	memset(end, 0, n * sizeof(*end));
	for (line = log ? strtok_r(log, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		char what[8], who[32];
		long long ns;

		if (sscanf(line, "%7s %31s %lld", what, who, &ns) != 3)
			continue;
		for (int i = 0; i < n; i++)
			if (!strcmp(strchr(names[i], '/') + 1, who))
				*(strcmp(what, "start") ? &end[i] : &start[i]) = ns;
	}
	free(log);
	unlink(fk_path(t, "out/log"));
}

static const char timed_body[] =
	"%s"
	"echo \"start $(basename $0) $(date +%%s%%N)\" >> \"$FAKE_OUT/log\"\n"
	"sleep 0.4\n"
	"echo \"end $(basename $0) $(date +%%s%%N)\" >> \"$FAKE_OUT/log\"\n"
	"echo 'TAP version 13'\necho '1..1'\necho 'ok 1 x'\n";

/*
 * Exclusive binaries run alone, first, back to back; the others side by
 * side after them, longest first by the last run's durations.txt (a binary
 * it does not list first of all); the output stays in name order.
 */
TEST_F(state, exclusive_runs_alone)
{
	static const char *const names[] = { "a/n1", "a/n2", "b/excl", "c/n3", "c/n4" };
	long long start[5], end[5];
	char *dur;

	for (int i = 0; i < 5; i++) {
		char b[1024];

		snprintf(b, sizeof(b), timed_body, i == 2 ? "# perfconf-meta: exclusive\n" : "");
		fk_script(&self->t, names[i], b);
	}
	fk_run(&self->t, &self->r, "-j", "4");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	read_times(&self->t, names, 5, start, end);
	for (int i = 0; i < 5; i++) {
		ASSERT_TRUE(start[i] && end[i]) TH_LOG("%s did not log", names[i]);
	}
	for (int i = 0; i < 5; i++) {
		if (i == 2)
			continue;
		EXPECT_GE(start[i], end[2]) TH_LOG("%s started while the exclusive one ran", names[i]);
		EXPECT_LT(start[i], end[i == 0 ? 1 : 0]) TH_LOG("%s did not overlap the others", names[i]);
	}
	EXPECT_TRUE(strstr(self->r.out, "ok 1 a/n1\n") < strstr(self->r.out, "ok 3 b/excl\n")) SHOW(&self->r);
	/* this run's durations, one line per binary */
	dur = fk_read(fk_path(&self->t, "results/durations.txt"));
	ASSERT_TRUE(dur != NULL);
	for (int i = 0; i < 5; i++) {
		char want[64];

		snprintf(want, sizeof(want), "\n%s 0.", names[i]);
		EXPECT_TRUE(strstr(dur, want) != NULL) TH_LOG("%s", dur);
	}
	free(dur);
	fk_res_free(&self->r);

	/* one at a time, the order the last run's durations give */
	fk_write(fk_path(&self->t, "results/durations.txt"),
		 "# perfconf durations\na/n1 0.1\na/n2 0.5\nc/n3 0.3\nb/excl 0.2\ngarbage\n", 0644);
	fk_run(&self->t, &self->r, "-j", "1");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	read_times(&self->t, names, 5, start, end);
	/* b/excl, c/n4 (not listed), a/n2 (0.5), c/n3 (0.3), a/n1 (0.1) */
	EXPECT_LE(end[2], start[4]);
	EXPECT_LE(end[4], start[1]);
	EXPECT_LE(end[1], start[3]);
	EXPECT_LE(end[3], start[0]);
	EXPECT_TRUE(strstr(self->r.out, "ok 1 a/n1\n") < strstr(self->r.out, "ok 5 c/n4\n")) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--list", "-v");
	EXPECT_TRUE(strstr(self->r.out, " exclusive\n") != NULL) SHOW(&self->r);
}

/*
 * Declared global state: the writers of one state run one at a time and
 * beside none of its readers; a binary that touches neither runs beside
 * them; binaries naming one serial= key run one at a time; a binary that
 * reads a state it did not declare is an error.
 */
TEST_F(state, writers_run_apart_from_what_uses_their_state)
{
	static const char *const names[] = { "a/w1", "a/w2", "b/r1", "c/n1", "d/s1", "d/s2" };
	static const char *const meta[] = {
		"# perfconf-meta: writes=perf_event_paranoid\n", "# perfconf-meta: writes=perf_event_paranoid\n",
		"# perfconf-meta: reads=perf_event_paranoid\n", "",
		"# perfconf-meta: serial=probes\n", "# perfconf-meta: serial=probes\n",
	};
	long long start[6], end[6];

	for (int i = 0; i < 6; i++) {
		char b[1024];

		snprintf(b, sizeof(b), timed_body, meta[i]);
		fk_script(&self->t, names[i], b);
	}
	fk_run(&self->t, &self->r, "-j", "4");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	read_times(&self->t, names, 6, start, end);
	for (int i = 0; i < 6; i++) {
		ASSERT_TRUE(start[i] && end[i]) TH_LOG("%s did not log", names[i]);
	}
	/* serial=: one at a time among those naming the key */
	EXPECT_TRUE(end[4] <= start[5] || end[5] <= start[4]) TH_LOG("d/s1 and d/s2 ran side by side");
	for (int i = 0; i < 3; i++) {
		for (int k = i + 1; k < 3; k++) {
			EXPECT_TRUE(end[i] <= start[k] || end[k] <= start[i])
				TH_LOG("%s and %s ran side by side", names[i], names[k]);
		}
	}
	EXPECT_LT(start[3], end[0]) TH_LOG("c/n1 waited for a writer");
	fk_res_free(&self->r);

	/* said, not declared: an error naming the declaration to add */
	fk_script(&self->t, "c/n1", "echo 'TAP version 13'\necho '1..1'\necho '# READS perf_event_max_stack'\n"
		  "echo 'ok 1 x'\n");
	fk_script(&self->t, "b/r1", "# perfconf-meta: reads=perf_event_paranoid,perf_event_max_stack\n"
		  "echo 'TAP version 13'\necho '1..1'\necho '# READS perf_event_max_stack'\necho 'ok 1 x'\n");
	fk_run(&self->t, &self->r, "-j", "2", "-t", "b", "-t", "c");
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 1 b/r1")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "not ok 2 c/n1 # ERROR read perf_event_max_stack without declaring "
				"it: PERFCONF_META(\"reads=perf_event_max_stack\")")) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--list", "-v");
	EXPECT_TRUE(strstr(self->r.out, " writes=perf_event_paranoid\n") != NULL) SHOW(&self->r);
}

/*
 * phases=: the parts of every binary for one value run side by side while
 * the runner holds it (each only checks it), one value after the other, and
 * apart from whatever else reads it; a binary's parts are one binary in
 * the output, its cases of no phase included; the value goes back after.
 */
static const char phased_body[] =
	"# perfconf-meta: writes=perf_event_paranoid phases=kernel/perf_event_paranoid:lvl_1=1,lvl_0=0\n"
	"n=$(basename $0)\n"
	"echo 'TAP version 13'\n"
	"if [ \"$1\" = -V ]; then echo '1..1'; echo 'ok 1 global.other'; exit 0; fi\n"
	"echo \"start $n.$2 $(date +%s%N)\" >> \"$FAKE_OUT/log\"\n"
	"echo '1..1'\n"
	"echo \"# OBS paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)\"\n"
	"echo \"# OBS held=${PERFCONF_HELD##*=}\"\n"
	"sleep 0.3\n"
	"echo \"end $n.$2 $(date +%s%N)\" >> \"$FAKE_OUT/log\"\n"
	"echo \"ok 1 f.$2.c\"\n";

TEST_F(state, phases_run_side_by_side_under_one_held_value)
{
	static const char *const names[] = { "p/a.lvl_1", "p/b.lvl_1", "p/a.lvl_0", "p/b.lvl_0", "r/r1" };
	long long start[5], end[5];
	char *res;

	fk_script(&self->t, "p/a", phased_body);
	fk_script(&self->t, "p/b", phased_body);
	{
		char b[1024];

		snprintf(b, sizeof(b), timed_body, "# perfconf-meta: reads=perf_event_paranoid\n");
		fk_script(&self->t, "r/r1", b);
	}
	fk_run(&self->t, &self->r, "-j", "4");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	read_times(&self->t, names, 5, start, end);
	for (int i = 0; i < 5; i++) {
		ASSERT_TRUE(start[i] && end[i]) TH_LOG("%s did not log", names[i]);
	}
	/* one value's parts side by side; the next value's after them; the reader apart */
	EXPECT_TRUE(start[0] < end[1] && start[1] < end[0]) TH_LOG("the lvl_1 parts did not overlap");
	EXPECT_TRUE(start[2] < end[3] && start[3] < end[2]) TH_LOG("the lvl_0 parts did not overlap");
	for (int i = 0; i < 2; i++) {
		for (int k = 2; k < 4; k++) {
			EXPECT_TRUE(end[i] <= start[k] || end[k] <= start[i])
				TH_LOG("%s and %s ran side by side", names[i], names[k]);
		}
	}
	for (int i = 0; i < 4; i++) {
		EXPECT_TRUE(end[i] <= start[4] || end[4] <= start[i]) TH_LOG("r/r1 ran beside %s", names[i]);
	}
	/* each part saw the value it was told the runner holds; one block per binary */
	res = fk_read(fk_path(&self->t, "results/results.txt"));
	ASSERT_TRUE(res != NULL);
	EXPECT_TRUE(fk_has_line(res, "p/a:f.lvl_1.c PASS held=1 paranoid=1")) TH_LOG("%s", res);
	EXPECT_TRUE(fk_has_line(res, "p/b:f.lvl_0.c PASS held=0 paranoid=0")) TH_LOG("%s", res);
	EXPECT_TRUE(fk_has_line(res, "p/b:global.other PASS")) TH_LOG("%s", res);
	free(res);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 1 p/a")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  1..3")) SHOW(&self->r);
	EXPECT_EQ(self->paranoid, paranoid());
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--list", "-v", "-t", "p");
	EXPECT_TRUE(strstr(self->r.out, " phases=kernel/perf_event_paranoid(2)\n") != NULL) SHOW(&self->r);
}

/*
 * A phase value the kernel refuses: that part runs as its binary would,
 * not told of a hold (and would set the value itself, and skip); the
 * others are held as usual.
 */
TEST_F(state, a_phase_value_the_kernel_refuses_is_not_held)
{
	char *res;

	fk_script(&self->t, "q/a",
		  "# perfconf-meta: writes=perf_event_max_stack phases=kernel/perf_event_max_stack:ok=100,bad=-1\n"
		  "echo 'TAP version 13'\n"
		  "if [ \"$1\" = -V ]; then echo '1..0'; exit 0; fi\n"
		  "echo '1..1'\n"
		  "echo \"# OBS max_stack=$(cat /proc/sys/kernel/perf_event_max_stack)\"\n"
		  "echo \"# OBS held=$([ -n \"$PERFCONF_HELD\" ] && echo yes || echo no)\"\n"
		  "echo \"ok 1 f.$2.c\"\n");
	fk_run(&self->t, &self->r, "-j", "2", "-t", "q");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	res = fk_read(fk_path(&self->t, "results/results.txt"));
	ASSERT_TRUE(res != NULL);
	EXPECT_TRUE(fk_has_line(res, "q/a:f.ok.c PASS held=yes max_stack=100")) TH_LOG("%s", res);
	{
		char want[64];

		snprintf(want, sizeof(want), "q/a:f.bad.c PASS held=no max_stack=%ld", self->max_stack);
		EXPECT_TRUE(fk_has_line(res, want)) TH_LOG("%s", res);
	}
	free(res);
	EXPECT_EQ(self->max_stack, max_stack());
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
}

/*
 * One run at a time owns a state directory: a second run waits until the
 * first is done (it would otherwise restore the first one's changes after
 * each of its own binaries), and `perfconf restore` leaves a live run's
 * changes alone.
 */
TEST_F(state, a_second_run_waits_for_the_first)
{
	struct tree other;
	struct res second = { 0 };
	pid_t first_pid, second_pid;
	char want[128];
	char *err;

	fk_script(&self->t, "a/slow", "touch \"$FAKE_OUT/started\"\n"
		  "for i in $(seq 400); do [ -e \"$FAKE_OUT/go\" ] && break; sleep 0.05; done\n"
		  "echo 'TAP version 13'\necho '1..1'\necho 'ok 1 x'\n");
	fk_tree(&other);
	fk_pass(&other, "b/quick", 1);
	first_pid = fk_start_v(&self->t, NULL, NULL);
	ASSERT_TRUE(fk_wait_file(fk_path(&self->t, "out/started"), 20));

	/* both with this fixture's PERFCONF_STATE_DIR */
	fk_run_cmd(&other, &self->r, "restore", NULL);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	snprintf(want, sizeof(want), "the perfconf run pid %d is running: it restores its own changes", first_pid);
	EXPECT_TRUE(strstr(self->r.err, want) != NULL) SHOW(&self->r);
	fk_res_free(&self->r);

	second_pid = fk_start_v(&other, NULL, NULL);
	snprintf(want, sizeof(want), "waiting for the perfconf run pid %d to finish", first_pid);
	for (int i = 0; i < 400; i++) {
		err = fk_read(fk_path(&other, "stderr"));
		if (err && strstr(err, want))
			break;
		free(err);
		err = NULL;
		usleep(10000);
	}
	EXPECT_TRUE(err != NULL) TH_LOG("the second run did not say it waits");
	free(err);
	usleep(200000);
	EXPECT_EQ(0, waitpid(second_pid, NULL, WNOHANG)) TH_LOG("the second run ended while the first ran");
	EXPECT_NE(0, access(fk_path(&other, "results/ktap.txt"), F_OK)) TH_LOG("the second run started its binaries");

	fk_write(fk_path(&self->t, "out/go"), "", 0644);
	fk_collect(&self->t, first_pid, &self->r, fk_now(), 60);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	fk_collect(&other, second_pid, &second, fk_now(), 60);
	EXPECT_EQ(0, second.code) SHOW(&second);
	EXPECT_TRUE(fk_has_line(second.out, "ok 1 b/quick")) SHOW(&second);
	fk_res_free(&second);
	fk_tree_free(&other);
}

/* SKIP where this process may not write the kernel log (the fakes write theirs there). */
#define REQUIRE_KMSG_WRITABLE() do { \
	int fd_ = open("/dev/kmsg", O_WRONLY); \
	if (fd_ < 0) \
		SKIP(return, "cannot write /dev/kmsg: %s", strerror(errno)); \
	close(fd_); \
} while (0)

/* Lines a fake binary writes to /dev/kmsg: a WARNING's splat naming pid and comm. */
#define SPLAT(pid, comm, where, extra) \
	"echo 'WARNING: CPU: 0 PID: " pid " at perfconf-self-test.c:1 " where "+0x1/0x2 (not a kernel bug)' > /dev/kmsg\n" \
	"echo 'CPU: 0 UID: 0 PID: " pid " Comm: " comm " Not tainted' > /dev/kmsg\n" \
	"echo 'RIP: 0010:" where "+0x1/0x2' > /dev/kmsg\n" \
	"echo 'Call Trace:' > /dev/kmsg\n" extra \
	"echo ' " where "+0x1/0x2' > /dev/kmsg\n" \
	"echo ' perfconf_caller+0x3/0x4' > /dev/kmsg\n" \
	"echo '---[ end trace 0000000000000000 ]---' > /dev/kmsg\n"

/* A complaint that names a task of a binary fails that binary alone. */
TEST_F(state, kernel_complaint_of_a_binary_fails_it)
{
	REQUIRE_KMSG_WRITABLE();
	fk_script(&self->t, "a/warn",
		  "echo 'TAP version 13'\necho '1..1'\n" SPLAT("$$", "warn", "fake_warn", "")
		  "sleep 0.3\necho 'ok 1 global.looks_fine'\n");
	fk_script(&self->t, "b/quiet", "sleep 0.6\necho 'TAP version 13'\necho '1..1'\necho 'ok 1 x'\n");
	/* user-space lines count only in this test mode */
	setenv("PERFCONF_KMSG_ANY_FACILITY", "1", 1);
	fk_run(&self->t, &self->r, "-j", "2");
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "not ok 1 a/warn # ERROR kernel complaint: WARNING at perfconf-self-test.c:1 "
			   "fake_warn (Comm warn, PID ") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "): fake_warn < perfconf_caller") != NULL) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   Call Trace:")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 2 b/quiet")) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# KERNEL COMPLAINTS: the kernel warned or oopsed while the suite ran (1):\n"
			   "#   a/warn: kernel complaint: WARNING at perfconf-self-test.c:1 fake_warn") != NULL)
		SHOW(&self->r);
	fk_res_free(&self->r);
	/* the host's kernel is no fault of the suite: shown, not gating */
	fk_run(&self->t, &self->r, "-j", "2", "--gate", "suite");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "and 1 kernel complaint shown, not gating; 0 faults") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	/* by default only the kernel's own lines count */
	unsetenv("PERFCONF_KMSG_ANY_FACILITY");
	fk_run(&self->t, &self->r, "-j", "2");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
}

/*
 * A complaint from an interrupt names no task of ours: one cause of the
 * run, while the binaries that ran keep their own verdicts; the runner
 * runs each of them alone to find the one that brings it back.
 */
TEST_F(state, kernel_complaint_from_an_interrupt_is_one_cause)
{
	REQUIRE_KMSG_WRITABLE();
	fk_script(&self->t, "a/irq",
		  "echo 'TAP version 13'\necho '1..1'\nsleep 0.2\n"
		  SPLAT("0", "swapper/0", "fake_irq", "echo ' <IRQ>' > /dev/kmsg\n")
		  "sleep 0.3\necho 'ok 1 global.x'\n");
	fk_script(&self->t, "b/slow", "sleep 0.8\necho 'TAP version 13'\necho '1..1'\necho 'ok 1 x'\n");
	setenv("PERFCONF_KMSG_ANY_FACILITY", "1", 1);
	fk_run(&self->t, &self->r, "-j", "2");
	unsetenv("PERFCONF_KMSG_ANY_FACILITY");
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 1 a/irq")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 2 b/slow")) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# kernel complaint: WARNING at perfconf-self-test.c:1 fake_irq (Comm swapper/0, "
			   "PID 0; from an interrupt or the idle task): fake_irq < perfconf_caller, while a/irq and "
			   "b/slow ran; it came back running a/irq alone\n") != NULL) SHOW(&self->r);
}

TEST_F(state, new_taint_fails_the_binary)
{
	char taint[PATH_MAX + 16];

	snprintf(taint, sizeof(taint), "%s/taint", self->t.root);
	fk_write(taint, "0\n", 0644);
	setenv("PERFCONF_TAINT_FILE", taint, 1);
	fk_pass(&self->t, "a/before", 1);
	fk_script(&self->t, "b/taints",
		  "echo 'TAP version 13'\necho '1..1'\necho 512 > \"$PERFCONF_TAINT_FILE\"\necho 'ok 1 x'\n");
	fk_pass(&self->t, "c/after", 1);
	fk_run(&self->t, &self->r, "-j", "1");
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 1 a/before")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "not ok 2 b/taints # ERROR new kernel taint: W (bit 9)")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 3 c/after")) SHOW(&self->r);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--fake-lower-paranoid"))
		return fake_lower_paranoid(true);
	if (argc > 1 && !strcmp(argv[1], "--fake-lower-and-leave"))
		return fake_lower_paranoid(false);
	return test_harness_run(argc, argv);
}
