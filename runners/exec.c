// SPDX-License-Identifier: GPL-2.0
/*
 * Running the binaries.
 *
 * Each binary is spawned in a session of its own (so also its own process
 * group), stdin from /dev/null, stdout and stderr into one pipe, with a
 * fresh temporary directory as its cwd and $TMPDIR. One poll() loop drains
 * every pipe (so a chatty binary never blocks), reads the kernel log, takes
 * SIGCHLD/SIGINT/SIGTERM/SIGHUP through a signalfd, and enforces timeouts.
 *
 * The runner is a child subreaper: processes a binary leaves behind come
 * back to it. When a binary's main process exits, whatever is left in its
 * session is killed and counted as leaked; on timeout the whole session is
 * killed with SIGKILL. Every child is reaped.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* posix_spawn extras, pipe2 */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"
#include "event/event.h"
#include "event/pmu.h"
#include "host/privilege.h"
#include "host/sysctl.h"

extern char **environ;

#define RUNNER_PID_VAR PC_RUNNER_PID_ENV
#define TMP_PREFIX "perfconf-run."
#define EXIT_GRACE 2.0		/* after exit: leftovers holding the pipe */
#define KILL_GRACE 5.0		/* after SIGKILL: the main process must go */

static int sigfd = -1;
static char *run_tmp;
static char **envp;
static size_t env_tmp_slot;

int exec_init(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sigfd < 0)
		return -errno;
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	return 0;
}

/*
 * Where the per-binary temporary directories go: $TMPDIR when set, else
 * /dev/shm when it is a tmpfs that allows exec, else /tmp. On a disk,
 * creating and removing a directory costs milliseconds (about 1.8 ms here,
 * against 0.01 ms on tmpfs), which was most of the runner's overhead per
 * binary.
 */
