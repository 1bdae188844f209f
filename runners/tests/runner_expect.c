// SPDX-License-Identifier: GPL-2.0
/*
 * The rules across arches and kernel lines (runners/expect.h), on fake
 * trees where this machine's arch has no baseline (a porter's first run):
 * abi, line (with the fact that separates arches), between, first seen;
 * one other line's value never judges alone; and `perfconf explain` names
 * the rule and the files.
 */
#include "perfconf.h"
#include "fake.h"

FIXTURE(ex) {
	struct tree t;
	struct res r;
	struct fk_kernel k;
	int cpus, major, minor;
	const char *other[3];	/* three arches that are not this machine's: two little-endian, then s390x */
};

FIXTURE_SETUP(ex)
{
	static const char *const arches[] = { "aarch64", "riscv64", "x86_64" };
	char *cpus;
	int n = 0;

	fk_tree(&self->t);
	memset(&self->r, 0, sizeof(self->r));
	ASSERT_TRUE(fk_kernel_get(&self->t, &self->k));
	ASSERT_EQ(2, sscanf(self->k.kernel, "%d.%d", &self->major, &self->minor));
	cpus = fk_info_field(self->k.info, "cpus_online", true);
	ASSERT_NE(NULL, cpus);
	self->cpus = atoi(cpus);
	free(cpus);
	if (!strcmp(self->k.arch, "s390x"))
		SKIP(return, "the tests pretend from a little-endian machine");
	for (int i = 0; i < 3 && n < 2; i++)
		if (strcmp(arches[i], self->k.arch))
			self->other[n++] = arches[i];
	self->other[2] = "s390x";
	fk_migrations(&self->t);
}

FIXTURE_TEARDOWN(ex)
{
	fk_res_free(&self->r);
	fk_tree_free(&self->t);
	fk_kernel_free(&self->k);
}

/* expected/<arch>-<major>.<minor>-<this profile>.txt recording hops and plain, under cpus_online=cpus. */
static void put(struct tree *t, const struct fk_kernel *k, const char *arch, int major, int minor, int cpus,
		const char *hops, const char *plain)
{
	char path[PATH_MAX + 64], text[512];

	snprintf(path, sizeof(path), "%s/expected/%s-%d.%d-%s.txt", t->root, arch, major, minor, k->profile);
	snprintf(text, sizeof(text), "# facts: cpus_online=%d pmu.core=%s\nevents/migrations:global.hops PASS hops=%s\n"
		 "events/migrations:global.plain PASS errno=%s\n", cpus, k->profile, hops, plain);
	fk_write(path, text, 0644);
}

/* abi: what every baseline agrees on over two lines judges a first run, any arch. */
TEST_F(ex, abi_rule_judges_a_first_run)
{
	put(&self->t, &self->k, self->other[0], self->major - 1, 1, self->cpus, "40", "EINVAL");
	put(&self->t, &self->k, self->other[1], self->major + 1, 1, self->cpus, "40", "EINVAL");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "the rules across arches and kernel lines judge it") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "not judged here") == NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	put(&self->t, &self->k, self->other[0], self->major - 1, 1, self->cpus, "40", "E2BIG");
	put(&self->t, &self->k, self->other[1], self->major + 1, 1, self->cpus, "40", "E2BIG");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "#   events/migrations:global.plain: errno: expected E2BIG, observed EINVAL; "
			   "judged by the abi rule: every baseline that records it agrees, over 2 kernel lines")
		    != NULL) SHOW(&self->r);
}

/*
 * One other line's value never judges alone (issue 34: a 6.18 value judged
 * a 6.12 kernel, both at paranoid 2): first seen, with the reason. One
 * other arch's at this very line does (the line rule): a value that is an
 * arch's own depends on a fact the case declares.
 */
TEST_F(ex, one_other_line_alone_never_judges)
{
	put(&self->t, &self->k, self->k.arch, self->major + 1, 1, self->cpus, "40", "E2BIG");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "it was recorded on kernel lines above ") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# regressions (") == NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_tree_free(&self->t);
	fk_tree(&self->t);
	fk_script(&self->t, "events/migrations", "echo 'TAP version 13'\necho '1..1'\n"
		  "echo '# OBS errno=EINVAL'\necho 'ok 1 global.plain'\n");
	put(&self->t, &self->k, self->other[0], self->major, self->minor, self->cpus, "40", "E2BIG");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "expected E2BIG, observed EINVAL; judged by the line rule") != NULL)
		SHOW(&self->r);
}

/* line: this line's baselines of other arches, those of this machine's byte order where they differ. */
TEST_F(ex, line_rule_takes_the_fact_that_separates_arches)
{
	put(&self->t, &self->k, self->other[0], self->major, self->minor, self->cpus, "40", "EINVAL");
	put(&self->t, &self->k, self->other[1], self->major, self->minor, self->cpus, "40", "EINVAL");
	put(&self->t, &self->k, self->other[2], self->major, self->minor, self->cpus, "40", "E2BIG");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "not judged here") == NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	put(&self->t, &self->k, self->other[0], self->major, self->minor, self->cpus, "40", "ENOENT");
	put(&self->t, &self->k, self->other[1], self->major, self->minor, self->cpus, "40", "ENOENT");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "expected ENOENT, observed EINVAL; judged by the line rule: the baselines of ") !=
		    NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, ", of this machine's byte_order") != NULL) SHOW(&self->r);
}

