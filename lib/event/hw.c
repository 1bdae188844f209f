// SPDX-License-Identifier: GPL-2.0
/* Hardware events: the core PMU, the exact loop, the arm64 kernel's exception level. */
#include <errno.h>
#include <linux/elf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "event/event.h"
#include "event/hw.h"
#include "event/pmu.h"
#include "host/observe.h"

/* The runner's profile rule (runners/profile.c). */
static bool is_core_pmu(const char *name)
{
	static const char *const generic[] = {
		"software", "tracepoint", "breakpoint", "kprobe", "uprobe", "msr", "power", NULL,
	};
	char path[512];
	struct stat st;

	for (int i = 0; generic[i]; i++)
		if (!strcmp(name, generic[i]))
			return false;
	if (!strcmp(name, "cpu") || !strncmp(name, "cpu_", 4) || !strcmp(name, "cpum_cf"))
		return true;
	snprintf(path, sizeof(path), "%s/%s/cpus", PC_PMU_SYSFS, name);
	return stat(path, &st) == 0;
}

static char core_pmu[256];
static int core_pmus = -1;

static void find_core_pmus(void)
{
	char **names;

	if (core_pmus >= 0)
		return;
	core_pmus = 0;
	names = pc_pmu_list();
	for (size_t i = 0; names && names[i]; i++) {
		if (!is_core_pmu(names[i]))
			continue;
		if (!core_pmus++)
			snprintf(core_pmu, sizeof(core_pmu), "%s", names[i]);
	}
	pc_strv_free(names);
}

const char *pc_hw_pmu(void)
{
	pc_depends("pmu.core");
	find_core_pmus();
	if (core_pmus)
		pc_depends("arch");	/* a core PMU's events are its CPU's ("cpu" names riscv64's and POWER's alike) */
	return core_pmus ? core_pmu : NULL;
}

int pc_hw_pmu_count(void)
{
	pc_depends("pmu.core");
	find_core_pmus();
	return core_pmus;
}

struct perfconf_attr pc_attr_hw(uint64_t config)
{
	return pc_attr(PERF_TYPE_HARDWARE, config);
}

struct perfconf_attr pc_attr_hw_cache(unsigned int cache, unsigned int op, unsigned int result)
{
	return pc_attr(PERF_TYPE_HW_CACHE, cache | (op << 8) | (result << 16));
}

int pc_hw_open_errno(uint64_t config)
{
	struct perfconf_attr a = pc_attr_hw(config);

	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return pc_open_errno(&a, 0, -1, -1, 0);
}

bool pc_hw_refusal_documented(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == EINVAL;
}

static const char *name_of(const char *const *names, size_t n, uint64_t i)
{
	return i < n ? names[i] : "unknown";
}

#define NAME_OF(names, i) name_of(names, sizeof(names) / sizeof(names[0]), i)

const char *pc_hw_event_name(uint64_t config)
{
	static const char *const names[] = {
		"cpu_cycles", "instructions", "cache_references", "cache_misses",
		"branch_instructions", "branch_misses", "bus_cycles",
		"stalled_cycles_frontend", "stalled_cycles_backend", "ref_cpu_cycles",
	};
	return NAME_OF(names, config);
}

const char *pc_hw_cache_name(unsigned int cache)
{
	static const char *const names[] = { "l1d", "l1i", "ll", "dtlb", "itlb", "bpu", "node" };
	return NAME_OF(names, cache);
}

const char *pc_hw_cache_op_name(unsigned int op)
{
	static const char *const names[] = { "read", "write", "prefetch" };
	return NAME_OF(names, op);
}

const char *pc_hw_cache_result_name(unsigned int result)
{
	static const char *const names[] = { "access", "miss" };
	return NAME_OF(names, result);
}

/*
 * The loop. One asm block, so the compiler puts nothing between the two
 * system calls; global labels mark the addresses (the function is never
 * inlined or cloned, so each label exists once).
 */
