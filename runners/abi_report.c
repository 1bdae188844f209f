// SPDX-License-Identifier: GPL-2.0
/* perfconf abi and perfconf coverage: the lib's ABI tables as reports. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int cmd_coverage(int argc, char **argv)
{
	char *tests = argc > 1 ? xasprintf("%s", argv[1]) : xasprintf("%s/../tests", self_dir());
	size_t missing = 0;

	if (argc > 2) {
		warnx_("usage: perfconf coverage [TESTS_DIR]");
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
	free(tests);
	return missing ? EXIT_FAILED : EXIT_OK;
}
