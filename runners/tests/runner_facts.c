// SPDX-License-Identifier: GPL-2.0
/*
 * Judging under equal facts (runners/facts.h, baseline.h): a case that
 * declares "# DEPENDS <fact>" is judged against a baseline recorded under
 * the same value of that fact; a differing or unknown fact makes it "not
 * judged here", never a regression; another kernel line recorded under the
 * same facts judges it instead; a PMU profile no baseline has is judged
 * from the nohw baselines on every case that does not depend on pmu.core.
 * The facts header is written and read back, and a malformed one is exit 2.
 */
#include <sys/utsname.h>

#include "perfconf.h"
#include "fake.h"

FIXTURE(facts) {
	struct tree t;
	struct res r;
	struct fk_kernel k;
	int cpus;		/* this machine's cpus_online fact */
	int major, minor;
};

FIXTURE_SETUP(facts)
{
	char *cpus;

	fk_tree(&self->t);
	memset(&self->r, 0, sizeof(self->r));
	ASSERT_TRUE(fk_kernel_get(&self->t, &self->k));
	ASSERT_EQ(2, sscanf(self->k.kernel, "%d.%d", &self->major, &self->minor));
	cpus = fk_info_field(self->k.info, "cpus_online", true);
	ASSERT_NE(NULL, cpus);
	self->cpus = atoi(cpus);
	free(cpus);
	ASSERT_LT(0, self->cpus);
	fk_migrations(&self->t);
}

FIXTURE_TEARDOWN(facts)
{
	fk_res_free(&self->r);
	fk_tree_free(&self->t);
	fk_kernel_free(&self->k);
}

/* A baseline at path: a facts header with cpus_online=cpus (none when cpus < 0), and the two cases. */
static void baseline(const char *path, int cpus, const char *hops, const char *plain)
{
	char text[1024];

	snprintf(text, sizeof(text), "%s%d%s\nevents/migrations:global.hops PASS hops=%s\n"
		 "events/migrations:global.plain PASS errno=%s\n",
		 cpus >= 0 ? "# facts: cpus_online=" : "# no facts: ", cpus, cpus >= 0 ? " pmu.core=nohw" : "",
		 hops, plain);
	fk_write(path, text, 0644);
}

/* Equal facts: judged as always, a changed value is a regression. */
TEST_F(facts, equal_facts_judge)
{
	baseline(self->k.exact, self->cpus, "41", "EINVAL");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# regressions (1):\n#   events/migrations:global.hops: hops: expected 41, observed 40\n")
		    != NULL) SHOW(&self->r);
}

/* A differing fact: not judged here, with both values; the case that depends on nothing still is. */
TEST_F(facts, differing_fact_is_not_judged)
{
	char line[256];

	baseline(self->k.exact, self->cpus + 7, "41", "E2BIG");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	snprintf(line, sizeof(line), "#   cpus_online differs (baseline: %d; here: %d): 1 case: events/migrations:global.hops",
		 self->cpus + 7, self->cpus);
	EXPECT_TRUE(fk_has_line(self->r.out, line)) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# regressions (1):\n#   events/migrations:global.plain: errno: expected E2BIG, observed EINVAL\n")
		    != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "  ok 1 global.hops\n") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	baseline(self->k.exact, self->cpus + 7, "41", "EINVAL");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
}

/* An unknown fact, or a baseline with no facts at all, says so the same way. */
TEST_F(facts, unknown_fact_is_not_judged)
{
	fk_write(self->k.exact, "# facts: cpus_online=unknown\nevents/migrations:global.hops PASS hops=41\n"
		 "events/migrations:global.plain PASS errno=EINVAL\n", 0644);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   cpus_online unknown in the baseline: 1 case: events/migrations:global.hops"))
		SHOW(&self->r);
	fk_res_free(&self->r);
	baseline(self->k.exact, -1, "41", "EINVAL");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "#   the baseline records no facts (record it again with this perfconf): 1 case")
		    != NULL) SHOW(&self->r);
}

/*
 * Other kernel lines recorded under this machine's facts judge the case
 * (expect.h): one line alone never does (a value may be its line's own);
 * the lines either side do, naming the rule and the files.
 */
TEST_F(facts, other_lines_sharing_the_facts_judge_from_both_sides)
{
	char older[2 * PATH_MAX], newer[2 * PATH_MAX];

	snprintf(older, sizeof(older), "%s/expected/%s-%d.%d-%s.txt", self->t.root, self->k.arch, self->major - 1, 7,
		 self->k.profile);
	snprintf(newer, sizeof(newer), "%s/expected/%s-%d.%d-%s.txt", self->t.root, self->k.arch, self->major + 1, 0,
		 self->k.profile);
	baseline(self->k.exact, self->cpus + 7, "41", "EINVAL");
	baseline(older, self->cpus, "39", "E2BIG");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "#   cpus_online differs (baseline: ") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	/* both sides agree with what it shows: judged, unchanged */
	baseline(older, self->cpus, "40", "E2BIG");
	baseline(newer, self->cpus, "40", "E2BIG");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "not judged here") == NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	/* it judges for real: a value neither side has is a regression, named with the rule and files */
	baseline(older, self->cpus, "39", "E2BIG");
	baseline(newer, self->cpus, "39", "E2BIG");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "#   events/migrations:global.hops: hops: expected 39, observed 40; judged by "
			   "the abi rule: every baseline that records it agrees, over 2 kernel lines (")
		    != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	/* the two sides differ: either value passes (a kernel between them), another is a regression */
	baseline(newer, self->cpus, "40", "E2BIG");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "judged by the between rule: the kernel lines either side") != NULL)
		SHOW(&self->r);
}

