// SPDX-License-Identifier: GPL-2.0
/*
 * perfconf: options and subcommands.
 *
 *	perfconf [options]		run the suite (run.c)
 *	perfconf diff A B		what changed between two baselines/results
 *	perfconf diff RESULTS-DIR	a saved run judged against expected/ again (run.c)
 *	perfconf restore		put back the sysctls a dead run left changed, unload its module
 *	perfconf info			this kernel, its profile and baseline
 *	perfconf abi			the lib's ABI tables
 *	perfconf coverage [DIR]		attr fields, ioctls, flags, errnos without a test
 *	perfconf matrix [TARGET...]	the suite on other kernels under qemu
 *	perfconf vm --kernel PATH ...	the suite on a kernel image of your own under qemu
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* CPU_COUNT */
#endif
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi_report.h"
#include "baseline.h"
#include "exec.h"
#include "facts.h"
#include "module.h"
#include "profile.h"
#include "run.h"
#include "host/sysctl.h"

/* Where the source tree was when the runner was built (the Makefile says). */
#ifndef PERFCONF_SOURCE
#define PERFCONF_SOURCE "."
#endif

static void usage(FILE *f)
{
	fprintf(f,
"usage: perfconf [options]          run the suite and compare with the baseline\n"
"       perfconf diff A B           what changed between two baselines or results files\n"
"       perfconf diff RESULTS-DIR   a saved run (of any kernel: a guest's) judged again\n"
"                                   against the baselines (--expected), as the runner would\n"
"       perfconf restore            restore the sysctls a killed run left changed, and\n"
"                                   unload the module it loaded\n"
"       perfconf info               this kernel, its PMU profile and its baseline\n"
"       perfconf explain CASE       where CASE's expectation comes from here: the rule,\n"
"                                   the baselines, the value (--expected, --results)\n"
"       perfconf abi                the ABI tables: attr, mmap page, header, records,\n"
"                                   ioctls, open flags, errnos\n"
"       perfconf coverage [DIR]     attr fields, ioctls, open flags and errnos without a\n"
"                                   test in DIR/{attr,ioctl,flags,errors} (DIR: tests/)\n"
"       perfconf matrix [TARGET...] the suite on Debian kernels under qemu\n"
"                                   (runners/vm/matrix.sh; targets x86_64-6.1, arm64-vhe...)\n"
"       perfconf vm --kernel PATH [--arch x86_64|arm64] [--config FILE] [-- OPTIONS]\n"
"                                   the suite on a kernel you built, under qemu\n"
"                                   (runners/vm/vm.sh)\n"
"\n"
"options:\n"
"  -j, --jobs N         binaries run at once (default: the number of CPUs)\n"
"  -t, --test GLOB      run only <area>/<binary> matching GLOB (or its area); repeatable\n"
"  -x, --exclude GLOB   skip matching binaries; repeatable\n"
"  -l, --list           list the selected binaries and exit\n"
"  -v, --verbose        show every line each binary printed\n"
"      --timeout SECS   default timeout per binary (default %g)\n"
"      --timeouts FILE  per-area timeouts, \"<glob> <seconds>\" lines\n"
"                       (default <dir>/../runners/timeouts.conf)\n"
"      --baseline FILE  compare with FILE instead of the one for this kernel\n"
"      --expected DIR   where baselines live (default <dir>/../expected)\n"
"      --record[=FILE]  write or update the baseline for this kernel (or FILE)\n"
"      --results DIR    where ktap.txt and results.txt go\n"
"                       (default <dir>/results/<release>-<arch>-<profile>)\n"
"      --junit FILE     also write JUnit XML\n"
"      --format LAYOUT  \"ktap\" (default: KTAP v1, indented subtests, as kunit.py reads)\n"
"                       or \"kselftest\" (TAP 13 with \"# \"-prefixed subtests, as\n"
"                       kselftest's runner prints and LKFT reads); results/ has both\n"
"      --bisect         exit 0 good, 1 bad, 125 cannot test (git bisect run)\n"
"      --gate WHAT      what fails the run: \"baseline\" (default: any regression or new\n"
"                       failure) or \"suite\" (only the suite's own faults: ERROR,\n"
"                       TIMEOUT, a binary not found; differences are shown)\n"
"      --dir DIR        the build directory holding tests/ (default: the runner's own)\n"
"      --rcu-normal     leave RCU grace periods as the kernel has them (by default a\n"
"                       run as root expedites them, /sys/kernel/rcu_expedited, and\n"
"                       restores the setting at its end)\n"
"      --module FILE    the suite's kernel module, loaded for the run and unloaded at\n"
"                       its end (default <dir>/module/perfconf_pmu.ko); where it cannot\n"
"                       be loaded its cases skip, saying why\n"
"      --no-module      do not load it (one loaded already is used, and left loaded)\n"
"      --variant NAME   other semantics on the same kernel and PMUs (e.g. vhe): the\n"
"                       profile becomes <profile>-NAME: its own baseline where one\n"
"                       is recorded, else the plain one's under equal facts\n"
"  -h, --help           this text\n"
"\n"
"exit: 0 no regression, 1 a regression or failure, 2 usage or setup error\n",
		DEFAULT_TIMEOUT);
}

