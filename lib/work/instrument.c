// SPDX-License-Identifier: GPL-2.0
/* Instruments and their probes, cached across the harness's forks (see instrument.h). */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "event/event.h"
#include "host/kernel.h"
#include "work/instrument.h"
#include "host/observe.h"
#include "work/workload.h"

#define PROBE_HITS 100

struct cache {
	bool done[PC_INSTR_COUNT];
	struct pc_instrument_probe probe[PC_INSTR_COUNT];
};

/*
 * Each case runs in a child the harness forks: a probe run in one case must
 * be seen by the next, so the cache lives in shared memory made before main.
 */
static struct cache *cache;
static struct cache private_cache;	/* if the shared mapping failed */

__attribute__((constructor)) static void cache_init(void)
{
	void *p = mmap(NULL, sizeof(struct cache), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	cache = p == MAP_FAILED ? &private_cache : p;
}

static const char *const names[PC_INSTR_COUNT] = {
	[PC_INSTR_BREAKPOINTS] = "breakpoints",
	[PC_INSTR_SCHED_FIFO] = "sched_fifo",
	[PC_INSTR_SYSCALL_TRACEPOINTS] = "syscall_tracepoints",
	[PC_INSTR_UPROBES] = "uprobes",
};

const char *pc_instrument_name(enum pc_instrument i)
{
	return i < PC_INSTR_COUNT ? names[i] : "?";
}

static void set(struct pc_instrument_probe *p, enum pc_instrument_state state, const char *fmt, ...)
{
	va_list ap;

	p->state = state;
	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
}

/* Whether `name` is in PERFCONF_BROKEN (a comma-separated list, or "all"). */
static bool forced_broken(const char *name)
{
	const char *list = getenv(PC_BROKEN_ENV);
	size_t len = strlen(name);

	while (list && *list) {
		size_t n = strcspn(list, ",");

		if ((n == 3 && !strncmp(list, "all", 3)) || (n == len && !strncmp(list, name, n)))
			return true;
		list += n + (list[n] == ',');
	}
	return false;
}

static volatile uint64_t watched;

/* One store on every ABI (a 32-bit one moves a u64 in two). */
static noinline void write_watched(uint64_t v)
{
	*(volatile unsigned long *)&watched = (unsigned long)v;
	__asm__ volatile("" ::: "memory");
}

/* Hits of an enabled breakpoint attr over `work`, or -errno when it does not open. */
static long long breakpoint_hits(struct perfconf_attr *attr, void (*work)(void))
{
	uint64_t count = 0;
	int fd = pc_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return fd;
	if (pc_enable(fd) == 0) {
		work();
		pc_disable(fd);
	}
	if (pc_read_count(fd, &count))
		count = 0;
	close(fd);
	return (long long)count;
}

static void call_target(void)
{
	pc_work_calls(PROBE_HITS);
}

static void write_variable(void)
{
	for (uint64_t k = 0; k < PROBE_HITS; k++)
		write_watched(k);
}

static void probe_breakpoints(struct pc_instrument_probe *p)
{
	struct perfconf_attr x = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);
	struct perfconf_attr w = pc_attr_breakpoint(HW_BREAKPOINT_W, &watched, sizeof(watched));
	long long calls, writes;

	/* User-only, so that the probe opens for an unprivileged identity too. */
	x.exclude_kernel = w.exclude_kernel = 1;
	x.exclude_hv = w.exclude_hv = 1;
	calls = breakpoint_hits(&x, call_target);
	writes = calls < 0 ? calls : breakpoint_hits(&w, write_variable);

	if (calls < 0 || writes < 0) {
		set(p, PC_INSTR_ABSENT, "a breakpoint does not open here (%s)",
		    pc_errno_name((int)-(calls < 0 ? calls : writes)));
	} else if (calls != PROBE_HITS || writes != PROBE_HITS) {
		set(p, PC_INSTR_BROKEN,
		    "breakpoints open but do not count here: an execute breakpoint counted %lld of %d calls, "
		    "a write watchpoint %lld of %d writes (the root cause shows in events/breakpoint_exec)",
		    calls, PROBE_HITS, writes, PROBE_HITS);
	} else {
		set(p, PC_INSTR_WORKS, "breakpoints count every hit");
	}
}

static void probe_sched_fifo(struct pc_instrument_probe *p)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct sched_param fifo = { .sched_priority = 1 };

		_exit(sched_setscheduler(0, SCHED_FIFO, &fifo) ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		set(p, PC_INSTR_BROKEN, "the SCHED_FIFO probe could not run (%s)", pc_errno_name(errno));
		return;
	}
	if (WEXITSTATUS(status))
		set(p, PC_INSTR_BROKEN,
		    "this machine refuses SCHED_FIFO (sched_setscheduler: %s): the environment, not the perf ABI",
		    pc_errno_name(WEXITSTATUS(status)));
	else
		set(p, PC_INSTR_WORKS, "SCHED_FIFO can be set");
}

/*
 * syscalls:sys_enter_getppid over this task's getppid() calls. Counting
 * opens for the unprivileged with exclude_kernel (a syscall tracepoint
 * fires with the caller's user registers), so the probe tries that too.
 * Refused to this identity (a privilege cell), it keeps no verdict: false.
 */