static const char *tmp_base(void)
{
	const char *t = getenv("TMPDIR");
	struct statfs fs;
	struct statvfs vfs;

	if (t && *t == '/')
		return t;
	if (statfs("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC &&
	    statvfs("/dev/shm", &vfs) == 0 && !(vfs.f_flag & (ST_NOEXEC | ST_RDONLY)) &&
	    access("/dev/shm", W_OK | X_OK) == 0)
		return "/dev/shm";
	return "/tmp";
}

static bool pid_alive(long pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/* The copy of its executable a binary ran from (host/privilege.h), if a kill left it. */
static void remove_exe_copy(pid_t pid)
{
	char path[128];

	if (pid <= 0)
		return;
	snprintf(path, sizeof(path), "%s/%s%d", PC_EXE_COPY_DIR, PC_EXE_COPY_PREFIX, (int)pid);
	if (access(path, F_OK) == 0)
		remove_tree(path);
}

/*
 * The uprobes binaries killed before their exit left in tracefs
 * (pc_calls_keep): removed in a child, which may mount tracefs privately.
 */
static void remove_dead_probes(void)
{
	pid_t pid;

	if (geteuid() != 0)
		return;		/* nothing it ran could define one */
	pid = fork();
	if (pid == 0)
		_exit(pc_calls_remove_dead() < 0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/*
 * The tracepoints the suite's cases open. Closing a tracepoint's last perf
 * event unregisters its probe and waits for RCU under the kernel's
 * event_mutex, which every open and close of a tracepoint or probe event
 * machine-wide then waits for: at -j16 that queue was most of the run. A
 * binary keeps its own for its life (PERFCONF_KEEP_TRACEPOINT); the runner
 * keeps these for the whole run, so that no binary's exit, and no case of a
 * binary that keeps none, unregisters one. A disabled counter on the
 * runner itself, close-on-exec: it counts nothing and no binary sees it.
 */
static const char *const suite_tracepoints[][2] = {
	{ "syscalls", "sys_enter_getppid" },
	{ "syscalls", "sys_enter_getpgid" },
	{ "syscalls", "sys_enter_getsid" },
	{ "task", "task_rename" },
};
#define NSUITE_TRACEPOINTS (sizeof(suite_tracepoints) / sizeof(suite_tracepoints[0]))

int exec_keep_tracepoints(void)
{
	long ids[NSUITE_TRACEPOINTS];
	int fds[2], kept = 0;
	pid_t pid;

	if (geteuid() != 0 || pipe2(fds, O_CLOEXEC))
		return 0;
	pid = fork();
	if (pid == 0) {		/* tracefs may have to be mounted: in a mount namespace of its own */
		close(fds[0]);
		for (size_t i = 0; i < NSUITE_TRACEPOINTS; i++)
			ids[i] = pc_tracepoint_id(suite_tracepoints[i][0], suite_tracepoints[i][1]);
		_exit(write(fds[1], ids, sizeof(ids)) == (ssize_t)sizeof(ids) ? 0 : 1);
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], ids, sizeof(ids)) == (ssize_t)sizeof(ids))
		for (size_t i = 0; i < NSUITE_TRACEPOINTS; i++)
			kept += ids[i] >= 0 && pc_tracepoint_keep(ids[i]) == 0;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return kept;
}

int exec_expedite_rcu(void)
{
	long on;
	int err;

	if (geteuid() != 0)
		return -EPERM;
	err = pc_sysctl_get(PC_RCU_EXPEDITED, &on);
	if (err || on)
		return err ? err : 0;
	err = pc_sysctl_set(PC_RCU_EXPEDITED, 1);
	return err ? err : 1;
}

/* Fields of /proc/<pid>/stat after the command name. */
static bool proc_stat(pid_t pid, char *state, pid_t *session)
{
	char path[64], buf[1024], *p;
	int fd, pgrp, ppid, sid;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %d %d %d", state, &ppid, &pgrp, &sid) != 4)
		return false;
	*session = sid;
	return true;
}

/*
 * Whether the run or binary that owns a state directory still lives: a
 * zombie does not (a killed runner whose parent has not reaped it yet
 * holds its pid until then, and its directory would outlive it).
 */
static bool owner_alive(long pid)
{
	char state = 0;
	pid_t sid;

	if (!pid_alive(pid))
		return false;
	return !(proc_stat((pid_t)pid, &state, &sid) && (state == 'Z' || state == 'X'));
}

/* SIGKILL every live process of a session; returns how many. */
static int kill_session(pid_t sid)
{
	pid_t seen[64];
	int count = 0;

	for (int pass = 0; pass < 2; pass++) {	/* a second pass catches forks in flight */
		DIR *d = opendir("/proc");
		struct dirent *e;

		if (!d)
			return count;
		while ((e = readdir(d))) {
			pid_t pid = atoi(e->d_name), s;
			char state;
			bool known = false;

			if (pid <= 0 || pid == getpid())
				continue;
			if (!proc_stat(pid, &state, &s) || s != sid || state == 'Z')
				continue;
			for (int i = 0; i < count && i < 64; i++)
				known |= seen[i] == pid;
			if (kill(pid, SIGKILL) == 0 && !known) {
				if (count < 64)
					seen[count] = pid;
				count++;
			}
		}
		closedir(d);
	}
	return count;
}

/* Our direct children, from /proc (the runner is single-threaded). */
static size_t children(pid_t *out, size_t max)
{
	char path[64], *data, *p;
	size_t n = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	data = read_file(path, NULL);
	if (!data)
		return 0;
	for (p = data; *p && n < max; ) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		out[n++] = pid;
		p = end;
	}
	free(data);
	return n;
}

/* Does anything of this session live on after its main process? */
static bool leftovers(pid_t sid)
{
	pid_t kids[256];
	size_t n;

	if (kill(-sid, 0) == 0)
		return true;
	n = children(kids, 256);
	for (size_t i = 0; i < n; i++) {
		pid_t s;
		char state;

		if (proc_stat(kids[i], &state, &s) && s == sid && state != 'Z')
			return true;
	}
	return false;
}

int exec_cleanup_stale(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int killed = 0;
	size_t plen = strlen(RUNNER_PID_VAR "=");

	if (d) {
		while ((e = readdir(d))) {
			char path[64], *env, *p, state;
			size_t len;
			pid_t pid = atoi(e->d_name), sid;

			if (pid <= 0 || pid == getpid())
				continue;
			snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
			env = read_file(path, &len);
			if (!env)
				continue;
			for (p = env; p < env + len; p += strlen(p) + 1) {
				if (strncmp(p, RUNNER_PID_VAR "=", plen))
					continue;
				if (!owner_alive(atol(p + plen)) && proc_stat(pid, &state, &sid) &&
				    state != 'Z' && kill(pid, SIGKILL) == 0)
					killed++;
				break;
			}
			free(env);
		}
		closedir(d);
	}
	/* What dead runs and binaries left: their temporary directories, the copies of pc_exe_reachable(). */
	for (int b = 0; b < 4; b++) {
		const char *base = b == 0 ? tmp_base() : b == 1 ? "/dev/shm" : b == 2 ? "/tmp" : PC_EXE_COPY_DIR;
		const char *prefix = b == 3 ? PC_EXE_COPY_PREFIX : TMP_PREFIX;

		if (b && b < 3 && !strcmp(base, tmp_base()))
			continue;
		d = opendir(base);
		if (!d)
			continue;
		while ((e = readdir(d))) {
			if (strncmp(e->d_name, prefix, strlen(prefix)))
				continue;
			if (!owner_alive(atol(e->d_name + strlen(prefix)))) {
				char *path = xasprintf("%s/%s", base, e->d_name);

				remove_tree(path);
				free(path);
			}
		}
		closedir(d);
	}
	/* Reap what we killed if it was ours (it is not, normally). */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	remove_dead_probes();
	return killed;
}

static void build_env(void)
{
	size_t n = 0, k = 0;

	while (environ[n])
		n++;
	envp = xcalloc(n + 4, sizeof(*envp));
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(environ[i], "TMPDIR=", 7) ||
		    !strncmp(environ[i], RUNNER_PID_VAR "=", strlen(RUNNER_PID_VAR) + 1) ||
		    !strncmp(environ[i], PC_HELD_ENV "=", strlen(PC_HELD_ENV) + 1))
			continue;
		envp[k++] = environ[i];
	}
	envp[k++] = xasprintf(RUNNER_PID_VAR "=%d", (int)getpid());
	env_tmp_slot = k;
	envp[k] = NULL;
}

