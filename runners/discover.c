// SPDX-License-Identifier: GPL-2.0
/* Finding the binaries, their metadata and their timeouts. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem */
#endif
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discover.h"
#include "host/sysctl.h"

#define META_TAG "perfconf-meta: "

bool selected(const struct selection *s, const char *name)
{
	char area[256];
	bool in = s->include.n == 0;

	snprintf(area, sizeof(area), "%.*s", (int)strcspn(name, "/"), name);
	for (size_t i = 0; !in && i < s->include.n; i++)
		in = !fnmatch(s->include.v[i], name, 0) || !fnmatch(s->include.v[i], area, 0);
	for (size_t i = 0; in && i < s->exclude.n; i++)
		in = fnmatch(s->exclude.v[i], name, 0) && fnmatch(s->exclude.v[i], area, 0);
	return in;
}

static bool name_ok(const char *n)
{
	if (!*n || *n == '.')
		return false;
	return strspn(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-") == strlen(n);
}

bool parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 1e7 || isnan(v))
		return false;
	*out = v;
	return true;
}

/* A section header of a 32- or 64-bit ELF file (the runner reads both: a
 * 64-bit runner may run a compat suite's binaries). */
struct section {
	uint32_t type, name;
	uint64_t offset, size;
};

static void section_at(const char *map, bool is64, uint64_t shoff, size_t i, struct section *s)
{
	if (is64) {
		const Elf64_Shdr *sh = (const void *)(map + shoff + i * sizeof(*sh));

		*s = (struct section){ sh->sh_type, sh->sh_name, sh->sh_offset, sh->sh_size };
	} else {
		const Elf32_Shdr *sh = (const void *)(map + shoff + i * sizeof(*sh));

		*s = (struct section){ sh->sh_type, sh->sh_name, sh->sh_offset, sh->sh_size };
	}
}

/*
 * Where PERFCONF_META's string can be: in an ELF file, the read-only data
 * sections (".rodata*", where the compiler puts it; scanning only those
 * keeps discovery fast on big static binaries); in anything else (a
 * script), the first 64 KiB.
 */
