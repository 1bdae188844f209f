// SPDX-License-Identifier: GPL-2.0
/*
 * Global perf sysctls, changed safely: the original value goes into a state
 * file (under flock) before the first change, so that whoever comes next
 * (the test's teardown, the runner at the end of a run, on a signal or at
 * its next start) can put it back. See sysctl.h for the protocol.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "host/observe.h"
#include "host/sysctl.h"

#define STATE_NAME "sysctl.state"
/* The machine's, whatever PERFCONF_STATE_DIR says: sysctls are global. */
#define RUN_LOCK_DIR "/run/perfconf"
#define MAX_ENTRIES 64
#define MAX_NAME 128
#define CPU_ONLINE_FMT "/sys/devices/system/cpu/cpu%u/online"
#define MODULE_PREFIX PC_MODULE_ENTRY("")
#define MODULE_NAME_MAX 55	/* the kernel's MODULE_NAME_LEN, less its NUL */

struct entry {
	char name[MAX_NAME];
	long value;
	long owner;	/* the session of the binary that saved it, 0 when not told */
};

static const char *state_dir(void)
{
	const char *d = getenv("PERFCONF_STATE_DIR");

	return d && *d ? d : "/run/perfconf";
}

const char *pc_sysctl_state_path(void)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/" STATE_NAME, state_dir());
	return path;
}

int pc_sysctl_lock_runs(bool wait, long *holder)
{
	static int fd = -1;
	char buf[32];
	ssize_t n;

	*holder = 0;
	if (fd >= 0)
		return 0;	/* this process has it */
	if (mkdir(RUN_LOCK_DIR, 0700) && errno != EEXIST)
		return errno == EACCES || errno == EROFS || errno == EPERM ? 0 : -errno;
	fd = open(RUN_LOCK_DIR "/run.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)	/* not root: its binaries cannot change a sysctl either */
		return errno == EACCES || errno == EROFS || errno == EPERM ? 0 : -errno;
	while (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB))) {
		int err = errno;

		if (err == EINTR && wait)
			continue;
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = 0;
		*holder = atol(buf);
		close(fd);
		fd = -1;
		return -err;
	}
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, buf, n, 0) != n) {
		int err = errno ? errno : EIO;

		close(fd);
		fd = -1;
		return -err;
	}
	return 0;
}

/* "kernel/perf_event_paranoid": no absolute paths, no "..", no odd bytes. */
static int sysctl_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= MAX_NAME || name[0] == '/' || strstr(name, ".."))
		return 0;
	for (; *name; name++)
		if (!isalnum((unsigned char)*name) && !strchr("_/.-", *name))
			return 0;
	return 1;
}

/* An absolute name: "/sys/devices/system/cpu/cpu<N>/online" (or PC_RCU_EXPEDITED, valid_name). */
static int cpu_online_name(const char *name)
{
	char canon[MAX_NAME];
	unsigned int cpu;

	if (sscanf(name, CPU_ONLINE_FMT, &cpu) != 1)
		return 0;
	snprintf(canon, sizeof(canon), CPU_ONLINE_FMT, cpu);
	return !strcmp(canon, name);
}