/*
 * A part of a phased binary runs the harness's cases of its phase's
 * variant (-v), told that the runner holds the value (PC_HELD_ENV); the
 * part of no phase runs every other case (-V each variant).
 */
static char **part_argv(const struct job *j)
{
	const struct phase_set *ps = j->whole ? j->whole->phases : NULL;
	size_t n = 1;
	char **argv = xcalloc(3 + 2 * (ps ? ps->variant.n : 0), sizeof(*argv));

	argv[0] = j->path;
	if (ps && j->phase >= 0) {
		argv[n++] = "-v";
		argv[n++] = ps->variant.v[j->phase];
	} else if (ps) {
		for (size_t i = 0; i < ps->variant.n; i++) {
			argv[n++] = "-V";
			argv[n++] = ps->variant.v[i];
		}
	}
	return argv;
}

static void start_job(struct job *j)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t empty, def;
	int p[2], err;
	char **argv = part_argv(j);

	j->started = true;
	j->start = now_s();
	j->deadline = j->start + j->timeout;
	j->fd = -1;
	j->tmpdir = xasprintf("%s/%d", run_tmp, j->num);
	if (mkdir(j->tmpdir, 0700) && errno != EEXIST) {
		err = errno;
		goto fail;
	}
	if (pipe2(p, O_CLOEXEC)) {
		err = errno;
		goto fail;
	}
	fcntl(p[0], F_SETFL, O_NONBLOCK);

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	posix_spawn_file_actions_addchdir_np(&fa, j->tmpdir);
	posix_spawnattr_init(&attr);
	sigemptyset(&empty);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGCHLD);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGHUP);
	sigaddset(&def, SIGQUIT);
	posix_spawnattr_setsigmask(&attr, &empty);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	envp[env_tmp_slot] = xasprintf("TMPDIR=%s", j->tmpdir);
	if (j->held)
		envp[env_tmp_slot + 1] = xasprintf(PC_HELD_ENV "=%s=%ld", j->whole->phases->sysctl,
						   j->whole->phases->value[j->phase]);
	err = posix_spawn(&j->pid, j->path, &fa, &attr, argv, envp);
	free(envp[env_tmp_slot]);
	free(envp[env_tmp_slot + 1]);
	envp[env_tmp_slot] = envp[env_tmp_slot + 1] = NULL;
	free(argv);
	argv = NULL;
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(p[1]);
	if (err) {
		close(p[0]);
		goto fail;
	}
	j->fd = p[0];
	return;
fail:
	free(argv);
	j->spawn_error = xasprintf("cannot run %s: %s", j->path, strerror(err));
	j->exited = true;
	j->end = now_s();
}

