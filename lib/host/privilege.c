// SPDX-License-Identifier: GPL-2.0
/* Identities built with libcap (see privilege.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/abi.h"
#include "host/paranoid.h"
#include "host/privilege.h"
#include "host/sysctl.h"

#define NOBODY .uid = PC_NOBODY
#define CAPS(...) .caps = { __VA_ARGS__ }, .ncaps = sizeof((cap_value_t[]){ __VA_ARGS__ }) / sizeof(cap_value_t)

/* CAP_PERFMON and CAP_BPF came in 5.8; before, CAP_SYS_ADMIN stood for both. */
const struct pc_identity pc_identities[] = {
	{ .name = "root", .root = true },
	{ .name = "unprivileged", NOBODY },
	{ .name = "perfmon", NOBODY, CAPS(CAP_PERFMON), .since = PC_KVER(5, 8) },
	{ .name = "sys_admin", NOBODY, CAPS(CAP_SYS_ADMIN) },
	{ .name = "sys_ptrace", NOBODY, CAPS(CAP_SYS_PTRACE) },
	{ .name = "ipc_lock", NOBODY, CAPS(CAP_IPC_LOCK) },
	{ .name = "bpf", NOBODY, CAPS(CAP_BPF), .since = PC_KVER(5, 8) },
	{ .name = "bpf_perfmon", NOBODY, CAPS(CAP_BPF, CAP_PERFMON), .since = PC_KVER(5, 8) },
	{ .name = "syslog", NOBODY, CAPS(CAP_SYSLOG) },
};
const size_t pc_identities_count = sizeof(pc_identities) / sizeof(pc_identities[0]);

const struct pc_identity pc_stranger = { .name = "stranger", .uid = PC_STRANGER };

const struct pc_identity *pc_identity(const char *name)
{
	for (size_t i = 0; i < pc_identities_count; i++)
		if (!strcmp(pc_identities[i].name, name))
			return &pc_identities[i];
	return NULL;
}

bool pc_identity_has(const struct pc_identity *id, cap_value_t cap)
{
	if (id->root)
		return cap_get_bound(cap) == 1;
	for (unsigned int i = 0; i < id->ncaps; i++)
		if (id->caps[i] == cap)
			return true;
	return false;
}

/* The identity's sets: effective = permitted = its capabilities, nothing inheritable. */
static cap_t expected_caps(const struct pc_identity *id)
{
	cap_t c = cap_init();

	if (!c)
		return NULL;
	for (cap_value_t v = 0; v < (cap_value_t)cap_max_bits(); v++) {
		if (!pc_identity_has(id, v))
			continue;
		if (cap_set_flag(c, CAP_EFFECTIVE, 1, &v, CAP_SET) ||
		    cap_set_flag(c, CAP_PERMITTED, 1, &v, CAP_SET)) {
			cap_free(c);
			return NULL;
		}
	}
	return c;
}

