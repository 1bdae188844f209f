// SPDX-License-Identifier: GPL-2.0
/*
 * The suite's module, perfconf_pmu (runners/module.h), on a fake kernel
 * (fake.h, FK_MODULE: the runner's finit_module and delete_module answered
 * by a supervisor, on a fake /sys/module): loaded for the run and unloaded
 * after it, on SIGTERM, and after a SIGKILL by `perfconf restore` or the
 * next run; one loaded before is used and left; a module still in use is
 * tried again, then said; every reason it is not loaded, in the header and
 * in each binary's PERFCONF_PMU_MODULE; the fact module.perfconf_pmu and a
 * baseline recorded with it; and the health check masking the O and E
 * taints only while the module's own taint letters say so.
 */
#include "perfconf.h"
#include "fake.h"

#define STATE_LINE "/sys/module/perfconf_pmu 0 "
#define HEADER_NOT "# module: perfconf_pmu not loaded: "

FIXTURE(mod) {
	struct tree t;
	struct res r;
	char sysfs[PATH_MAX + 16];	/* the fake /sys/module */
	char taint[PATH_MAX + 16];	/* the fake /proc/sys/kernel/tainted */
};

FIXTURE_SETUP(mod)
{
	char dir[PATH_MAX + 16];

	fk_tree(&self->t);
	memset(&self->r, 0, sizeof(self->r));
	snprintf(dir, sizeof(dir), "%s/state", self->t.root);
	setenv("PERFCONF_STATE_DIR", dir, 1);	/* never the real /run/perfconf */
	snprintf(self->sysfs, sizeof(self->sysfs), "%s/sysmod", self->t.root);
	fk_mkdirs(self->sysfs);
	setenv("PERFCONF_MODULE_SYSFS", self->sysfs, 1);
	snprintf(self->taint, sizeof(self->taint), "%s/tainted", self->t.root);
	fk_write(self->taint, "0\n", 0644);
	setenv("PERFCONF_TAINT_FILE", self->taint, 1);
	if (geteuid() != 0)
		SKIP(return, "the runner runs as root");
}

FIXTURE_TEARDOWN(mod)
{
	static const char *const vars[] = {
		"FK_MODULE", "FK_MODULE_LOG", "FK_MODULE_UNLOAD_LOG", "FK_MODULE_BUSY", "FK_MODULE_TAINTS", "FK_NO_CAP_SYS_MODULE",
		"PERFCONF_KMSG_ANY_FACILITY", "PERFCONF_MODULE_SYSFS", "PERFCONF_TAINT_FILE",
	};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
	fk_res_free(&self->r);
	fk_tree_free(&self->t);
}

/*
 * m/aux: a case that needs the module, as the lib's will: it declares the
 * fact, notes what it was told and the state file while it runs, and
 * passes where the module is loaded, else skips with the reason.
 */
static void aux_tree(struct tree *t, bool with_file)
{
	fk_script(t, "m/aux",
		  "echo 'TAP version 13'\necho '1..1'\n"
		  "echo '#  RUN           global.aux ...'\necho '# DEPENDS module.perfconf_pmu'\n"
		  "printf '%s\\n' \"$PERFCONF_PMU_MODULE\" > \"$FAKE_OUT/env\"\n"
		  "cat \"$PERFCONF_STATE_DIR/sysctl.state\" > \"$FAKE_OUT/state\" 2>/dev/null\n"
		  "if [ \"$PERFCONF_PMU_MODULE\" = loaded ]; then echo 'ok 1 global.aux'\n"
		  "else echo \"ok 1 global.aux # SKIP perfconf_pmu: $PERFCONF_PMU_MODULE\"; fi\n");
	if (with_file)
		fk_file(t, "module/perfconf_pmu.ko", "not an ELF file: the fake kernel does not read it\n");
}

