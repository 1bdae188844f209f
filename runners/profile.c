// SPDX-License-Identifier: GPL-2.0
/*
 * Which kernel and which PMU set this is: the key of the baseline.
 *
 * The profile names the machine's core (CPU) hardware PMUs:
 *  - a PMU is a core PMU when its name is "cpu" or starts with "cpu_"
 *    (x86: cpu, or cpu_core + cpu_atom on hybrids), is "cpum_cf" (s390),
 *    or its sysfs directory has a "cpus" file (arm, arm64 and riscv core
 *    PMUs list their CPUs there);
 *  - the generic and non-core PMUs never count: software, tracepoint,
 *    breakpoint, kprobe, uprobe, msr, power, cstate_*, uncore_*, and the
 *    like simply fail the rule above;
 *  - a trailing "_<number>" instance suffix is dropped
 *    (armv8_pmuv3_0 -> armv8_pmuv3);
 *  - several core PMUs: sorted and joined with "+" (cpu_atom+cpu_core);
 *  - none: "nohw".
 * So a kernel that loses its PMU gets another profile, and the comparison
 * against the old one shows every hardware case as a regression.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "baseline.h"
#include "profile.h"
#include "util.h"

static const char *const generic[] = {
	"software", "tracepoint", "breakpoint", "kprobe", "uprobe", "msr", "power", NULL,
};

static bool is_core(const char *dir, const char *name)
{
	char *cpus;
	struct stat st;
	bool has_cpus;

	for (int i = 0; generic[i]; i++)
		if (!strcmp(name, generic[i]))
			return false;
	if (!strcmp(name, "cpu") || !strncmp(name, "cpu_", 4) || !strcmp(name, "cpum_cf"))
		return true;
	cpus = xasprintf("%s/%s/cpus", dir, name);
	has_cpus = stat(cpus, &st) == 0;
	free(cpus);
	return has_cpus;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void pmu_names(struct strv *out, bool core_only)
{
	const char *dir = getenv("PERFCONF_PMU_SYSFS");
	struct dirent *e;
	DIR *d;

	if (!dir || !*dir)
		dir = "/sys/bus/event_source/devices";
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		char *n, *u;
		bool dup = false;

		if (e->d_name[0] == '.' || (core_only && !is_core(dir, e->d_name)))
			continue;
		n = xstrdup(e->d_name);
		u = strrchr(n, '_');
		if (u && u[1] && strspn(u + 1, "0123456789") == strlen(u + 1))
			*u = 0;
		for (size_t i = 0; i < out->n; i++)
			dup |= !strcmp(out->v[i], n);
		if (!dup)
			strv_add(out, n);
		free(n);
	}
	if (d)
		closedir(d);
	qsort(out->v, out->n, sizeof(*out->v), cmp_str);
}

void profile_detect(char *out, size_t len)
{
	const char *pretend = getenv("PERFCONF_PROFILE");
	struct strv names = { 0 };
	size_t off = 0;

	if (pretend && *pretend) {
		snprintf(out, len, "%s", pretend);
		return;
	}
	pmu_names(&names, true);
	if (!names.n) {
		snprintf(out, len, "nohw");
		return;
	}
	out[0] = 0;
	for (size_t i = 0; i < names.n && off < len; i++)
		off += snprintf(out + off, len - off, "%s%s", i ? "+" : "", names.v[i]);
	strv_free(&names);
}

/*
 * The userland's name where the runner was built for the compat ABI of
 * the kernel it runs on (a 32-bit build on a 64-bit kernel): the compat
 * paths are other semantics, so a variant of their own.
 */
static const char *compat_variant(const char *machine)
{
#if defined(__i386__)
	if (!strcmp(machine, "x86_64"))
		return "i386";
#elif defined(__arm__)
	if (!strcmp(machine, "aarch64"))
		return "armhf";
#endif
	(void)machine;
	return NULL;
}

void kernel_identify(struct kernel_id *k, const char *variant)
{
	struct utsname u;
	const char *compat;

	memset(k, 0, sizeof(*k));
	if (uname(&u) == 0) {
		snprintf(k->release, sizeof(k->release), "%s", u.release);
		snprintf(k->arch, sizeof(k->arch), "%s", u.machine);
	}
	if (sscanf(k->release, "%d.%d", &k->major, &k->minor) != 2)
		k->major = k->minor = 0;
	profile_detect(k->profile, sizeof(k->profile));
	compat = compat_variant(k->arch);
	snprintf(k->variant, sizeof(k->variant), "%s%s%s", compat ? compat : "", compat && variant ? "-" : "",
		 variant ? variant : "");
	if (k->variant[0]) {
		size_t n = strlen(k->profile);

		snprintf(k->profile + n, sizeof(k->profile) - n, "-%s", k->variant);
	}
}