/* A FAIL whose facts no baseline shares is still a failure: its own assertions failed. */
TEST_F(facts, a_failure_is_a_failure_whatever_the_facts)
{
	fk_script(&self->t, "events/migrations",
		  "echo 'TAP version 13'\necho '1..2'\n"
		  "echo '# DEPENDS cpus_online'\necho 'not ok 1 global.hops'\n"
		  "echo '# OBS errno=EINVAL'\necho 'ok 2 global.plain'\nexit 1\n");
	baseline(self->k.exact, self->cpus + 7, "41", "EINVAL");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# new failure: events/migrations:global.hops: FAIL, not judged here: cpus_online differs")
		    != NULL) SHOW(&self->r);
}

/* A profile no baseline has: the nohw baseline judges every case but those that depend on pmu.core. */
TEST_F(facts, unrecorded_profile_is_judged_from_nohw)
{
	char nohw[PATH_MAX], text[1024];

	if (strcmp(self->k.profile, "nohw"))
		SKIP(return, "this machine's profile is %s: the test pretends from nohw", self->k.profile);
	fk_script(&self->t, "events/migrations",
		  "echo 'TAP version 13'\necho '1..2'\n"
		  "echo '# DEPENDS pmu.core'\necho '# OBS hw=OK'\necho 'ok 1 global.hops'\n"
		  "echo '# OBS errno=EINVAL'\necho 'ok 2 global.plain'\n");
	snprintf(nohw, sizeof(nohw), "%s", self->k.exact);
	snprintf(text, sizeof(text), "# facts: cpus_online=%d pmu.core=nohw\nevents/migrations:global.hops PASS hw=ENOENT\n"
		 "events/migrations:global.plain PASS errno=E2BIG\n", self->cpus);
	fk_write(nohw, text, 0644);
	setenv("PERFCONF_PROFILE", "cpu", 1);
	fk_run(&self->t, &self->r);
	unsetenv("PERFCONF_PROFILE");
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# profile cpu: no baseline has it; the nohw baselines judge every case") != NULL)
		SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "#   pmu.core differs (baseline: nohw; here: cpu): 1 case: events/migrations:global.hops"))
		SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# regressions (1):\n#   events/migrations:global.plain: errno: expected E2BIG, observed EINVAL\n")
		    != NULL) SHOW(&self->r);
}

/* results.txt and a recorded baseline carry the facts; a malformed facts header is exit 2 with file:line. */
TEST_F(facts, header_written_and_read_back)
{
	char path[PATH_MAX + 32], want[64], *text;

	fk_run(&self->t, &self->r, "--record");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	snprintf(want, sizeof(want), "cpus_online=%d", self->cpus);
	text = fk_read(self->k.exact);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(strstr(text, "\n# facts: ") && strstr(text, want) && strstr(text, "paranoid3="))
		TH_LOG("%s", text);
	free(text);
	snprintf(path, sizeof(path), "%s/results/results.txt", self->t.root);
	text = fk_read(path);
	ASSERT_NE(NULL, text);
	EXPECT_TRUE(strstr(text, "\n# facts: ") && strstr(text, want)) TH_LOG("%s", text);
	free(text);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "not judged here") == NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_write(self->k.exact, "# perfconf baseline\n# facts: cpus_online=2 broken\n", 0644);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	snprintf(path, sizeof(path), "%s:2: malformed fact \"broken\" (expected name=value)", self->k.exact);
	EXPECT_TRUE(strstr(self->r.err, path) != NULL) SHOW(&self->r);
}

/* A regression names the change behind it from expected/fixes.txt; a malformed line is exit 2. */
TEST_F(facts, a_regression_names_its_fix)
{
	char fixes[PATH_MAX + 32], want[256];

	baseline(self->k.exact, self->cpus, "40", "ENODEV");
	snprintf(fixes, sizeof(fixes), "%s/expected/fixes.txt", self->t.root);
	fk_write(fixes, "# a comment\n\nevents/migrations:global.plain errno=ENODEV fa091f46c383 "
		 "\"perf: Reject exited events as group leaders\" stable=6.12.108 since=v7.2\n", 0644);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, " lacks \"perf: Reject exited events as group leaders\" (fa091f46c383, "
			   "mainline v7.2, stable 6.12.108), which the baseline's kernel carries") != NULL)
		SHOW(&self->r);
	fk_res_free(&self->r);
	fk_write(fixes, "events/migrations:global.plain errno=ENODEV fa091f46c3 \"short id\"\n", 0644);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	snprintf(want, sizeof(want), "fixes.txt:1: expected a 12-digit commit id");
	EXPECT_TRUE(strstr(self->r.err, want) != NULL) SHOW(&self->r);
}

