// SPDX-License-Identifier: GPL-2.0
/*
 * Probing the facts of facts.h. Each probe that tries the kernel runs in
 * a child whose stdout is /dev/null (the lib's opens declare what they
 * depend on there, as a test's do) and answers with its exit status.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "baseline.h"
#include "event/hw.h"
#include "facts.h"
#include "module.h"
#include "profile.h"
#include "host/kernel.h"
#include "host/paranoid.h"
#include "host/privilege.h"
#include "host/sysctl.h"
#include "work/clock.h"
#include "work/instrument.h"

#define PMU_DIR "/sys/bus/event_source/devices"
#define CPU_DIR "/sys/devices/system/cpu"
#define PARANOID_PATH "/proc/sys/kernel/perf_event_paranoid"

/* Keep in step with tests/config (runners/tests/runner_baseline.c checks). */
const char *const facts_config_options[] = {
	"BPF_EVENTS", "BPF_JIT", "BPF_SYSCALL", "CGROUPS", "CGROUP_PERF", "CGROUP_PIDS",
	"COMPAT_ALIGNMENT_FIXUPS", "FHANDLE", "FTRACE", "FTRACE_SYSCALLS", "FUNCTION_TRACER", "HAVE_HW_BREAKPOINT",
	"HAVE_PERF_REGS", "HAVE_PERF_USER_STACK_DUMP", "HOTPLUG_CPU", "IKCONFIG",
	"IKCONFIG_PROC", "IPC_NS", "KALLSYMS", "KPROBES", "KPROBE_EVENTS", "NAMESPACES",
	"NET", "PERF_EVENTS", "SYSVIPC", "TRANSPARENT_HUGEPAGE", "UNWIND_USER", "UPROBES",
	"UPROBE_EVENTS", "UTS_NS", NULL,
};

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static bool pmu_exists(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", PMU_DIR, name);
	return exists(path);
}

/* Whether /proc/cgroups lists a controller. */
static bool cgroup_controller(const char *name)
{
	FILE *f = fopen("/proc/cgroups", "r");
	char line[256], ctl[64];
	bool found = false;

	while (f && fgets(line, sizeof(line), f))
		found |= sscanf(line, "%63s", ctl) == 1 && !strcmp(ctl, name);
	if (f)
		fclose(f);
	return found;
}

static const char *tracefs_dir(void)
{
	if (exists("/sys/kernel/tracing/events"))
		return "/sys/kernel/tracing";
	if (exists("/sys/kernel/debug/tracing/events"))
		return "/sys/kernel/debug/tracing";
	return NULL;
}

/*
 * A config option without a config file: 'y' or 'n' where something the
 * option alone makes tells, 0 (unknown) where nothing does.
 */