/* What a file under out/ holds, without its newline ("" when there is none). */
static char *out_text(struct tree *t, const char *name)
{
	char rel[256], *s;

	snprintf(rel, sizeof(rel), "out/%s", name);
	s = fk_read(fk_path(t, rel));
	if (!s)
		return strdup("");
	s[strcspn(s, "\n")] = 0;
	return s;
}

/* Whether the fake kernel has it loaded. */
static bool fake_loaded(FIXTURE_DATA(mod) *self)
{
	char dir[PATH_MAX + 32];

	snprintf(dir, sizeof(dir), "%s/perfconf_pmu", self->sysfs);
	return access(dir, F_OK) == 0;
}

/* The calls the fake kernel answered, one per line. */
static char *calls(struct tree *t)
{
	char *s = fk_read(fk_path(t, "out/module.calls"));

	return s ? s : strdup("");
}

/* The run header's module line is `want`, the binary was told `env`, and the fact is `fact`. */
#define EXPECT_TOLD(self, want, env, fact)                                                          \
	do {                                                                                        \
		char *e_ = out_text(&(self)->t, "env"), *res_;                                        \
		EXPECT_TRUE(fk_has_line((self)->r.out, want)) SHOW(&(self)->r);                     \
		EXPECT_STREQ(env, e_);                                                              \
		free(e_);                                                                           \
		res_ = fk_read(fk_path(&(self)->t, "results/results.txt"));                          \
		EXPECT_TRUE(res_ && strstr(res_, " module.perfconf_pmu=" fact " ")) TH_LOG("%s", res_); \
		free(res_);                                                                         \
	} while (0)

/* --- lib/host/sysctl.c: the module's entry in the state file --- */

TEST_F(mod, the_state_file_entry)
{
	char want[64], *st;

	EXPECT_EQ(-EINVAL, pc_sysctl_set(PC_MODULE_ENTRY("perfconf_pmu"), 1));	/* no sysctl */
	EXPECT_EQ(-EINVAL, pc_sysctl_save_module("/sys/module/../perfconf_pmu"));
	EXPECT_EQ(-EINVAL, pc_sysctl_save_module("/sys/module/"));
	EXPECT_EQ(-EINVAL, pc_sysctl_save_module("kernel/perf_event_paranoid"));
	ASSERT_EQ(0, pc_sysctl_save_module(PC_MODULE_ENTRY("perfconf_pmu")));
	ASSERT_EQ(0, pc_sysctl_save_module(PC_MODULE_ENTRY("perfconf_pmu")));	/* noted once */
	snprintf(want, sizeof(want), STATE_LINE "%d\n", (int)getpid());
	st = fk_read(pc_sysctl_state_path());
	EXPECT_STREQ(want, st);
	free(st);
	/* the restores of sysctls leave it: it is the runner's to unload, by name */
	EXPECT_EQ(0, pc_sysctl_restore_all());
	EXPECT_EQ(0, pc_sysctl_restore_owned(getpid()));
	st = fk_read(pc_sysctl_state_path());
	EXPECT_STREQ(want, st);
	free(st);
	EXPECT_EQ(0, pc_sysctl_forget(PC_MODULE_ENTRY("perfconf_pmu")));
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
	EXPECT_EQ(-ENOENT, pc_sysctl_forget(PC_MODULE_ENTRY("perfconf_pmu")));
	EXPECT_EQ(-ENOENT, pc_sysctl_restore(PC_MODULE_ENTRY("perfconf_pmu")));
	if (access("/sys/module/perfconf_pmu", F_OK) == 0)
		return;		/* the real one is loaded here: not ours to unload */
	/* restoring it unloads it; one that is not loaded counts as unloaded */
	ASSERT_EQ(0, pc_sysctl_save_module(PC_MODULE_ENTRY("perfconf_pmu")));
	EXPECT_EQ(0, pc_sysctl_restore(PC_MODULE_ENTRY("perfconf_pmu")));
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
}