struct sched {
	struct job *jobs;
	size_t n;
	struct health *h;
	struct complaint cur;	/* the splat being read */
	bool open;
	size_t *suspects;	/* cur's: the jobs running when it came */
	size_t nsuspects;
	struct job *last_owner;	/* of the last complaint closed, for a taint that follows it */
	struct complaint *last;	/* or that complaint, when no binary made it */
	double last_at;
};

/*
 * Exclusive binaries first, then those that change global state or name a
 * serial= key (one at a time per state or key, so their chains start
 * early), the parts run under a held value last among them, phase by
 * phase; then longer before shorter, unknown (new) first.
 */
static int start_before(const void *a, const void *b)
{
	const struct job *x = *(struct job *const *)a, *y = *(struct job *const *)b;
	int px = x->held ? x->phase : -1, py = y->held ? y->phase : -1;

	if (x->exclusive != y->exclusive)
		return x->exclusive ? -1 : 1;
	if (!(x->writes.n + x->serial.n) != !(y->writes.n + y->serial.n))
		return x->writes.n + x->serial.n ? -1 : 1;
	if (px != py)
		return px < py ? -1 : 1;
	if (x->last_s != y->last_s)
		return x->last_s < 0 ? -1 : y->last_s < 0 ? 1 : x->last_s > y->last_s ? -1 : 1;
	return x->num - y->num;
}

static bool active(const struct job *j)
{
	return j->started && !j->done;
}

/* The phase value a held part runs under. */
static long held_value(const struct job *j)
{
	return j->whole->phases->value[j->phase];
}

/* Whether a and b are parts run under one sysctl, key, held at one value: no conflict on that key. */
static bool same_hold(const struct job *a, const struct job *b, const char *key)
{
	return a->held && b->held && !strcmp(a->whole->phases->key, key) &&
	       !strcmp(a->whole->phases->sysctl, b->whole->phases->sysctl) && held_value(a) == held_value(b);
}

/* Whether a writes global state that b reads or writes. */
static bool writes_what_it_uses(const struct job *a, const struct job *b)
{
	for (size_t i = 0; i < a->writes.n; i++)
		if (job_declares(b, a->writes.v[i], false) && !same_hold(a, b, a->writes.v[i]))
			return true;
	return false;
}

/* Whether x and y name a serial= key in common. */
static bool same_serial(const struct job *x, const struct job *y)
{
	for (size_t i = 0; i < x->serial.n; i++)
		if (strv_has(&y->serial, x->serial.v[i]))
			return true;
	return false;
}

/* Whether x and y may not run side by side. */
bool exec_conflict(const struct job *x, const struct job *y)
{
	return x->exclusive || y->exclusive || writes_what_it_uses(x, y) || writes_what_it_uses(y, x) ||
	       same_serial(x, y);
}

/*
 * The binary a complaint names: the one whose session holds its PID (the
 * task, or a descendant, of that binary), or else the only running one
 * whose name is its Comm. None for an interrupt or the idle task.
 */
static struct job *owner_of(struct sched *s, const struct complaint *c)
{
	struct job *match = NULL;
	pid_t sid;
	char st;

	if (c->irq)
		return NULL;
	if (c->pid > 0 && proc_stat((pid_t)c->pid, &st, &sid))
		for (size_t i = 0; i < s->nsuspects; i++)
			if (s->jobs[s->suspects[i]].pid == sid)
				return &s->jobs[s->suspects[i]];
	if (!c->comm[0])
		return NULL;
	for (size_t i = 0; i < s->nsuspects; i++) {
		struct job *j = &s->jobs[s->suspects[i]];
		const char *base = strrchr(j->name, '/') ? strrchr(j->name, '/') + 1 : j->name;

		/* Comm is the name cut to 15 characters (TASK_COMM_LEN) */
		if (strncmp(base, c->comm, 15) || strlen(c->comm) != (strlen(base) < 15 ? strlen(base) : 15))
			continue;
		if (match)
			return NULL;
		match = j;
	}
	return match;
}

