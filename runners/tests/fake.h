/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the runner's tests: a fake build tree in a temp dir
 * (<root>/tests/<area>/<binary> as small shell scripts that print TAP),
 * and running build/perfconf on it with its output captured.
 *
 * The runner is found next to this binary's build directory:
 * build/runners/tests/<test> -> build/perfconf, build/kunit/kunit.py.
 */
#ifndef PERFCONF_RUNNER_TESTS_FAKE_H
#define PERFCONF_RUNNER_TESTS_FAKE_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stddef.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct tree {
	char root[PATH_MAX];
	char out[PATH_MAX + 8];		/* <root>/out: where fakes leave notes ($FAKE_OUT) */
};

struct res {
	int code;		/* exit status, or 128+signal */
	char *out, *err;	/* stdout, stderr */
	double secs;
};

static inline double fk_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The build directory: three levels above /proc/self/exe. */
static inline const char *fk_build(void)
{
	static char dir[PATH_MAX];

	if (!dir[0]) {
		ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);

		dir[n > 0 ? n : 0] = 0;
		for (int i = 0; i < 3; i++) {
			char *s = strrchr(dir, '/');

			if (s)
				*s = 0;
		}
	}
	return dir;
}

static inline const char *fk_runner(void)
{
	static char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/perfconf", fk_build());
	return path;
}

static inline char *fk_read(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = 0;
	return buf;
}

static inline void fk_write(const char *path, const char *data, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd >= 0) {
		if (write(fd, data, strlen(data)) < 0)
			perror(path);
		fchmod(fd, mode);
		close(fd);
	}
}

static inline void fk_mkdirs(const char *path)
{
	char buf[PATH_MAX * 3];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p == '/') {
			*p = 0;
			mkdir(buf, 0755);
			*p = '/';
		}
	}
	mkdir(buf, 0755);
}

static inline void fk_tree(struct tree *t)
{
	char path[PATH_MAX + 32];

	snprintf(t->root, sizeof(t->root), "/tmp/perfconf-rt.XXXXXX");
	if (!mkdtemp(t->root))
		abort();
	snprintf(path, sizeof(path), "%s/tests", t->root);
	fk_mkdirs(path);
	snprintf(path, sizeof(path), "%s/expected", t->root);
	fk_mkdirs(path);
	snprintf(t->out, sizeof(t->out), "%s/out", t->root);
	fk_mkdirs(t->out);
}

/* A file under the tree root (parents created). */
static inline void fk_file(struct tree *t, const char *rel, const char *data)
{
	char path[PATH_MAX * 2], *slash;

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	slash = strrchr(path, '/');
	*slash = 0;
	fk_mkdirs(path);
	*slash = '/';
	fk_write(path, data, 0644);
}

/* tests/<name> as "#!/bin/sh" + body, executable. */
static inline void fk_script(struct tree *t, const char *name, const char *body)
{
	char path[PATH_MAX * 2], *slash, *text;

	snprintf(path, sizeof(path), "%s/tests/%s", t->root, name);
	slash = strrchr(path, '/');
	*slash = 0;
	fk_mkdirs(path);
	*slash = '/';
	if (asprintf(&text, "#!/bin/sh\n%s", body) < 0)
		abort();
	fk_write(path, text, 0755);
	free(text);
}

/* A run's result in a failed assertion's log: exit code, stdout, stderr. */
#define SHOW(r) TH_LOG("exit %d\n--- stdout\n%s--- stderr\n%s", (r)->code, (r)->out, (r)->err)

/*
 * events/migrations: a binary of two cases, global.hops (depends on
 * cpus_online, observes hops=40) and global.plain (depends on nothing,
 * observes errno=EINVAL), for the judging tests.
 */
