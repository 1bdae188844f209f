// SPDX-License-Identifier: GPL-2.0
/* Facts about the running kernel. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "abi/abi.h"
#include "host/kernel.h"

const struct pc_kernel *pc_kernel(void)
{
	static struct pc_kernel k;
	static int done;
	struct utsname u;

	if (done)
		return &k;
	done = 1;
	if (uname(&u) == 0) {
		snprintf(k.release, sizeof(k.release), "%s", u.release);
		snprintf(k.arch, sizeof(k.arch), "%s", u.machine);
		sscanf(u.release, "%d.%d.%d", &k.major, &k.minor, &k.patch);
		k.kver = PC_KVER(k.major, k.minor);
	}
	/* x86_64, aarch64, ppc64le, riscv64, mips64, sparc64, loongarch64, s390x */
	k.long_bytes = strstr(k.arch, "64") || !strcmp(k.arch, "s390x") ? 8 : sizeof(long);
	return &k;
}

bool pc_kernel_compat(void)
{
	return sizeof(long) < pc_kernel()->long_bytes;
}

bool pc_kernel_uprobes_task(void)
{
#if defined(__arm__)
	return !pc_kernel_compat();
#else
	return true;
#endif
}

/* The kernel config as one text blob, loaded once. */
static const char *config_text(void)
{
	static char *text;
	static int loaded;
	char path[256];

	if (loaded)
		return text;
	loaded = 1;
	gzFile gz = gzopen("/proc/config.gz", "rb");
	if (!gz) {
		snprintf(path, sizeof(path), "/boot/config-%s", pc_kernel()->release);
		gz = gzopen(path, "rb");	/* zlib reads plain files too */
	}
	if (!gz)
		return NULL;
	size_t cap = 1 << 18, len = 0;
	text = malloc(cap + 1);
	for (int n; text && (n = gzread(gz, text + len, (unsigned int)(cap - len))) > 0;) {
		len += (size_t)n;
		if (len == cap) {
			char *bigger = realloc(text, cap * 2 + 1);
			if (!bigger) {
				free(text);
				text = NULL;
				break;
			}
			text = bigger;
			cap *= 2;
		}
	}
	gzclose(gz);
	if (text)
		text[len] = '\0';
	return text;
}

bool pc_kernel_config_available(void)
{
	return config_text() != NULL;
}

char pc_kernel_config(const char *option)
{
	const char *text = config_text();
	char name[128], want[160];

	if (!text)
		return 0;
	snprintf(name, sizeof(name), "%s%s", strncmp(option, "CONFIG_", 7) ? "CONFIG_" : "", option);
	/* "CONFIG_X=y" or "# CONFIG_X is not set", each at the start of a line */
	snprintf(want, sizeof(want), "\n%s=", name);
	const char *p = strstr(text, want);
	if (p)
		return p[strlen(want)];
	snprintf(want, sizeof(want), "\n# %s is not set", name);
	return strstr(text, want) ? 'n' : 0;
}

int pc_cpus_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

int pc_nofile_raise(unsigned long n)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return -errno;
	if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur >= n)
		return 0;
	if (r.rlim_max != RLIM_INFINITY && r.rlim_max < n)
		return -EMFILE;
	r.rlim_cur = r.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &r) ? -errno : 0;
}

unsigned long pc_nofile_hard(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return 0;
	return r.rlim_max == RLIM_INFINITY ? ULONG_MAX : (unsigned long)r.rlim_max;
}

int pc_kernel_read_long(const char *path, long *value)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%ld", value) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

