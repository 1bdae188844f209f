// SPDX-License-Identifier: GPL-2.0
/*
 * Baselines: record, compare (regressions, known failures, improvements,
 * new and gone cases, new observations, blocked cases and their shared
 * cause), the fallback to an older kernel, a kernel between two baselines,
 * --gate suite, --baseline, `perfconf diff`, --bisect exit codes, and
 * malformed files.
 */
#include "perfconf.h"
#include "fake.h"

/* Read by the runner from this very binary in meta_in_an_elf_binary. */
PERFCONF_META("exclusive timeout=7");

FIXTURE(base) {
	struct tree t;
	struct res r;
	struct fk_kernel k;
};

FIXTURE_SETUP(base)
{
	fk_tree(&self->t);
	memset(&self->r, 0, sizeof(self->r));
	ASSERT_TRUE(fk_kernel_get(&self->t, &self->k));
	/* a binary with a pass, a skip, an observation and a failure */
	fk_script(&self->t, "attr/size",
		  "echo 'TAP version 13'\necho '1..3'\n"
		  "echo '# OBS errno=E2BIG'\necho '# OBS size=136'\necho 'ok 1 global.tail'\n"
		  "echo 'ok 2 global.pmu # SKIP no cpu PMU'\n"
		  "echo 'not ok 3 global.broken'\nexit 1\n");
	fk_pass(&self->t, "abi/layout", 2);
}

FIXTURE_TEARDOWN(base)
{
	fk_res_free(&self->r);
	fk_tree_free(&self->t);
	fk_kernel_free(&self->k);
}

static const char good_baseline[] =
	"# a hand-written baseline\n"
	"abi/layout:global.c1 PASS\n"
	"abi/layout:global.c2 PASS\n"
	"attr/size:global.broken FAIL\n"
	"attr/size:global.pmu SKIP\n"
	"attr/size:global.tail PASS errno=E2BIG size=136\n";

/* Write the baseline for this kernel, with one line replaced (or none). */
static void write_baseline(struct tree *t, const char *exact, const char *from, const char *to)
{
	char buf[4096];
	const char *p = strstr(good_baseline, from ? from : "\x01");

	if (p)
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(p - good_baseline), good_baseline, to,
			 p + strlen(from));
	else
		snprintf(buf, sizeof(buf), "%s", good_baseline);
	fk_write(exact, buf, 0644);
}

TEST_F(base, record_then_compare_clean)
{
	char *rec, *res, last[256];

	fk_run(&self->t, &self->r, "--record");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	rec = fk_read(self->k.exact);
	ASSERT_TRUE(rec != NULL);
	EXPECT_TRUE(strstr(rec, good_baseline + strlen("# a hand-written baseline\n")) != NULL) TH_LOG("%s", rec);
	EXPECT_TRUE(strstr(rec, "# recorded on: ") != NULL) TH_LOG("%s", rec);
	free(rec);
	fk_res_free(&self->r);

	/* the same kernel again: the pinned failure is known, nothing regressed */
	fk_run(&self->t, &self->r);
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# baseline: ") != NULL) SHOW(&self->r);
	/* an expected failure is an XFAIL to parsers, counted as passed */
	EXPECT_TRUE(fk_has_line(self->r.out, "  ok 3 global.broken # XFAIL known failure: FAIL as in the baseline"))
		SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   attr/size:global.broken FAIL")) SHOW(&self->r);
	EXPECT_STREQ("4 passed, 0 failed, 1 skipped", fk_last_line(self->r.out, last, sizeof(last)));
	/* results.txt has the baseline's lines */
	res = fk_read(fk_path(&self->t, "results/results.txt"));
	ASSERT_TRUE(res != NULL);
	EXPECT_TRUE(strstr(res, good_baseline + strlen("# a hand-written baseline\n")) != NULL) TH_LOG("%s", res);
	free(res);
}