static inline void fk_migrations(struct tree *t)
{
	fk_script(t, "events/migrations",
		  "echo 'TAP version 13'\necho '1..2'\n"
		  "echo '#  RUN           global.hops ...'\n"
		  "echo '# DEPENDS cpus_online'\necho '# OBS hops=40'\necho 'ok 1 global.hops'\n"
		  "echo '#  RUN           global.plain ...'\n"
		  "echo '# OBS errno=EINVAL'\necho 'ok 2 global.plain'\n");
}
/* The usual passing binary: n cases named global.c1... */
static inline void fk_pass(struct tree *t, const char *name, int n)
{
	char body[4096];
	size_t off = 0;

	off += snprintf(body + off, sizeof(body) - off, "echo 'TAP version 13'\necho '1..%d'\n", n);
	for (int i = 1; i <= n; i++)
		off += snprintf(body + off, sizeof(body) - off, "echo 'ok %d global.c%d'\n", i, i);
	fk_script(t, name, body);
}

static int fk_rm_one(const char *p, const struct stat *s, int f, struct FTW *w)
{
	(void)s;
	(void)w;
	if (f == FTW_DP)
		rmdir(p);
	else
		unlink(p);
	return 0;	/* go on whatever happened */
}

static inline void fk_tree_free(struct tree *t)
{
	if (t->root[0])
		nftw(t->root, fk_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	t->root[0] = 0;
}

static inline void fk_res_free(struct res *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

/*
 * Start the runner on the tree: --dir, --expected, --results point into
 * it; $PERFCONF_STATE_DIR and $FAKE_OUT too. args: NULL-terminated.
 * $FK_AS_UID: the runner runs as that uid (and gid), with no groups.
 * $FK_NO_FLOCK: flock() fails with ENOSYS, as in a kernel without
 * CONFIG_FILE_LOCKING (fk_deny_flock).
 * Returns the pid; stdout/stderr go to <root>/stdout, <root>/stderr.
 */
/* From now on, flock() answers ENOSYS in this process and its children (seccomp). */
static inline int fk_deny_flock(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_flock, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) ? -errno : 0;
}

/*
 * A fake kernel for the suite's module (runners/module.h): with $FK_MODULE
 * set, the runner's finit_module() and delete_module() calls (and its
 * children's) go through a seccomp user notification to a supervisor
 * process, which answers as a kernel would, on the fake sysfs of
 * $PERFCONF_MODULE_SYSFS (set it):
 *	FK_MODULE=load		finit_module creates <sysfs>/perfconf_pmu/taint
 *				holding $FK_MODULE_TAINTS (default "OE"), sets
 *				bits O and E in $PERFCONF_TAINT_FILE if set, and
 *				returns 0 (EEXIST when the directory is there);
 *	FK_MODULE=<ERRNO>	it fails with that errno (ENOEXEC, EPERM, ...);
 *				either first writes $FK_MODULE_LOG, if set,
 *				to /dev/kmsg;
 *	delete_module		removes the directory and returns 0 (ENOENT when
 *				there is none), or EAGAIN for the first
 *				$FK_MODULE_BUSY calls ("always": every call);
 *				$FK_MODULE_UNLOAD_LOG to /dev/kmsg as it unloads.
 * Each call appends "finit" or "delete" to $FAKE_OUT/module.calls.
 * $FK_NO_CAP_SYS_MODULE: the runner runs without CAP_SYS_MODULE.
 */
static inline int fk_errno_of(const char *name)
{
	static const struct { const char *name; int err; } e[] = {
		{ "ENOSYS", ENOSYS }, { "EPERM", EPERM }, { "ENOEXEC", ENOEXEC }, { "EINVAL", EINVAL },
		{ "ENOENT", ENOENT }, { "EEXIST", EEXIST }, { "EBUSY", EBUSY }, { "EKEYREJECTED", EKEYREJECTED },
		{ "ENOKEY", ENOKEY }, { "ENOMEM", ENOMEM },
	};

	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		if (!strcmp(e[i].name, name))
			return e[i].err;
	return EIO;
}

static inline void fk_module_note(const char *what)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/module.calls", getenv("FAKE_OUT") ? getenv("FAKE_OUT") : "/tmp");
	f = fopen(path, "a");
	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

/* A line into the kernel log, as user space writes one (PERFCONF_KMSG_ANY_FACILITY=1 reads it). */
static inline void fk_kmsg(const char *text)
{
	int fd = text ? open("/dev/kmsg", O_WRONLY) : -1;
	char line[1024];

	if (fd < 0)
		return;
	/* with its newline: a line without one stays open for a continuation, unread */
	snprintf(line, sizeof(line), "%s\n", text);
	if (write(fd, line, strlen(line)) < 0)
		perror("/dev/kmsg");
	close(fd);
}

/* The fake kernel's answer to one call: 0 or -errno. */
static inline int fk_module_call(int nr, int *busy_calls)
{
	const char *mode = getenv("FK_MODULE"), *sysfs = getenv("PERFCONF_MODULE_SYSFS");
	const char *busy = getenv("FK_MODULE_BUSY"), *taint_file = getenv("PERFCONF_TAINT_FILE");
	char dir[PATH_MAX], taint[PATH_MAX + 16];

	snprintf(dir, sizeof(dir), "%s/perfconf_pmu", sysfs ? sysfs : "/nonexistent");
	snprintf(taint, sizeof(taint), "%s/taint", dir);
	if (nr == __NR_delete_module) {
		fk_module_note("delete");
		if (busy && (!strcmp(busy, "always") || (*busy_calls)++ < atoi(busy)))
			return -EAGAIN;
		if (access(dir, F_OK))
			return -ENOENT;
		unlink(taint);
		fk_kmsg(getenv("FK_MODULE_UNLOAD_LOG"));
		return rmdir(dir) ? -errno : 0;
	}
	fk_module_note("finit");
	fk_kmsg(getenv("FK_MODULE_LOG"));
	if (strcmp(mode, "load"))
		return -fk_errno_of(mode);
	if (!access(dir, F_OK))
		return -EEXIST;
	fk_mkdirs(dir);
	fk_write(taint, getenv("FK_MODULE_TAINTS") ? getenv("FK_MODULE_TAINTS") : "OE\n", 0644);
	if (taint_file) {
		char *now = fk_read(taint_file), buf[32];

		snprintf(buf, sizeof(buf), "%llu\n", (now ? strtoull(now, NULL, 10) : 0) | (3ull << 12));
		fk_write(taint_file, buf, 0644);
		free(now);
	}
	return 0;
}

/* The supervisor: answers the runner's calls until it and its children are gone. */
static inline void fk_module_supervise(int listener, pid_t runner)
{
	struct seccomp_notif_sizes sz;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	int busy_calls = 0;

	if (syscall(__NR_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sz))
		_exit(1);
	req = calloc(1, sz.seccomp_notif > sizeof(*req) ? sz.seccomp_notif : sizeof(*req));
	resp = calloc(1, sz.seccomp_notif_resp > sizeof(*resp) ? sz.seccomp_notif_resp : sizeof(*resp));
	for (;;) {
		struct pollfd p = { .fd = listener, .events = POLLIN };
		int n = poll(&p, 1, 100);

		if (n < 0 && errno != EINTR)
			break;
		if (n == 0) {
			char path[64], *st;
			bool gone;

			/* no more calls once the runner is dead (a zombie holds the filter) */
			snprintf(path, sizeof(path), "/proc/%d/stat", (int)runner);
			st = fk_read(path);
			gone = !st || strstr(st, ") Z ");
			free(st);
			if (gone)
				break;
			continue;
		}
		if (p.revents & (POLLHUP | POLLERR))
			break;
		memset(req, 0, sz.seccomp_notif);
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req))
			continue;
		memset(resp, 0, sz.seccomp_notif_resp);
		resp->id = req->id;
		resp->error = fk_module_call(req->data.nr, &busy_calls);
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
	}
	_exit(0);
}