/* Set before options are parsed, so that even a usage error maps to 125. */
static bool bisect_mode;

int exit_code(const struct opts *o, int code)
{
	if ((o->bisect || bisect_mode) && code == EXIT_SETUP)
		return 125;
	return code;
}

static void __attribute__((noreturn)) fail_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see perfconf --help)\n");
	exit(bisect_mode ? 125 : EXIT_SETUP);
}

char *self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return xstrdup(".");
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (slash)
		*slash = 0;
	return xstrdup(buf);
}

static int cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	return 1;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	enum { O_TIMEOUT = 256, O_TIMEOUTS, O_BASELINE, O_EXPECTED, O_RECORD, O_RESULTS,
	       O_JUNIT, O_BISECT, O_DIR, O_VARIANT, O_GATE, O_FORMAT, O_RCU_NORMAL, O_MODULE,
	       O_NO_MODULE };
	static const struct option lo[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "test", required_argument, NULL, 't' },
		{ "exclude", required_argument, NULL, 'x' },
		{ "list", no_argument, NULL, 'l' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "timeouts", required_argument, NULL, O_TIMEOUTS },
		{ "baseline", required_argument, NULL, O_BASELINE },
		{ "expected", required_argument, NULL, O_EXPECTED },
		{ "record", optional_argument, NULL, O_RECORD },
		{ "results", required_argument, NULL, O_RESULTS },
		{ "junit", required_argument, NULL, O_JUNIT },
		{ "bisect", no_argument, NULL, O_BISECT },
		{ "dir", required_argument, NULL, O_DIR },
		{ "variant", required_argument, NULL, O_VARIANT },
		{ "gate", required_argument, NULL, O_GATE },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "rcu-normal", no_argument, NULL, O_RCU_NORMAL },
		{ "module", required_argument, NULL, O_MODULE },
		{ "no-module", no_argument, NULL, O_NO_MODULE },
		{ 0 },
	};
	int c;

	opterr = 0;
	o->jobs = cpus();
	o->timeout = DEFAULT_TIMEOUT;
	while ((c = getopt_long(argc, argv, ":j:t:x:lvh", lo, NULL)) != -1) {
		char *end;
		long v;

		switch (c) {
		case 'j':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 1 || v > 1024)
				fail_usage("-j: expected a number of jobs from 1 to 1024, got \"%s\"", optarg);
			o->jobs = v;
			break;
		case 't':
			strv_add(&o->sel.include, optarg);
			break;
		case 'x':
			strv_add(&o->sel.exclude, optarg);
			break;
		case 'l':
			o->list = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_OK);
		case O_TIMEOUT:
			if (!parse_seconds(optarg, &o->timeout))
				fail_usage("--timeout: expected a positive number of seconds, got \"%s\"", optarg);
			o->timeout_given = true;
			break;
		case O_TIMEOUTS:
			o->timeouts = optarg;
			break;
		case O_BASELINE:
			o->baseline = optarg;
			break;
		case O_EXPECTED:
			o->expected = optarg;
			break;
		case O_RECORD:
			o->record = true;
			o->record_file = optarg;
			break;
		case O_RESULTS:
			o->results = optarg;
			break;
		case O_JUNIT:
			o->junit = optarg;
			break;
		case O_BISECT:
			o->bisect = true;
			break;
		case O_DIR:
			o->dir = optarg;
			break;
		case O_VARIANT:
			if (!*optarg || strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(optarg))
				fail_usage("--variant: expected a name of [a-z0-9_], got \"%s\"", optarg);
			o->variant = optarg;
			break;
		case O_GATE:
			if (strcmp(optarg, "baseline") && strcmp(optarg, "suite"))
				fail_usage("--gate: expected \"baseline\" or \"suite\", got \"%s\"", optarg);
			o->gate_suite = !strcmp(optarg, "suite");
			break;
		case O_RCU_NORMAL:
			o->rcu_normal = true;
			break;
		case O_MODULE:
			if (!*optarg)
				fail_usage("--module: expected a file, got \"\"");
			o->module = optarg;
			break;
		case O_NO_MODULE:
			o->no_module = true;
			break;
		case O_FORMAT:
			if (strcmp(optarg, "ktap") && strcmp(optarg, "kselftest"))
				fail_usage("--format: expected \"ktap\" or \"kselftest\", got \"%s\"", optarg);
			o->layout = !strcmp(optarg, "kselftest") ? LAYOUT_KSELFTEST : LAYOUT_KTAP;
			break;
		case ':':
			fail_usage("%s needs an argument", argv[optind - 1]);
		default:
			if (optopt)
				fail_usage("unknown option -%c", optopt);
			fail_usage("unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		fail_usage("unexpected argument \"%s\"", argv[optind]);
	if (o->module && o->no_module)
		fail_usage("--module and --no-module: give one");
}
/* --- subcommands --- */

