// SPDX-License-Identifier: GPL-2.0
/*
 * The shell around the runner, on fakes: the VM matrix's private package
 * lists (runners/vm/apt.sh) on a mirror in a directory, a soak stopped
 * mid-run (scripts/soak.sh), the kernel config fragment that
 * scripts/bisect-kernel.sh builds with (runners/vm/kernel.config) and what
 * a bisect step's report makes of the commit (scripts/bisect-verdict.sh).
 */
#include "perfconf.h"
#include "fake.h"

FIXTURE(scripts) {
	struct tree t;
	char *out;
};

FIXTURE_SETUP(scripts)
{
	fk_tree(&self->t);
	self->out = NULL;
}

FIXTURE_TEARDOWN(scripts)
{
	free(self->out);
	fk_tree_free(&self->t);
}

/* sh -c CMD in the source tree, with TREE set to the tree root; its stdout and stderr in self->out. */
static int sh(struct tree *t, char **out, const char *fmt, ...)
{
	char cmd[8192], log[PATH_MAX + 16], *full;
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	snprintf(log, sizeof(log), "%s/sh.log", t->root);
	if (asprintf(&full, "cd '%s' && TREE='%s' sh -c '%s' >'%s' 2>&1", PERFCONF_SOURCE, t->root, cmd, log) < 0)
		abort();
	st = system(full);
	free(full);
	free(*out);
	*out = fk_read(log);
	if (!*out)
		*out = strdup("");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

#define APT "VM_DIR=$TREE/vm VM_MIRROR=file:$TREE/mirror runners/vm/apt.sh"

/*
 * apt updates a suite as one transaction: an opt-in arch's stale index of
 * trixie-security once dropped that suite for amd64 and arm64 too, and with
 * it every kernel line from 6.16 on (and, lists shared among opt-in archs,
 * s390x's for riscv64's). A stale index now leaves out its own arch's
 * packages of its suite, and nothing else, also when the lists are
 * refreshed later.
 */
TEST_F(scripts, one_arch_stale_index_hides_no_other_arch)
{
	ASSERT_EQ(0, sh(&self->t, &self->out, "runners/tests/fake_mirror.sh $TREE/mirror trixie-security:riscv64"))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, sh(&self->t, &self->out, APT " add-arch riscv64 && " APT " add-arch s390x && " APT " add-arch ppc64el"))
		TH_LOG("%s", self->out);
	for (int refresh = 0; refresh < 2; refresh++) {
		ASSERT_EQ(0, sh(&self->t, &self->out, "VM_REFRESH=%d " APT " update", refresh))
			TH_LOG("%s", self->out);
		EXPECT_TRUE(strstr(self->out, "trixie-security index for riscv64 does not match") != NULL)
			TH_LOG("%s", self->out);
		ASSERT_EQ(0, sh(&self->t, &self->out, APT " kernels"));
		EXPECT_TRUE(fk_has_line(self->out, "amd64 trixie-security linux-image-7-amd64 7 2000000"))
			TH_LOG("refresh %d:\n%s", refresh, self->out);
		EXPECT_TRUE(fk_has_line(self->out, "arm64 trixie-security linux-image-7-arm64 7 2000000"))
			TH_LOG("refresh %d:\n%s", refresh, self->out);
		EXPECT_TRUE(fk_has_line(self->out, "riscv64 trixie-backports linux-image-8-riscv64 8 2000000"))
			TH_LOG("refresh %d:\n%s", refresh, self->out);
		EXPECT_TRUE(fk_has_line(self->out, "s390x trixie-security linux-image-7-s390x 7 2000000"))
			TH_LOG("refresh %d:\n%s", refresh, self->out);
		/* ppc64el's kernels are named after its flavour, powerpc64le */
		EXPECT_TRUE(fk_has_line(self->out, "ppc64el trixie-security linux-image-7-powerpc64le 7 2000000"))
			TH_LOG("refresh %d:\n%s", refresh, self->out);
		EXPECT_TRUE(strstr(self->out, "riscv64 trixie-security") == NULL) TH_LOG("%s", self->out);
	}
}