TEST_F(base, one_changed_expected_line_is_a_regression)
{
	/* an observation differs */
	write_baseline(&self->t, self->k.exact, "errno=E2BIG", "errno=EINVAL");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out,
		"#   attr/size:global.tail: errno: expected EINVAL, observed E2BIG")) SHOW(&self->r);
	/* the case itself is "not ok", its verdict on the line above */
	EXPECT_TRUE(strstr(self->r.out,
		"  # regression: attr/size:global.tail: errno: expected EINVAL, observed E2BIG\n"
		"  not ok 1 global.tail\n") != NULL) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "not ok 2 attr/size")) SHOW(&self->r);
	fk_res_free(&self->r);

	/* PASS expected, FAIL observed */
	write_baseline(&self->t, self->k.exact, "global.broken FAIL", "global.broken PASS");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   attr/size:global.broken: expected PASS, observed FAIL"))
		SHOW(&self->r);
	fk_res_free(&self->r);

	/* PASS expected, SKIP observed: lost coverage is a regression too */
	write_baseline(&self->t, self->k.exact, "global.pmu SKIP", "global.pmu PASS");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   attr/size:global.pmu: expected PASS, observed SKIP"))
		SHOW(&self->r);
	/* without its SKIP directive, which would hide the failure from parsers */
	EXPECT_TRUE(fk_has_line(self->r.out, "  not ok 2 global.pmu")) SHOW(&self->r);
	fk_res_free(&self->r);

	/* an observation the baseline has and the run no longer reports */
	write_baseline(&self->t, self->k.exact, "size=136", "size=136 wide=1");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   attr/size:global.tail: wide: expected 1, observed nothing"))
		SHOW(&self->r);
}

/*
 * What dashboards see: kunit.py and LKFT's way of reading the kselftest
 * layout both count the regression (an observation changed in a passing
 * case) as failed and the failure the baseline expects as not failed.
 */
TEST_F(base, parsers_fail_the_regression_not_the_known_failure)
{
	char path[PATH_MAX * 3], *out;

	snprintf(path, sizeof(path), "%s/kunit/tools/testing/kunit/kunit_parser.py", fk_build());
	if (access(path, F_OK))
		SKIP(return, "build/kunit is missing (scripts/deps.sh extracts it)");
	write_baseline(&self->t, self->k.exact, "errno=E2BIG", "errno=EINVAL");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	ASSERT_EQ(0, fk_tapcheck(&self->t, &out)) TH_LOG("%s", out);
	EXPECT_TRUE(fk_has_line(out, "attr/size:global.tail fail fail")) TH_LOG("%s", out);
	EXPECT_TRUE(fk_has_line(out, "attr/size:global.broken pass pass")) TH_LOG("%s", out);
	EXPECT_TRUE(fk_has_line(out, "closing line: 3 passed, 1 failed, 1 skipped")) TH_LOG("%s", out);
	free(out);
}

/* A key the baseline does not have is new: listed, never a regression. */
TEST_F(base, new_observation_key_is_listed_not_a_regression)
{
	char last[256];

	write_baseline(&self->t, self->k.exact, " size=136", "");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# new observations, not in the baseline (1):") != NULL) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   attr/size:global.tail: size: observed 136, not in the baseline"))
		SHOW(&self->r);
	EXPECT_STREQ("4 passed, 0 failed, 1 skipped", fk_last_line(self->r.out, last, sizeof(last)));
	fk_res_free(&self->r);

	/* with a value that changed as well, it is a regression */
	write_baseline(&self->t, self->k.exact, "errno=E2BIG size=136", "errno=EINVAL");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
}

/*
 * A case the machine cannot test: PASS -> BLOCKED is a warning with its
 * reason, PASS -> SKIP stays a regression, and failures and blocked cases
 * that share an instrument's cause are named once.
 */
static const char blocked_script[] =
	"echo 'TAP version 13'\necho '1..5'\n"
	"echo 'ok 1 global.counts # SKIP blocked by breakpoints: they do not count here (see events/bp)'\n"
	"echo 'ok 2 global.needs_config # SKIP blocked: no kernel config to read'\n"
	"echo 'ok 3 global.lost # SKIP no such PMU'\n"
	"echo '# CAUSE breakpoints: they do not count here (see events/bp)'\n"
	"echo 'not ok 4 global.fires'\n"
	"echo 'ok 5 global.fine'\nexit 1\n";