/* A run killed after noting the load, before making it: nothing to unload, the entry dropped. */
TEST_F(mod, an_entry_with_nothing_loaded_is_dropped)
{
	char *c;

	aux_tree(&self->t, true);
	ASSERT_EQ(0, pc_sysctl_save_module(PC_MODULE_ENTRY("perfconf_pmu")));
	setenv("FK_MODULE", "load", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_EQ(NULL, strstr(self->r.out, "# unloaded perfconf_pmu")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# module: perfconf_pmu loaded (taints O, E)")) SHOW(&self->r);
	c = calls(&self->t);
	EXPECT_STREQ("finit\ndelete\n", c);
	free(c);
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
	fk_res_free(&self->r);
	ASSERT_EQ(0, pc_sysctl_save_module(PC_MODULE_ENTRY("perfconf_pmu")));
	fk_run_cmd(&self->t, &self->r, "restore", NULL);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_EQ(NULL, strstr(self->r.out, "unloaded")) SHOW(&self->r);
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
}

TEST_F(mod, not_built_then_the_build_says_why)
{
	char want[PATH_MAX + 128], env[PATH_MAX + 64];

	aux_tree(&self->t, false);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	snprintf(env, sizeof(env), "not built (no %s/module/perfconf_pmu.ko)", self->t.root);
	snprintf(want, sizeof(want), HEADER_NOT "%s", env);
	EXPECT_TOLD(self, want, env, "absent");
	EXPECT_TRUE(strstr(self->r.out, "ok 1 global.aux # SKIP perfconf_pmu: not built (no ") != NULL) SHOW(&self->r);
	fk_res_free(&self->r);

	/* the build's one line, when it could not build it */
	fk_file(&self->t, "module/why", "no kernel headers for 6.18.44-fc-v669: /lib/modules/6.18.44-fc-v669/build is absent\n");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TOLD(self, HEADER_NOT "no kernel headers for 6.18.44-fc-v669: /lib/modules/6.18.44-fc-v669/build is absent",
		    "no kernel headers for 6.18.44-fc-v669: /lib/modules/6.18.44-fc-v669/build is absent", "absent");
	fk_res_free(&self->r);

	/* --module names another file */
	fk_run(&self->t, &self->r, "--module", "/nonexistent/x.ko");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TOLD(self, HEADER_NOT "/nonexistent/x.ko: No such file or directory",
		    "/nonexistent/x.ko: No such file or directory", "absent");
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r, "--module", "x.ko", "--no-module");
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.err, "--module and --no-module") != NULL) SHOW(&self->r);
}

TEST_F(mod, no_module_loads_nothing)
{
	char *c;

	aux_tree(&self->t, true);
	setenv("FK_MODULE", "load", 1);
	fk_run(&self->t, &self->r, "--no-module");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TOLD(self, HEADER_NOT "the runner was told not to load it (--no-module)",
		    "the runner was told not to load it (--no-module)", "absent");
	c = calls(&self->t);
	EXPECT_STREQ("", c);
	free(c);
}

