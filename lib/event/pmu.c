// SPDX-License-Identifier: GPL-2.0
/* PMU discovery from sysfs, and tracefs look-ups. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/kernel.h"
#include "host/observe.h"
#include "event/event.h"
#include "event/pmu.h"

/* Read a small sysfs file into buf, without its trailing newline. 0 or -errno. */
static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	size_t n = fread(buf, 1, len - 1, f);
	int err = ferror(f) ? -EIO : 0;
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return err;
}

static int pmu_file(const char *pmu, const char *sub, const char *name, char *buf, size_t len)
{
	char path[512];

	if (strchr(pmu, '/') || (name && strchr(name, '/')))
		return -EINVAL;
	snprintf(path, sizeof(path), PC_PMU_SYSFS "/%s/%s%s%s", pmu, sub,
		 name ? "/" : "", name ? name : "");
	return read_text(path, buf, len);
}

int pc_pmu_type(const char *pmu)
{
	char buf[32];
	int err = pmu_file(pmu, "type", NULL, buf, sizeof(buf));

	pc_depends("pmu.%s", pmu);	/* what follows depends on whether it is there */
	if (err)
		return err == -ENOENT ? -ENOENT : err;
	char *end;
	long type = strtol(buf, &end, 10);
	return (*end || type < 0) ? -EINVAL : (int)type;
}

bool pc_pmu_exists(const char *pmu)
{
	return pc_pmu_type(pmu) >= 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **pc_pmu_list(void)
{
	DIR *d = opendir(PC_PMU_SYSFS);
	size_t n = 0, cap = 16;
	char **v = calloc(cap + 1, sizeof(*v));
	struct dirent *e;

	if (!d || !v) {
		if (d)
			closedir(d);
		free(v);
		return NULL;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **bigger = realloc(v, (cap * 2 + 1) * sizeof(*v));
			if (!bigger)
				break;
			v = bigger;
			cap *= 2;
		}
		v[n++] = strdup(e->d_name);
	}
	closedir(d);
	v[n] = NULL;
	qsort(v, n, sizeof(*v), cmp_str);
	return v;
}

void pc_strv_free(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}

int pc_pmu_format(const char *pmu, const char *name, struct pc_pmu_format *out)
{
	char buf[128], word[16];
	int err = pmu_file(pmu, "format", name, buf, sizeof(buf));

	if (err)
		return err;
	/* "config:0-7,32-35" or "config1:5" */
	char *colon = strchr(buf, ':');
	if (!colon || (size_t)(colon - buf) >= sizeof(word))
		return -EINVAL;
	memcpy(word, buf, (size_t)(colon - buf));
	word[colon - buf] = '\0';
	if (!strcmp(word, "config"))
		out->word = 0;
	else if (sscanf(word, "config%d", &out->word) != 1 || out->word < 1 || out->word > 4)
		return -EINVAL;
	out->mask = 0;
	for (char *tok = strtok(colon + 1, ","); tok; tok = strtok(NULL, ",")) {
		unsigned int lo, hi;
		int n = sscanf(tok, "%u-%u", &lo, &hi);
		if (n == 1)
			hi = lo;
		if (n < 1 || lo > hi || hi > 63)
			return -EINVAL;
		for (unsigned int b = lo; b <= hi; b++)
			out->mask |= 1ULL << b;
	}
	return 0;
}

int pc_pmu_event(const char *pmu, const char *event, char *buf, size_t len)
{
	return pmu_file(pmu, "events", event, buf, len);
}

int pc_pmu_cap(const char *pmu, const char *cap, char *buf, size_t len)
{
	return pmu_file(pmu, "caps", cap, buf, len);
}

int pc_pmu_cpumask(const char *pmu, char *buf, size_t len)
{
	return pmu_file(pmu, "cpumask", NULL, buf, len);
}

long pc_pmu_mux_interval_ms(const char *pmu)
{
	char buf[32], *end;
	long ms;
	int err = pmu_file(pmu, "perf_event_mux_interval_ms", NULL, buf, sizeof(buf));

	if (err)
		return err;
	ms = strtol(buf, &end, 10);
	return end == buf || ms <= 0 ? -EINVAL : ms;
}

static const char *mounted_tracefs(void)
{
	static const char *const places[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	struct stat st;
	char path[128];

	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(path, sizeof(path), "%s/events", places[i]);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			return places[i];
	}
	return NULL;
}

const char *pc_tracefs(void)
{
	const char *found = mounted_tracefs();

	if (found)
		return found;
	/*
	 * Not mounted: mount it in a private mount namespace of this process,
	 * so the machine's mounts stay as they were, and nothing is left
	 * behind when the process exits.
	 */
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return NULL;
	return mounted_tracefs();
}

int pc_tracefs_write(const char *file, const char *text)
{
	const char *tracefs = pc_tracefs();
	char path[512];
	int fd, err = 0;

	if (!tracefs)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s", tracefs, file);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		err = -errno;
	close(fd);
	return err;
}

long pc_tracepoint_id(const char *sys, const char *name)
{
	const char *tracefs = pc_tracefs();
	char path[512], buf[32];

	if (!tracefs)
		return -ENOENT;
	if (strchr(sys, '/') || strchr(name, '/'))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, name);
	int err = read_text(path, buf, sizeof(buf));
	if (err)
		return err;
	char *end;
	long id = strtol(buf, &end, 10);
	return *end ? -EINVAL : id;
}

int pc_tracepoint_keep(long id)
{
	struct perfconf_attr attr;
	int fd;

	if (id < 0)
		return (int)id;
	attr = pc_attr(PERF_TYPE_TRACEPOINT, (uint64_t)id);
	attr.disabled = 1;
	fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? fd : 0;	/* the fd stays open: that is the point */
}

/* Which PMU formats use which attr word. */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void append(char *buf, size_t len, size_t *used, const char *pmu, const char *name)
{
	int n = snprintf(buf + *used, len - *used, "%s%s:%s", *used ? "," : "", pmu, name);

	if (n > 0 && (size_t)n < len - *used)
		*used += (size_t)n;
}

int pc_pmu_formats_in_word(int word, char *buf, size_t len)
{
	char **pmus = pc_pmu_list();
	size_t used = 0;
	int count = 0;

	pc_depends("pmus");	/* the formats of every PMU here */
	buf[0] = '\0';
	for (size_t i = 0; pmus && pmus[i] && count >= 0; i++) {
		char dir[512];
		struct dirent **entries;

		snprintf(dir, sizeof(dir), "%s/%s/format", PC_PMU_SYSFS, pmus[i]);
		int n = scandir(dir, &entries, NULL, by_name);
		for (int k = 0; k < n; k++) {
			struct pc_pmu_format f;
			const char *name = entries[k]->d_name;

			if (name[0] != '.' && count >= 0) {
				if (pc_pmu_format(pmus[i], name, &f)) {
					used = 0;
					append(buf, len, &used, pmus[i], name);
					count = -EINVAL;
				} else if (f.word == word) {
					append(buf, len, &used, pmus[i], name);
					count++;
				}
			}
			free(entries[k]);
		}
		if (n >= 0)
			free(entries);
	}
	pc_strv_free(pmus);
	if (count == 0)
		snprintf(buf, len, "none");
	return count;
}

int pc_pmu_observe_formats_in_word(int word)
{
	char list[2048];
	int n = pc_pmu_formats_in_word(word, list, sizeof(list));

	pc_observe("formats", "%s", list);
	return n;
}