static const char blocked_baseline[] =
	"inst/bp:global.counts PASS\ninst/bp:global.needs_config PASS\ninst/bp:global.lost PASS\n"
	"inst/bp:global.fires PASS\ninst/bp:global.fine PASS\n";

/* A failed case that said "# ERROR <why>" gave no verdict: ERROR, a fault of the suite. */
static const char error_script[] =
	"echo 'TAP version 13'\necho '1..2'\n"
	"echo '# ERROR identity: uid 0, expected 65534'\n"
	"echo 'not ok 1 global.cell'\n"
	"echo '# ERROR ignored: the case passed'\n"
	"echo 'ok 2 global.fine'\nexit 1\n";

TEST_F(base, an_error_line_makes_a_failed_case_error)
{
	char *res;

	fk_script(&self->t, "priv/cell", error_script);
	fk_write(self->k.exact, "priv/cell:global.cell PASS\npriv/cell:global.fine PASS\n", 0644);
	fk_run(&self->t, &self->r, "-t", "priv", "--gate", "suite");
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	res = fk_read(fk_path(&self->t, "results/results.txt"));
	ASSERT_TRUE(res != NULL);
	EXPECT_TRUE(fk_has_line(res, "priv/cell:global.cell ERROR")) TH_LOG("%s", res);
	EXPECT_TRUE(fk_has_line(res, "priv/cell:global.fine PASS")) TH_LOG("%s", res);
	EXPECT_TRUE(strstr(self->r.out, "identity: uid 0, expected 65534") != NULL) SHOW(&self->r);
	free(res);
}

TEST_F(base, blocked_is_a_warning_and_a_cause_is_named_once)
{
	char *res, last[256];

	fk_script(&self->t, "inst/bp", blocked_script);
	fk_write(self->k.exact, blocked_baseline, 0644);
	fk_run(&self->t, &self->r, "-t", "inst");
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	/* KTAP keeps the SKIP directive and its reason */
	EXPECT_TRUE(fk_has_line(self->r.out,
		"  ok 1 global.counts # SKIP blocked by breakpoints: they do not count here (see events/bp)"))
		SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# blocked: this machine cannot test them, not regressions (2):") != NULL)
		SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   inst/bp:global.counts (by breakpoints)")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   inst/bp:global.needs_config: blocked: no kernel config to read"))
		SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   inst/bp:global.lost: expected PASS, observed SKIP")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   inst/bp:global.fires: expected PASS, observed FAIL")) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "global.counts: expected") == NULL) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out,
		"# one cause, breakpoints: they do not count here (see events/bp): 1 failed, 1 blocked"))
		SHOW(&self->r);
	EXPECT_STREQ("1 passed, 2 failed, 2 skipped", fk_last_line(self->r.out, last, sizeof(last)));
	res = fk_read(fk_path(&self->t, "results/results.txt"));
	ASSERT_TRUE(res != NULL);
	EXPECT_TRUE(fk_has_line(res, "inst/bp:global.counts BLOCKED")) TH_LOG("%s", res);
	free(res);
	fk_res_free(&self->r);

	/* recorded BLOCKED, now it runs and passes: an improvement; blocked again: unchanged */
	fk_write(self->k.exact, "inst/bp:global.counts BLOCKED\ninst/bp:global.needs_config BLOCKED\n"
		 "inst/bp:global.lost SKIP\ninst/bp:global.fires FAIL\ninst/bp:global.fine BLOCKED\n", 0644);
	fk_run(&self->t, &self->r, "-t", "inst");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   inst/bp:global.fine: expected BLOCKED, observed PASS"))
		SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# blocked:") == NULL) SHOW(&self->r);
}

/*
 * --gate suite: differences from the baseline are shown, and only the
 * suite's own faults fail the run: a case the harness saw die by a
 * signal is an ERROR.
 */