TEST_F(mod, loaded_for_the_run_and_unloaded_after)
{
	char *c, *st, want[64];

	aux_tree(&self->t, true);
	setenv("FK_MODULE", "load", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TOLD(self, "# module: perfconf_pmu loaded (taints O, E)", "loaded", "loaded");
	EXPECT_TRUE(strstr(self->r.out, "  ok 1 global.aux\n") != NULL) SHOW(&self->r);
	/* noted in the state file while the run had it loaded, the entry gone after */
	st = out_text(&self->t, "state");
	EXPECT_EQ(0, strncmp(st, STATE_LINE, strlen(STATE_LINE))) TH_LOG("state file while it ran: %s", st);
	free(st);
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
	c = calls(&self->t);
	EXPECT_STREQ("finit\ndelete\n", c);
	free(c);
	EXPECT_FALSE(fake_loaded(self));
	/* its load's taint is no binary's fault */
	EXPECT_EQ(NULL, strstr(self->r.out, "kernel taint")) SHOW(&self->r);
	snprintf(want, sizeof(want), "%llu", 3ull << 12);
	st = fk_read(self->taint);
	EXPECT_EQ(0, strncmp(st, want, strlen(want))) TH_LOG("%s", st);
	free(st);
}

TEST_F(mod, loaded_before_the_run_is_used_and_left_loaded)
{
	char dir[PATH_MAX + 32], *c;

	aux_tree(&self->t, true);
	snprintf(dir, sizeof(dir), "%s/perfconf_pmu", self->sysfs);
	fk_mkdirs(dir);
	fk_file(&self->t, "sysmod/perfconf_pmu/taint", "OE\n");
	setenv("FK_MODULE", "load", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TOLD(self, "# module: perfconf_pmu loaded (taints O, E), as it was before the run: left loaded",
		    "loaded", "loaded");
	c = calls(&self->t);
	EXPECT_STREQ("", c);
	free(c);
	EXPECT_TRUE(fake_loaded(self));
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
}

/* Each refusal of the kernel, in its words: never a failure of the run, and no state left. */
TEST_F(mod, each_refusal_says_why)
{
	static const struct { const char *err, *why; } cases[] = {
		{ "ENOSYS", "this kernel loads no modules (CONFIG_MODULES=n)" },
		{ "ENOEXEC", "built for another kernel, or not a module (vermagic, arch or format) (ENOEXEC: Exec "
			     "format error; the kernel log says no more)" },
		{ "EINVAL", "built for another kernel (vermagic, symbol versions), or its init failed (EINVAL: "
			    "Invalid argument; the kernel log says no more)" },
		{ "EKEYREJECTED", "the kernel enforces module signatures (module.sig_enforce) and it is not signed "
				  "with a key the kernel trusts (EKEYREJECTED: Key was rejected by service; the "
				  "kernel log says no more)" },
		{ "EEXIST", "the kernel has a module of that name loading or loaded (EEXIST), yet no "
			    "/sys/module/perfconf_pmu" },
		{ "ENOMEM", "the kernel refused it (ENOMEM: Cannot allocate memory; the kernel log says no more)" },
	};

	aux_tree(&self->t, true);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[512];

		setenv("FK_MODULE", cases[i].err, 1);
		fk_run(&self->t, &self->r);
		EXPECT_EQ(0, self->r.code) SHOW(&self->r);
		snprintf(want, sizeof(want), HEADER_NOT "%s", cases[i].why);
		EXPECT_TOLD(self, want, cases[i].why, "absent");
		EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK)) TH_LOG("%s left an entry", cases[i].err);
		fk_res_free(&self->r);
	}
}

TEST_F(mod, a_missing_symbol_is_the_kernel_logs_line)
{
	const char *why = "a symbol it needs is not in this kernel (ENOENT): perfconf_pmu: Unknown symbol "
			  "perf_report_aux_output_id (err -2)";
	char want[512];

	aux_tree(&self->t, true);
	setenv("FK_MODULE", "ENOENT", 1);
	setenv("FK_MODULE_LOG", "perfconf_pmu: Unknown symbol perf_report_aux_output_id (err -2)", 1);
	setenv("PERFCONF_KMSG_ANY_FACILITY", "1", 1);	/* the fake kernel's line is user space's */
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	snprintf(want, sizeof(want), HEADER_NOT "%s", why);
	EXPECT_TOLD(self, want, why, "absent");
}

/*
 * The run's health check starts after the load and ends before the
 * unload: what the kernel says while the module loads or unloads is
 * watched there, and a complaint fails the run, as one while no binary ran.
 */