/*
 * ppc64el's kernels: Debian's arch is ppc64el and the package's flavour
 * powerpc64le, and the 64k flavour is never taken for the plain one, even
 * at a higher version. The resolver downloads the plain .deb from the
 * arch's own lists and keeps its vmlinux and config.
 */
TEST_F(scripts, ppc64el_kernel_is_the_powerpc64le_flavour)
{
	static const struct {
		const char *file, *text;	/* text NULL: only kept */
	} kept[] = {
		{ "release", "6.12.1+fake-powerpc64le\n" },
		{ "package", "linux-image-6.12.1+fake-powerpc64le 6.12.1-1 trixie\n" },
		{ "vmlinuz", NULL },
	};
	char path[PATH_MAX + 256];

	ASSERT_EQ(0, sh(&self->t, &self->out, "runners/tests/fake_mirror.sh $TREE/mirror --ppc64el-debs"))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, sh(&self->t, &self->out, "VM_DIR=$TREE/vm VM_MIRROR=file:$TREE/mirror "
			"runners/vm/resolve-kernel.sh ppc64el 6.12 2>/dev/null"))
		TH_LOG("%s", self->out);
	ASSERT_TRUE(strstr(self->out, "linux-image-6.12.1+fake-powerpc64le_6.12.1-1") != NULL) TH_LOG("%s", self->out);
	for (size_t i = 0; i < ARRAY_SIZE(kept); i++) {
		char *text;

		snprintf(path, sizeof(path), "%s/vm/cache/kernels/linux-image-6.12.1+fake-powerpc64le_6.12.1-1/%s",
			 self->t.root, kept[i].file);
		text = fk_read(path);
		ASSERT_NE(NULL, text) TH_LOG("no %s kept", path);
		if (kept[i].text)
			EXPECT_STREQ(kept[i].text, text);
		free(text);
	}
}

/* A default arch's stale index is not left out quietly: the update fails in words. */
TEST_F(scripts, default_arch_stale_index_fails_the_update)
{
	ASSERT_EQ(0, sh(&self->t, &self->out, "runners/tests/fake_mirror.sh $TREE/mirror trixie-security:amd64"));
	EXPECT_EQ(2, sh(&self->t, &self->out, APT " update"));
	EXPECT_TRUE(strstr(self->out, "vm: apt-get update failed") != NULL) TH_LOG("%s", self->out);
}

/*
 * TERM to a soak while its run is busy in a child that defers its own trap
 * until a foreground command ends (matrix.sh building the suite): the soak
 * stops that whole run, and leaves no process behind.
 */
TEST_F(scripts, soak_term_leaves_no_process)
{
	char path[PATH_MAX + 32], *pids;
	pid_t soak;
	int st;

	snprintf(path, sizeof(path), "%s/runner", self->t.root);
	fk_write(path,
		 "#!/bin/bash\n"
		 "trap 'exit 143' TERM\n"
		 "sh -c 'echo $$ >\"$0\"; exec sleep 300' \"$(dirname \"$0\")/build.pid\"\n", 0755);
	setenv("SOAK_RUNNER", path, 1);
	setenv("SOAK_DIR", self->t.root, 1);
	soak = fork();
	if (soak == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		chdir(PERFCONF_SOURCE);
		execl("scripts/soak.sh", "soak.sh", "2", "--target", "x86_64-6.1", NULL);
		_exit(127);
	}
	unsetenv("SOAK_RUNNER");
	unsetenv("SOAK_DIR");
	snprintf(path, sizeof(path), "%s/build.pid", self->t.root);
	ASSERT_TRUE(fk_wait_file(path, 20));
	usleep(200000);
	pids = fk_read(path);
	ASSERT_NE(NULL, pids);
	kill(soak, SIGTERM);
	for (int i = 0; i < 200 && waitpid(soak, &st, WNOHANG) == 0; i++)
		usleep(50000);
	if (waitpid(soak, &st, WNOHANG) == 0) {
		kill(soak, SIGKILL);
		waitpid(soak, &st, 0);
		kill(atoi(pids), SIGKILL);
		ASSERT_TRUE(false) TH_LOG("the soak was still running 10 s after TERM");
	}
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 143) TH_LOG("status %#x", st);
	for (int i = 0; i < 100 && fk_pid_alive(atoi(pids)); i++)
		usleep(20000);
	EXPECT_FALSE(fk_pid_alive(atoi(pids))) TH_LOG("the run's build, pid %s, outlived the soak", pids);
	kill(atoi(pids), SIGKILL);
	free(pids);
}