TEST_F(base, gate_suite_fails_only_on_the_suites_own_faults)
{
	char last[256];

	fk_script(&self->t, "inst/bp", blocked_script);
	fk_write(self->k.exact, blocked_baseline, 0644);
	fk_run(&self->t, &self->r, "-t", "inst", "--gate", "suite");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   inst/bp:global.fires: expected PASS, observed FAIL")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# --gate suite: 2 differences from the baseline shown, not gating; "
				"0 faults of the suite itself (ERROR, TIMEOUT, a binary not found)")) SHOW(&self->r);
	EXPECT_STREQ("1 passed, 0 failed, 2 skipped", fk_last_line(self->r.out, last, sizeof(last)));
	fk_res_free(&self->r);

	fk_script(&self->t, "inst/crash",
		  "echo 'TAP version 13'\necho '1..1'\n"
		  "echo '# global.dies: Test terminated unexpectedly by signal 11' >&2\n"
		  "echo 'not ok 1 global.dies'\nexit 1\n");
	fk_run(&self->t, &self->r, "-t", "inst", "--gate", "suite");
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "  not ok 1 global.dies # ERROR killed by signal 11 (SIGSEGV)"))
		SHOW(&self->r);
	EXPECT_STREQ("1 passed, 1 failed, 2 skipped", fk_last_line(self->r.out, last, sizeof(last)));
	fk_res_free(&self->r);

	/* a binary of the baseline that did not run is the suite's fault too */
	unlink(fk_path(&self->t, "tests/inst/crash"));
	fk_write(self->k.exact, "inst/gone:global.a PASS\ninst/gone:global.b PASS\n", 0644);
	fk_run(&self->t, &self->r, "-t", "inst", "--gate", "suite");
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   inst/gone:global.a PASS (binary not found)")) SHOW(&self->r);
	EXPECT_STREQ("1 passed, 1 failed, 3 skipped", fk_last_line(self->r.out, last, sizeof(last)));
	fk_res_free(&self->r);

	fk_run(&self->t, &self->r, "--gate", "kernel");
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "--gate: expected \"baseline\" or \"suite\"") != NULL) SHOW(&self->r);
}

/*
 * A kernel with no baseline of its own, between an older and a newer one:
 * a value that equals either neighbour's is ABI growth in transit, one
 * that neither has is a regression.
 */
TEST_F(base, kernel_between_two_baselines)
{
	char older[512], newer[512], header[3 * PATH_MAX], last[256];
	int major, minor;

	ASSERT_EQ(2, sscanf(self->k.kernel, "%d.%d", &major, &minor));
	snprintf(older, sizeof(older), "expected/%s-%d.%d-%s.txt", self->k.arch, major - 1, 5, self->k.profile);
	snprintf(newer, sizeof(newer), "expected/%s-%d.%d-%s.txt", self->k.arch, major + 1, 2, self->k.profile);
	/* observed: tail errno=E2BIG size=136, pmu SKIP, broken FAIL, c1 c2 PASS */
	fk_file(&self->t, older,
		"abi/layout:global.c1 PASS\nabi/layout:global.c2 SKIP\nattr/size:global.broken PASS\n"
		"attr/size:global.pmu PASS\nattr/size:global.tail PASS errno=EINVAL size=136\n");
	fk_file(&self->t, newer,
		"abi/layout:global.c1 PASS\nabi/layout:global.c2 PASS\nattr/size:global.broken FAIL\n"
		"attr/size:global.pmu PASS\nattr/size:global.tail PASS errno=E2BIG size=144\n");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	snprintf(header, sizeof(header), "# baseline: %s/%s and %s/%s, the kernels either side (there is none for ",
		 self->t.root, older, self->t.root, newer);
	EXPECT_TRUE(strstr(self->r.out, header) != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# regressions (1):\n#   attr/size:global.pmu: expected PASS, observed SKIP\n")
		    != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# ABI growth in transit: as in the newer baseline or this line's on other "
				   "arches, not regressions (2):")
		    != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "#   attr/size:global.broken: expected PASS, observed FAIL; as in ") != NULL)
		SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "#   attr/size:global.tail: errno: expected EINVAL, observed E2BIG; as in ")
		    != NULL) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   abi/layout:global.c2: expected SKIP, observed PASS")) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "  ok 3 global.broken # XFAIL ABI growth in transit: expected PASS, observed FAIL; as in ")
		    != NULL) SHOW(&self->r);
	EXPECT_STREQ("4 passed, 1 failed, 0 skipped", fk_last_line(self->r.out, last, sizeof(last)));
}