TEST_F(mod, a_kernel_complaint_while_it_loads_or_unloads_fails_the_run)
{
	aux_tree(&self->t, true);
	setenv("FK_MODULE", "load", 1);
	setenv("PERFCONF_KMSG_ANY_FACILITY", "1", 1);
	setenv("FK_MODULE_LOG", "WARNING: CPU: 1 PID: 77 at kernel/events/core.c:12000 perf_pmu_register+0x1/0x2", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# (the kernel) loading perfconf_pmu: WARNING: CPU: 1 PID: 77 at "
				"kernel/events/core.c:12000 perf_pmu_register+0x1/0x2, while no binary was running"))
		SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "1 passed, 1 failed, 0 skipped")) SHOW(&self->r);
	fk_res_free(&self->r);

	unsetenv("FK_MODULE_LOG");
	setenv("FK_MODULE_UNLOAD_LOG", "BUG: unable to handle page fault for address: ffffffffc0a01000", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(1, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# kernel complaint: unloading perfconf_pmu: BUG: unable to handle page "
				"fault for address: ffffffffc0a01000, while no binary ran")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "1 passed, 1 failed, 0 skipped")) SHOW(&self->r);
	EXPECT_FALSE(fake_loaded(self));
}

TEST_F(mod, not_permitted_says_which_rule)
{
	aux_tree(&self->t, true);
	setenv("FK_MODULE", "EPERM", 1);
	setenv("FK_NO_CAP_SYS_MODULE", "1", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TOLD(self, HEADER_NOT "not permitted: the runner has no CAP_SYS_MODULE",
		    "not permitted: the runner has no CAP_SYS_MODULE", "absent");
	fk_res_free(&self->r);

	/* with the capability, the machine's own rule: modules_disabled, lockdown, or a security module */
	unsetenv("FK_NO_CAP_SYS_MODULE");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, HEADER_NOT "module loading is disabled (/proc/sys/kernel/modules_disabled is 1)\n") ||
		    strstr(self->r.out, HEADER_NOT "the kernel is locked down (lockdown=") ||
		    strstr(self->r.out, HEADER_NOT "not permitted (EPERM), with CAP_SYS_MODULE, modules enabled and lockdown "))
		SHOW(&self->r);
}

/* The real kernel, given a file that is no module: whatever it says, the run goes on. */
TEST_F(mod, the_real_kernel_refusing_a_file_is_no_failure)
{
	aux_tree(&self->t, true);
	unsetenv("PERFCONF_MODULE_SYSFS");
	if (access("/sys/module/perfconf_pmu", F_OK) == 0)
		SKIP(return, "perfconf_pmu is loaded on this machine");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "\n" HEADER_NOT) != NULL) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "# SKIP perfconf_pmu: ") != NULL) SHOW(&self->r);
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
}

TEST_F_TIMEOUT(mod, still_in_use_is_tried_again_then_said, 60)
{
	char *c, *st;

	aux_tree(&self->t, true);
	setenv("FK_MODULE", "load", 1);
	/* busy a few times: events closing after their process, then it goes */
	setenv("FK_MODULE_BUSY", "3", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	c = calls(&self->t);
	EXPECT_STREQ("finit\ndelete\ndelete\ndelete\ndelete\n", c);
	free(c);
	EXPECT_FALSE(fake_loaded(self));
	EXPECT_EQ(NULL, strstr(self->r.out, "stays loaded")) SHOW(&self->r);
	fk_res_free(&self->r);
	unlink(fk_path(&self->t, "out/module.calls"));

	/* busy for good: one line, the entry kept, and the next run unloads it */
	setenv("FK_MODULE_BUSY", "always", 1);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# perfconf_pmu stays loaded: still in use after 3 s (lsmod names its "
				"users); the next run or `perfconf restore` unloads it")) SHOW(&self->r);
	EXPECT_GT(self->r.secs, 3);
	EXPECT_TRUE(fake_loaded(self));
	st = fk_read(pc_sysctl_state_path());
	EXPECT_TRUE(st && !strncmp(st, STATE_LINE, strlen(STATE_LINE))) TH_LOG("%s", st);
	free(st);
	fk_res_free(&self->r);

	unsetenv("FK_MODULE_BUSY");
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# unloaded perfconf_pmu, which an earlier run left loaded")) SHOW(&self->r);
	EXPECT_TRUE(fk_has_line(self->r.out, "# module: perfconf_pmu loaded (taints O, E)")) SHOW(&self->r);
	EXPECT_FALSE(fake_loaded(self));
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
}