static char config_probe(const char *o)
{
	const char *tfs = tracefs_dir();
	char path[256];

#define YN(cond) ((cond) ? 'y' : 'n')
	if (!strcmp(o, "PERF_EVENTS"))
		return YN(exists(PARANOID_PATH));
	if (!strcmp(o, "KPROBE_EVENTS"))
		return YN(pmu_exists("kprobe"));
	if (!strcmp(o, "KPROBES"))	/* the kprobe PMU needs kprobes; kprobes alone shows nowhere */
		return pmu_exists("kprobe") ? 'y' : 0;
	if (!strcmp(o, "UPROBE_EVENTS"))
		return YN(pmu_exists("uprobe"));
	if (!strcmp(o, "UPROBES"))
		return pmu_exists("uprobe") ? 'y' : 0;
	if (!strcmp(o, "HAVE_HW_BREAKPOINT"))
		return YN(pmu_exists("breakpoint"));
	if (!strcmp(o, "KALLSYMS"))
		return YN(exists("/proc/kallsyms"));
	if (!strcmp(o, "IKCONFIG_PROC") || !strcmp(o, "IKCONFIG"))
		return exists("/proc/config.gz") ? 'y' : 0;
	if (!strcmp(o, "NAMESPACES"))
		return YN(exists("/proc/self/ns/mnt") && exists("/proc/self/ns/uts"));
	if (!strcmp(o, "UTS_NS"))
		return YN(exists("/proc/self/ns/uts"));
	if (!strcmp(o, "IPC_NS"))
		return YN(exists("/proc/self/ns/ipc"));
	if (!strcmp(o, "SYSVIPC"))
		return YN(exists("/proc/sysvipc"));
	if (!strcmp(o, "NET"))
		return YN(exists("/proc/self/net"));
	if (!strcmp(o, "CGROUPS"))
		return YN(exists("/proc/cgroups"));
	if (!strcmp(o, "CGROUP_PERF"))
		return exists("/proc/cgroups") ? YN(cgroup_controller("perf_event")) : 0;
	if (!strcmp(o, "CGROUP_PIDS"))
		return exists("/proc/cgroups") ? YN(cgroup_controller("pids")) : 0;
	if (!strcmp(o, "TRANSPARENT_HUGEPAGE"))
		return YN(exists("/sys/kernel/mm/transparent_hugepage"));
	if (!strcmp(o, "BPF_SYSCALL"))
		return YN(syscall(__NR_bpf, -1, NULL, 0) >= 0 || errno != ENOSYS);
	if (!strcmp(o, "BPF_JIT"))
		return exists("/proc/sys/net/core/bpf_jit_enable") ? 'y' : 0;
	if (!strcmp(o, "FHANDLE"))
		return YN(syscall(__NR_name_to_handle_at, -1, "", NULL, NULL, 0) >= 0 || errno != ENOSYS);
	if (!strcmp(o, "HOTPLUG_CPU")) {
		snprintf(path, sizeof(path), "%s/cpu1/online", CPU_DIR);
		return exists(path) ? 'y' : 0;
	}
	if (!strcmp(o, "FTRACE"))
		return tfs ? 'y' : 0;
	if (!tfs)
		return 0;
	if (!strcmp(o, "FTRACE_SYSCALLS")) {
		snprintf(path, sizeof(path), "%s/events/syscalls", tfs);
		return YN(exists(path));
	}
	if (!strcmp(o, "FUNCTION_TRACER")) {
		char *text;
		size_t len;
		char c;

		snprintf(path, sizeof(path), "%s/available_tracers", tfs);
		text = read_file(path, &len);
		if (!text)
			return 0;
		c = YN(strstr(text, "function") != NULL);
		free(text);
		return c;
	}
	return 0;	/* BPF_EVENTS, HAVE_PERF_REGS, HAVE_PERF_USER_STACK_DUMP, UNWIND_USER */
#undef YN
}

/* fn's exit status in a child with stdout and stderr on /dev/null; -1 if it died. */
static int in_child(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		_exit(fn(arg) & 0xff);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static long open_task_clock(bool exclude_kernel)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_TASK_CLOCK,
		.exclude_kernel = exclude_kernel, .exclude_hv = exclude_kernel,
	};

	return syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
}

enum { P3_UNKNOWN, P3_AS2, P3_RESTRICT, P3_REFUSED };

/*
 * What level 3 does: an unprivileged user-only count of one's own task,
 * which level 2 allows, is refused with EACCES by the restrict patch.
 */
static int paranoid3_child(void *may_change)
{
	long level;
	int err;

	if (pc_kernel_read_long(PARANOID_PATH, &level))
		return P3_UNKNOWN;
	if (level != 3) {
		if (!*(bool *)may_change)
			return P3_UNKNOWN;
		err = pc_sysctl_set(PC_PARANOID_SYSCTL, 3);
		if (err)
			return err == -EINVAL ? P3_REFUSED : P3_UNKNOWN;
	}
	if (pc_become_nobody())
		return P3_UNKNOWN;
	if (open_task_clock(true) >= 0)
		return P3_AS2;
	return errno == EACCES ? P3_RESTRICT : P3_UNKNOWN;
}

static const char *probe_paranoid3(bool may_change)
{
	static const char *const names[] = { FACT_UNKNOWN, "as2", "restrict", "refused" };
	int r = in_child(paranoid3_child, &may_change);

	if (may_change)
		pc_sysctl_restore(PC_PARANOID_SYSCTL);
	return r >= 0 && r < 4 ? names[r] : FACT_UNKNOWN;
}

static int nobody_child(void *unused __attribute__((unused)))
{
	return pc_become_nobody() ? 1 : 0;
}

