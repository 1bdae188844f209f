// SPDX-License-Identifier: GPL-2.0
/* Deterministic workloads. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "work/clock.h"
#include "work/faults.h"
#include "work/workload.h"

/* Kept out of line and unclonable: breakpoints and uprobes go here. */
__attribute__((__noinline__, __noipa__, used)) void pc_work_target(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((__noinline__, __noipa__)) void pc_work_calls(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		pc_work_target();
}

__attribute__((__noinline__, __noipa__)) void pc_work_touch(volatile uint64_t *p)
{
	/* One load and one store on every ABI: a 32-bit one moves a u64 in two. */
	volatile unsigned long *word = (volatile unsigned long *)p;

	*word = *word + 1;
}

__attribute__((__noinline__, __noipa__)) uint64_t pc_work_peek(const volatile uint64_t *p)
{
	return *(const volatile unsigned long *)p;	/* one load on every ABI */
}

__attribute__((__noinline__, __noipa__)) uint64_t pc_work_loop(unsigned long n)
{
	uint64_t acc = 0;

	for (unsigned long i = 0; i < n; i++) {
		acc += i;
		__asm__ volatile("" : "+r"(acc));
	}
	return acc;
}

int pc_work_page_faults(unsigned long n)
{
	struct pc_faults f;
	int err = n ? pc_faults_map(&f, n) : 0;

	if (!n || err)
		return err;
	pc_faults_next(&f, n);
	pc_faults_unmap(&f);
	return 0;
}

int pc_work_kernel_faults(unsigned long n)
{
	struct pc_faults f;
	int err = n ? pc_faults_map(&f, n) : 0;

	if (!n || err)
		return err;
	/* Nothing else here writes user memory from the kernel. */
	for (size_t k = 0; k < n && !err; k++)
		if (uname((struct utsname *)(uintptr_t)pc_faults_addr(&f, k)))
			err = -errno;
	pc_faults_unmap(&f);
	return err;
}

void pc_work_getppid_calls(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

pid_t pc_work_context_switches(unsigned long n)
{
	int to_child[2], to_parent[2], err = 0;
	char c = 0;

	if (pipe2(to_child, O_CLOEXEC))
		return -errno;
	if (pipe2(to_parent, O_CLOEXEC)) {
		err = -errno;
		close(to_child[0]);
		close(to_child[1]);
		return err;
	}
	pid_t child = fork();
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		close(to_child[1]);
		close(to_parent[0]);
		while (read(to_child[0], &c, 1) == 1 && write(to_parent[1], &c, 1) == 1)
			;
		_exit(0);
	}
	if (child < 0)
		err = -errno;
	close(to_child[0]);
	close(to_parent[1]);
	for (unsigned long i = 0; i < n && !err; i++)
		if (write(to_child[1], &c, 1) != 1 || read(to_parent[0], &c, 1) != 1)
			err = -EIO;
	close(to_child[1]);	/* the child reads EOF and exits */
	close(to_parent[0]);
	if (child > 0)
		waitpid(child, NULL, 0);
	return err ? err : child;
}

pid_t pc_work_fork_exit(int code)
{
	int status;
	pid_t child = fork();

	if (child < 0)
		return -errno;
	if (child == 0)
		_exit(code);
	if (waitpid(child, &status, 0) != child)
		return -errno;
	return child;
}

int pc_work_set_comm(const char *name)
{
	return prctl(PR_SET_NAME, name, 0, 0, 0) ? -errno : 0;
}

int pc_work_exec_self(const char *work)
{
	char *const argv[] = { "perfconf-exec-helper", NULL };

	if (setenv(PC_EXEC_WORK_ENV, work, 1))
		return -errno;
	execv("/proc/self/exe", argv);
	return -errno;
}

pid_t pc_work_exec(const char *work)
{
	int status;
	pid_t child = fork();

	if (child < 0)
		return -errno;
	if (child == 0) {
		pc_work_exec_self(work);
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? child : -ECHILD;
}

/* N page faults, then perf time moves (work/clock.h). */
static int timed_faults(unsigned long n)
{
	struct pc_perf_clock clk;
	int err = pc_perf_clock_open(&clk);

	if (err)
		return err;
	err = pc_work_page_faults(n);
	err = err ?: pc_perf_clock_wait(&clk);
	pc_perf_clock_close(&clk);
	return err;
}

int pc_work_task_events(int on)
{
	return prctl(on ? PR_TASK_PERF_EVENTS_ENABLE : PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0) ? -errno : 0;
}

/* The words of the "touch_a" and "touch_b" work, each on a cache line of its own. */
static volatile uint64_t work_words[2][8] __attribute__((aligned(64)));

volatile uint64_t *pc_work_word(unsigned int i)
{
	return &work_words[i & 1][0];
}

static void touch_word(unsigned int i, unsigned long n)
{
	for (unsigned long k = 0; k < n; k++)
		pc_work_touch(pc_work_word(i));
}

int pc_work_do(const char *work)
{
	char verb[16], arg[64] = "";

	if (sscanf(work, "%15s %63s", verb, arg) < 1)
		return -EINVAL;
	if (!strcmp(verb, "calls"))
		pc_work_calls(strtoul(arg, NULL, 0));
	else if (!strcmp(verb, "touch_a") || !strcmp(verb, "touch_b"))
		touch_word(verb[6] == 'b', strtoul(arg, NULL, 0));
	else if (!strcmp(verb, "loop"))
		pc_work_loop(strtoul(arg, NULL, 0));
	else if (!strcmp(verb, "faults"))
		return pc_work_page_faults(strtoul(arg, NULL, 0));
	else if (!strcmp(verb, "timed_faults"))
		return timed_faults(strtoul(arg, NULL, 0));
	else if (!strcmp(verb, "comm"))
		return pc_work_set_comm(arg);
	else if (!strcmp(verb, "task_events"))
		return pc_work_task_events(!strcmp(arg, "on"));
	else if (strcmp(verb, "exit"))
		return -EINVAL;
	return 0;
}

pid_t pc_work_in_child(const char *work)
{
	int status;
	pid_t child = fork();

	if (child < 0)
		return -errno;
	if (child == 0)
		_exit(pc_work_do(work) ? 1 : 0);
	if (waitpid(child, &status, 0) != child)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? child : -ECHILD;
}

struct thread_fn {
	pc_work_fn fn;
	void *arg;
	pid_t tid;
};

static void *thread_main(void *arg)
{
	struct thread_fn *t = arg;

	t->tid = gettid();
	t->fn(t->arg);
	return NULL;
}

/*
 * pthread_join() returns once the thread's tid is cleared, which is before
 * the kernel has dealt with its perf events: until then a read may count
 * its copies twice (5.10) and its inherit_stat PERF_RECORD_READ is not
 * written yet. Gone from /proc/self/task, it is done.
 */
int pc_work_thread_gone(pid_t tid)
{
	const struct timespec tick = { .tv_nsec = 100000 };	/* 0.1 ms */
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	for (int i = 0; i < 50000; i++) {
		if (access(path, F_OK))
			return 0;
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}

pid_t pc_work_fn_in_thread(pc_work_fn fn, void *arg)
{
	struct thread_fn t = { .fn = fn, .arg = arg };
	pthread_t thread;
	int err = pthread_create(&thread, NULL, thread_main, &t);

	if (err)
		return -err;
	pthread_join(thread, NULL);
	err = pc_work_thread_gone(t.tid);
	return err ? err : t.tid;
}

struct named_work {
	const char *work;
	int err;
};

static void named_work(void *arg)
{
	struct named_work *w = arg;

	w->err = pc_work_do(w->work);
}

pid_t pc_work_in_thread(const char *work)
{
	struct named_work w = { .work = work };
	pid_t tid = pc_work_fn_in_thread(named_work, &w);

	return tid > 0 && w.err ? w.err : tid;
}

void pc_user_faults_work(void *n)
{
	pc_work_page_faults((unsigned long)(uintptr_t)n);
}

void pc_kernel_faults_work(void *n)
{
	pc_work_kernel_faults((unsigned long)(uintptr_t)n);
}

void pc_calls_work(void *n)
{
	pc_work_calls((unsigned long)(uintptr_t)n);
}

void pc_loop_work(void *n)
{
	pc_work_loop((unsigned long)(uintptr_t)n);
}

void pc_getppid_work(void *n)
{
	pc_work_getppid_calls((unsigned long)(uintptr_t)n);
}

void pc_rename_work(void *n)
{
	for (unsigned long i = 0; i < (unsigned long)(uintptr_t)n; i++)
		pc_work_set_comm("perfconf-rename");
}

void pc_mixed_faults_work(void *n)
{
	pc_work_page_faults((unsigned long)(uintptr_t)n);
	pc_work_kernel_faults((unsigned long)(uintptr_t)n / 2);
}

/* In the exec'd image: do the work named in the environment, then exit. */
__attribute__((constructor)) static void exec_helper(void)
{
	const char *work = getenv(PC_EXEC_WORK_ENV);

	if (work)
		_exit(pc_work_do(work) ? 1 : 0);
}