/* m/hang: tells it started, then hangs. */
static void hang_tree(struct tree *t)
{
	aux_tree(t, true);
	fk_script(t, "m/hang", "echo 'TAP version 13'\necho '1..1'\necho $$ > \"$FAKE_OUT/hanging\"\nexec sleep 60\n");
}

TEST_F_TIMEOUT(mod, sigkill_then_restore_or_the_next_run_unloads, 90)
{
	char *st, *c;
	pid_t runner;

	hang_tree(&self->t);
	setenv("FK_MODULE", "load", 1);
	for (int round = 0; round < 2; round++) {
		unlink(fk_path(&self->t, "out/hanging"));
		unlink(fk_path(&self->t, "out/module.calls"));
		runner = fk_start_v(&self->t, NULL, (char *[]){ "-j", "2", "--timeout", "300", NULL });
		ASSERT_TRUE(fk_wait_file(fk_path(&self->t, "out/hanging"), 20)) {
			kill(runner, SIGKILL);
			waitpid(runner, NULL, 0);
		}
		kill(runner, SIGKILL);
		waitpid(runner, NULL, 0);
		EXPECT_TRUE(fake_loaded(self));
		st = fk_read(pc_sysctl_state_path());
		EXPECT_TRUE(st && !strncmp(st, STATE_LINE, strlen(STATE_LINE))) TH_LOG("%s", st);
		free(st);
		if (round == 0) {
			fk_run_cmd(&self->t, &self->r, "restore", NULL);
			EXPECT_EQ(0, self->r.code) SHOW(&self->r);
			EXPECT_TRUE(fk_has_line(self->r.out, "unloaded perfconf_pmu (a run that died had loaded it)"))
				SHOW(&self->r);
			c = calls(&self->t);
			EXPECT_STREQ("finit\ndelete\n", c);
			free(c);
		} else {
			fk_run(&self->t, &self->r, "-t", "m/aux");
			EXPECT_EQ(0, self->r.code) SHOW(&self->r);
			EXPECT_TRUE(fk_has_line(self->r.out, "# unloaded perfconf_pmu, which an earlier run left loaded"))
				SHOW(&self->r);
			EXPECT_TRUE(fk_has_line(self->r.out, "# module: perfconf_pmu loaded (taints O, E)")) SHOW(&self->r);
			c = calls(&self->t);
			EXPECT_STREQ("finit\ndelete\nfinit\ndelete\n", c);
			free(c);
		}
		EXPECT_FALSE(fake_loaded(self));
		EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
		fk_res_free(&self->r);
	}
}

TEST_F_TIMEOUT(mod, sigterm_unloads, 60)
{
	pid_t runner;

	hang_tree(&self->t);
	setenv("FK_MODULE", "load", 1);
	runner = fk_start_v(&self->t, NULL, (char *[]){ "-j", "2", "--timeout", "300", NULL });
	ASSERT_TRUE(fk_wait_file(fk_path(&self->t, "out/hanging"), 20)) {
		kill(runner, SIGKILL);
		waitpid(runner, NULL, 0);
	}
	EXPECT_TRUE(fake_loaded(self));
	kill(runner, SIGTERM);
	fk_collect(&self->t, runner, &self->r, fk_now(), 20);
	EXPECT_EQ(2, self->r.code) SHOW(&self->r);
	EXPECT_FALSE(fake_loaded(self));
	EXPECT_NE(0, access(pc_sysctl_state_path(), F_OK));
}

/*
 * O and E are masked while the module's taint letters say so, and only
 * those letters: W and any other bit still fail the binary that set it,
 * and so do O and E with no module of ours to explain them.
 */