/* An unprivileged user may make a user namespace (what unshare -U needs). */
static int userns_child(void *unused __attribute__((unused)))
{
	if (pc_become_nobody())
		return 2;
	return unshare(CLONE_NEWUSER) ? 1 : 0;
}

/* The lockdown LSM's state, from securityfs mounted privately when it is not mounted. */
static int lockdown_child(void *unused __attribute__((unused)))
{
	static const char *const path = "/sys/kernel/security/lockdown";
	char buf[128], *open_b, *close_b;
	ssize_t n;
	int fd;

	if (!exists(path) && !exists("/sys/kernel/security/lsm")) {
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL))
			return 0;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno == ENOENT && exists("/sys/kernel/security/lsm") ? 1 : 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	open_b = strchr(buf, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (!close_b)
		return 0;
	*close_b = 0;
	return !strcmp(open_b + 1, "none") ? 1 : !strcmp(open_b + 1, "integrity") ? 2
	       : !strcmp(open_b + 1, "confidentiality") ? 3 : 0;
}

/* cap_user_time (capabilities bit 3) of a task-clock event's mmap page. */
static int cap_user_time_child(void *unused __attribute__((unused)))
{
	long fd = open_task_clock(true), page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *p;

	if (fd < 0)
		return 2;
	p = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, (int)fd, 0);
	if (p == MAP_FAILED)
		return 2;
	return p->cap_user_time ? 1 : 0;
}

/* Perf's clock: 1 coarse (it steps by the tick), 0 fine (work/clock.h). */
static int perf_clock_child(void *unused __attribute__((unused)))
{
	uint64_t step;

	if (pc_perf_clock_step(&step))
		return 2;
	return step >= PC_PERF_CLOCK_COARSE_NS ? 1 : 0;
}

static int instruments_child(void *unused __attribute__((unused)))
{
	return (int)pc_instrument(PC_INSTR_UPROBES)->state * 64 +
	       (int)pc_instrument(PC_INSTR_BREAKPOINTS)->state * 16 +
	       (int)pc_instrument(PC_INSTR_SCHED_FIFO)->state * 4 +
	       (int)pc_instrument(PC_INSTR_SYSCALL_TRACEPOINTS)->state;
}

/* "0-3,5" -> 5 */
static int count_cpus(const char *file)
{
	char *text = read_file(file, NULL), *p;
	int n = 0;

	if (!text)
		return 0;
	for (p = text; *p && *p != '\n';) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += (int)(b - a + 1);
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	free(text);
	return n;
}

/* A CPU this machine lets go offline: a writable cpuN/online with N > 0 among those online. */
static const char *probe_cpu_offline(int online)
{
	char path[128];

	if (online < 2)
		return "no";
	for (int cpu = 1; cpu < 4096; cpu++) {
		snprintf(path, sizeof(path), "%s/cpu%d", CPU_DIR, cpu);
		if (!exists(path))
			break;
		snprintf(path, sizeof(path), "%s/cpu%d/online", CPU_DIR, cpu);
		if (access(path, W_OK) == 0)
			return "yes";
	}
	return "no";
}

static const char *probe_rootfs(void)
{
	struct statfs s;

	if (statfs("/", &s))
		return FACT_UNKNOWN;
	switch ((unsigned long)s.f_type) {
	case RAMFS_MAGIC:
		return "initramfs";
	case TMPFS_MAGIC:
		return "tmpfs";
	case EXT4_SUPER_MAGIC:	/* ext2, ext3 and ext4 */
	case XFS_SUPER_MAGIC:
	case BTRFS_SUPER_MAGIC:
	case F2FS_SUPER_MAGIC:
	case 0xE0F5E1E2:	/* erofs */
	case SQUASHFS_MAGIC:
		return "block";
	default:
		return "other";	/* overlay, nfs, 9p, virtiofs: no block device of its own here */
	}
}

/* The bracketed choice of a sysfs "a [b] c" file, or `absent`. */
static void bracketed(const char *path, const char *absent, char *out, size_t len)
{
	char *text = read_file(path, NULL), *a = text ? strchr(text, '[') : NULL;
	char *b = a ? strchr(a, ']') : NULL;

	if (b) {
		*b = 0;
		snprintf(out, len, "%s", a + 1);
	} else {
		snprintf(out, len, "%s", text ? FACT_UNKNOWN : absent);
	}
	free(text);
}

