// SPDX-License-Identifier: GPL-2.0
/* perfconf abi and perfconf coverage: the lib's ABI tables as reports. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/abi.h"
#include "abi_report.h"
#include "run.h"
#include "util.h"

static void release(char *buf, size_t len, int kver)
{
	snprintf(buf, len, "%d.%d", kver / 1000, kver % 1000);
}

static void print_struct(const struct pc_abi_struct *s)
{
	char since[16];

	printf("struct %s (%zu bytes)\n", s->name, s->size);
	for (size_t i = 0; i < s->nfields; i++) {
		const struct pc_abi_field *f = &s->fields[i];

		release(since, sizeof(since), f->since);
		if (f->kind == PC_FIELD_BITS || (f->kind == PC_FIELD_RESERVED && f->nbits))
			printf("  %-26s %4zu  bit %2u:%-2u since %-6s%s%s\n", f->name, f->offset,
			       f->bit, f->nbits, since, f->union_with ? " union " : "",
			       f->union_with ? f->union_with : "");
		else
			printf("  %-26s %4zu  %2zu bytes  since %-6s%s%s\n", f->name, f->offset,
			       f->size, since, f->union_with ? " union " : "",
			       f->union_with ? f->union_with : "");
	}
}

static void print_ioctls(void)
{
	char since[16];

	printf("ioctls\n");
	for (size_t i = 0; i < pc_abi_ioctls_count; i++) {
		const struct pc_abi_ioctl *c = &pc_abi_ioctls[i];

		release(since, sizeof(since), c->since);
		printf("  %2u %-32s 0x%08lx  since %-6s %s\n", c->nr, c->name, c->request, since,
		       c->arg_what);
	}
}

static void print_flags(const char *what, const struct pc_abi_flag *f, size_t n)
{
	char since[16];

	printf("%s\n", what);
	for (size_t i = 0; i < n; i++) {
		release(since, sizeof(since), f[i].since);
		printf("  %-24s 0x%lx  since %-6s %s\n", f[i].name, f[i].value, since, f[i].meaning);
	}
}

static void print_errnos(void)
{
	char since[16];

	printf("perf_event_open errnos\n");
	for (size_t i = 0; i < pc_abi_errnos_count; i++) {
		const struct pc_abi_errno *e = &pc_abi_errnos[i];

		if (e->since)
			release(since, sizeof(since), e->since);
		printf("  %-10s %3d%s%s\n", e->name, e->value, e->since ? "  since " : "",
		       e->since ? since : "");
		for (size_t j = 0; j < e->ncauses; j++)
			printf("    - %s\n", e->causes[j]);
		for (size_t j = 0; j < e->nkernel_causes; j++)
			printf("    + %s\n", e->kernel_causes[j]);
	}
}

int cmd_abi(int argc, char **argv)
{
	char since[16];

	(void)argv;
	if (argc > 1) {
		warnx_("abi takes no argument");
		return EXIT_SETUP;
	}
	printf("attr size versions\n");
	for (size_t i = 0; i < pc_abi_size_vers_count; i++) {
		const struct pc_abi_size_ver *v = &pc_abi_size_vers[i];

		release(since, sizeof(since), v->since);
		printf("  VER%u %4u bytes  since %-6s %s\n", v->ver, v->size, since, v->added);
	}
	print_struct(&pc_abi_attr);
	print_struct(&pc_abi_mmap_page);
	print_struct(&pc_abi_header);
	printf("records\n");
	for (size_t i = 0; i < pc_abi_records_count; i++) {
		const struct pc_abi_record *r = &pc_abi_records[i];

		release(since, sizeof(since), r->since);
		printf("  %2u %-20s fixed %3zu bytes  since %s\n", r->type, r->name, r->fixed_size, since);
	}
	print_ioctls();
	print_flags("open flags", pc_abi_open_flags, pc_abi_open_flags_count);
	print_flags("ioctl flags", pc_abi_ioctl_flags, pc_abi_ioctl_flags_count);
	print_errnos();
	return EXIT_OK;
}

static bool has_test(const char *tests, const char *field)
{
	const char *name = field + strspn(field, "_");
	char *pattern = xasprintf("%s/attr/%s.c", tests, name);
	glob_t g;
	bool found;

	found = glob(pattern, 0, NULL, &g) == 0;
	globfree(&g);
	free(pattern);
	if (found)
		return true;
	pattern = xasprintf("%s/attr/%s_*.c", tests, name);
	found = glob(pattern, 0, NULL, &g) == 0;
	globfree(&g);
	free(pattern);
	return found;
}

/* tests/<area>/<name>.c exists: the binaries outside attr/ are named exactly. */
static bool has_binary(const char *tests, const char *area, const char *name)
{
	char *path = xasprintf("%s/%s/%s.c", tests, area, name);
	bool found = access(path, F_OK) == 0;

	free(path);
	return found;
}

/* Print each name without tests/<area>/<name>.c; return how many. */
static size_t report_missing(const char *tests, const char *area, const char *const *names,
			     size_t n)
{
	size_t missing = 0;

	for (size_t i = 0; i < n; i++) {
		if (!has_binary(tests, area, names[i])) {
			printf("no test: tests/%s/%s.c\n", area, names[i]);
			missing++;
		}
	}
	return missing;
}

/*
 * The behaviours only a tracing PMU drives (AUX, ITRACE, exclusive): no
 * machine of ours has one, so they run on the suite's own PMUs
 * (module/perfconf_pmu.c) wherever the runner loaded it. One case each.
 */