/*
 * A fix that the two kernels' versions do not separate is not named (issue
 * 34: "6.12.117 lacks ..., which 6.12.117 carries"): the baseline recorded
 * on this very release, a regression; then on one of a stable branch the
 * fix reached, which this kernel's version lacks: a known difference; then
 * on another version of this line, which lacks it too yet shows its value
 * (the host's 6.18.44 against Debian's 6.18.15): a regression, so named.
 */
TEST_F(facts, a_fix_the_versions_do_not_separate_is_not_named)
{
	char fixes[PATH_MAX + 32], text[1024], older[64];
	struct utsname u;
	const char *was[3];

	ASSERT_EQ(0, uname(&u));
	was[0] = u.release;
	was[1] = "6.12.108-amd64";
	snprintf(older, sizeof(older), "%d.%d.0-older", self->major, self->minor);
	was[2] = older;	/* this line, another version: both lack it by version, yet the baseline shows it */

	snprintf(fixes, sizeof(fixes), "%s/expected/fixes.txt", self->t.root);
	fk_write(fixes, "events/migrations:global.plain errno=ENODEV fa091f46c383 "
		 "\"perf: Reject exited events as group leaders\" stable=6.12.108 since=v7.2\n", 0644);
	for (int i = 0; i < 3; i++) {
		bool lacks = self->major < 7 || (self->major == 7 && self->minor < 2);

		if (i == 2 && (!lacks || (self->major == 6 && self->minor == 12)))
			break;	/* the fix's versions would separate them */
		snprintf(text, sizeof(text), "# recorded on: %s\n# facts: cpus_online=%d pmu.core=nohw\n"
			 "events/migrations:global.hops PASS hops=40\nevents/migrations:global.plain PASS errno=ENODEV\n",
			 was[i], self->cpus);
		fk_write(self->k.exact, text, 0644);
		fk_run(&self->t, &self->r);
		EXPECT_TRUE(strstr(self->r.out, "errno: expected ENODEV, observed EINVAL") != NULL) SHOW(&self->r);
		if (i == 2) {	/* a regression, whose baseline shows the fix's value from elsewhere */
			EXPECT_EQ(1, self->r.code) SHOW(&self->r);
			EXPECT_TRUE(strstr(self->r.out, " shows what \"perf: Reject exited events as group leaders\" "
					   "(fa091f46c383, mainline v7.2, stable 6.12.108) brings, though its version lacks "
					   "it (a backport or a patch); ") != NULL) SHOW(&self->r);
		} else if (i == 0 || (self->major == 6 && self->minor == 12)) {	/* both the same side: a regression */
			EXPECT_EQ(1, self->r.code) SHOW(&self->r);
			EXPECT_TRUE(strstr(self->r.out, "Reject exited events") == NULL) SHOW(&self->r);
		} else if (lacks) {
			/* an older kernel without the fix: a known difference, not a regression */
			EXPECT_EQ(0, self->r.code) SHOW(&self->r);
			EXPECT_TRUE(strstr(self->r.out, "# changed: events/migrations:global.plain: errno: expected ENODEV, "
					   "observed EINVAL; ") != NULL) SHOW(&self->r);
			EXPECT_TRUE(strstr(self->r.out, " lacks \"perf: Reject exited events") != NULL) SHOW(&self->r);
		}
		fk_res_free(&self->r);
	}
}

/* The config facts are exactly the options tests/config lists. */
TEST_F(facts, config_facts_are_tests_config)
{
	char path[PATH_MAX], name[128], *text, *v;
	size_t listed = 0, facts = 0;

	for (char *p = self->k.info; (p = strstr(p, "\n  config.")); p++)
		facts++;
	snprintf(path, sizeof(path), "%s/tests/config", PERFCONF_SOURCE);
	text = fk_read(path);
	ASSERT_NE(NULL, text) TH_LOG("%s", path);
	for (char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char fact[160];

		if (sscanf(p, "CONFIG_%127[A-Z0-9_]=", name) != 1)
			continue;
		listed++;
		snprintf(fact, sizeof(fact), "config.%s", name);
		v = fk_info_field(self->k.info, fact, true);
		EXPECT_NE(NULL, v) TH_LOG("CONFIG_%s has no fact in perfconf info", name);
		free(v);
	}
	free(text);
	EXPECT_EQ(listed, facts) TH_LOG("tests/config and runners/facts.c list other options");
}

TEST_HARNESS_MAIN