#if defined(__aarch64__)
__attribute__((noinline, noclone))
long pc_hw_loop_between(const struct pc_hw_call *on, const struct pc_hw_call *off, unsigned long n)
{
	register long x0 __asm__("x0") = on->a0;
	register long x1 __asm__("x1") = on->a1;
	register long x2 __asm__("x2") = on->a2;
	register long x8 __asm__("x8") = on->nr;
	register unsigned long x9 __asm__("x9") = n;
	register long x10 __asm__("x10");
	register long x11 __asm__("x11") = off->a0;
	register long x12 __asm__("x12") = off->a1;
	register long x13 __asm__("x13") = off->a2;
	register long x14 __asm__("x14") = off->nr;

	if (!n)
		return -EINVAL;
	__asm__ volatile(
		"	svc	#0\n"
		"	.globl	pc_hw_loop_begin_\n"
		"pc_hw_loop_begin_:\n"
		"	mov	x10, x0\n"
		"	mov	x0, x11\n"
		"	mov	x1, x12\n"
		"	mov	x2, x13\n"
		"	mov	x8, x14\n"
		"	.globl	pc_hw_loop_body_\n"
		"pc_hw_loop_body_:\n"
		"	subs	x9, x9, #1\n"
		"	b.ne	pc_hw_loop_body_\n"
		"	.globl	pc_hw_loop_end_\n"
		"pc_hw_loop_end_:\n"
		"	svc	#0\n"
		: "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x8), "+r"(x9), "=r"(x10)
		: "r"(x11), "r"(x12), "r"(x13), "r"(x14)
		: "memory", "cc");
	return x10;
}
#define HAVE_LOOP 1
#elif defined(__arm__) && !defined(__thumb__)
/* ARM state (AArch32 EL0 on arm64): the same loop, svc with r7 the number. */
__attribute__((noinline, noclone))
long pc_hw_loop_between(const struct pc_hw_call *on, const struct pc_hw_call *off, unsigned long n)
{
	register long r0 __asm__("r0") = on->a0;
	register long r1 __asm__("r1") = on->a1;
	register long r2 __asm__("r2") = on->a2;
	register unsigned long r3 __asm__("r3") = n;
	register long r4 __asm__("r4");
	register long r5 __asm__("r5") = off->a0;
	register long r6 __asm__("r6") = off->a1;
	register long r7 __asm__("r7") = on->nr;
	register long r8 __asm__("r8") = off->a2;
	register long r9 __asm__("r9") = off->nr;

	if (!n)
		return -EINVAL;
	__asm__ volatile(
		"	svc	#0\n"
		"	.globl	pc_hw_loop_begin_\n"
		"pc_hw_loop_begin_:\n"
		"	mov	r4, r0\n"
		"	mov	r0, r5\n"
		"	mov	r1, r6\n"
		"	mov	r2, r8\n"
		"	mov	r7, r9\n"
		"	.globl	pc_hw_loop_body_\n"
		"pc_hw_loop_body_:\n"
		"	subs	r3, r3, #1\n"
		"	bne	pc_hw_loop_body_\n"
		"	.globl	pc_hw_loop_end_\n"
		"pc_hw_loop_end_:\n"
		"	svc	#0\n"
		: "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r7), "+r"(r3), "=r"(r4)
		: "r"(r5), "r"(r6), "r"(r8), "r"(r9)
		: "memory", "cc");
	return r4;
}
#define HAVE_LOOP 1
#elif defined(__x86_64__)
__attribute__((noinline, noclone))
long pc_hw_loop_between(const struct pc_hw_call *on, const struct pc_hw_call *off, unsigned long n)
{
	register long rax __asm__("rax") = on->nr;
	register long rdi __asm__("rdi") = on->a0;
	register long rsi __asm__("rsi") = on->a1;
	register long rdx __asm__("rdx") = on->a2;
	register unsigned long r8 __asm__("r8") = n;
	register long r9 __asm__("r9") = off->a2;
	register long r12 __asm__("r12") = off->nr;
	register long r13 __asm__("r13") = off->a0;
	register long r14 __asm__("r14") = off->a1;
	register long r15 __asm__("r15");

	if (!n)
		return -EINVAL;
	__asm__ volatile(
		"	syscall\n"
		"	.globl	pc_hw_loop_begin_\n"
		"pc_hw_loop_begin_:\n"
		"	mov	%%rax, %%r15\n"
		"	mov	%%r12, %%rax\n"
		"	mov	%%r13, %%rdi\n"
		"	mov	%%r14, %%rsi\n"
		"	mov	%%r9, %%rdx\n"
		"	.globl	pc_hw_loop_body_\n"
		"pc_hw_loop_body_:\n"
		"	dec	%%r8\n"
		"	jnz	pc_hw_loop_body_\n"
		"	.globl	pc_hw_loop_end_\n"
		"pc_hw_loop_end_:\n"
		"	syscall\n"
		: "+r"(rax), "+r"(rdi), "+r"(rsi), "+r"(rdx), "+r"(r8), "=r"(r15)
		: "r"(r9), "r"(r12), "r"(r13), "r"(r14)
		: "rcx", "r11", "memory", "cc");
	return r15;
}
#define HAVE_LOOP 1
#else
long pc_hw_loop_between(const struct pc_hw_call *on, const struct pc_hw_call *off, unsigned long n)
{
	(void)on, (void)off, (void)n;
	return -ENOSYS;
}
#define HAVE_LOOP 0
#endif