TEST_F(base, improvements_new_and_gone)
{
	char last[256];

	write_baseline(&self->t, self->k.exact, "abi/layout:global.c2 PASS\n",
		       "abi/layout:global.c2 SKIP\nabi/layout:global.old PASS\nabi/removed:global.x PASS\n");
	fk_script(&self->t, "new/bin", "echo 'TAP version 13'\necho '1..1'\necho 'ok 1 global.fresh'\n");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   abi/layout:global.c2: expected SKIP, observed PASS")) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# improvements (1):") != NULL) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   new/bin:global.fresh PASS")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   abi/layout:global.old PASS")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   abi/removed:global.x PASS (binary not found)")) SHOW(&self->r);
	EXPECT_STREQ("5 passed, 0 failed, 1 skipped", fk_last_line(self->r.out, last, sizeof(last)));
	fk_res_free(&self->r);

	/* a new case that fails is a failure */
	fk_script(&self->t, "new/bad", "echo 'TAP version 13'\necho '1..1'\necho 'not ok 1 global.bad'\nexit 1\n");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   new/bad:global.bad FAIL")) SHOW(&self->r);
	fk_res_free(&self->r);

	/* with -t, cases of binaries not selected are not "gone" */
	fk_run(&self->t, &self->r, "-t", "attr/size");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "gone") == NULL) SHOW(&self->r);
}

TEST_F(base, pinned_binary_error_and_its_fix)
{
	char *res;

	fk_script(&self->t, "x/crash", "echo 'TAP version 13'\necho '1..2'\necho 'ok 1 global.a'\nkill -SEGV $$\n");
	write_baseline(&self->t, self->k.exact, "abi/layout:global.c1",
		       "x/crash ERROR\nx/crash:global.a PASS\nabi/layout:global.c1");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   x/crash ERROR")) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_pass(&self->t, "x/crash", 2);
	fk_run(&self->t, &self->r);
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "#   x/crash: expected ERROR, now no problem with the binary itself") != NULL)
		SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   x/crash:global.c2 PASS")) SHOW(&self->r);
	res = fk_read(fk_path(&self->t, "results/results.txt"));
	EXPECT_TRUE(strstr(res, "x/crash ") == NULL) TH_LOG("%s", res);
	free(res);
}

TEST_F(base, fallback_to_nearest_older_kernel)
{
	char name[512], older[512], newer[512], *path;
	int major, minor;

	ASSERT_EQ(2, sscanf(self->k.kernel, "%d.%d", &major, &minor));
	/* candidates: an older one, an even older one, a newer one, another profile/arch */
	snprintf(older, sizeof(older), "expected/%s-%d.%d-%s.txt", self->k.arch, major, minor - 1, self->k.profile);
	if (minor == 0)
		snprintf(older, sizeof(older), "expected/%s-%d.99-%s.txt", self->k.arch, major - 1, self->k.profile);
	fk_file(&self->t, older + 0, good_baseline);
	snprintf(name, sizeof(name), "expected/%s-%d.%d-%s.txt", self->k.arch, major - 1, 0, self->k.profile);
	fk_file(&self->t, name, "abi/layout:global.c1 FAIL\n");	/* not the one that judges */
	/* the newer one is read too: a kernel between two baselines is judged against both */
	snprintf(newer, sizeof(newer), "expected/%s-%d.%d-%s.txt", self->k.arch, major + 1, 0, self->k.profile);
	fk_file(&self->t, newer, good_baseline);
	snprintf(name, sizeof(name), "expected/%s-%d.%d-otherpmu.txt", self->k.arch, major, minor);
	fk_file(&self->t, name, "abi/unrelated:global.nor_this PASS\n");
	snprintf(name, sizeof(name), "expected/otherarch-%d.%d-%s.txt", major, minor, self->k.profile);
	fk_file(&self->t, name, "abi/unrelated:global.nor_this PASS\n");
	fk_run(&self->t, &self->r);
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	path = strstr(self->r.out, "# baseline: ");
	ASSERT_TRUE(path != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(path, older + strlen("expected/")) != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, ", the kernels either side (there is none for ") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);

	/* past the newest baseline, the newest is the reference */
	ASSERT_EQ(0, unlink(fk_path(&self->t, newer)));
	fk_run(&self->t, &self->r);
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "(nearest older kernel: there is none for ") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);

	/* --record writes the exact one; from then on it is used */
	fk_run(&self->t, &self->r, "--record");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	ASSERT_EQ(0, access(self->k.exact, F_OK));
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r);
	EXPECT_TRUE(strstr(self->r.out, "nearest older") == NULL) SHOW(&self->r);
}