TEST_F(mod, taints_o_and_e_masked_only_while_the_module_says_so)
{
	static const struct { const char *letters; unsigned long long set; const char *want; } cases[] = {
		{ "OE\n", 3ull << 12, NULL },
		{ "OE\n", (3ull << 12) | (1ull << 9), "not ok 1 b/taints # ERROR new kernel taint: W (bit 9)" },
		{ "O\n", 3ull << 12, "not ok 1 b/taints # ERROR new kernel taint: E (bit 13)" },
		{ "E\n", (1ull << 12) | (1ull << 7), "not ok 1 b/taints # ERROR new kernel taint: D (bit 7), O (bit 12)" },
		{ NULL, 1ull << 12, "not ok 1 b/taints # ERROR new kernel taint: O (bit 12)" },
	};
	char dir[PATH_MAX + 32], body[256];

	snprintf(dir, sizeof(dir), "%s/perfconf_pmu", self->sysfs);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fk_write(self->taint, "0\n", 0644);	/* a fresh boot's */
		unlink(fk_path(&self->t, "sysmod/perfconf_pmu/taint"));
		rmdir(dir);
		if (cases[i].letters) {
			fk_mkdirs(dir);
			fk_file(&self->t, "sysmod/perfconf_pmu/taint", cases[i].letters);
		}
		snprintf(body, sizeof(body), "echo 'TAP version 13'\necho '1..1'\necho %llu > \"$PERFCONF_TAINT_FILE\"\n"
			 "sleep 0.2\necho 'ok 1 x'\n", cases[i].set);
		fk_script(&self->t, "b/taints", body);
		fk_run(&self->t, &self->r, "-j", "1");
		if (cases[i].want) {
			EXPECT_EQ(1, self->r.code) SHOW(&self->r);
			EXPECT_TRUE(fk_has_line(self->r.out, cases[i].want)) SHOW(&self->r);
		} else {
			EXPECT_EQ(0, self->r.code) SHOW(&self->r);
			EXPECT_TRUE(fk_has_line(self->r.out, "ok 1 b/taints")) SHOW(&self->r);
		}
		fk_res_free(&self->r);
	}
}

/*
 * A baseline recorded with the module loaded judges no run without it:
 * the case that passed there and skips here is not judged (the fact
 * differs), and the run passes; and the other way round.
 */
TEST_F(mod, a_baseline_with_the_module_does_not_judge_a_run_without_it)
{
	aux_tree(&self->t, true);
	setenv("FK_MODULE", "load", 1);
	fk_run(&self->t, &self->r, "--record");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	fk_res_free(&self->r);

	fk_run(&self->t, &self->r, "--no-module");
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_EQ(NULL, strstr(self->r.out, "# regression")) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "module.perfconf_pmu differs (baseline: loaded; here: absent)") != NULL)
		SHOW(&self->r);
	fk_res_free(&self->r);

	/* and a baseline without it: the run with it is judged by no baseline either */
	fk_run(&self->t, &self->r, "--no-module", "--record");
	ASSERT_EQ(0, self->r.code) SHOW(&self->r);
	fk_res_free(&self->r);
	fk_run(&self->t, &self->r);
	EXPECT_EQ(0, self->r.code) SHOW(&self->r);
	EXPECT_TRUE(strstr(self->r.out, "module.perfconf_pmu differs (baseline: absent; here: loaded)") != NULL)
		SHOW(&self->r);
}

TEST_F(mod, info_says_what_a_run_would_do)
{
	char *text;

	aux_tree(&self->t, false);
	text = fk_info_text(&self->t);
	EXPECT_TRUE(strstr(text, "\nmodule: perfconf_pmu not loaded; a run cannot load it: not built (no ") != NULL)
		TH_LOG("%s", text);
	EXPECT_TRUE(strstr(text, "\n  module.perfconf_pmu ") != NULL) TH_LOG("%s", text);
	free(text);
	fk_file(&self->t, "module/perfconf_pmu.ko", "x");
	text = fk_info_text(&self->t);
	EXPECT_TRUE(strstr(text, "\nmodule: perfconf_pmu not loaded; a run loads ") != NULL) TH_LOG("%s", text);
	free(text);
}

TEST_HARNESS_MAIN