/* Every PMU's name, instance suffixes dropped, sorted, comma-joined. */
static char *pmu_list(void)
{
	struct strv names = { 0 };
	struct sbuf b = { 0 };

	pmu_names(&names, false);
	for (size_t i = 0; i < names.n; i++)
		sb_printf(&b, "%s%s", i ? "," : "", names.v[i]);
	strv_free(&names);
	return b.s ? b.s : xstrdup("none");
}

const char *facts_lockdown(void)
{
	static const char *const lockdown[] = { FACT_UNKNOWN, "none", "integrity", "confidentiality" };
	int r = in_child(lockdown_child, NULL);

	return r > 0 && r < 4 ? lockdown[r] : FACT_UNKNOWN;
}

static int cmp_fact(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void facts_probe(struct strv *out, const struct kernel_id *k, bool may_change_sysctls)
{
	static const char *const instr[] = { "works", "broken", "absent" };
	char buf[256], *pmus, src[300];
	int online = count_cpus(CPU_DIR "/online"), r;
	long level;

	if (online <= 0)
		online = pc_cpus_online();
	strv_addf(out, "cpus_online=%d", online);
	r = count_cpus(CPU_DIR "/possible");
	strv_addf(out, "cpus_possible=%s", r > 0 ? (snprintf(buf, sizeof(buf), "%d", r), buf) : FACT_UNKNOWN);
	strv_addf(out, "cpu_offline=%s", probe_cpu_offline(online));

	if (pc_kernel_read_long(PARANOID_PATH, &level) == 0)
		strv_addf(out, "paranoid=%ld", level);
	else
		strv_addf(out, "paranoid=%s", FACT_UNKNOWN);
	strv_addf(out, "paranoid3=%s", probe_paranoid3(may_change_sysctls));

	if (exists("/proc/config.gz"))
		snprintf(src, sizeof(src), "/proc/config.gz");
	else
		snprintf(src, sizeof(src), "/boot/config-%s", k->release);
	if (!pc_kernel_config_available())
		snprintf(src, sizeof(src), "probes");
	strv_addf(out, "config=%s", src);
	for (size_t i = 0; facts_config_options[i]; i++) {
		const char *o = facts_config_options[i];
		char c = pc_kernel_config_available() ? pc_kernel_config(o) : config_probe(o);

		if (pc_kernel_config_available() && !c)
			c = 'n';	/* absent from the file: its dependencies are off */
		strv_addf(out, "config.%s=%s", o, c == 'y' ? "y" : c == 'm' ? "m" : c == 'n' ? "n" : FACT_UNKNOWN);
	}

	strv_addf(out, "lockdown=%s", facts_lockdown());
	strv_addf(out, "identities=%s", in_child(nobody_child, NULL) == 0 ? "yes" : "no");
	r = in_child(userns_child, NULL);
	strv_addf(out, "userns=%s", r == 0 ? "yes" : r == 1 ? "no" : FACT_UNKNOWN);

	profile_detect(buf, sizeof(buf));
	strv_addf(out, "pmu.core=%s", buf);
	pmus = pmu_list();
	strv_addf(out, "pmus=%s", pmus);
	free(pmus);

	r = in_child(cap_user_time_child, NULL);
	strv_addf(out, "cap_user_time=%s", r == 0 ? "0" : r == 1 ? "1" : FACT_UNKNOWN);
	r = in_child(perf_clock_child, NULL);
	strv_addf(out, "perf_clock=%s", r == 0 ? "fine" : r == 1 ? "coarse" : FACT_UNKNOWN);
	/* The timekeeping clocksource (tsc, kvm-clock, arch_sys_counter; jiffies: CLOCK_MONOTONIC steps at the tick) */
	{
		char *cs = read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource", NULL);

		if (cs)
			cs[strcspn(cs, "\n ")] = 0;
		strv_addf(out, "clocksource=%s", cs && *cs ? cs : FACT_UNKNOWN);
		free(cs);
	}
	/* THP: whether a MADV_HUGEPAGE region may get a huge page (always or madvise) */
	bracketed("/sys/kernel/mm/transparent_hugepage/enabled", "never", buf, sizeof(buf));
	strv_addf(out, "thp=%s", !strcmp(buf, FACT_UNKNOWN) ? buf : !strcmp(buf, "never") ? "no" : "yes");
	strv_addf(out, "page_size=%ld", sysconf(_SC_PAGESIZE));
	if (!strcmp(k->arch, "aarch64")) {
		const char *why;
		int el = pc_hw_arm64_kernel_el(&why);

		strv_addf(out, "kernel_el=%s", el ? (snprintf(buf, sizeof(buf), "%d", el), buf) : FACT_UNKNOWN);
#ifdef __aarch64__	/* a 32-bit runner's AT_HWCAP holds the compat bits */
		/* SVE, by the kernel's HWCAP_SVE (bit 22): the register VG exists with it only */
		strv_addf(out, "sve=%s", getauxval(AT_HWCAP) & (1UL << 22) ? "yes" : "no");
#endif
	}
	strv_addf(out, "rootfs=%s", probe_rootfs());
	strv_addf(out, PC_MODULE_FACT "=%s", module_present() ? "loaded" : "absent");
	/* The BPF JIT: whether a loaded program gets kernel symbols (on, off; none without the sysctl) */
	{
		long jit;
		int err = pc_kernel_read_long("/proc/sys/net/core/bpf_jit_enable", &jit);

		strv_addf(out, "bpf_jit=%s", err == -ENOENT ? "none" : err ? FACT_UNKNOWN : jit ? "on" : "off");
	}

	r = in_child(instruments_child, NULL);
	strv_addf(out, "instrument.breakpoints=%s", r >= 0 && r / 16 % 4 < 3 ? instr[r / 16 % 4] : FACT_UNKNOWN);
	strv_addf(out, "instrument.sched_fifo=%s", r >= 0 && r / 4 % 4 < 3 ? instr[r / 4 % 4] : FACT_UNKNOWN);
	strv_addf(out, "instrument.syscall_tracepoints=%s", r >= 0 && r % 4 < 3 ? instr[r % 4] : FACT_UNKNOWN);
	strv_addf(out, "instrument.uprobes=%s", r >= 0 && r / 64 < 3 ? instr[r / 64] : FACT_UNKNOWN);

	qsort(out->v, out->n, sizeof(*out->v), cmp_fact);
}

const char *facts_get(const struct strv *f, const char *name, char *buf, size_t len)
{
	size_t nl = strlen(name);
	const char *pmus;

	for (size_t i = 0; i < f->n; i++)
		if (!strncmp(f->v[i], name, nl) && f->v[i][nl] == '=')
			return f->v[i] + nl + 1;
	/* pmu.<name>: by the pmus list */
	if (strncmp(name, "pmu.", 4) || !(pmus = facts_get(f, "pmus", NULL, 0)))
		return NULL;
	for (const char *p = pmus; *p;) {
		size_t l = strcspn(p, ",");

		if (l == nl - 4 && !strncmp(p, name + 4, l)) {
			snprintf(buf, len, "yes");
			return buf;
		}
		p += l + (p[l] == ',');
	}
	snprintf(buf, len, "no");
	return buf;
}

char *facts_line(const struct strv *f)
{
	struct sbuf b = { 0 };

	for (size_t i = 0; i < f->n; i++)
		sb_printf(&b, "%s%s", i ? " " : "", f->v[i]);
	return b.s ? b.s : xstrdup("");
}

bool facts_parse(const char *line, struct strv *f, char *err, size_t errlen)
{
	const char *p = line;

	while (*p) {
		size_t l = strcspn(p, " \t\n");
		const char *eq = memchr(p, '=', l);

		if (l && (!eq || eq == p || eq == p + l - 1)) {
			snprintf(err, errlen, "malformed fact \"%.*s\" (expected name=value)", (int)l, p);
			return false;
		}
		if (l)
			strv_addf(f, "%.*s", (int)l, p);
		p += l;
		p += strspn(p, " \t\n");
	}
	return true;
}