/* The splat is over: it fails the binary that made it, or is one cause of the run. */
static void close_complaint(struct sched *s)
{
	struct complaint *c = &s->cur;
	struct job *j;

	if (!s->open)
		return;
	s->open = false;
	j = s->h->keep_all ? NULL : owner_of(s, c);
	s->last_owner = j;
	s->last = NULL;
	s->last_at = now_s();
	if (j) {
		char *d = complaint_describe(c);

		if (c->level >= j->kernel_level) {
			free(j->kernel_reason);
			j->kernel_reason = xasprintf("kernel complaint: %s", d);
			j->kernel_level = c->level;
		}
		for (size_t i = 0; i < c->lines.n && j->kernel_log.n < 200; i++)
			strv_add(&j->kernel_log, c->lines.v[i]);
		if (c->taint)
			strv_add_once(&j->health, c->taint);
		free(d);
		complaint_free(c);
		return;
	}
	if (s->h->keep_all && (j = owner_of(s, c)))
		c->owner = xstrdup(j->name);
	grow(&s->h->complaints, &s->h->complaints_cap, s->h->ncomplaints + 1, sizeof(*s->h->complaints));
	s->h->complaints[s->h->ncomplaints] = *c;
	s->last = &s->h->complaints[s->h->ncomplaints++];
	memset(c, 0, sizeof(*c));
}

/* A kernel log line: a line of the current splat, or the first of a new one. */
static void on_log(void *ctx, const char *line, const char *trigger, int level)
{
	struct sched *s = ctx;

	if (trigger && s->open && (!strncmp(trigger, "------------", 12) || (level == 2 && s->cur.level == 2)))
		close_complaint(s);
	if (!s->open) {
		if (!trigger)
			return;
		s->open = true;
		memset(&s->cur, 0, sizeof(s->cur));
		s->cur.pid = -1;
		s->suspects = xrealloc(s->suspects, (s->n ? s->n : 1) * sizeof(*s->suspects));
		s->nsuspects = 0;
		for (size_t i = 0; i < s->n; i++) {
			if (!active(&s->jobs[i]))
				continue;
			s->suspects[s->nsuspects++] = i;
			strv_add(&s->cur.suspects, s->jobs[i].name);
		}
	}
	complaint_feed(&s->cur, line, trigger, level);
}

static void check_health(struct sched *s)
{
	char what[256];

	health_read_log(s->h, on_log, s);
	if (s->open && !s->h->context)
		close_complaint(s);
	if (health_new_taint(s->h, what, sizeof(what))) {
		char *reason = xasprintf("new kernel taint: %s", what);
		bool anyone = false;

		/* A taint goes with the complaint that set it (WARN sets W), read just before. */
		if (s->open) {
			free(s->cur.taint);
			s->cur.taint = xstrdup(reason);
		} else if (s->last_owner && now_s() - s->last_at < 2) {
			strv_add_once(&s->last_owner->health, reason);
		} else if (s->last && now_s() - s->last_at < 2) {
			free(s->last->taint);
			s->last->taint = xstrdup(reason);
		} else {
			for (size_t i = 0; i < s->n; i++) {
				if (active(&s->jobs[i])) {
					strv_add_once(&s->jobs[i].health, reason);
					anyone = true;
				}
			}
			if (!anyone)
				strv_add(&s->h->orphan_log, reason);
		}
		free(reason);
	}
}

static void on_exit_(struct job *j)
{
	j->exited = true;
	j->end = now_s();
	if (!j->timed_out && leftovers(j->pid))
		j->leaked += kill_session(j->pid);
	if (j->fd >= 0)
		j->grace = j->end + EXIT_GRACE;
}

static void reap(struct sched *s)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (size_t i = 0; i < s->n; i++) {
			struct job *j = &s->jobs[i];

			if (active(j) && !j->exited && j->pid == pid) {
				j->wstatus = st;
				on_exit_(j);
				break;
			}
		}
		/* Anything else was left behind by a binary and is now gone. */
	}
}

