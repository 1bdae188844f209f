// SPDX-License-Identifier: GPL-2.0
/*
 * The runner on fake test trees: passing, failing, skipping, crashing,
 * hanging, garbage-printing and 10 MB-printing binaries; isolation, leaks,
 * timeouts, selection, parallelism, and its KTAP parsed by the kernel's
 * own kunit.py.
 */
#include "perfconf.h"
#include "fake.h"

FIXTURE(run) {
	struct tree t;
	struct res r;
};

FIXTURE_SETUP(run)
{
	fk_tree(&self->t);
	memset(&self->r, 0, sizeof(self->r));
}

FIXTURE_TEARDOWN(run)
{
	fk_res_free(&self->r);
	fk_tree_free(&self->t);
}

static const char mixed[] =
	"echo 'TAP version 13'\n"
	"echo '1..5'\n"
	"echo '# Starting 5 tests from 1 test cases.'\n"
	"echo '#  RUN           global.one ...'\n"
	"echo '# OBS size=136'\n"
	"echo '# OBS errno=EINVAL'\n"
	"echo 'ok 1 global.one'\n"
	"echo '#      SKIP      no cpu PMU here'\n"
	"echo 'ok 2 global.two # SKIP no cpu PMU here'\n"
	"echo '# size_test.c:42:three:Expected 0 (0) == fd (-1)'\n"
	"echo 'not ok 3 global.three'\n"
	"echo 'ok 4 global.four # XFAIL known kernel bug'\n"
	"echo '# global.five: Test terminated by timeout'\n"
	"echo '#          FAIL  global.five'\n"
	"echo 'not ok 5 global.five'\n"
	"echo '# FAILED: 2 / 5 tests passed.'\n"
	"exit 1\n";

TEST_F(run, pass_fail_skip_xfail)
{
	char last[256];

	fk_script(&self->t, "attr/mixed", mixed);
	fk_pass(&self->t, "attr/good", 2);
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "KTAP version 1")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "1..2")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  # Subtest: attr/mixed")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  1..5")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  ok 1 global.one")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  ok 2 global.two # SKIP no cpu PMU here")) SHOW(&self->r);
	/* a failing case shows its diagnostics */
	EXPECT_TRUE(fk_has_line(self->r.out, "  # size_test.c:42:three:Expected 0 (0) == fd (-1)")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  not ok 3 global.three")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  ok 4 global.four # XFAIL known kernel bug")) SHOW(&self->r);
	/* the harness's own per-case timeout */
	EXPECT_TRUE(fk_has_line(self->r.out, "  not ok 5 global.five # TIMEOUT timed out in the kselftest harness"))
		SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "not ok 2 attr/mixed")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 1 attr/good")) SHOW(&self->r);
	/* a passing case's diagnostics are only shown with -v */
	EXPECT_FALSE(fk_has_line(self->r.out, "  # OBS size=136")) SHOW(&self->r);
	EXPECT_STREQ("4 passed, 2 failed, 1 skipped", fk_last_line(self->r.out, last, sizeof(last)));

	/* results.txt: sorted, observations sorted by key */
	char *res = fk_read(fk_path(&self->t, "results/results.txt"));

	ASSERT_TRUE(res != NULL);
	EXPECT_TRUE(strstr(res,
		"attr/good:global.c1 PASS\n"
		"attr/good:global.c2 PASS\n"
		"attr/mixed:global.five TIMEOUT\n"
		"attr/mixed:global.four XFAIL\n"
		"attr/mixed:global.one PASS errno=EINVAL size=136\n"
		"attr/mixed:global.three FAIL\n"
		"attr/mixed:global.two SKIP\n") != NULL) TH_LOG("%s", res);
	EXPECT_TRUE(strstr(res, "# recorded on: ") != NULL) TH_LOG("%s", res);
	free(res);
	/* -v shows everything each binary printed */
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "-v");
	EXPECT_TRUE(fk_has_line(self->r.out, "  # OBS size=136")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  # Starting 5 tests from 1 test cases.")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  # FAILED: 2 / 5 tests passed.")) SHOW(&self->r);
}

TEST_F(run, all_pass_exits_0)
{
	char last[256];

	fk_pass(&self->t, "a/one", 3);
	fk_pass(&self->t, "b/two", 1);
	fk_run(&self->t, &self->r);
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_STREQ("4 passed, 0 failed, 0 skipped", fk_last_line(self->r.out, last, sizeof(last)));
	EXPECT_STREQ("", self->r.err);
}