static bool probe_syscall_tracepoints(struct pc_instrument_probe *p)
{
	struct perfconf_attr attr;
	uint64_t count = 0;
	int err = pc_attr_tracepoint(&attr, "syscalls", "sys_enter_getppid"), fd = -ENOENT;

	if (!err) {
		fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd == -EACCES || fd == -EPERM) {
			attr.exclude_kernel = attr.exclude_hv = 1;
			fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		}
	}
	if (fd < 0) {
		set(p, PC_INSTR_ABSENT, "syscalls:sys_enter_getppid does not open here (%s)",
		    pc_errno_name(err ? -err : -fd));
		return fd != -EACCES && fd != -EPERM;
	}
	if (pc_enable(fd) == 0) {
		pc_work_getppid_calls(PROBE_HITS);
		pc_disable(fd);
	}
	if (pc_read_count(fd, &count))
		count = 0;
	close(fd);
	if (count == PROBE_HITS)
		set(p, PC_INSTR_WORKS, "syscall tracepoints count this task's calls");
	else if (pc_kernel_compat())
		set(p, PC_INSTR_BROKEN,
		    "syscalls:sys_enter_getppid counted %llu of %d getppid() calls: this is a 32-bit build on a "
		    "64-bit kernel, which does not trace a compat task's syscalls (ARCH_TRACE_IGNORE_COMPAT_SYSCALLS: "
		    "x86, arm64, s390)", (unsigned long long)count, PROBE_HITS);
	else
		set(p, PC_INSTR_BROKEN,
		    "syscalls:sys_enter_getppid counted %llu of %d getppid() calls of this task "
		    "(the root cause shows in events/tracepoint_count)", (unsigned long long)count, PROBE_HITS);
	return true;
}

/*
 * The uprobe pc_attr_calls gives for pc_work_target (the one this binary
 * keeps, else a uprobe PMU event), over PROBE_HITS calls in a child that
 * opens it on itself: every call counted, and the child alive after them.
 * Refused to this identity (uprobes want CAP_PERFMON), it keeps no
 * verdict: false.
 */
static bool probe_uprobes(struct pc_instrument_probe *p)
{
	struct perfconf_attr attr;
	struct { uint64_t count; int err; } seen = { 0, -EIO };
	int fd, pipefd[2], status;
	pid_t pid;

	if (!pc_kernel_uprobes_task()) {
		set(p, PC_INSTR_ABSENT, "the kernel does not uprobe this task's code (AArch32 on arm64)");
		return true;
	}
	if (pipe(pipefd)) {
		set(p, PC_INSTR_BROKEN, "the uprobe probe could not run (pipe: %s)", pc_errno_name(errno));
		return true;
	}
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		seen.err = pc_attr_calls(&attr, pc_work_target);
		fd = seen.err ? seen.err : pc_open(&attr, 0, -1, -1, 0);
		if (fd < 0)
			seen.err = fd;
		else if (!(seen.err = pc_enable(fd))) {
			pc_work_calls(PROBE_HITS);
			pc_disable(fd);
			seen.err = pc_read_count(fd, &seen.count);
		}
		_exit(write(pipefd[1], &seen, sizeof(seen)) == sizeof(seen) ? 0 : 1);
	}
	close(pipefd[1]);
	if (pid < 0 || read(pipefd[0], &seen, sizeof(seen)) != sizeof(seen))
		seen.err = -EIO;
	close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		set(p, PC_INSTR_BROKEN, "the uprobe probe could not run (%s)", pc_errno_name(errno));
	} else if (WIFSIGNALED(status)) {
		set(p, PC_INSTR_BROKEN,
		    "a task that hits a uprobe is killed by signal %d (%s) (the root cause shows in events/uprobe_count)",
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (seen.err) {
		set(p, PC_INSTR_ABSENT, "a uprobe does not open here (%s)", pc_errno_name(-seen.err));
		return seen.err != -EACCES && seen.err != -EPERM;
	} else if (seen.count != PROBE_HITS) {
		set(p, PC_INSTR_BROKEN, "a uprobe counted %llu of %d calls (the root cause shows in events/uprobe_count)",
		    (unsigned long long)seen.count, PROBE_HITS);
	} else {
		set(p, PC_INSTR_WORKS, "uprobes count every call");
	}
	return true;
}

const struct pc_instrument_probe *pc_instrument(enum pc_instrument i)
{
	static struct pc_instrument_probe unknown = { PC_INSTR_ABSENT, "unknown instrument" };
	static struct pc_instrument_probe forced[PC_INSTR_COUNT];
	struct pc_instrument_probe *p;

	if (i >= PC_INSTR_COUNT)
		return &unknown;
	/* Read each time, before the cache: a test may set it for one case. */
	if (forced_broken(names[i])) {
		set(&forced[i], PC_INSTR_BROKEN, "forced broken by %s=%s", PC_BROKEN_ENV,
		    getenv(PC_BROKEN_ENV));
		return &forced[i];
	}
	p = &cache->probe[i];
	if (cache->done[i])
		return p;
	if (i == PC_INSTR_BREAKPOINTS)
		probe_breakpoints(p);
	else if (i == PC_INSTR_SCHED_FIFO)
		probe_sched_fifo(p);
	else if (i == PC_INSTR_SYSCALL_TRACEPOINTS ? !probe_syscall_tracepoints(p) : !probe_uprobes(p))
		return p;	/* asked again by the next case */
	cache->done[i] = true;
	return p;
}

void pc_instrument_note(enum pc_instrument i)
{
	const struct pc_instrument_probe *p = pc_instrument(i);
	char line[sizeof(p->why) + 64];
	int n;

	pc_depends("instrument.%s", names[i]);	/* a broken one fails what it serves: judged where it is broken too */
	if (p->state != PC_INSTR_BROKEN)
		return;
	n = snprintf(line, sizeof(line), "# CAUSE %s: %s\n", names[i], p->why);
	if (n > 0)
		(void)!write(STDOUT_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}