/* "/sys/module/<name>": a module the runner loaded (PC_MODULE_ENTRY). */
static int module_name(const char *name)
{
	const char *m;
	size_t n;

	if (strncmp(name, MODULE_PREFIX, strlen(MODULE_PREFIX)))
		return 0;
	m = name + strlen(MODULE_PREFIX);
	n = strlen(m);
	return n && n <= MODULE_NAME_MAX &&
	       strspn(m, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

static int valid_name(const char *name)
{
	return sysctl_name(name) || cpu_online_name(name) || !strcmp(name, PC_RCU_EXPEDITED) ||
	       module_name(name);
}

/* Where a sysctl's value is read and written; a module's entry has none. */
static int proc_path(const char *name, char *buf, size_t len)
{
	if (!valid_name(name) || module_name(name))
		return -EINVAL;
	snprintf(buf, len, "%s%s", name[0] == '/' ? "" : "/proc/sys/", name);
	return 0;
}

const char *pc_sysctl_cpu_online(int cpu, char *buf, size_t len)
{
	snprintf(buf, len, CPU_ONLINE_FMT, cpu);
	return buf;
}

/* The value, without telling the runner of a read (pc_sysctl_get does). */
static int read_value(const char *name, long *value)
{
	char path[PATH_MAX], buf[64], *end;
	ssize_t n;
	int fd, err = proc_path(name, path, sizeof(path));

	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = 0;
	errno = 0;
	*value = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

int pc_sysctl_get(const char *name, long *value)
{
	pc_sysctl_note(false, name);
	return read_value(name, value);
}

const char *pc_sysctl_key(const char *name, char *buf, size_t len)
{
	const char *slash = strrchr(name, '/');

	snprintf(buf, len, "%s", cpu_online_name(name) ? "cpu_online" : slash ? slash + 1 : name);
	return buf;
}

void pc_sysctl_note(bool writes, const char *name)
{
	char key[MAX_NAME], line[MAX_NAME + 16];

	if (!getenv(PC_RUNNER_PID_ENV))
		return;		/* not a binary the runner started: no one to tell */
	snprintf(line, sizeof(line), "# %s %s\n", writes ? "WRITES" : "READS", pc_sysctl_key(name, key, sizeof(key)));
	pc_diag_once(line);
}

static int sysctl_write(const char *name, long value)
{
	char path[PATH_MAX], buf[32];
	int fd, len, err = proc_path(name, path, sizeof(path));
	ssize_t n;

	if (err)
		return err;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%ld\n", value);
	n = write(fd, buf, len);
	err = n < 0 ? -errno : n != len ? -EIO : 0;
	close(fd);
	return err;
}

/*
 * Unload a module the runner loaded. Its events close asynchronously (the
 * last fput of a binary's perf fd, RCU), so a module still in use is
 * tried again for a while. One that is gone already counts as unloaded;
 * so does any on a kernel without modules (nothing could have loaded it).
 */
static int module_unload(const char *module)
{
	for (int waited = 0;; waited += 50) {
		int err;

		if (syscall(SYS_delete_module, module, O_NONBLOCK) == 0)
			return 0;
		err = errno;
		if (err == ENOENT || err == ENOSYS)
			return 0;
		if ((err != EBUSY && err != EAGAIN) || waited >= PC_MODULE_UNLOAD_WAIT_MS)
			return -err;
		usleep(50 * 1000);
	}
}

/* Put back what an entry saved: a sysctl's value, or unload a module. */
static int entry_restore(const char *name, long value)
{
	if (module_name(name))
		return module_unload(name + strlen(MODULE_PREFIX));
	return sysctl_write(name, value);
}

/*
 * Open and lock the state file. A holder that empties the file unlinks it
 * while holding the lock, so after locking check that the inode we hold is
 * still the one at the path, and start again if not.
 * Returns the fd, -ENOENT when !create and there is no file, or -errno.
 */
static int lock_state(int create)
{
	const char *path = pc_sysctl_state_path();

	for (int tries = 0; tries < 100; tries++) {
		struct stat a, b;
		int fd, gone;

		if (create && mkdir(state_dir(), 0700) && errno != EEXIST)
			return -errno;
		fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
		if (fd < 0)
			return -errno;
		if (flock(fd, LOCK_EX)) {
			int err = -errno;

			close(fd);
			return err;
		}
		errno = 0;
		if (fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return fd;
		gone = errno == ENOENT;
		close(fd);
		if (gone && !create)
			return -ENOENT;
	}
	return -EAGAIN;
}

/*
 * Parse the locked state file. Returns the number of entries, or -EINVAL
 * for a malformed file (with a "path:line: what" message on stderr).
 */
static int read_state(int fd, struct entry *e, int max)
{
	char buf[MAX_ENTRIES * (MAX_NAME + 32)], *line, *save;
	ssize_t n;
	int count = 0, lineno = 0;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	if (n == (ssize_t)sizeof(buf) - 1) {
		fprintf(stderr, "%s: state file too large\n", pc_sysctl_state_path());
		return -EINVAL;
	}
	buf[n] = 0;
	if (n > 0 && buf[n - 1] != '\n') {
		fprintf(stderr, "%s: last line is incomplete\n", pc_sysctl_state_path());
		return -EINVAL;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[MAX_NAME], rest[2];
		long value, owner = 0;
		int fields = sscanf(line, "%127s %ld %ld %1s", name, &value, &owner, rest);

		lineno++;
		if (count == max || fields < 2 || fields > 3 || owner < 0 || !valid_name(name)) {
			fprintf(stderr, "%s:%d: malformed entry \"%s\" (expected \"<sysctl> <value> [<session>]\")\n",
				pc_sysctl_state_path(), lineno, line);
			return -EINVAL;
		}
		snprintf(e[count].name, MAX_NAME, "%s", name);
		e[count].value = value;
		e[count].owner = owner;
		count++;
	}
	return count;
}

/* lock_state(), then the file's entries into e (*n of them): the fd, or -errno. */
static int load_state(int create, struct entry *e, int *n)
{
	int fd = lock_state(create);

	if (fd < 0)
		return fd;
	*n = read_state(fd, e, MAX_ENTRIES);
	if (*n < 0) {
		int err = *n;

		close(fd);
		return err;
	}
	return fd;
}

static int write_state(int fd, const struct entry *e, int count)
{
	char buf[MAX_ENTRIES * (MAX_NAME + 32)];
	size_t len = 0;

	for (int i = 0; i < count; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s %ld %ld\n", e[i].name, e[i].value, e[i].owner);
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	/*
	 * No fsync: the file must outlive a process, not the machine. A
	 * reboot puts the sysctls back to their boot values anyway, and an
	 * fsync per change cost 6 ms each on an ext4 /run, 2 s of each
	 * privilege binary's run.
	 */
	return len && write(fd, buf, len) != (ssize_t)len ? -EIO : 0;
}

/* Drop an emptied state file; the caller still holds the lock. */
static void unlink_if_empty(int fd, int count)
{
	if (count == 0)
		unlink(pc_sysctl_state_path());
	close(fd);
}

/*
 * Whether the runner holds name for this binary (PC_HELD_ENV); its value
 * into *value.
 */
static bool held_by_runner(const char *name, long *value)
{
	const char *h = getenv(PC_HELD_ENV);
	size_t n = strlen(name);
	char *end;

	if (!h || strncmp(h, name, n) || h[n] != '=')
		return false;
	errno = 0;
	*value = strtol(h + n + 1, &end, 10);
	return !errno && !*end && end != h + n + 1;
}

int pc_sysctl_set(const char *name, long value)
{
	struct entry e[MAX_ENTRIES];
	int fd, n, err, i;
	long orig, held;

	if (held_by_runner(name, &held)) {
		/* It is the runner's to set and restore: this binary only reads it. */
		pc_sysctl_note(false, name);
		if (value != held)
			return -EBUSY;
		err = read_value(name, &orig);
		return err ? err : orig == held ? 0 : -ESTALE;
	}
	pc_sysctl_note(true, name);
	err = read_value(name, &orig);	/* a name that is not there keeps no state */
	if (err)
		return err;
	fd = load_state(1, e, &n);
	if (fd < 0)
		return fd;
	/*
	 * The original, again under the lock: the value read before it could
	 * be another writer's, which that writer restores while this one
	 * waits, and this entry would then put the lowered value back for good.
	 */
	err = read_value(name, &orig);
	if (err) {
		close(fd);
		return err;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			break;
	if (i == n) {		/* first saved value wins */
		if (n == MAX_ENTRIES) {
			close(fd);
			return -ENOSPC;
		}
		snprintf(e[n].name, MAX_NAME, "%s", name);
		e[n].value = orig;
		e[n].owner = getsid(0) > 0 ? getsid(0) : 0;
		err = write_state(fd, e, n + 1);
		if (err) {
			close(fd);
			return err;
		}
	}
	/* Write under the lock, so a concurrent restore_all sees a consistent pair. */
	err = sysctl_write(name, value);
	close(fd);
	return err;
}

int pc_sysctl_save_module(const char *name)
{
	struct entry e[MAX_ENTRIES];
	int fd, n, err = 0;

	if (!module_name(name))
		return -EINVAL;
	fd = load_state(1, e, &n);
	if (fd < 0)
		return fd;
	for (int i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			goto out;	/* saved already: a dead run's, still loaded */
	if (n == MAX_ENTRIES) {
		err = -ENOSPC;
		goto out;
	}
	snprintf(e[n].name, MAX_NAME, "%s", name);
	e[n].value = 0;		/* it was not loaded */
	e[n].owner = getpid();	/* the runner's */
	err = write_state(fd, e, n + 1);
out:
	close(fd);
	return err;
}

/* Drop name's entry, after putting its value back (restore) or not. */
static int drop_entry(const char *name, bool restore)
{
	struct entry e[MAX_ENTRIES];
	int fd, n, err = -ENOENT;
	long held;

	if (!valid_name(name))
		return -EINVAL;
	if (restore && held_by_runner(name, &held))
		return 0;	/* the runner restores it */
	fd = load_state(0, e, &n);
	if (fd < 0)
		return fd;
	for (int i = 0; i < n; i++) {
		if (strcmp(e[i].name, name))
			continue;
		err = restore ? entry_restore(name, e[i].value) : 0;
		if (err)
			break;
		memmove(&e[i], &e[i + 1], (n - i - 1) * sizeof(e[0]));
		n--;
		err = write_state(fd, e, n);
		break;
	}
	unlink_if_empty(fd, err ? -1 : n);
	return err;
}

int pc_sysctl_restore(const char *name)
{
	return drop_entry(name, true);
}

int pc_sysctl_forget(const char *name)
{
	return drop_entry(name, false);
}

/* Restore the entries saved by session (any session when all), keep the others. */
static int restore_saved(bool all, long session)
{
	struct entry e[MAX_ENTRIES];
	int fd, n, kept = 0, restored = 0, err = 0;

	fd = load_state(0, e, &n);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	for (int i = 0; i < n; i++) {
		/* A module's entry is the runner's, restored by name (pc_sysctl_restore). */
		int r = module_name(e[i].name) ? 1
			: all || e[i].owner == session ? sysctl_write(e[i].name, e[i].value) : 1;

		if (r < 0) {
			fprintf(stderr, "%s: cannot restore %s to %ld: %s\n",
				pc_sysctl_state_path(), e[i].name, e[i].value, strerror(-r));
			err = r;
		}
		if (r)
			e[kept++] = e[i];	/* another binary's, or kept for the next attempt */
		else
			restored++;
	}
	if (restored)
		write_state(fd, e, kept);
	unlink_if_empty(fd, kept);
	return err ? err : restored;
}

int pc_sysctl_restore_owned(long session)
{
	return restore_saved(false, session);
}

int pc_sysctl_restore_all(void)
{
	return restore_saved(true, 0);
}