/*
 * In the child about to exec the runner: install the filter and hand its
 * listener to a supervisor that is not the runner's child (the runner
 * kills its children at the end of a run, before it unloads the module).
 */
static inline int fk_fake_module_kernel(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_finit_module, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_delete_module, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };
	pid_t runner = getpid(), mid;
	int sv[2], listener;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	mid = fork();
	if (mid == 0) {
		if (fork() == 0) {
			/* the supervisor, reparented away from the runner */
			char cbuf[CMSG_SPACE(sizeof(int))], byte;
			struct iovec io = { .iov_base = &byte, .iov_len = 1 };
			struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = cbuf,
					    .msg_controllen = sizeof(cbuf) };
			struct cmsghdr *c;

			close(sv[0]);
			if (recvmsg(sv[1], &m, 0) != 1 || !(c = CMSG_FIRSTHDR(&m)))
				_exit(1);
			memcpy(&listener, CMSG_DATA(c), sizeof(int));
			close(sv[1]);
			fk_module_supervise(listener, runner);
		}
		_exit(0);
	}
	waitpid(mid, NULL, 0);
	close(sv[1]);
	listener = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (listener < 0)
		return -errno;
	{
		char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 0;
		struct iovec io = { .iov_base = &byte, .iov_len = 1 };
		struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = cbuf,
				    .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);

		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &listener, sizeof(int));
		if (sendmsg(sv[0], &m, 0) != 1)
			return -errno;
	}
	close(sv[0]);
	close(listener);
	return 0;
}