#if HAVE_LOOP
extern const char pc_hw_loop_begin_[], pc_hw_loop_body_[], pc_hw_loop_end_[];
uintptr_t pc_hw_loop_begin(void) { return (uintptr_t)pc_hw_loop_begin_; }
uintptr_t pc_hw_loop_body(void) { return (uintptr_t)pc_hw_loop_body_; }
uintptr_t pc_hw_loop_end(void) { return (uintptr_t)pc_hw_loop_end_; }
#else
uintptr_t pc_hw_loop_begin(void) { return 0; }
uintptr_t pc_hw_loop_body(void) { return 0; }
uintptr_t pc_hw_loop_end(void) { return 0; }
#endif

bool pc_hw_qemu_tcg_power(void)
{
#if defined(__powerpc64__)
	char compat[256] = "";
	FILE *f = fopen("/proc/device-tree/compatible", "r");
	size_t n = 0;

	if (f) {
		n = fread(compat, 1, sizeof(compat) - 1, f);
		fclose(f);
	}
	/* NUL-separated strings: look at each */
	for (size_t i = 0; i < n; i += strlen(compat + i) + 1) {
		if (!strcmp(compat + i, "qemu,pseries") && access("/proc/device-tree/hypervisor", F_OK))
			return true;
	}
#endif
	return false;
}

const char *pc_hw_branch_stack_unsafe(void)
{
	if (pc_hw_qemu_tcg_power())
		return "qemu's TCG emulation of POWER (pseries without KVM) has no BHRB instructions: "
		       "scheduling a branch-stack event in runs clrbhrb (power_pmu_add) and the "
		       "kernel oopses with an illegal instruction";
	return NULL;
}

bool pc_hw_loop_available(void)
{
	return HAVE_LOOP;
}

int pc_hw_loop_fd(int fd, unsigned long flags, unsigned long n)
{
	struct pc_hw_call on = { SYS_ioctl, fd, PERF_EVENT_IOC_ENABLE, (long)flags };
	struct pc_hw_call off = { SYS_ioctl, fd, PERF_EVENT_IOC_DISABLE, (long)flags };

	return (int)pc_hw_loop_between(&on, &off, n);
}

int pc_hw_loop_task(unsigned long n)
{
	struct pc_hw_call on = { SYS_prctl, PR_TASK_PERF_EVENTS_ENABLE, 0, 0 };
	struct pc_hw_call off = { SYS_prctl, PR_TASK_PERF_EVENTS_DISABLE, 0, 0 };

	return (int)pc_hw_loop_between(&on, &off, n);
}

int pc_hw_count_loop(struct perfconf_attr *attr, unsigned long n, uint64_t *count)
{
	int fd = pc_open(attr, 0, -1, -1, 0);
	int err;

	if (fd < 0)
		return fd;
	err = pc_hw_loop_fd(fd, 0, n);
	if (!err)
		err = pc_read_count(fd, count);
	close(fd);
	return err;
}

int pc_hw_counters(uint64_t config)
{
	int fds[PC_HW_COUNTERS_MAX], n, err = 0, counting = 0;

	for (n = 0; n < PC_HW_COUNTERS_MAX; n++) {
		struct perfconf_attr attr = pc_attr_hw(config);

		attr.exclude_kernel = 1;
		attr.pinned = 1;
		fds[n] = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[n] < 0) {
			err = fds[n];
			break;
		}
	}
	/* the enable schedules them in: a pinned one that finds no counter is in error state */
	if (!err && (prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0) || prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0)))
		err = -errno;
	for (int i = 0; i < n; i++) {
		uint64_t v;

		if (!err && pc_read_count(fds[i], &v) == 0)
			counting++;
		close(fds[i]);
	}
	return err ? err : counting;
}