static int cmd_diff(int argc, char **argv)
{
	struct recset a, b;
	char err[1024];
	int rc;

	if (argc >= 2 && argv[1][0] != '-' && (argc == 2 || argv[2][0] == '-')) {
		struct opts o = { 0 };

		parse_opts(argc - 1, argv + 1, &o);	/* the options after the directory */
		return cmd_judge(&o, argv[1]);
	}
	if (argc != 3)
		fail_usage("diff takes two files, or a run's results directory: perfconf diff A B | RESULTS-DIR");
	if (recset_load(&a, argv[1], err, sizeof(err)) ||
	    recset_load(&b, argv[2], err, sizeof(err))) {
		warnx_("%s", err);
		return EXIT_SETUP;
	}
	rc = baseline_diff(&a, &b, stdout);
	recset_free(&a);
	recset_free(&b);
	return rc ? EXIT_FAILED : EXIT_OK;
}

static int cmd_restore(int argc)
{
	int n, module_err;

	if (argc != 1)
		fail_usage("restore takes no argument");
	if (require_root("restore"))
		return EXIT_SETUP;
	/* A live run restores its own changes; only a dead run's are ours to put back. */
	{
		long holder;
		int err = pc_sysctl_lock_runs(false, &holder);

		if (err == -EWOULDBLOCK) {
			warnx_("the perfconf run pid %ld is running: it restores its own changes", holder);
			return EXIT_SETUP;
		}
		if (err) {
			warnx_("cannot take the run lock /run/perfconf/run.lock: %s", run_lock_why(err));
			return EXIT_SETUP;
		}
	}
	exec_cleanup_stale();
	/* The module a dead run loaded, now that its processes (and their events) are gone. */
	module_err = module_restore();
	if (module_err == 0)
		printf("unloaded %s (a run that died had loaded it)\n", PC_MODULE);
	else if (module_err == -EBUSY || module_err == -EAGAIN)
		warnx_("%s, which a run that died loaded, is still in use after %d s: left loaded (lsmod names "
		       "its users); run perfconf restore again", PC_MODULE, PC_MODULE_UNLOAD_WAIT_MS / 1000);
	else if (module_err != -ENOENT)
		warnx_("cannot unload %s, which a run that died loaded: %s", PC_MODULE, strerror(-module_err));
	n = pc_sysctl_restore_all();
	if (n < 0) {
		warnx_("cannot restore from %s: %s", pc_sysctl_state_path(), strerror(-n));
		return EXIT_SETUP;
	}
	printf("restored %d sysctl%s (state file %s)\n", n, n == 1 ? "" : "s", pc_sysctl_state_path());
	return module_err && module_err != -ENOENT ? EXIT_SETUP : EXIT_OK;
}