/* Every option the suite's cases use (tests/config) is in the fragment, or selected by the arch. */
TEST_F(scripts, kernel_fragment_carries_tests_config)
{
	ASSERT_EQ(0, sh(&self->t, &self->out,
			"grep -o \"^CONFIG_[A-Z0-9_]*=y\" tests/config | while read -r o; do "
			"o=${o%%=y}; grep -qx \"$o=y\" runners/vm/kernel.config || "
			"grep -q \"^#.*[ (]${o#CONFIG_}\\b\" runners/vm/kernel.config || echo \"missing $o\"; done"));
	EXPECT_STREQ("", self->out);
}

/* A report's tail as the runner writes it (runners/report.c), into $TREE/ktap.txt. */
#define REPORT(sections) "printf \"%%s\\n\" \"ok 1 attr/a\" " sections " \"5 passed, 1 failed\" >$TREE/ktap.txt"
#define VERDICT(rc) "; scripts/bisect-verdict.sh verdict $TREE/ktap.txt " #rc
#define COMPLAINTS "\"# KERNEL COMPLAINTS: the kernel warned or oopsed while the suite ran (1):\" "

/*
 * A step is bad for the first regression, named; a kernel complaint that a
 * binary of ours made is bad too; one that no binary made, or that none
 * brought back when run alone, is no verdict on the commit: 125. The
 * runner's other exits cannot be judged either.
 */
TEST_F(scripts, bisect_step_blames_only_what_a_case_showed)
{
	EXPECT_EQ(0, sh(&self->t, &self->out, REPORT("\"# regressions (2):\" "
		"\"#   attr/sample_period:global.bit63_is_refused: expected PASS, observed FAIL\" "
		"\"#   errors/einval:global.x: expected EINVAL, observed ERANGE\" \"# fixed (1):\" \"#   abi/y:global.z\"")
		VERDICT(1) " && exit 9; echo rc=$?; scripts/bisect-verdict.sh binaries $TREE/ktap.txt"));
	EXPECT_STREQ("bad: attr/sample_period:global.bit63_is_refused: expected PASS, observed FAIL\nrc=1\n"
		     "attr/sample_period\nerrors/einval\n", self->out);

	EXPECT_EQ(1, sh(&self->t, &self->out, REPORT(COMPLAINTS "\"#   record/throttle: WARNING at kernel/events/core.c:123\"")
		VERDICT(1)));
	EXPECT_STREQ("bad: record/throttle: WARNING at kernel/events/core.c:123\n", self->out);

	EXPECT_EQ(1, sh(&self->t, &self->out, REPORT(COMPLAINTS "\"#   WARNING at mm/x.c:9, while attr/a ran; it came back running attr/a alone\"")
		VERDICT(1)));
	EXPECT_STREQ("bad: WARNING at mm/x.c:9, while attr/a ran; it came back running attr/a alone\n", self->out);

	EXPECT_EQ(125, sh(&self->t, &self->out, REPORT("\"# regressions (1):\" \"#   attr/a:global.b: expected PASS, observed FAIL\" "
		COMPLAINTS "\"#   BUG at fs/y.c:3, while no binary ran\"") VERDICT(1)));
	EXPECT_STREQ("cannot test: the kernel complained with no case of ours to blame: BUG at fs/y.c:3, while no binary ran\n",
		     self->out);

	EXPECT_EQ(0, sh(&self->t, &self->out, REPORT("") VERDICT(0)));
	EXPECT_STREQ("good\n", self->out);
	EXPECT_EQ(125, sh(&self->t, &self->out, REPORT("") VERDICT(3)));
	EXPECT_STREQ("cannot test: perfconf vm exit 3\n", self->out);
	EXPECT_EQ(1, sh(&self->t, &self->out, REPORT("") "; scripts/bisect-verdict.sh binaries $TREE/ktap.txt"));
}

TEST_HARNESS_MAIN