TEST_F(run, crash_timeout_garbage_and_the_run_goes_on)
{
	char last[256];

	fk_script(&self->t, "a/crash",
		  "echo 'TAP version 13'\necho '1..3'\necho 'ok 1 global.before'\n"
		  "echo '# about to crash'\nkill -SEGV $$\n");
	fk_script(&self->t, "b/hang",
		  "echo 'TAP version 13'\necho '1..1'\n"
		  "sleep 1000 & echo $! > \"$FAKE_OUT/hang.child\"\n"
		  "echo $$ > \"$FAKE_OUT/hang.pid\"\nsleep 1000\n");
	fk_script(&self->t, "c/garbage",
		  "head -c 3000 /dev/urandom\nprintf '\\nList of all partitions: boom\\n# Subtest: x\\n'\n");
	fk_script(&self->t, "c/noplan", "echo 'hello world'\nexit 3\n");
	fk_pass(&self->t, "d/after", 1);
	fk_run(&self->t, &self->r, "--timeout", "1");
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  ok 1 global.before")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "not ok 1 a/crash # ERROR killed by signal 11 (SIGSEGV)")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  # about to crash")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# stopped after 1 of 3 planned cases")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "not ok 2 b/hang # TIMEOUT timeout after 1 s")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out,
		"not ok 3 c/garbage # ERROR unparsable output: no TAP plan or result line (exit status 0)"))
		SHOW(&self->r);
	/* texts that would derail a KTAP parser are defused */
	EXPECT_TRUE(strstr(self->r.out, "List of all partitions:") == NULL) SHOW(&self->r);
	EXPECT_FALSE(fk_has_line(self->r.out, "# Subtest: x")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out,
		"not ok 4 c/noplan # ERROR unparsable output: no TAP plan or result line (exit status 3)"))
		SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# hello world")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 5 d/after")) SHOW(&self->r);
	EXPECT_STREQ("2 passed, 4 failed, 0 skipped", fk_last_line(self->r.out, last, sizeof(last)));
	EXPECT_LT(self->r.secs, 10);
	/* the hung binary and its child were killed and reaped */
	char *pid = fk_read(fk_path(&self->t, "out/hang.pid"));
	char *child = fk_read(fk_path(&self->t, "out/hang.child"));

	ASSERT_TRUE(pid != NULL);
	ASSERT_TRUE(child != NULL);
	EXPECT_FALSE(fk_pid_alive(atoi(pid)));
	EXPECT_FALSE(fk_pid_alive(atoi(child)));
	free(pid);
	free(child);
	char *res = fk_read(fk_path(&self->t, "results/results.txt"));

	ASSERT_TRUE(res != NULL);
	EXPECT_TRUE(strstr(res, "a/crash ERROR\na/crash:global.before PASS\nb/hang TIMEOUT\n"
				    "c/garbage ERROR\nc/noplan ERROR\nd/after:global.c1 PASS\n") != NULL)
		TH_LOG("%s", res);
	free(res);
}

TEST_F(run, ten_megabytes_of_output)
{
	char *ktap;
	struct stat st;

	fk_script(&self->t, "big/out",
		  "echo 'TAP version 13'\necho '1..2'\n"
		  "yes '# a line of output that goes on and on and on and on and on' | head -c 10000000\necho\n"
		  "echo 'ok 1 global.after_ten_megabytes'\n"
		  "head -c 1000000 /dev/zero\n"
		  "echo\necho 'ok 2 global.after_a_long_line'\n");
	fk_run(&self->t, &self->r, "-v");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  ok 1 global.after_ten_megabytes"));
	EXPECT_TRUE(fk_has_line(self->r.out, "  ok 2 global.after_a_long_line"));
	EXPECT_TRUE(strstr(self->r.out, "not kept; the last 32 follow]") != NULL);
	EXPECT_LT(self->r.secs, 20);
	ASSERT_EQ(0, stat(fk_path(&self->t, "results/ktap.txt"), &st));
	EXPECT_LT(st.st_size, 2 << 20);
	ktap = fk_read(fk_path(&self->t, "results/ktap.txt"));
	EXPECT_TRUE(strstr(ktap, "[line cut]") != NULL);
	free(ktap);
}