static int cmd_info(int argc, char **argv)
{
	struct opts o = { 0 };
	struct kernel_id k;
	bool fallback;
	char *exact, *found;

	parse_opts(argc, argv, &o);
	if (!o.dir)
		o.dir = self_dir();
	if (!o.expected)
		o.expected = xasprintf("%s/../expected", o.dir);
	kernel_identify(&k, o.variant);
	exact = baseline_path(o.expected, &k);
	found = baseline_find(o.expected, &k, &fallback);
	printf("release: %s\narch: %s\nkernel: %d.%d\nprofile: %s\n", k.release, k.arch, k.major,
	       k.minor, k.profile);
	printf("baseline: %s%s\n", found ? found : exact,
	       !found ? " (missing)" : fallback ? " (nearest older kernel)" : "");
	printf("record target: %s\n", exact);
	printf("results: %s/results/%s-%s-%s\n", o.dir, k.release, k.arch, k.profile);
	printf("sysctl state file: %s\n", pc_sysctl_state_path());
	{
		char *file = o.module ? xstrdup(o.module) : xasprintf("%s/" PC_MODULE_FILE, o.dir);
		char *missing = module_missing(file, !o.module);

		if (module_present())
			printf("module: %s loaded\n", PC_MODULE);
		else if (o.no_module)
			printf("module: %s not loaded, and --no-module\n", PC_MODULE);
		else if (missing)
			printf("module: %s not loaded; a run cannot load it: %s\n", PC_MODULE, missing);
		else
			printf("module: %s not loaded; a run loads %s\n", PC_MODULE, file);
		free(missing);
		free(file);
	}
	{
		/* The facts; what level 3 means is probed only when no run is live (it sets the level). */
		long holder;
		bool locked = pc_sysctl_lock_runs(false, &holder) == 0;
		struct strv facts = { 0 };

		facts_probe(&facts, &k, locked);
		printf("facts:%s\n", locked ? "" : " (a run is live: paranoid3 not probed)");
		for (size_t i = 0; i < facts.n; i++) {
			char *eq = strchr(facts.v[i], '=');

			printf("  %-34.*s %s\n", (int)(eq - facts.v[i]), facts.v[i], eq + 1);
		}
		strv_free(&facts);
	}
	free(exact);
	free(found);
	return EXIT_OK;
}

/*
 * The VM matrix and `perfconf vm` are scripts of the source tree
 * (runners/vm/): boots, downloads and builds are shell work. The runner only
 * finds them.
 */
static int cmd_vm_script(const char *cmd, const char *name, char **argv)
{
	const char *src = getenv("PERFCONF_SOURCE");
	char *script;

	if (!src || !*src)
		src = PERFCONF_SOURCE;
	script = xasprintf("%s/runners/vm/%s", src, name);
	argv[0] = script;
	execv(script, argv);
	fprintf(stderr, "%s: %s: cannot run %s: %s (set PERFCONF_SOURCE to the source tree)\n",
		progname, cmd, script, strerror(errno));
	return EXIT_SETUP;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		bisect_mode |= !strcmp(argv[i], "--bisect");
	if (argc > 1 && !strcmp(argv[1], "diff"))
		return cmd_diff(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "restore"))
		return cmd_restore(argc - 1);
	if (argc > 1 && !strcmp(argv[1], "info"))
		return cmd_info(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "explain")) {
		struct opts o = { 0 };

		if (argc < 3 || argv[2][0] == '-')
			fail_usage("explain takes a case id: perfconf explain <area>/<binary>:<case> [options]");
		parse_opts(argc - 2, argv + 2, &o);	/* the options after the id */
		return cmd_explain(&o, argv[2]);
	}
	if (argc > 1 && !strcmp(argv[1], "abi"))
		return cmd_abi(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "coverage"))
		return cmd_coverage(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "matrix"))
		return cmd_vm_script("matrix", "matrix.sh", argv + 1);
	if (argc > 1 && !strcmp(argv[1], "vm"))
		return cmd_vm_script("vm", "vm.sh", argv + 1);
	if (argc > 1 && !strcmp(argv[1], "run")) {
		argc--;
		argv++;
	}
	parse_opts(argc, argv, &o);
	return cmd_run(&o);
}