/*
 * Where the other group of the separating fact disagrees within itself
 * (two big-endian arches with two values), this machine's group still
 * judges when it agrees.
 */
TEST_F(ex, line_rule_needs_only_this_machines_group_to_agree)
{
	put(&self->t, &self->k, self->other[0], self->major, self->minor, self->cpus, "40", "ENOENT");
	put(&self->t, &self->k, self->other[1], self->major, self->minor, self->cpus, "40", "ENOENT");
	put(&self->t, &self->k, "s390x", self->major, self->minor, self->cpus, "40", "E2BIG");
	put(&self->t, &self->k, "ppc64", self->major, self->minor, self->cpus, "40", "EINVAL");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "expected ENOENT, observed EINVAL; judged by the line rule: the baselines of ") !=
		    NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, ", of this machine's byte_order") != NULL) SHOW(&self->r);
}

/* between: the lines either side; where they differ, either value is growth in transit, a third a regression. */
TEST_F(ex, between_rule_takes_either_side)
{
	for (int i = 0; i < 2; i++) {
		put(&self->t, &self->k, self->other[i], self->major - 1, 1, self->cpus, "40", "EINVAL");
		put(&self->t, &self->k, self->other[i], self->major + 1, 1, self->cpus, "40", "E2BIG");
	}
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "ABI growth in transit") == NULL) SHOW(&self->r);	/* the older value */
	EXPECT_TRUE(strstr(self->r.out, "not judged here") == NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	for (int i = 0; i < 2; i++)
		put(&self->t, &self->k, self->other[i], self->major - 1, 1, self->cpus, "40", "ENOENT");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "judged by the between rule: the kernel lines either side") != NULL)
		SHOW(&self->r);
	fk_res_free(&self->r);
	/* a value neither side has stays a regression even where its status improves on one side's */
	for (int i = 0; i < 2; i++) {
		char path[PATH_MAX + 64], text[256];

		snprintf(path, sizeof(path), "%s/expected/%s-%d.1-%s.txt", self->t.root, self->other[i], self->major + 1,
			 self->k.profile);
		snprintf(text, sizeof(text), "# facts: cpus_online=%d pmu.core=%s\nevents/migrations:global.hops PASS "
			 "hops=40\nevents/migrations:global.plain SKIP\n", self->cpus, self->k.profile);
		fk_write(path, text, 0644);
	}
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "#   events/migrations:global.plain: errno: expected ENOENT, observed EINVAL") !=
		    NULL) SHOW(&self->r);
}

/* A fact no baseline shares: first seen, grouped by that fact; explain says so, and where a value comes from. */
TEST_F(ex, first_seen_by_fact_and_explained)
{
	char *id = "events/migrations:global.hops", exp[PATH_MAX + 16], res[PATH_MAX + 16];

	put(&self->t, &self->k, self->other[0], self->major - 1, 1, self->cpus + 7, "41", "EINVAL");
	put(&self->t, &self->k, self->other[1], self->major + 1, 1, self->cpus + 7, "41", "EINVAL");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "no baseline records it under cpus_online=") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	snprintf(exp, sizeof(exp), "%s/expected", self->t.root);
	snprintf(res, sizeof(res), "%s/results", self->t.root);
	fk_run_cmd(&self->t, &self->r, "explain", id, "--expected", exp, "--results", res, NULL);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "depends on: cpus_online=") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "rule: first seen: no baseline records it under cpus_online=") != NULL)
		SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run_cmd(&self->t, &self->r, "explain", "events/migrations:global.plain", "--expected", exp, "--results", res,
		   NULL);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "rule: abi: every baseline that records it agrees, over 2 kernel lines") != NULL)
		SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "\nexpected: PASS errno=EINVAL\n") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run_cmd(&self->t, &self->r, "explain", "not-a-case", NULL);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "is not a case id") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run_cmd(&self->t, &self->r, "explain", "events/none:global.x", "--expected", exp, "--results", res, NULL);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "no baseline in ") != NULL) SHOW(&self->r);
}