TEST_F(run, isolation)
{
	/* stdin is /dev/null, cwd is a fresh empty $TMPDIR, own session and group */
	fk_script(&self->t, "iso/env",
		"echo 'TAP version 13'\necho '1..5'\n"
		"[ \"$(readlink /proc/self/fd/0)\" = /dev/null ] && echo 'ok 1 stdin' || echo 'not ok 1 stdin'\n"
		"[ \"$(pwd)\" = \"$TMPDIR\" ] && echo 'ok 2 cwd_is_tmpdir' || echo 'not ok 2 cwd_is_tmpdir'\n"
		"[ -z \"$(ls -A)\" ] && touch x && echo 'ok 3 empty_and_writable' || echo 'not ok 3 empty_and_writable'\n"
		"set -- $(sed 's/.*) //' /proc/$$/stat)\n"
		"[ \"$3\" = $$ ] && [ \"$4\" = $$ ] && echo 'ok 4 own_session' || echo \"not ok 4 own_session # $3 $4 $$\"\n"
		"echo 'this goes to stderr' >&2\n"
		"pwd > \"$FAKE_OUT/cwd\"\n"
		"echo 'ok 5 stderr_captured'\n");
	fk_run(&self->t, &self->r, "-v");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  # this goes to stderr")) SHOW(&self->r);
	char *cwd = fk_read(fk_path(&self->t, "out/cwd"));

	ASSERT_TRUE(cwd != NULL);
	cwd[strcspn(cwd, "\n")] = 0;
	EXPECT_NE(0, access(cwd, F_OK)) TH_LOG("%s was not removed", cwd);
	free(cwd);
}

TEST_F(run, leaked_process_is_killed_and_reported)
{
	fk_script(&self->t, "leak/bg",
		  "echo 'TAP version 13'\necho '1..1'\n"
		  "setsid sh -c 'echo $$ > \"$FAKE_OUT/escaped\"; exec sleep 1000' >/dev/null 2>&1 &\n"
		  "while [ ! -s \"$FAKE_OUT/escaped\" ]; do sleep 0.01; done\n"
		  "sleep 1000 & echo $! > \"$FAKE_OUT/leaked\"\n"
		  "echo 'ok 1 global.one'\n");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "not ok 1 leak/bg # ERROR left 1 process running (killed)"))
		SHOW(&self->r);
	char *leaked = fk_read(fk_path(&self->t, "out/leaked"));
	char *escaped = fk_read(fk_path(&self->t, "out/escaped"));

	ASSERT_TRUE(leaked != NULL);
	ASSERT_TRUE(escaped != NULL);
	EXPECT_FALSE(fk_pid_alive(atoi(leaked)));
	/* it left its session, but not the runner's reach */
	EXPECT_FALSE(fk_pid_alive(atoi(escaped)));
	free(leaked);
	free(escaped);
	EXPECT_TRUE(strstr(self->r.out, "escaped their binary's session") != NULL) SHOW(&self->r);
}

TEST_F(run, timeouts_from_meta_and_conf)
{
	/* PERFCONF_META in the file beats timeouts.conf, which beats --timeout */
	fk_script(&self->t, "slow/meta",
		  "# perfconf-meta: timeout=1\necho 'TAP version 13'\necho '1..1'\nsleep 30\n");
	fk_script(&self->t, "slow/conf", "echo 'TAP version 13'\necho '1..1'\nsleep 30\n");
	fk_script(&self->t, "fast/ok", "echo 'TAP version 13'\necho '1..1'\nsleep 1.5\necho 'ok 1 x'\n");
	fk_file(&self->t, "timeouts.conf", "# glob seconds\n\nslow/*   1.5  # slow ones\nfast/* 1\n");
	fk_run(&self->t, &self->r, "--timeouts", fk_path(&self->t, "timeouts.conf"), "--timeout", "1", "-t", "slow");
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "not ok 1 slow/conf # TIMEOUT timeout after 1.5 s")) SHOW(&self->r);
	EXPECT_NE(NULL, strstr(self->r.out, "(from ")) SHOW(&self->r);
	EXPECT_NE(NULL, strstr(self->r.out, "timeouts.conf:3)")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "not ok 2 slow/meta # TIMEOUT timeout after 1 s")) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--timeouts", fk_path(&self->t, "timeouts.conf"), "-t", "fast", "--list", "-v");
	EXPECT_TRUE(strstr(self->r.out, "timeout=1s") != NULL) SHOW(&self->r);
}