/*
 * --variant vhe: the profile is <profile>-vhe, with a baseline of its own
 * once one is recorded; until then the plain one (same kernel, same PMUs)
 * judges it, under equal facts, and the header says so.
 */
TEST_F(base, variant_has_its_own_baseline)
{
	char own[PATH_MAX];

	write_baseline(&self->t, self->k.exact, "attr/size:global.broken FAIL", "attr/size:global.broken PASS");
	/* no baseline of its own: the plain one's PASS makes the FAIL a regression */
	fk_run(&self->t, &self->r, "--variant", "vhe");
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "-vhe") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# variant vhe: no baseline of its own; the ") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# regressions (1):\n#   attr/size:global.broken: expected PASS, observed FAIL")
		    != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--variant", "vhe", "--record");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	fk_res_free(&self->r);
	snprintf(own, sizeof(own), "%.*s-vhe.txt", (int)(strlen(self->k.exact) - 4), self->k.exact);
	EXPECT_EQ(0, access(own, F_OK)) TH_LOG("%s not recorded", own);
	fk_run(&self->t, &self->r, "--variant", "vhe");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);	/* its own baseline pins the FAIL */
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);	/* the plain one says PASS */
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--variant", "VHE");
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "--variant: expected a name of [a-z0-9_]") != NULL) SHOW(&self->r);
}

TEST_F(base, no_baseline_at_all)
{
	fk_run(&self->t, &self->r, "-t", "abi");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "every case is new (record one with --record)") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);	/* its FAIL is new */
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--bisect");
	EXPECT_EQ(125, self->r.code) SHOW(&self->r);	/* nothing to judge against */
}

TEST_F(base, baseline_option_and_record_merge)
{
	char *rec;
	const char *file = fk_path(&self->t, "mine.txt");
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s", file);
	fk_write(path, "keep/this:global.x PASS\nabi/layout:global.c1 FAIL\nabi/layout:global.zz PASS\n", 0644);
	/* --baseline FILE: compared with it */
	fk_run(&self->t, &self->r, "--baseline", path, "-t", "abi");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   abi/layout:global.c1: expected FAIL, observed PASS")) SHOW(&self->r);
	fk_res_free(&self->r);
	/* --record with -t updates only the selected binaries' lines */
	fk_run(&self->t, &self->r, "--baseline", path, "-t", "abi", "--record");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	rec = fk_read(path);
	ASSERT_TRUE(rec != NULL);
	EXPECT_TRUE(strstr(rec, "\nabi/layout:global.c1 PASS\nabi/layout:global.c2 PASS\nkeep/this:global.x PASS\n") != NULL)
		TH_LOG("%s", rec);
	EXPECT_TRUE(strstr(rec, "global.zz") == NULL) TH_LOG("%s", rec);
	free(rec);
	fk_res_free(&self->r);
	/* --record=FILE */
	snprintf(path, sizeof(path), "%s", fk_path(&self->t, "other.txt"));
	{
		char opt[PATH_MAX * 3];

		snprintf(opt, sizeof(opt), "--record=%s", path);
		fk_run(&self->t, &self->r, opt);
	}
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	rec = fk_read(path);
	ASSERT_TRUE(rec != NULL);
	EXPECT_TRUE(strstr(rec, "attr/size:global.broken FAIL\n") != NULL) TH_LOG("%s", rec);
	free(rec);
}