static const struct {
	const char *behaviour, *id;
} hardware_only[] = {
	{ "PERF_RECORD_AUX and its flags", "record/aux:global.aux_record_contents" },
	{ "TRUNCATED and the disable of a full area", "record/aux:global.full_area_truncates_and_disables" },
	{ "overwrite mode (OVERWRITE)", "record/aux:global.overwrite_area_wraps_and_flags_overwrite" },
	{ "AUX mmap geometry", "record/aux:global.aux_area_geometry_on_an_aux_pmu" },
	{ "aux_watermark wakeups", "attr/aux_watermark:global.wakes_at_each_watermark_of_aux_data" },
	{ "PERF_RECORD_ITRACE_START", "record/itrace_start:global.itrace_start_contents" },
	{ "EBUSY (exclusive PMU)", "errors/ebusy:global.second_event_in_one_task_is_ebusy" },
	{ "aux_output accepted and refused", "attr/aux_output:global.accepted_from_a_member_the_leader_matches" },
	{ "aux_sample_size on an AUX leader", "attr/aux_sample_size:global.aux_leader_without_snapshots_is_not_enough" },
	{ "aux_pause/aux_resume", "attr/aux_pause:global.overflow_pauses_until_a_resume" },
	{ "aux_start_paused", "attr/aux_start_paused:global.starts_paused_until_resumed" },
	{ "PERF_RECORD_AUX_OUTPUT_HW_ID", "record/aux_output_hw_id:global.hw_id_contents" },
};

/* The baselines in dir whose line for id has verdict, as "x86_64-6.12, ..."; NULL when none. */
static char *baselines_with(const char *dir, const char *id, const char *verdict)
{
	char *pattern = xasprintf("%s/*.txt", dir), *line = NULL;
	size_t cap = 0, idlen = strlen(id);
	struct sbuf b = { 0 };
	glob_t g;

	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			FILE *f = fopen(g.gl_pathv[i], "re");

			if (!f)
				continue;
			while (getline(&line, &cap, f) > 0) {
				if (strncmp(line, id, idlen) || line[idlen] != ' ' ||
				    strncmp(line + idlen + 1, verdict, strlen(verdict)))
					continue;
				const char *name = strrchr(g.gl_pathv[i], '/') + 1;

				sb_printf(&b, "%s%.*s", b.s ? ", " : "", (int)(strlen(name) - 4), name);
				break;
			}
			fclose(f);
		}
		globfree(&g);
	}
	free(line);
	free(pattern);
	return b.s;
}

static void report_hardware_only(const char *tests)
{
	char *expected = xasprintf("%s/../expected", tests);

	printf("behaviours only a tracing PMU drives, run on the suite's module (module/perfconf_pmu.c);\n"
	       "where each case passes, per the baselines in %s:\n", expected);
	for (size_t i = 0; i < sizeof(hardware_only) / sizeof(hardware_only[0]); i++) {
		char *where = baselines_with(expected, hardware_only[i].id, "PASS");
		char *fails = baselines_with(expected, hardware_only[i].id, "FAIL");

		printf("  %-42s %s\n", hardware_only[i].behaviour, where ? where : "nowhere yet");
		if (fails)
			printf("  %-42s fails (a kernel bug: expected/fixes.txt) on %s\n", "", fails);
		free(where);
		free(fails);
	}
	free(expected);
}

int cmd_coverage(int argc, char **argv)
{
	char *tests = argc > 1 ? xasprintf("%s", argv[1]) : xasprintf("%s/../tests", self_dir());
	const char **names = xcalloc(pc_abi_ioctls_count + pc_abi_ioctl_flags_count +
				     pc_abi_open_flags_count + pc_abi_errnos_count, sizeof(*names));
	size_t missing = 0, total_missing, n, m;

	if (argc > 2) {
		warnx_("usage: perfconf coverage [TESTS_DIR]");
		free(names);
		free(tests);
		return EXIT_SETUP;
	}
	for (size_t i = 0; i < pc_abi_attr.nfields; i++) {
		const char *field = pc_abi_attr.fields[i].name;

		if (!has_test(tests, field)) {
			printf("no test: tests/attr/%s.c\n", field + strspn(field, "_"));
			missing++;
		}
	}
	printf("%zu of %zu perf_event_attr fields have a test binary in %s/attr\n",
	       pc_abi_attr.nfields - missing, pc_abi_attr.nfields, tests);
	total_missing = missing;

	n = 0;
	for (size_t i = 0; i < pc_abi_ioctls_count; i++)
		names[n++] = pc_abi_ioctls[i].test;
	for (size_t i = 0; i < pc_abi_ioctl_flags_count; i++)
		names[n++] = pc_abi_ioctl_flags[i].test;
	m = report_missing(tests, "ioctl", names, n);
	printf("%zu of %zu ioctls (PERF_EVENT_IOC_*, PERF_IOC_FLAG_GROUP) have a test binary in %s/ioctl\n",
	       n - m, n, tests);
	total_missing += m;

	n = 0;
	for (size_t i = 0; i < pc_abi_open_flags_count; i++)
		names[n++] = pc_abi_open_flags[i].test;
	m = report_missing(tests, "flags", names, n);
	printf("%zu of %zu open flags (PERF_FLAG_*) have a test binary in %s/flags\n", n - m, n, tests);
	total_missing += m;

	n = 0;
	for (size_t i = 0; i < pc_abi_errnos_count; i++)
		names[n++] = pc_abi_errnos[i].test;
	m = report_missing(tests, "errors", names, n);
	printf("%zu of %zu perf_event_open(2) errnos have a test binary in %s/errors\n", n - m, n, tests);
	total_missing += m;

	report_hardware_only(tests);
	free(names);
	free(tests);
	return total_missing ? EXIT_FAILED : EXIT_OK;
}