TEST_F(run, selection_and_list)
{
	fk_pass(&self->t, "attr/size", 1);
	fk_pass(&self->t, "attr/flags", 1);
	fk_pass(&self->t, "abi/layout", 1);
	fk_pass(&self->t, "events/bp", 1);
	fk_file(&self->t, "tests/attr/notes.txt", "not executable: ignored");
	fk_run(&self->t, &self->r, "--list");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_STREQ("abi/layout\nattr/flags\nattr/size\nevents/bp\n", self->r.out);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--list", "-t", "attr", "-t", "*/bp", "-x", "*flags");
	EXPECT_STREQ("attr/size\nevents/bp\n", self->r.out);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "-t", "abi/*");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "1..1")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "ok 1 abi/layout")) SHOW(&self->r);
}

TEST_F(run, parallel_jobs)
{
	char body[512];

	for (int i = 0; i < 4; i++) {
		char name[32];

		snprintf(name, sizeof(name), "p/s%d", i);
		snprintf(body, sizeof(body), "echo 'TAP version 13'\necho '1..1'\nsleep 0.5\necho 'ok 1 x'\n");
		fk_script(&self->t, name, body);
	}
	fk_run(&self->t, &self->r, "-j", "4");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_LT(self->r.secs, 1.5);
	/* output stays in order */
	EXPECT_TRUE(strstr(self->r.out, "ok 1 p/s0\n") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "ok 4 p/s3\n") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "-j", "1");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_GE(self->r.secs, 2.0);
}

TEST_F(run, usage_errors_exit_2)
{
	fk_pass(&self->t, "a/b", 1);
	fk_run(&self->t, &self->r, "-j", "0");
	EXPECT_EQ(2, self->r.code);
	EXPECT_TRUE(strstr(self->r.err, "-j: expected a number of jobs") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--frobnicate");
	EXPECT_EQ(2, self->r.code);
	EXPECT_TRUE(strstr(self->r.err, "unknown option --frobnicate") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--timeout", "soon");
	EXPECT_EQ(2, self->r.code);
	EXPECT_TRUE(strstr(self->r.err, "--timeout: expected a positive number of seconds") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--timeouts", fk_path(&self->t, "nope.conf"));
	EXPECT_EQ(2, self->r.code);
	EXPECT_TRUE(strstr(self->r.err, "nope.conf: cannot read") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_file(&self->t, "bad.conf", "a/* 10\n\nb/*\n");
	fk_run(&self->t, &self->r, "--timeouts", fk_path(&self->t, "bad.conf"));
	EXPECT_EQ(2, self->r.code);
	EXPECT_TRUE(strstr(self->r.err, "bad.conf:3: expected \"<glob> <seconds>\"") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "-t", "no/such*");
	EXPECT_EQ(2, self->r.code);
	EXPECT_TRUE(strstr(self->r.err, "matches the selection") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run_cmd(&self->t, &self->r, "diff", "only-one", NULL);
	EXPECT_EQ(2, self->r.code);
	fk_res_free(&self->r);
	fk_run_cmd(&self->t, &self->r, "matrix", "sparc-6.1", NULL);
	EXPECT_EQ(2, self->r.code);
	EXPECT_TRUE(strstr(self->r.err, "unknown target \"sparc-6.1\"") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	setenv("PERFCONF_SOURCE", fk_path(&self->t, "no-tree"), 1);
	fk_run_cmd(&self->t, &self->r, "matrix", NULL);
	unsetenv("PERFCONF_SOURCE");
	EXPECT_EQ(2, self->r.code);
	EXPECT_TRUE(strstr(self->r.err, "no-tree/runners/vm/matrix.sh") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--dir", fk_path(&self->t, "nowhere"));
	EXPECT_EQ(2, self->r.code);
	EXPECT_TRUE(strstr(self->r.err, "nowhere/tests") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "\n" "perfconf:") == NULL) SHOW(&self->r);	/* one message */
}

/* As any user but root: the suite refuses in one line; what reads no kernel state works. */
TEST_F(run, not_root_is_told_in_one_line)
{
	pid_t pid;
	int st = 0;

	if (geteuid() != 0)
		SKIP(return, "needs root to become another user");
	pid = fork();
	if (pid == 0)	/* a checkout under a private home is out of that user's reach */
		_exit(setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534) ||
		      access(fk_runner(), X_OK));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		SKIP(return, "uid 65534 cannot reach the runner here (a checkout under a private home)");
	fk_pass(&self->t, "a/b", 1);
	ASSERT_EQ(0, chmod(self->t.root, 0755));
	setenv("FK_AS_UID", "65534", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "the suite runs as root, not uid 65534") != NULL) SHOW(&self->r);
	EXPECT_EQ(strlen(self->r.err) - 1, strcspn(self->r.err, "\n")) SHOW(&self->r);	/* one line */
	fk_res_free(&self->r);
	fk_run_cmd(&self->t, &self->r, "restore", NULL);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "restore runs as root, not uid 65534") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "-l");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "a/b")) SHOW(&self->r);
	unsetenv("FK_AS_UID");
}

