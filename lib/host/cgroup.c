// SPDX-License-Identifier: GPL-2.0
/* The cgroup hierarchy that hosts perf_event, and short-lived cgroups in it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/cgroup.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Is `word` one of the comma-separated options? */
static bool has_option(const char *options, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = options; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncmp(p, word, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
	}
	return false;
}

int pc_cgroup_perf_mount(struct pc_cgroup_mount *m)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	bool found_v1 = false, found_v2 = false;
	struct pc_cgroup_mount v2;

	if (!f)
		return -errno;
	while (!found_v1 && fgets(line, sizeof(line), f)) {
		char root[PATH_MAX], dir[PATH_MAX], fstype[64], super[1024];
		const char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%*s %*s %*s %4095s %4095s", root, dir) != 2 ||
		    sscanf(sep, " - %63s %*s %1023s", fstype, super) != 2)
			continue;
		unescape(root);
		unescape(dir);
		if (!strcmp(fstype, "cgroup") && has_option(super, "perf_event")) {
			snprintf(m->dir, sizeof(m->dir), "%s", dir);
			snprintf(m->root, sizeof(m->root), "%s", root);
			m->v2 = false;
			found_v1 = true;
		} else if (!strcmp(fstype, "cgroup2") && !found_v2) {
			snprintf(v2.dir, sizeof(v2.dir), "%s", dir);
			snprintf(v2.root, sizeof(v2.root), "%s", root);
			v2.v2 = true;
			found_v2 = true;
		}
	}
	fclose(f);
	if (found_v1)
		return 0;
	if (!found_v2)
		return -ENOENT;
	*m = v2;
	return 0;
}

char *pc_cgroup_unique_name(char *buf, size_t len)
{
	static unsigned int n;

	snprintf(buf, len, "perfconf-%d-%u", (int)getpid(), n++);
	return buf;
}

int pc_cgroup_create(const struct pc_cgroup_mount *m, const char *rel, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", m->dir, rel);
	return mkdir(path, 0755) ? -errno : 0;
}

void pc_cgroup_kernel_path(const struct pc_cgroup_mount *m, const char *rel, char *buf, size_t len)
{
	const char *root = m->root;

	if (!strcmp(root, "/"))
		root = "";
	snprintf(buf, len, "%s/%s", root, rel);
}

int pc_cgroup_remove(const char *path)
{
	if (rmdir(path) && errno != ENOENT)
		return -errno;
	return 0;
}

int pc_cgroup_id(const char *path, uint64_t *id)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[64];
	} h = { .fh.handle_bytes = sizeof(h.bytes) };
	int mount_id;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0))
		return -errno;
	if (h.fh.handle_bytes != sizeof(*id))
		return -EPROTO;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

int pc_cgroup_attach(const char *path, pid_t pid)
{
	char procs[PATH_MAX + 16];
	FILE *f;
	int err = 0;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
	f = fopen(procs, "w");
	if (!f)
		return -errno;
	/* the kernel moves the process on the write: its error comes with the flush */
	if (fprintf(f, "%d\n", (int)pid) < 0 || fflush(f))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

int pc_cgroup_mount_private(struct pc_cgroup_mount *m)
{
	char dir[] = "/tmp/perfconf-cgroup2-XXXXXX";
	int err;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	if (!mkdtemp(dir))
		return -errno;
	if (mount("cgroup2", dir, "cgroup2", 0, NULL)) {
		err = -errno;
		rmdir(dir);
		return err;
	}
	snprintf(m->dir, sizeof(m->dir), "%s", dir);
	snprintf(m->root, sizeof(m->root), "/");
	m->v2 = true;
	return 0;
}

int pc_cgroup_unmount_private(const struct pc_cgroup_mount *m)
{
	if (umount2(m->dir, MNT_DETACH) && errno != EINVAL)
		return -errno;
	return rmdir(m->dir) && errno != ENOENT ? -errno : 0;
}

/* The path of a /proc/self/cgroup line "<id>:<controllers>:<path>" if it is the hierarchy's, else NULL. */
static const char *own_path(const struct pc_cgroup_mount *m, char *line)
{
	char *controllers = strchr(line, ':'), *path;

	if (!controllers || !(path = strchr(++controllers, ':')))
		return NULL;
	*path++ = '\0';
	path[strcspn(path, "\n")] = '\0';
	if (m->v2)
		return !strncmp(line, "0:", 2) && !*controllers ? path : NULL;
	return has_option(controllers, "perf_event") ? path : NULL;
}

int pc_cgroup_self(const struct pc_cgroup_mount *m, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[PATH_MAX + 256];
	const char *own = NULL;
	size_t root_len = strcmp(m->root, "/") ? strlen(m->root) : 0;
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (!own && fgets(line, sizeof(line), f))
		own = own_path(m, line);
	/* The mount shows the hierarchy from its root down: the cgroup must lie below it. */
	if (own && !strncmp(own, m->root, root_len) && (own[root_len] == '/' || !own[root_len])) {
		snprintf(path, len, "%s%s", m->dir, own + root_len);
		err = 0;
	}
	fclose(f);
	return err;
}

int pc_cgroup_fresh_make(struct pc_cgroup_fresh *c)
{
	char rel[64];
	int err;

	c->private_mount = false;
	c->path[0] = '\0';
	if (pc_cgroup_perf_mount(&c->m)) {
		err = pc_cgroup_mount_private(&c->m);
		if (err)
			return err;
		c->private_mount = true;
	}
	err = pc_cgroup_create(&c->m, pc_cgroup_unique_name(rel, sizeof(rel)), c->path, sizeof(c->path));
	if (err) {
		c->path[0] = '\0';
		pc_cgroup_fresh_remove(c);
	}
	return err;
}

void pc_cgroup_fresh_remove(struct pc_cgroup_fresh *c)
{
	if (c->path[0])
		pc_cgroup_remove(c->path);
	c->path[0] = '\0';
	if (c->private_mount)
		pc_cgroup_unmount_private(&c->m);
	c->private_mount = false;
}