int pc_identity_become(const struct pc_identity *id)
{
	cap_iab_t iab = NULL;
	cap_t want = NULL;
	int err = 0;

	if (geteuid() != 0)
		return -EPERM;
	/* What an identity without both may open, perf_event_paranoid decides. */
	if (!pc_identity_has(id, CAP_PERFMON) || !pc_identity_has(id, CAP_SYS_ADMIN))
		pc_sysctl_note(false, PC_PARANOID_SYSCTL);
	want = expected_caps(id);
	iab = cap_iab_init();		/* nothing inheritable or ambient, the bounding set kept */
	if (!want || !iab) {
		err = -ENOMEM;
		goto out;
	}
	if (!id->root && (cap_setgroups(id->uid, 0, NULL) || cap_setuid(id->uid))) {
		err = -errno;
		goto out;
	}
	if (cap_iab_set_proc(iab) || cap_set_proc(want) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		err = -errno;
out:
	cap_free(iab);
	cap_free(want);
	return err;
}

int pc_identity_verify(const struct pc_identity *id, char *why, size_t len)
{
	uid_t want_uid = id->root ? 0 : id->uid, r, e, s;
	int fs = setfsuid(-1);
	cap_t have = cap_get_proc(), want = expected_caps(id);
	cap_iab_t iab = cap_iab_get_proc();
	int err = 0;

	if (!have || !want || !iab) {
		snprintf(why, len, "%s: cannot read this process's capabilities (%s)", id->name, strerror(errno));
		err = -EPERM;
		goto out;
	}
	if (getresuid(&r, &e, &s) || r != want_uid || e != want_uid || s != want_uid || (uid_t)fs != want_uid) {
		snprintf(why, len, "%s: uids %u/%u/%u/%d (real/effective/saved/fs), expected %u", id->name,
			 r, e, s, fs, want_uid);
		err = -EPERM;
		goto out;
	}
	if (prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 1) {
		snprintf(why, len, "%s: not dumpable", id->name);
		err = -EPERM;
		goto out;
	}
	int d = cap_compare(have, want);
	if (d) {
		char *text = cap_to_text(have, NULL);

		snprintf(why, len, "%s: capability sets differ in%s%s%s: \"%s\"", id->name,
			 CAP_DIFFERS(d, CAP_EFFECTIVE) ? " effective" : "",
			 CAP_DIFFERS(d, CAP_PERMITTED) ? " permitted" : "",
			 CAP_DIFFERS(d, CAP_INHERITABLE) ? " inheritable" : "", text ? text : "?");
		cap_free(text);
		err = -EPERM;
		goto out;
	}
	for (cap_value_t v = 0; v < (cap_value_t)cap_max_bits(); v++) {
		if (cap_iab_get_vector(iab, CAP_IAB_AMB, v) == CAP_SET) {
			char *name = cap_to_name(v);

			snprintf(why, len, "%s: %s is ambient", id->name, name ? name : "?");
			cap_free(name);
			err = -EPERM;
			goto out;
		}
	}
out:
	cap_free(iab);
	cap_free(want);
	cap_free(have);
	return err;
}

int pc_become_nobody(void)
{
	return pc_identity_become(pc_identity("unprivileged"));
}

#define EXE_COPY_ENV "PERFCONF_EXE_COPY"

static char exe_copy[PATH_MAX];
static pid_t exe_copy_owner;

/* At exit of the process that runs the copy (not of the harness's forks). */
static void exe_copy_remove(void)
{
	char *slash;

	if (getpid() != exe_copy_owner)
		return;
	unlink(exe_copy);
	slash = strrchr(exe_copy, '/');
	if (slash) {
		*slash = 0;
		rmdir(exe_copy);
	}
}

/* Whether uid 65534 can look path up (search every directory on the way). */
static bool nobody_reaches(const char *path)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return true;	/* cannot tell: leave it where it is */
	if (pid == 0)
		_exit(pc_become_nobody() ? 0 : access(path, F_OK) ? 1 : 0);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return true;
	return !WIFEXITED(st) || WEXITSTATUS(st) == 0;
}

static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out, err = 0;
	char buf[65536];
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			err = -EIO;
			break;
		}
	if (n < 0)
		err = -errno;
	if (!err && fchmod(out, 0755))
		err = -errno;
	close(in);
	if (close(out) && !err)
		err = -errno;
	return err;
}

/* This process's arguments, from /proc/self/cmdline: a NULL-terminated vector (leaked: it is exec's). */
static char **own_argv(void)
{
	static char buf[65536];
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	char **argv;
	size_t argc = 0;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = 0;
	for (ssize_t i = 0; i < n; i++)
		argc += buf[i] == 0;
	argv = calloc(argc + 1, sizeof(*argv));
	if (!argv)
		return NULL;
	for (size_t i = 0, at = 0; i < argc; i++) {
		argv[i] = buf + at;
		at += strlen(buf + at) + 1;
	}
	return argv;
}

int pc_exe_reachable(void)
{
	const char *mark = getenv(EXE_COPY_ENV);
	char exe[PATH_MAX], dir[64];
	char **argv;
	ssize_t n;
	int err;

	if (mark) {
		/* This is the copy: it goes when this process does. */
		snprintf(exe_copy, sizeof(exe_copy), "%s", mark);
		exe_copy_owner = getpid();
		atexit(exe_copy_remove);
		unsetenv(EXE_COPY_ENV);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (geteuid() != 0 || n <= 0)
		return 0;
	exe[n] = 0;
	if (nobody_reaches(exe))
		return 0;
	snprintf(dir, sizeof(dir), "%s/%s%d", PC_EXE_COPY_DIR, PC_EXE_COPY_PREFIX, (int)getpid());
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	if (chmod(dir, 0755)) {
		err = -errno;
		goto out_dir;
	}
	snprintf(exe_copy, sizeof(exe_copy), "%s/%s", dir, strrchr(exe, '/') + 1);
	err = copy_file(exe, exe_copy);
	if (err)
		goto out_dir;
	argv = own_argv();
	if (!argv) {
		err = -ENOMEM;
		goto out_file;
	}
	setenv(EXE_COPY_ENV, exe_copy, 1);
	execv(exe_copy, argv);
	err = -errno;
	unsetenv(EXE_COPY_ENV);
	free(argv);
out_file:
	unlink(exe_copy);
out_dir:
	rmdir(dir);
	return err;
}