static const char *find_meta(const char *map, size_t size)
{
	bool elf = size >= EI_NIDENT && !memcmp(map, ELFMAG, SELFMAG) &&
		   (map[EI_CLASS] == ELFCLASS64 || map[EI_CLASS] == ELFCLASS32);
	bool is64 = elf && map[EI_CLASS] == ELFCLASS64;
	size_t shentsize = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	const char *hit = NULL;
	size_t tag = strlen(META_TAG);
	uint64_t shoff;
	unsigned int shnum, strndx, entsize;
	struct section names;

	if (!elf || size < (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return memmem(map, size < 65536 ? size : 65536, META_TAG, tag);
	if (is64) {
		const Elf64_Ehdr *eh = (const void *)map;

		shoff = eh->e_shoff, shnum = eh->e_shnum, strndx = eh->e_shstrndx, entsize = eh->e_shentsize;
	} else {
		const Elf32_Ehdr *eh = (const void *)map;

		shoff = eh->e_shoff, shnum = eh->e_shnum, strndx = eh->e_shstrndx, entsize = eh->e_shentsize;
	}
	if (shoff == 0 || entsize != shentsize || strndx >= shnum || shoff > size ||
	    (size - shoff) / shentsize < shnum)
		return memmem(map, size, META_TAG, tag);
	section_at(map, is64, shoff, strndx, &names);
	for (size_t i = 0; i < shnum && !hit; i++) {
		struct section sh;

		section_at(map, is64, shoff, i, &sh);
		if (sh.type != SHT_PROGBITS || names.offset + sh.name >= size || sh.offset > size ||
		    sh.size > size - sh.offset)
			continue;
		if (strncmp(map + names.offset + sh.name, ".rodata", 7))
			continue;
		hit = memmem(map + sh.offset, sh.size, META_TAG, tag);
	}
	return hit;
}

/* "kernel/perf_event_paranoid:paranoid_m1=-1,paranoid_0=0" into j->phases. 0, or -1 when malformed. */
static int parse_phases(struct job *j, const char *text)
{
	struct phase_set *ps = xcalloc(1, sizeof(*ps));
	const char *colon = strchr(text, ':');
	char key[256], *list, *save;
	size_t n = 0;

	if (!colon || colon == text)
		goto bad;
	ps->sysctl = xstrndup(text, colon - text);
	ps->key = xstrdup(pc_sysctl_key(ps->sysctl, key, sizeof(key)));
	list = xstrdup(colon + 1);
	for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(p, '='), *end;
		long v;

		if (!eq || eq == p)
			break;
		errno = 0;
		v = strtol(eq + 1, &end, 10);
		if (errno || *end || end == eq + 1)
			break;
		*eq = 0;
		strv_add(&ps->variant, p);
		ps->value = xrealloc(ps->value, (n + 1) * sizeof(*ps->value));
		ps->value[n++] = v;
	}
	free(list);
	if (n == 0 || ps->variant.n != n || strlen(colon + 1) != strspn(colon + 1, "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_=,-"))
		goto bad;
	j->phases = ps;
	return 0;
bad:
	free(ps->sysctl);
	free(ps->key);
	strv_free(&ps->variant);
	free(ps->value);
	free(ps);
	return -1;
}

/* The words after "perfconf-meta: " in the file (first occurrence). */
static void read_meta(struct job *j)
{
	int fd = open(j->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	const char *m, *p, *end;
	void *map;

	if (fd < 0)
		return;
	if (fstat(fd, &st) || st.st_size == 0) {
		close(fd);
		return;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	m = find_meta(map, st.st_size);
	if (m) {
		char words[1024];
		size_t n = 0;

		p = m + strlen(META_TAG);
		end = (const char *)map + st.st_size;
		while (p < end && *p && *p != '\n' && n < sizeof(words) - 1)
			words[n++] = *p++;
		words[n] = 0;
		for (char *save, *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
			double secs;

			if (!strcmp(w, "exclusive")) {
				j->exclusive = true;
			} else if (!strncmp(w, "reads=", 6) || !strncmp(w, "writes=", 7) || !strncmp(w, "serial=", 7)) {
				struct strv *keys = w[0] == 'r' ? &j->reads : w[0] == 'w' ? &j->writes : &j->serial;
				char *save2;

				for (char *k = strtok_r(strchr(w, '=') + 1, ",", &save2); k; k = strtok_r(NULL, ",", &save2))
					strv_add(keys, k);
			} else if (!strncmp(w, "phases=", 7)) {
				if (parse_phases(j, w + 7))
					warnx_("%s: ignoring malformed PERFCONF_META word \"%s\" (phases=<sysctl>:"
					       "<variant>=<value>,...)", j->path, w);
			} else if (!strncmp(w, "timeout=", 8) && parse_seconds(w + 8, &secs)) {
				j->timeout = secs;
				free(j->timeout_from);
				j->timeout_from = xstrdup("PERFCONF_META");
			} else {
				warnx_("%s: ignoring unknown PERFCONF_META word \"%s\"", j->path, w);
			}
		}
	}
	munmap(map, st.st_size);
}

static int cmp_job(const void *a, const void *b)
{
	return strcmp(((const struct job *)a)->name, ((const struct job *)b)->name);
}

int discover(const char *dir, const struct selection *sel, struct job **jobsp, size_t *np,
	     char *err, size_t errlen)
{
	char *top = xasprintf("%s/tests", dir), real[PATH_MAX];
	struct job *jobs = NULL;
	size_t n = 0, cap = 0;
	struct dirent *a;
	DIR *d;

	if (!realpath(top, real) || !(d = opendir(real))) {
		snprintf(err, errlen, "%s: %s (no test binaries: build them first, or give --dir)",
			 top, strerror(errno));
		free(top);
		return -1;
	}
	free(top);
	while ((a = readdir(d))) {
		char *adir;
		DIR *ad;
		struct dirent *b;

		if (a->d_name[0] == '.')
			continue;
		adir = xasprintf("%s/%s", real, a->d_name);
		ad = opendir(adir);
		if (!ad) {
			free(adir);
			continue;
		}
		while ((b = readdir(ad))) {
			char *path, *name;
			struct stat st;

			if (b->d_name[0] == '.')
				continue;
			path = xasprintf("%s/%s", adir, b->d_name);
			if (stat(path, &st) || !S_ISREG(st.st_mode) || !(st.st_mode & 0111)) {
				free(path);
				continue;
			}
			name = xasprintf("%s/%s", a->d_name, b->d_name);
			if (!name_ok(a->d_name) || !name_ok(b->d_name)) {
				warnx_("%s: skipped: names may use only A-Z a-z 0-9 _ . + -", path);
				free(path);
				free(name);
				continue;
			}
			if (!selected(sel, name)) {
				free(path);
				free(name);
				continue;
			}
			grow(&jobs, &cap, n + 1, sizeof(*jobs));
			memset(&jobs[n], 0, sizeof(*jobs));
			jobs[n].name = name;
			jobs[n].path = path;
			jobs[n].fd = -1;
			tap_init(&jobs[n].tap);
			read_meta(&jobs[n]);
			n++;
		}
		closedir(ad);
		free(adir);
	}
	closedir(d);
	if (n > 1)
		qsort(jobs, n, sizeof(*jobs), cmp_job);
	*jobsp = jobs;
	*np = n;
	return 0;
}

int timeouts_load(struct timeouts *t, const char *path, bool required, char *err, size_t errlen)
{
	size_t len;
	char *data, *line, *save;
	int lineno = 0;

	memset(t, 0, sizeof(*t));
	t->path = xstrdup(path);
	data = read_file(path, &len);
	if (!data) {
		if (!required && errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	/* strtok_r would skip empty lines and lose the count: split by hand. */
	for (line = data; line && *line; line = save) {
		char glob[256], secs[64], extra[2];
		char *nl = strchr(line, '\n'), *hash;
		int k;
		double v;

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = 0;
		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		k = sscanf(line, "%255s %63s %1s", glob, secs, extra);
		if (k <= 0)
			continue;
		if (k != 2) {
			snprintf(err, errlen, "%s:%d: expected \"<glob> <seconds>\"", path, lineno);
			free(data);
			return -1;
		}
		if (!parse_seconds(secs, &v)) {
			snprintf(err, errlen, "%s:%d: \"%s\" is not a positive number of seconds",
				 path, lineno, secs);
			free(data);
			return -1;
		}
		grow(&t->v, &t->cap, t->n + 1, sizeof(*t->v));
		t->v[t->n].glob = xstrdup(glob);
		t->v[t->n].secs = v;
		t->v[t->n].line = lineno;
		t->n++;
	}
	free(data);
	return 0;
}

void timeouts_free(struct timeouts *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].glob);
	free(t->v);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

void apply_timeouts(struct job *jobs, size_t n, const struct timeouts *t, double dflt,
		    const char *dflt_from)
{
	for (size_t i = 0; i < n; i++) {
		struct job *j = &jobs[i];
		struct selection one = { 0 };

		if (j->timeout_from)	/* PERFCONF_META */
			continue;
		j->timeout = dflt;
		j->timeout_from = xstrdup(dflt_from);
		for (size_t r = 0; r < t->n; r++) {
			one.include.v = &t->v[r].glob;
			one.include.n = 1;
			if (selected(&one, j->name)) {
				j->timeout = t->v[r].secs;
				free(j->timeout_from);
				j->timeout_from = xasprintf("%s:%d", t->path, t->v[r].line);
				break;
			}
		}
	}
}