/* A kernel without file locking: the runner names the option, and a bisect step cannot test it. */
TEST_F(run, no_file_locking_is_named)
{
	fk_pass(&self->t, "a/b", 1);
	setenv("FK_NO_FLOCK", "1", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "this kernel has no file locking (CONFIG_FILE_LOCKING)") != NULL)
		SHOW(&self->r);
	EXPECT_EQ(strlen(self->r.err) - 1, strcspn(self->r.err, "\n")) SHOW(&self->r);	/* one line */
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--bisect");
	EXPECT_EQ(125, self->r.code) SHOW(&self->r);
	unsetenv("FK_NO_FLOCK");
}

TEST_F(run, junit)
{
	char cmd[PATH_MAX * 3];

	fk_script(&self->t, "attr/mixed", mixed);
	fk_script(&self->t, "x/crash", "echo '<&\"weird\">'\nkill -SEGV $$\n");
	fk_run(&self->t, &self->r, "--junit", fk_path(&self->t, "junit.xml"));
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); "
		 "t = d.documentElement; "
		 "assert t.getAttribute(\"tests\") == \"6\", t.getAttribute(\"tests\"); "
		 "assert t.getAttribute(\"failures\") == \"3\", t.getAttribute(\"failures\"); "
		 "assert len(d.getElementsByTagName(\"skipped\")) == 1' %s",
		 fk_path(&self->t, "junit.xml"));
	EXPECT_EQ(0, system(cmd));
}

/*
 * Dashboards read the output right: kunit.py parses the KTAP with no error
 * and counts what the closing line counts, LKFT's way of reading the
 * kselftest layout gives each case the same verdict, and a binary's own
 * failure (a crash after its cases) is a case of its own for both.
 */
TEST_F(run, parsers_read_what_the_runner_says)
{
	char path[PATH_MAX * 3], *out;

	fk_script(&self->t, "attr/mixed", mixed);
	fk_pass(&self->t, "attr/good", 2);
	fk_script(&self->t, "b/crash", "echo 'TAP version 13'\necho '1..2'\necho 'ok 1 a'\nkill -SEGV $$\n");
	fk_script(&self->t, "b/garbage", "printf 'ok\\nnot ok\\nKTAP version 1\\n1..3\\n  ok 1 nested\\n'\nexit 1\n");
	fk_script(&self->t, "b/empty", "echo 'TAP version 13'\necho '1..0'\n");
	fk_script(&self->t, "b/allskip", "echo 'TAP version 13'\necho '1..1'\necho 'ok 1 s # SKIP nope'\n");
	fk_script(&self->t, "b/chatty", "echo 'TAP version 13'\necho '1..1'\necho '#   ok 7 not a result'\n"
		  "echo '# 1..3 nor a plan'\necho 'ok 1 real'\n");
	snprintf(path, sizeof(path), "%s/kunit/tools/testing/kunit/kunit_parser.py", fk_build());
	if (access(path, F_OK))
		SKIP(return, "build/kunit is missing (scripts/deps.sh extracts it)");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	ASSERT_EQ(0, fk_tapcheck(&self->t, &out)) TH_LOG("%s", out);
	EXPECT_TRUE(fk_has_line(out, "b/crash:a pass pass")) TH_LOG("%s", out);
	EXPECT_TRUE(fk_has_line(out, "b/crash:(binary) fail fail")) TH_LOG("%s", out);
	EXPECT_TRUE(fk_has_line(out, "b/empty skip skip")) TH_LOG("%s", out);
	EXPECT_TRUE(fk_has_line(out, "b/chatty:real pass pass")) TH_LOG("%s", out);
	EXPECT_TRUE(fk_has_line(out, "closing line: 7 passed, 5 failed, 3 skipped")) TH_LOG("%s", out);
	/* what the binary printed that looks like TAP stays text */
	EXPECT_TRUE(strstr(out, "not a result") == NULL) TH_LOG("%s", out);
	EXPECT_TRUE(strstr(out, "nor a plan") == NULL) TH_LOG("%s", out);
	free(out);
}

TEST_HARNESS_MAIN