static void drain(struct job *j)
{
	char buf[65536];

	for (int i = 0; i < 16; i++) {
		ssize_t n = read(j->fd, buf, sizeof(buf));

		if (n > 0) {
			tap_feed(&j->tap, buf, n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		close(j->fd);	/* EOF, or an error we cannot do better with */
		j->fd = -1;
		return;
	}
}

static void kill_job(struct job *j)
{
	kill(-j->pid, SIGKILL);
	kill_session(j->pid);
}

/* Returns a signal number when asked to stop. */
static int handle_signals(struct sched *s)
{
	struct signalfd_siginfo si;
	int stop = 0;

	while (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo != SIGCHLD && !stop)
			stop = si.ssi_signo;
	}
	reap(s);
	return stop;
}

static void check_times(struct sched *s, double now)
{
	for (size_t i = 0; i < s->n; i++) {
		struct job *j = &s->jobs[i];

		if (!active(j))
			continue;
		if (!j->exited && !j->timed_out && now >= j->deadline) {
			j->timed_out = true;
			kill_job(j);
			j->grace = now + KILL_GRACE;
		} else if (!j->exited && j->timed_out && now >= j->grace) {
			/* Not dead after SIGKILL (stuck in the kernel): stop waiting. */
			j->wstatus = -1;
			j->exited = true;
			j->end = now;
		} else if (j->exited && j->fd >= 0 && now >= j->grace) {
			/* Something outside the session still holds the pipe. */
			close(j->fd);
			j->fd = -1;
			j->pipe_abandoned = true;
		}
	}
}

static int poll_timeout(struct sched *s, double now)
{
	double next = -1;

	for (size_t i = 0; i < s->n; i++) {
		struct job *j = &s->jobs[i];
		double t;

		if (!active(j))
			continue;
		if (!j->exited && !j->timed_out)
			t = j->deadline;
		else if ((!j->exited && j->timed_out) || (j->exited && j->fd >= 0))
			t = j->grace;
		else
			t = now;	/* ready to finish */
		if (next < 0 || t < next)
			next = t;
	}
	if (next < 0)
		return -1;
	next -= now;
	return next <= 0 ? 0 : (int)(next * 1000) + 1;
}

static void stop_all(struct sched *s)
{
	double until = now_s() + KILL_GRACE;

	for (size_t i = 0; i < s->n; i++)
		if (active(&s->jobs[i]) && !s->jobs[i].exited)
			kill_job(&s->jobs[i]);
	for (;;) {
		bool waiting = false;

		reap(s);
		for (size_t i = 0; i < s->n; i++)
			if (active(&s->jobs[i]) && !s->jobs[i].exited)
				waiting = true;
		if (!waiting || now_s() > until)
			break;
		usleep(10000);
	}
	for (size_t i = 0; i < s->n; i++) {
		struct job *j = &s->jobs[i];

		if (!j->started)
			continue;
		if (j->fd >= 0)
			close(j->fd);
		j->fd = -1;
		if (j->tmpdir)
			remove_tree(j->tmpdir);
		remove_exe_copy(j->pid);
	}
	remove_dead_probes();
}

/*
 * The value the runner holds for the parts of a phase (run.c): a sysctl
 * set through host/sysctl.h, so that a killed run's is restored too.
 */
static struct {
	const struct phase_set *ps;	/* NULL: none held, the machine's own value */
	long value;
} hold;

static void hold_release(void)
{
	if (hold.ps)
		pc_sysctl_restore(hold.ps->sysctl);
	hold.ps = NULL;
}

/* Whether a held part of the held phase has yet to start. */
static bool phase_pending(const struct sched *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct job *j = &s->jobs[i];

		if (!j->started && !j->split && j->held && !strcmp(j->whole->phases->sysctl, hold.ps->sysctl) &&
		    held_value(j) == hold.value)
			return true;
	}
	return false;
}

/*
 * Arrange the hold for j, which clashes with nothing running. A held part
 * gets its phase's value, set once for all the parts of that phase; the
 * next phase waits until every part of the held one has started. Whatever
 * else reads or changes the held sysctl, and an exclusive binary, get the
 * machine's own value back first. False: j must wait. Where the value
 * cannot be set, the part runs as its binary would, setting it itself (a
 * level the kernel refuses is then its SKIP).
 */
static bool hold_for(const struct sched *s, struct job *j)
{
	const struct phase_set *ps = j->held ? j->whole->phases : NULL;

	if (ps && hold.ps && !strcmp(hold.ps->sysctl, ps->sysctl) && hold.value == held_value(j))
		return true;
	if (!hold.ps || (!ps && !j->exclusive && !job_declares(j, hold.ps->key, false)))
		goto take;
	if (phase_pending(s))
		return false;
	hold_release();
take:
	if (ps && hold.ps == NULL) {
		if (pc_sysctl_set(ps->sysctl, held_value(j))) {
			j->held = false;
		} else {
			hold.ps = ps;
			hold.value = held_value(j);
		}
	}
	return true;
}