/* explain names the rule that judges a case and the files behind it: own, line, between. */
TEST_F(ex, explain_names_each_rule)
{
	static const struct {
		const char *rule;
		int lines[2];		/* the other arches' kernel lines, relative to this one's major */
		const char *plain[2];	/* their values; own: this arch's, at this line */
	} rules[] = {
		{ "rule: own: this kernel's baseline\n", { 0, 0 }, { "EINVAL", "EINVAL" } },
		{ "rule: line: the baselines of ", { 0, 0 }, { "EINVAL", "EINVAL" } },
		{ "rule: between: the kernel lines either side, ", { -1, +1 }, { "EINVAL", "E2BIG" } },
	};
	char exp[PATH_MAX + 16], res[PATH_MAX + 16], want[PATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		fk_tree_free(&self->t);
		fk_tree(&self->t);
		snprintf(exp, sizeof(exp), "%s/expected", self->t.root);
		snprintf(res, sizeof(res), "%s/results", self->t.root);
		fk_script(&self->t, "events/migrations", "echo 'TAP version 13'\necho '1..1'\n"
			  "echo '# OBS errno=EINVAL'\necho 'ok 1 global.plain'\n");
		if (i == 0) {
			put(&self->t, &self->k, self->k.arch, self->major, self->minor, self->cpus, "40", "EINVAL");
			snprintf(want, sizeof(want), "files: %s-%d.%d-%s.txt\n", self->k.arch, self->major, self->minor,
				 self->k.profile);
		} else {
			for (int a = 0; a < 2; a++)
				for (int l = 0; l < 2; l++)
					put(&self->t, &self->k, self->other[a], self->major + rules[i].lines[l],
					    rules[i].lines[l] ? 1 : self->minor, self->cpus, "40", rules[i].plain[l]);
			snprintf(want, sizeof(want), "files: %s-%d.%d-%s.txt, ", self->other[0],
				 self->major + rules[i].lines[0], rules[i].lines[0] ? 1 : self->minor, self->k.profile);
		}
		fk_run(&self->t, &self->r);
		EXPECT_EQ(0, self->r.code) SHOW(&self->r);
		fk_res_free(&self->r);
		fk_run_cmd(&self->t, &self->r, "explain", "events/migrations:global.plain", "--expected", exp,
			   "--results", res, NULL);
		EXPECT_EQ(0, self->r.code) SHOW(&self->r);
		EXPECT_TRUE(strstr(self->r.out, rules[i].rule) != NULL) SHOW(&self->r);
		EXPECT_TRUE(strstr(self->r.out, want) != NULL) SHOW(&self->r);
		EXPECT_TRUE(strstr(self->r.out, "\nobserved: PASS errno=EINVAL\nverdict: unchanged\n") != NULL)
			SHOW(&self->r);
		fk_res_free(&self->r);
	}
}

/*
 * `perfconf diff RESULTS-DIR` judges a saved run again, with its own
 * kernel and facts, against other baselines: as a first run on its arch.
 */
TEST_F(ex, a_saved_run_is_judged_again)
{
	char exp[PATH_MAX + 16], res[PATH_MAX + 16], path[PATH_MAX + 64];

	snprintf(exp, sizeof(exp), "%s/expected", self->t.root);
	snprintf(res, sizeof(res), "%s/results", self->t.root);
	put(&self->t, &self->k, self->k.arch, self->major, self->minor, self->cpus, "40", "EINVAL");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run_cmd(&self->t, &self->r, "diff", res, "--expected", exp, NULL);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# judged 2 of 2 cases: own 2,") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	/* its arch's baseline moved aside: the other arches of its line judge it */
	snprintf(path, sizeof(path), "%s/%s-%d.%d-%s.txt", exp, self->k.arch, self->major, self->minor, self->k.profile);
	ASSERT_EQ(0, unlink(path));
	put(&self->t, &self->k, self->other[0], self->major, self->minor, self->cpus, "40", "E2BIG");
	put(&self->t, &self->k, self->other[1], self->major, self->minor, self->cpus, "40", "E2BIG");
	fk_run_cmd(&self->t, &self->r, "diff", res, "--expected", exp, NULL);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# judged 2 of 2 cases: own 0, abi 0, line 2,") != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "#   events/migrations:global.plain: errno: expected E2BIG, observed EINVAL; "
			   "judged by the line rule") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run_cmd(&self->t, &self->r, "diff", exp, NULL);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "has no results.txt") != NULL) SHOW(&self->r);
}

/*
 * A kernel whose arch has baselines of other lines only (arm64 6.12 with
 * aarch64-6.12 set aside): its arch's nearest line, or this line's other
 * arches where their value differs (max_attr_size grows by line, a kprobe
 * errno is the arch's); a third value is a regression.
 */
TEST_F(ex, own_arch_other_line_or_this_line_other_arches)
{
	put(&self->t, &self->k, self->k.arch, self->major - 1, 1, self->cpus, "40", "E2BIG");
	put(&self->t, &self->k, self->other[0], self->major, self->minor, self->cpus, "40", "EINVAL");
	put(&self->t, &self->k, self->other[1], self->major, self->minor, self->cpus, "40", "EINVAL");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "#   events/migrations:global.plain: errno: expected E2BIG, observed EINVAL; "
			   "as in ") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);
	put(&self->t, &self->k, self->other[0], self->major, self->minor, self->cpus, "40", "ENOENT");
	put(&self->t, &self->k, self->other[1], self->major, self->minor, self->cpus, "40", "ENOENT");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# regressions (1):\n#   events/migrations:global.plain: errno: expected E2BIG, "
			   "observed EINVAL") != NULL) SHOW(&self->r);
}

TEST_HARNESS_MAIN