TEST_F(base, malformed_baselines_exit_2_with_file_and_line)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "a/b:c PASS\n# fine\na/b:d PASSED\n", ":3: unknown status \"PASSED\"" },
		{ "a/b:c\n", ":1: \"a/b:c\" has no status" },
		{ "a/b:c PASS errno\n", ":1: \"errno\" is not an observation (expected key=value)" },
		{ "a/b:c PASS Errno=X\n", ":1: bad observation key \"Errno\"" },
		{ "a/b:c PASS errno=\n", ":1: bad value \"\" for observation \"errno\"" },
		{ "a/b:c PASS k=1 k=2\n", ":1: observation \"k\" given twice" },
		{ "a/b:c PASS\n\na/b:c FAIL\n", ":3: case \"a/b:c\" listed twice (first at line 1)" },
		{ "a/b:c PASS\nx\x01y PASS\n", ":2: unexpected byte 0x01" },
		{ "a/b:c PASS\n\xc3\xa9 PASS\n", ":2: unexpected byte 0xc3" },
	};
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s", fk_path(&self->t, "bad.txt"));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char want[PATH_MAX * 3];

		fk_write(path, bad[i].text, 0644);
		snprintf(want, sizeof(want), "perfconf: %s%s", path, bad[i].msg);
		fk_run(&self->t, &self->r, "--baseline", path);
		EXPECT_EQ(2, self->r.code) SHOW(&self->r);
		EXPECT_TRUE(!strncmp(self->r.err, want, strlen(want))) TH_LOG("case %zu: want %s\n got %s", i, want, self->r.err);
		EXPECT_STREQ("", self->r.out);
		fk_res_free(&self->r);
		/* the default baseline for this kernel is checked the same way */
		fk_write(self->k.exact, bad[i].text, 0644);
		fk_run(&self->t, &self->r);
		EXPECT_EQ(2, self->r.code) SHOW(&self->r);
		fk_res_free(&self->r);
		/* and with --bisect that is "cannot test" */
		fk_run(&self->t, &self->r, "--bisect");
		EXPECT_EQ(125, self->r.code) SHOW(&self->r);
		fk_res_free(&self->r);
	}
	unlink(self->k.exact);
	fk_run(&self->t, &self->r, "--baseline", fk_path(&self->t, "missing.txt"));
	EXPECT_EQ(2, self->r.code);
	EXPECT_TRUE(strstr(self->r.err, "missing.txt: cannot read: No such file or directory") != NULL) SHOW(&self->r);
}

TEST_F(base, bisect_exit_codes)
{
	write_baseline(&self->t, self->k.exact, NULL, NULL);
	fk_run(&self->t, &self->r, "--bisect");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	fk_res_free(&self->r);
	write_baseline(&self->t, self->k.exact, "errno=E2BIG", "errno=EINVAL");
	fk_run(&self->t, &self->r, "--bisect");
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--bisect", "-j", "zero");
	EXPECT_EQ(125, self->r.code) SHOW(&self->r);
}