int exec_run(struct job *jobs, size_t n, int max_jobs, struct health *h,
	     job_done_fn done, void *ctx)
{
	struct sched s = { .jobs = jobs, .n = n, .h = h };
	struct pollfd *pfd = xcalloc(n + 2, sizeof(*pfd));
	struct job **pjob = xcalloc(n + 2, sizeof(*pjob));
	struct job **order = xcalloc(n ? n : 1, sizeof(*order));
	size_t next = 0;
	int running = 0, stop = 0;
	bool exclusive = false;
	char *tmpl = xasprintf("%s/" TMP_PREFIX "%d.XXXXXX", tmp_base(), (int)getpid());

	if (!mkdtemp(tmpl)) {
		warnx_("cannot create a temporary directory in %s: %s", tmp_base(), strerror(errno));
		free(tmpl);
		return -1;
	}
	run_tmp = tmpl;
	build_env();
	/* Numbered in name order (the output's), started in the order that ends soonest. */
	for (size_t i = 0; i < n; i++) {
		jobs[i].num = i + 1;
		order[i] = &jobs[i];
	}
	qsort(order, n, sizeof(*order), start_before);

	while (next < n || running > 0) {
		size_t np = 0;
		double now;

		/* In order, each that conflicts with none running; nothing passes an exclusive one. */
		for (size_t k = next; !exclusive && k < n && running < max_jobs; k++) {
			struct job *j = order[k];
			bool clash = false;

			if (j->started || j->split)
				continue;
			if (j->exclusive && running > 0)
				break;
			for (size_t i = 0; i < n && !clash; i++)
				clash = active(&jobs[i]) && exec_conflict(j, &jobs[i]);
			if (clash || !hold_for(&s, j))
				continue;
			check_health(&s);
			running++;
			start_job(j);
			if (j->exclusive)
				exclusive = true;
		}
		while (next < n && (order[next]->started || order[next]->split))
			next++;

		pfd[np].fd = sigfd;
		pfd[np++].events = POLLIN;
		if (h->kmsg_fd >= 0) {
			pfd[np].fd = h->kmsg_fd;
			pfd[np++].events = POLLIN;
		}
		for (size_t i = 0; i < n; i++) {
			if (active(&jobs[i]) && jobs[i].fd >= 0) {
				pjob[np] = &jobs[i];
				pfd[np].fd = jobs[i].fd;
				pfd[np++].events = POLLIN;
			}
		}
		if (poll(pfd, np, poll_timeout(&s, now_s())) < 0 && errno != EINTR) {
			warnx_("poll: %s", strerror(errno));
			stop = SIGTERM;
		}
		for (size_t i = 0; i < np; i++)
			if (pjob[i] && (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				drain(pjob[i]);
		memset(pjob, 0, np * sizeof(*pjob));
		if (!stop)
			stop = handle_signals(&s);
		if (stop)
			break;
		health_read_log(h, on_log, &s);
		now = now_s();
		check_times(&s, now);

		for (size_t i = 0; i < n; i++) {
			struct job *j = &jobs[i];

			if (!active(j) || !j->exited || j->fd >= 0)
				continue;
			check_health(&s);
			close_complaint(&s);	/* its verdict is decided now: a splat still open is over for it */
			if (!j->timed_out && !j->leaked && j->pid > 0 && leftovers(j->pid))
				j->leaked += kill_session(j->pid);
			remove_tree(j->tmpdir);
			remove_exe_copy(j->pid);
			if (j->timed_out || WIFSIGNALED(j->wstatus))
				remove_dead_probes();
			tap_finish(&j->tap);
			j->done = true;
			running--;
			if (j->exclusive)
				exclusive = false;
			done(ctx, j);
		}
	}
	if (stop)
		stop_all(&s);
	else
		check_health(&s);	/* a late complaint: after the last binary */
	hold_release();
	close_complaint(&s);
	complaint_free(&s.cur);
	free(s.suspects);
	remove_tree(run_tmp);
	free(pfd);
	free(pjob);
	free(order);
	return stop;
}

int exec_kill_strays(void)
{
	pid_t kids[256];
	int killed = 0;
	double until = now_s() + KILL_GRACE;

	for (;;) {
		size_t n = children(kids, 256);
		bool live = false;

		for (size_t i = 0; i < n; i++) {
			char state;
			pid_t s;

			if (proc_stat(kids[i], &state, &s) && state != 'Z') {
				live = true;
				if (kill(kids[i], SIGKILL) == 0)
					killed++;
			}
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if ((!live && n == 0) || now_s() > until)
			break;
		usleep(10000);
	}
	return killed;
}