static inline pid_t fk_start_v(struct tree *t, const char *cmd, char *const *args)
{
	char *argv[64];
	int n = 0;
	pid_t pid;
	static char dir[PATH_MAX + 16], exp[PATH_MAX + 16], res[PATH_MAX + 16];

	snprintf(dir, sizeof(dir), "%s", t->root);
	snprintf(exp, sizeof(exp), "%s/expected", t->root);
	snprintf(res, sizeof(res), "%s/results", t->root);
	argv[n++] = (char *)fk_runner();
	if (cmd) {
		argv[n++] = (char *)cmd;
	} else {
		argv[n++] = "--dir";
		argv[n++] = dir;
		argv[n++] = "--expected";
		argv[n++] = exp;
		argv[n++] = "--results";
		argv[n++] = res;
	}
	for (int i = 0; args && args[i] && n < 62; i++)
		argv[n++] = args[i];
	argv[n] = NULL;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		char path[PATH_MAX + 16];
		int fd;

		snprintf(path, sizeof(path), "%s/state", t->root);
		setenv("PERFCONF_STATE_DIR", path, 0);
		setenv("FAKE_OUT", t->out, 1);
		snprintf(path, sizeof(path), "%s/stdout", t->root);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		snprintf(path, sizeof(path), "%s/stderr", t->root);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		fd = open("/dev/null", O_RDONLY);
		dup2(fd, 0);
		if (getenv("FK_NO_FLOCK") && fk_deny_flock())
			_exit(126);
		if (getenv("FK_MODULE") && fk_fake_module_kernel())
			_exit(126);
		if (getenv("FK_NO_CAP_SYS_MODULE") && prctl(PR_CAPBSET_DROP, 16 /* CAP_SYS_MODULE */, 0, 0, 0))
			_exit(126);
		if (getenv("FK_AS_UID")) {	/* the runner as another user, no capabilities */
			uid_t uid = atoi(getenv("FK_AS_UID"));

			if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
				_exit(126);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static inline void fk_collect(struct tree *t, pid_t pid, struct res *r, double start, double limit)
{
	char path[PATH_MAX + 16];
	int st = 0;

	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			break;
		if (fk_now() - start > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			break;
		}
		usleep(5000);
	}
	r->secs = fk_now() - start;
	r->code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	snprintf(path, sizeof(path), "%s/stdout", t->root);
	r->out = fk_read(path);
	snprintf(path, sizeof(path), "%s/stderr", t->root);
	r->err = fk_read(path);
	if (!r->out)
		r->out = strdup("");
	if (!r->err)
		r->err = strdup("");
}

/* Run to completion (killed after 120 s). cmd: NULL for a run, or a subcommand. */
static inline void fk_run_cmd(struct tree *t, struct res *r, const char *cmd, ...)
{
	char *args[64];
	int n = 0;
	va_list ap;
	double start = fk_now();

	va_start(ap, cmd);
	while (n < 63 && (args[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	args[n] = NULL;
	fk_collect(t, fk_start_v(t, cmd, args), r, start, 120);
}

#define fk_run(t, r, ...) fk_run_cmd(t, r, NULL, ##__VA_ARGS__, NULL)

/* Does `hay` contain the line `line` exactly (whole line)? */
static inline bool fk_has_line(const char *hay, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = hay; (p = strstr(p, line)); p++)
		if ((p == hay || p[-1] == '\n') && (p[n] == '\n' || p[n] == 0))
			return true;
	return false;
}

/* The last non-empty line. */
static inline const char *fk_last_line(const char *s, char *buf, size_t len)
{
	const char *end = s + strlen(s), *start;

	while (end > s && end[-1] == '\n')
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	return buf;
}

#ifndef PERFCONF_SOURCE
#define PERFCONF_SOURCE "."
#endif

/*
 * Read the run's results/ as dashboards do (runners/tests/tapcheck.py:
 * kunit.py on ktap.txt, LKFT's way on kselftest.txt): its exit code, 0 when
 * both agree on every case and with the closing line. Its output, one
 * "<case-id> <kunit> <lkft>" line per case, is in *out (malloc'd).
 */
static inline int fk_tapcheck(struct tree *t, char **out)
{
	char *cmd, *log;
	int rc;

	*out = NULL;
	if (asprintf(&log, "%s/tapcheck.out", t->root) < 0)
		return -1;
	if (asprintf(&cmd, "%s/runners/tests/tapcheck.py %s/results %s/kunit/tools/testing/kunit >%s 2>&1",
		     PERFCONF_SOURCE, t->root, fk_build(), log) < 0) {
		free(log);
		return -1;
	}
	rc = system(cmd);
	*out = fk_read(log);
	free(cmd);
	free(log);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* A path under the tree, in a static buffer (one at a time). */
static inline const char *fk_path(struct tree *t, const char *rel)
{
	static char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", t->root, rel);
	return path;
}

/* Wait up to `secs` for a file to appear. */
static inline bool fk_wait_file(const char *path, double secs)
{
	double end = fk_now() + secs;

	while (access(path, F_OK)) {
		if (fk_now() > end)
			return false;
		usleep(10000);
	}
	return true;
}

static inline bool fk_pid_alive(pid_t pid)
{
	char path[64], *stat;
	bool alive;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	stat = fk_read(path);
	if (!stat)
		return false;
	alive = !strstr(stat, ") Z ");	/* a zombie is gone for our purposes */
	free(stat);
	return alive;
}

/* Copy a file (a real test binary) to rel under the tree root, executable. 0 or -errno. */
static inline int fk_copy(struct tree *t, const char *from, const char *rel)
{
	char to[PATH_MAX * 2], buf[65536], *slash;
	int in = open(from, O_RDONLY | O_CLOEXEC), out, err = 0;
	ssize_t n;

	if (in < 0)
		return -errno;
	snprintf(to, sizeof(to), "%s/%s", t->root, rel);
	slash = strrchr(to, '/');
	*slash = 0;
	fk_mkdirs(to);
	*slash = '/';
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			err = -EIO;
			break;
		}
	if (n < 0)
		err = -errno;
	close(in);
	close(out);
	return err;
}

/* Whether pid's environment holds the entry want ("NAME=value"). */
static inline bool fk_env_has(pid_t pid, const char *want)
{
	char path[64], chunk[4096], *env = NULL;
	size_t len = 0, n;
	bool has = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		env = realloc(env, len + n + 1);
		memcpy(env + len, chunk, n);
		len += n;
	}
	fclose(f);
	for (char *p = env; env && p < env + len && !has; p += strlen(p) + 1)
		has = !strcmp(p, want);
	free(env);
	return has;
}

/* Whether pid is stopped (state T). */
static inline bool fk_pid_stopped(pid_t pid)
{
	char path[64], *stat;
	bool stopped;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	stat = fk_read(path);
	stopped = stat && strstr(stat, ") T ");
	free(stat);
	return stopped;
}

/*
 * Send sig to a runner and to every process its run started (they carry
 * PERFCONF_RUNNER_PID=<runner> in their environment). SIGSTOP scans again
 * until every one is stopped, so that the whole run stands still, forks
 * included. Returns how many processes were signalled.
 */
static inline int fk_signal_run(pid_t runner, int sig)
{
	char want[64];
	int total = 0, found;

	snprintf(want, sizeof(want), "PERFCONF_RUNNER_PID=%d", (int)runner);
	kill(runner, sig);
	do {
		DIR *d = opendir("/proc");
		struct dirent *e;

		found = 0;
		while (d && (e = readdir(d))) {
			pid_t pid = atoi(e->d_name);

			if (pid <= 0 || pid == getpid() || !fk_env_has(pid, want))
				continue;
			if (sig == SIGSTOP && fk_pid_stopped(pid))
				continue;
			kill(pid, sig);
			found++;
		}
		if (d)
			closedir(d);
		total += found;
	} while (sig == SIGSTOP && found);
	return total;
}

/* What `perfconf info` printed for the tree (the caller frees it). */
static inline char *fk_info_text(struct tree *t)
{
	struct res r = { 0 };
	char exp[PATH_MAX + 16], *out;

	snprintf(exp, sizeof(exp), "%s/expected", t->root);
	fk_run_cmd(t, &r, "info", "--dir", t->root, "--expected", exp, NULL);
	out = r.out;
	r.out = NULL;
	fk_res_free(&r);
	return out;
}

/*
 * A line's value in that text: "<field>: value" (release, arch, kernel,
 * profile, record target), or with indent "  <field>   value" (a fact).
 */
static inline char *fk_info_field(const char *text, const char *field, bool indent)
{
	size_t n = strlen(field);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *at = indent ? (strncmp(p, "  ", 2) ? NULL : p + 2) : p;

		if (!at || strncmp(at, field, n) || at[n] != (indent ? ' ' : ':'))
			continue;
		at += n + 1;
		at += strspn(at, " ");
		return strndup(at, strcspn(at, "\n"));
	}
	return NULL;
}

/* One `perfconf info` field. */
static inline char *fk_info(struct tree *t, const char *field)
{
	char *text = fk_info_text(t), *v = fk_info_field(text, field, false);

	free(text);
	return v;
}

/* The running kernel as the runner names it, from one `perfconf info`. */
struct fk_kernel {
	char *exact;		/* expected/<arch>-<M>.<m>-<profile>.txt */
	char *arch, *kernel, *profile;
	char *info;		/* the whole text, for its facts */
};

static inline bool fk_kernel_get(struct tree *t, struct fk_kernel *k)
{
	k->info = fk_info_text(t);
	k->exact = fk_info_field(k->info, "record target", false);
	k->arch = fk_info_field(k->info, "arch", false);
	k->kernel = fk_info_field(k->info, "kernel", false);
	k->profile = fk_info_field(k->info, "profile", false);
	return k->exact && k->arch && k->kernel && k->profile;
}

static inline void fk_kernel_free(struct fk_kernel *k)
{
	free(k->exact);
	free(k->arch);
	free(k->kernel);
	free(k->profile);
	free(k->info);
	memset(k, 0, sizeof(*k));
}

#endif