static int get_pc(pid_t pid, uintptr_t *pc)
{
#if defined(__aarch64__)
	struct user_regs_struct regs;
	struct iovec iov = { &regs, sizeof(regs) };

	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &iov))
		return -errno;
	*pc = regs.pc;
	return 0;
#elif defined(__x86_64__)
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, pid, 0, &regs))
		return -errno;
	*pc = regs.rip;
	return 0;
#elif defined(__arm__)
	struct user_regs regs;

	if (ptrace(PTRACE_GETREGS, pid, 0, &regs))
		return -errno;
	*pc = regs.uregs[15];
	return 0;
#else
	(void)pid, (void)pc;
	return -ENOSYS;
#endif
}

long pc_hw_loop_singlestep(unsigned long n)
{
	struct pc_hw_call none = { SYS_getppid, 0, 0, 0 };
	uintptr_t begin = pc_hw_loop_begin(), end = pc_hw_loop_end(), last = 0;
	long count = 0, steps = 0, err = 0;
	int status;
	pid_t pid;

	if (!HAVE_LOOP)
		return -ENOSYS;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(2);
		raise(SIGSTOP);
		pc_hw_loop_between(&none, &none, n);
		syscall(SYS_exit_group, 0);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		err = -errno;
		goto out;
	}
	if (!WIFSTOPPED(status)) {
		/* Exit status 2: PTRACE_TRACEME was refused (Yama, seccomp). */
		err = WIFEXITED(status) && WEXITSTATUS(status) == 2 ? -EPERM : -ECHILD;
		pid = 0;
		goto out;
	}
	/* Step until the child is gone; the bound keeps a runaway child from hanging the test. */
	for (;;) {
		uintptr_t pc = 0;

		if (ptrace(PTRACE_SINGLESTEP, pid, 0, 0)) {
			err = -errno;
			break;
		}
		if (waitpid(pid, &status, 0) != pid) {
			err = -errno;
			break;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			pid = 0;
			break;
		}
		if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP) {
			err = -EPROTO;
			break;
		}
		if (++steps > (long)(8 * n + 100000)) {
			err = -E2BIG;
			break;
		}
		err = get_pc(pid, &pc);
		if (err)
			break;
		/*
		 * The instruction about to run: count those in [begin, end).
		 * arm64 reports a step at the return of a system call and again
		 * after the next instruction: a stop at the PC of the one before
		 * is that report, not an instruction (none in the loop is a
		 * branch to itself).
		 */
		if (pc >= begin && pc < end && pc != last)
			count++;
		last = pc;
	}
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	return err ? err : count;
}

bool pc_hw_arm64_software_model(void)
{
#if defined(__aarch64__) || defined(__arm__)	/* no such file under an arm kernel */
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
	unsigned long long midr;
	int got;

	if (!f)
		return false;
	got = fscanf(f, "%llx", &midr);
	fclose(f);
	return got == 1 && ((midr >> 24) & 0xff) == 0;
#else
	return false;
#endif
}

int pc_hw_arm64_kernel_el(const char **why)
{
	static int el = -1;
	static const char *decided;

	if (el < 0) {
		el = 0;
		decided = "not arm64";
#if defined(__aarch64__) || defined(__arm__)	/* an armhf build may run on arm64 */
		static const struct {
			const char *text;
			int el;
		} signs[] = {
			{ "detected: Virtualization Host Extensions", 2 },
			{ "VHE mode initialized", 2 },
			{ "Hyp mode initialized", 1 },
			{ "All CPU(s) started at EL1", 1 },
		};
		int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
		char *log = len > 0 ? malloc((size_t)len + 1) : NULL;
		int got = log ? klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, len) : -1;

		decided = "the kernel log is not readable";
		if (got >= 0) {
			log[got] = '\0';
			decided = "the kernel log names no exception level";
			for (size_t i = 0; i < sizeof(signs) / sizeof(signs[0]); i++) {
				if (strstr(log, signs[i].text)) {
					el = signs[i].el;
					decided = signs[i].text;
					break;
				}
			}
		}
		free(log);
#endif
	}
	if (why)
		*why = decided;
	return el;
}