TEST_F(base, diff_reads_as_a_changelog)
{
	char a[PATH_MAX * 2], b[PATH_MAX * 2];

	snprintf(a, sizeof(a), "%s", fk_path(&self->t, "x86_64-6.1-nohw.txt"));
	snprintf(b, sizeof(b), "%s", fk_path(&self->t, "x86_64-6.18-nohw.txt"));
	fk_write(a, "# recorded on: 6.1.0-test\n"
		    "attr/size:global.tail PASS errno=EINVAL size=128\n"
		    "attr/size:global.ver9 SKIP\n"
		    "attr/size:global.same PASS\n"
		    "events/bp:global.exec PASS\n"
		    "events/old:global.gone PASS\n", 0644);
	fk_write(b, "# recorded on: 6.18.44\n"
		    "attr/size:global.tail PASS errno=E2BIG size=144\n"
		    "attr/size:global.ver9 PASS\n"
		    "attr/size:global.same PASS\n"
		    "events/bp:global.exec FAIL\n"
		    "events/new:global.text_poke PASS records=TEXT_POKE\n", 0644);
	fk_run_cmd(&self->t, &self->r, "diff", a, b, NULL);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "(recorded on 6.1.0-test)") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "Now failing or no longer passing (1):\n  events/bp:global.exec: PASS -> FAIL\n") != NULL)
		SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "Observations changed (1):\n"
				       "  attr/size:global.tail: errno: EINVAL -> E2BIG; size: 128 -> 144\n") != NULL)
		SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "Now passing (1):\n  attr/size:global.ver9: SKIP -> PASS\n") != NULL)
		SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "Added cases (1):\n  events/new:global.text_poke PASS records=TEXT_POKE\n") != NULL)
		SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "Removed cases (1):\n  events/old:global.gone PASS\n") != NULL) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "1 unchanged, 3 changed, 1 added, 1 removed")) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run_cmd(&self->t, &self->r, "diff", a, a, NULL);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_write(b, "attr/size:global.tail PASS\nattr/size:global.tail PASS\n", 0644);
	fk_run_cmd(&self->t, &self->r, "diff", a, b, NULL);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "x86_64-6.18-nohw.txt:2: case \"attr/size:global.tail\" listed twice") != NULL)
		SHOW(&self->r);
}

/* The profile rule (runners/profile.c) on fake sysfs directories. */
TEST_F(base, profile_names_the_core_pmus)
{
	static const struct { const char *pmus, *profile; } cases[] = {
		{ "software tracepoint breakpoint uprobe msr", "nohw" },
		{ "software kprobe power cstate_core uncore_imc_0 cpu", "cpu" },
		{ "software cpu_core cpu_atom", "cpu_atom+cpu_core" },
		{ "software armv8_pmuv3_0:cpus arm_spe_0:cpumask", "armv8_pmuv3" },
		{ "armv8_cortex_a72:cpus armv8_cortex_a53:cpus", "armv8_cortex_a53+armv8_cortex_a72" },
		{ "cpum_cf cpum_sf", "cpum_cf" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char root[64], list[256], *save, *p;

		snprintf(root, sizeof(root), "sysfs%zu", i);
		snprintf(list, sizeof(list), "%s", cases[i].pmus);
		for (p = strtok_r(list, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
			char rel[256], *colon = strchr(p, ':');

			if (colon)
				*colon = 0;
			snprintf(rel, sizeof(rel), "%s/%s/type", root, p);
			fk_file(&self->t, rel, "42\n");
			if (colon) {
				snprintf(rel, sizeof(rel), "%s/%s/%s", root, p, colon + 1);
				fk_file(&self->t, rel, "0-1\n");
			}
		}
		setenv("PERFCONF_PMU_SYSFS", fk_path(&self->t, root), 1);
		p = fk_info(&self->t, "profile");
		EXPECT_STREQ(cases[i].profile, p ? p : "(none)") TH_LOG("PMUs: %s", cases[i].pmus);
		free(p);
	}
	unsetenv("PERFCONF_PMU_SYSFS");
}

TEST_F(base, meta_in_an_elf_binary)
{
	char exe[PATH_MAX], link[PATH_MAX * 2];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	ASSERT_GT(n, 0);
	exe[n] = 0;
	fk_mkdirs(fk_path(&self->t, "tests/elf"));
	snprintf(link, sizeof(link), "%s", fk_path(&self->t, "tests/elf/meta"));
	ASSERT_EQ(0, symlink(exe, link));
	fk_run(&self->t, &self->r, "--list", "-v", "-t", "elf");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "elf/meta") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "timeout=7s (PERFCONF_META) exclusive\n") != NULL) SHOW(&self->r);
}

TEST_HARNESS_MAIN
