// SPDX-License-Identifier: GPL-2.0
/* perf_event_open() and the attr builders. */
#include <alloca.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "event/event.h"
#include "host/kernel.h"
#include "host/observe.h"
#include "event/hw.h"
#include "event/pmu.h"

static __thread int last_open_errno;

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#define MADV_POPULATE_WRITE 23
#endif
#define STACK_PAGED_IN (64 * 1024)	/* each way from the caller's frame */

static bool paged_in;	/* this process: a fork's child starts again */

static void page_in_again(void)
{
	paged_in = false;
}

__attribute__((constructor)) static void page_in_after_fork(void)
{
	pthread_atfork(NULL, NULL, page_in_again);
}

/* Every executable segment of an object: populated, or else one read a page. */
static int page_in_code(struct dl_phdr_info *info, size_t size __attribute__((unused)), void *populate)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);

	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;

		if (ph->p_type != PT_LOAD || (ph->p_flags & (PF_X | PF_R)) != (PF_X | PF_R))
			continue;
		start &= ~(pg - 1);
		if (*(bool *)populate)
			madvise((void *)start, end - start, MADV_POPULATE_READ);
		else
			for (uintptr_t a = start; a < end; a += pg)
				(void)*(volatile const char *)a;
	}
	return 0;
}

/* Fill STACK_PAGED_IN bytes of stack below its frame, writing each page. */
__attribute__((__noinline__)) static void touch_stack_below(void)
{
	volatile char *below = alloca(STACK_PAGED_IN);
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);

	for (uintptr_t off = 0; off < STACK_PAGED_IN; off += pg)
		below[off] = 0;
}

/*
 * The process's shared writable mappings (the harness's results, which a
 * case shares with its parent), stored to: the first store to a page the
 * process has only read so far is a fault of its own where the CPU does
 * not track dirty pages itself (arm64 without FEAT_HAFDBS or
 * ARM64_HW_AFDBM: a clean page is mapped read-only until then, and
 * populating for write does not change that). The store is an atomic OR
 * of 0 into the first word of each resident page (a word: riscv64 has
 * no byte-sized atomic OR without libatomic): it changes nothing another
 * process writes there meanwhile, and allocates nothing. Perf rings are
 * left alone.
 */
static void dirty_shared_writable(void)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	FILE *maps = fopen("/proc/self/maps", "re");
	char line[512], perms[8];
	unsigned long start, end;
	unsigned char in;

	if (!maps)
		return;
	while (fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3 && !strcmp(perms, "rw-s") &&
		    !strstr(line, "perf_event"))
			for (uintptr_t a = start; a < end; a += pg)
				if (!mincore((void *)a, pg, &in) && (in & 1))
					__atomic_fetch_or((uint32_t *)a, 0, __ATOMIC_RELAXED);
	fclose(maps);
}

/*
 * A case runs in a forked child, and fork copies no page table entry of
 * code: the child faults its code in again, 16 pages at a time in blocks
 * aligned to their addresses (fault-around), which ASLR moves, and
 * without the pages another process holds locked just then (libc's, that
 * every binary beside it runs: filemap_map_pages() only trylocks). Its first
 * store to each stack page it shares with its parent is a copy-on-write
 * fault, and where the stack starts within its page is random too. So
 * whether code or a frame that first runs while an event counts takes a
 * fault would be chance, and an exact count of the case's own page faults
 * with it. Before its first event, a process pages in all its code and the
 * stack around the caller: with MADV_POPULATE_READ/WRITE (5.14), faults no
 * event counts; where the kernel refuses them, by touching each page.
 */
__attribute__((__noinline__)) static void page_in_process(void)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0) & ~(pg - 1);
	int saved = errno;
	bool populate = !madvise((void *)sp, pg, MADV_POPULATE_WRITE);
	uintptr_t a = sp - pg;

	dl_iterate_phdr(page_in_code, &populate);
	dirty_shared_writable();
	/* page by page, to the ends of the stack's mapping; below it, it grows */
	for (; populate && a >= sp - STACK_PAGED_IN; a -= pg)
		if (madvise((void *)a, pg, MADV_POPULATE_WRITE))
			break;
	if (a >= sp - STACK_PAGED_IN)
		touch_stack_below();
	for (a = sp + pg; populate && a < sp + STACK_PAGED_IN; a += pg)
		if (madvise((void *)a, pg, MADV_POPULATE_WRITE))
			break;
	errno = saved;
	paged_in = true;
}

int pc_open_raw(void *attr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	long fd;

	if (!paged_in)
		page_in_process();
	fd = syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);

	last_open_errno = fd < 0 ? errno : 0;
	if (fd < 0) {
		errno = last_open_errno;
		return -last_open_errno;
	}
	return (int)fd;
}

/*
 * A breakpoint every arch with breakpoints takes alike, on this task's own
 * memory: a written (or read and written) word of 1, 2, 4 or 8 bytes,
 * aligned; an executed instruction, of the arch's length for one. Other
 * types, lengths, alignments and addresses are the arch's.
 */
static bool bp_portable(const struct perfconf_attr *attr)
{
	uint64_t len = attr->bp_len, page = (uint64_t)sysconf(_SC_PAGESIZE);
	unsigned char resident;
	bool data = (attr->bp_type == HW_BREAKPOINT_W || attr->bp_type == HW_BREAKPOINT_RW) &&
		    (len == 1 || len == 2 || len == 4 || len == 8);
	bool exec = attr->bp_type == HW_BREAKPOINT_X && len == pc_bp_exec_len();

	return (data || exec) && attr->bp_addr % len == 0 &&
	       mincore((void *)(uintptr_t)(attr->bp_addr & ~(page - 1)), 1, &resident) == 0;
}

int pc_open(struct perfconf_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	/*
	 * What the answer depends on: the machine's core PMU; its breakpoints,
	 * whether they work here (POWER9 keeps its DAWR off), and where they
	 * are, the arch.
	 */
	if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE || attr->type == PERF_TYPE_RAW) {
		pc_hw_pmu();	/* pmu.core; and the arch, where there is one */
	} else if (attr->type == PERF_TYPE_BREAKPOINT) {
		pc_depends("instrument.breakpoints");
		if (pc_pmu_exists("breakpoint") && !bp_portable(attr))	/* declares pmu.breakpoint */
			pc_depends("arch");
	}
	return pc_open_raw(attr, pid, cpu, group_fd, flags);
}

int pc_group_open(struct perfconf_attr *leader, struct perfconf_attr *sibling, pid_t pid, int cpu,
		  int *fds, int max, int *err)
{
	int n;

	*err = 0;
	for (n = 0; n < max; n++) {
		fds[n] = pc_open(n ? sibling : leader, pid, cpu, n ? fds[0] : -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[n] < 0) {
			*err = -fds[n];
			break;
		}
	}
	return n;
}

void pc_group_close(int *fds, int n)
{
	while (n-- > 0) {
		if (fds[n] >= 0)
			close(fds[n]);
		fds[n] = -1;
	}
}

int pc_last_open_errno(void)
{
	return last_open_errno;
}

int pc_open_errno(struct perfconf_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	int fd = pc_open(attr, pid, cpu, group_fd, flags);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return last_open_errno;
}

int pc_open_raw_errno(void *attr)
{
	int fd = pc_open_raw(attr, 0, -1, -1, 0);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return last_open_errno;
}

int pc_open_observe_errno(const char *key, struct perfconf_attr *attr, pid_t pid, int cpu)
{
	int err = pc_open_errno(attr, pid, cpu, -1, 0);

	pc_observe_errno(key, err);
	return err;
}

void *pc_attr_page(const struct perfconf_attr *attr, uint32_t size)
{
	unsigned char *page = calloc(1, (size_t)sysconf(_SC_PAGESIZE));

	if (page) {
		memcpy(page, attr, sizeof(*attr));
		memcpy(page + offsetof(struct perfconf_attr, size), &size, sizeof(size));
	}
	return page;
}

uint32_t pc_attr_page_size(const void *page)
{
	uint32_t size;

	memcpy(&size, (const unsigned char *)page + offsetof(struct perfconf_attr, size), sizeof(size));
	return size;
}

struct perfconf_attr pc_attr(uint32_t type, uint64_t config)
{
	struct perfconf_attr a = {
		.type = type,
		.size = PC_ATTR_SIZE_NEWEST,
		.config = config,
		.disabled = 1,
	};
	return a;
}

struct perfconf_attr pc_attr_sw(uint64_t config)
{
	return pc_attr(PERF_TYPE_SOFTWARE, config);
}

struct perfconf_attr pc_attr_sw_sampling(uint64_t config, uint64_t period, uint64_t sample_type)
{
	struct perfconf_attr a = pc_attr_sw(config);

	a.sample_period = period;
	a.sample_type = sample_type;
	return a;
}

struct perfconf_attr pc_attr_fault_sampler(uint64_t config)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(config, 1, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID);

	attr.exclude_kernel = 1;
	attr.sample_id_all = 1;
	return attr;
}

struct perfconf_attr pc_attr_user_faults(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return attr;
}

struct perfconf_attr pc_attr_user_callchain_sampler(uint16_t limit)
{
	struct perfconf_attr a = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
						     PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);

	a.exclude_kernel = 1;
	a.exclude_callchain_kernel = 1;
	a.sample_max_stack = limit;
	return a;
}

unsigned int pc_bp_exec_len(void)
{
#if defined(__i386__)
	return pc_kernel()->long_bytes;	/* x86 checks it against the kernel's long */
#else
	return sizeof(long);		/* arm64 takes 4 (2 for Thumb) from a compat task */
#endif
}

struct perfconf_attr pc_attr_breakpoint_at(unsigned int bp_type, uint64_t addr, uint64_t len)
{
	struct perfconf_attr a = pc_attr(PERF_TYPE_BREAKPOINT, 0);

	a.bp_type = bp_type;
	a.bp_addr = addr;
	a.bp_len = bp_type == HW_BREAKPOINT_X ? pc_bp_exec_len() : len;
	return a;
}

struct perfconf_attr pc_attr_breakpoint(unsigned int bp_type, const volatile void *addr, uint64_t len)
{
	return pc_attr_breakpoint_at(bp_type, (uint64_t)(uintptr_t)addr, len);
}

/* What pc_breakpoint_refused() watches and executes. */
static volatile uint64_t bp_refused_word;
static __attribute__((noinline, noclone)) void bp_refused_target(void)
{
	__asm__ volatile("" ::: "memory");
}

const char *pc_breakpoint_refused(unsigned int bp_type)
{
	static int tried[HW_BREAKPOINT_RW + HW_BREAKPOINT_X + 1];	/* 0 untried, 1 opens, 2 refused */
	static char why[sizeof(tried) / sizeof(tried[0])][200];
	struct perfconf_attr attr;
	int fd, err;

	if (bp_type >= sizeof(tried) / sizeof(tried[0]) || !bp_type || pc_pmu_type("breakpoint") < 0)
		return NULL;
	if (!tried[bp_type]) {
		attr = bp_type == HW_BREAKPOINT_X ?
			       pc_attr_breakpoint(HW_BREAKPOINT_X, (const void *)bp_refused_target, 0) :
			       pc_attr_breakpoint(bp_type, &bp_refused_word, sizeof(bp_refused_word));
		attr.disabled = 1;
		attr.exclude_kernel = attr.exclude_hv = 1;
		fd = pc_open_raw(&attr, 0, -1, -1, 0);
		err = fd < 0 ? last_open_errno : 0;
		if (fd >= 0)
			close(fd);
		tried[bp_type] = err == ENODEV || err == EOPNOTSUPP ? 2 : 1;
		if (err == ENODEV)
			snprintf(why[bp_type], sizeof(why[0]),
				 "the breakpoint PMU refuses every %s breakpoint here with ENODEV: no usable "
				 "breakpoint register (POWER9 keeps its DAWR off)",
				 bp_type == HW_BREAKPOINT_X ? "execute" : "data");
		else if (err == EOPNOTSUPP)
			snprintf(why[bp_type], sizeof(why[0]),
				 "this machine has no %s breakpoints: the breakpoint PMU refuses each with "
				 "EOPNOTSUPP (no slot of that kind)",
				 bp_type == HW_BREAKPOINT_X ? "execute" : "data");
	}
	return tried[bp_type] == 2 ? why[bp_type] : NULL;
}

int pc_attr_tracepoint(struct perfconf_attr *out, const char *sys, const char *name)
{
	long id = pc_tracepoint_id(sys, name);

	if (id < 0)
		return (int)id;
	*out = pc_attr(PERF_TYPE_TRACEPOINT, (uint64_t)id);
	return 0;
}

int pc_attr_set_format(struct perfconf_attr *attr, const char *pmu, const char *term, uint64_t value)
{
	uint64_t *words[] = { &attr->config, &attr->config1, &attr->config2, &attr->config3, &attr->config4 };
	struct pc_pmu_format f;
	int err = pc_pmu_format(pmu, term, &f);

	if (err)
		return err;
	for (unsigned int bit = 0; bit < 64 && value; bit++) {
		if (!(f.mask & (1ULL << bit)))
			continue;
		if (value & 1)
			*words[f.word] |= 1ULL << bit;
		value >>= 1;
	}
	return value ? -EINVAL : 0;	/* bits left over: the value does not fit */
}

int pc_attr_pmu_event(struct perfconf_attr *out, const char *pmu, const char *event)
{
	char spec[256];
	int type = pc_pmu_type(pmu);

	if (type < 0)
		return type;
	int err = pc_pmu_event(pmu, event, spec, sizeof(spec));
	if (err)
		return err;
	*out = pc_attr((uint32_t)type, 0);
	/* "event=0x3c,umask=0x01,edge" : a term alone means 1 */
	for (char *save, *term = strtok_r(spec, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '=');
		uint64_t value = 1;

		if (eq) {
			char *end;
			*eq = '\0';
			value = strtoull(eq + 1, &end, 0);
			if (*end)
				return -EINVAL;
		}
		err = pc_attr_set_format(out, pmu, term, value);
		if (err)
			return err == -ENOENT ? -EINVAL : err;
	}
	return 0;
}

/* The file offset of code at `addr` in this executable, from /proc/self/maps. */
static int file_offset_of(const void *addr, char *path, size_t pathlen, uint64_t *offset)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[4096];
	int err = -EFAULT;	/* in no mapping */

	if (!maps)
		return -errno;
	while (fgets(line, sizeof(line), maps)) {
		unsigned long start, end, pgoff;
		char perms[8];
		int pos = 0;

		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &start, &end, perms, &pgoff, &pos) < 4)
			continue;
		if ((uintptr_t)addr < start || (uintptr_t)addr >= end)
			continue;
		char *file = line + pos;
		file[strcspn(file, "\n")] = '\0';
		if (file[0] != '/' || strlen(file) >= pathlen) {
			err = -EINVAL;
			break;
		}
		strcpy(path, file);
		*offset = (uintptr_t)addr - start + pgoff;
		err = 0;
		break;
	}
	fclose(maps);
	return err;
}

int pc_attr_uprobe(struct perfconf_attr *out, const void *func, char *path, size_t pathlen)
{
	int type = pc_pmu_type("uprobe");
	uint64_t offset;

	pc_depends("pmu.uprobe");
	if (type < 0)
		return type;
	int err = file_offset_of(func, path, pathlen, &offset);
	if (err)
		return err;
	*out = pc_attr((uint32_t)type, 0);
	out->uprobe_path = (uint64_t)(uintptr_t)path;
	out->probe_offset = offset;
	return 0;
}

/*
 * The files uprobes were placed in by pc_attr_uprobe_on(): an attr's
 * uprobe_path points here, so it stays valid as long as the process.
 * Each distinct path is kept once (a test probes its own executable).
 */
static char probed_files[4][PATH_MAX];

int pc_attr_uprobe_on(struct perfconf_attr *out, const void *func)
{
	char path[PATH_MAX];
	int err = pc_attr_uprobe(out, func, path, sizeof(path));

	if (err)
		return err;
	for (size_t i = 0; i < sizeof(probed_files) / sizeof(probed_files[0]); i++) {
		if (!probed_files[i][0])
			strcpy(probed_files[i], path);
		if (!strcmp(probed_files[i], path)) {
			out->uprobe_path = (uint64_t)(uintptr_t)probed_files[i];
			return 0;
		}
	}
	return -ENOSPC;
}

/* The uprobe events pc_calls_keep() defined, and the process that owns them. */
#define CALLS_GROUP "perfconf_"
static struct kept_calls {
	const void *func;
	long id;
	int fd;
} kept_calls[8];
static size_t nkept_calls;
static pid_t kept_calls_owner;

static void calls_unkeep(void)
{
	char command[64];

	if (getpid() != kept_calls_owner)
		return;		/* a child that called exit(): the events are its parent's */
	for (size_t i = 0; i < nkept_calls; i++) {
		close(kept_calls[i].fd);
		snprintf(command, sizeof(command), "-:" CALLS_GROUP "%d/calls_%zu\n", (int)kept_calls_owner, i);
		pc_tracefs_write("uprobe_events", command);
	}
	nkept_calls = 0;
}

int pc_calls_keep(const void *func)
{
	char path[PATH_MAX], command[PATH_MAX + 128], group[32], name[32];
	struct perfconf_attr attr;
	uint64_t offset;
	int err;

	if (kept_calls_owner && kept_calls_owner != getpid())
		return -EPERM;		/* kept by the parent: a child adds none */
	if (!pc_kernel_uprobes_task())
		return -EOPNOTSUPP;	/* pc_attr_calls counts with a breakpoint */
	if (nkept_calls == sizeof(kept_calls) / sizeof(kept_calls[0]))
		return -ENOSPC;
	err = file_offset_of(func, path, sizeof(path), &offset);
	if (err)
		return err;
	if (strpbrk(path, " \t"))
		return -EINVAL;		/* uprobe_events splits its words at blanks */
	snprintf(group, sizeof(group), CALLS_GROUP "%d", (int)getpid());
	snprintf(name, sizeof(name), "calls_%zu", nkept_calls);
	/* one an earlier image of this pid left (an exec before its exit ran) */
	snprintf(command, sizeof(command), "-:%s/%s\n", group, name);
	pc_tracefs_write("uprobe_events", command);
	snprintf(command, sizeof(command), "p:%s/%s %s:0x%llx\n", group, name, path,
		 (unsigned long long)offset);
	err = pc_tracefs_write("uprobe_events", command);
	if (err)
		return err;
	if (!kept_calls_owner) {
		kept_calls_owner = getpid();
		atexit(calls_unkeep);
	}
	long id = pc_tracepoint_id(group, name);
	int fd = -1;

	if (id >= 0) {
		attr = pc_attr(PERF_TYPE_TRACEPOINT, (uint64_t)id);
		attr.disabled = 1;
		fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (id < 0 || fd < 0) {	/* no probe that no one holds: remove it */
		snprintf(command, sizeof(command), "-:%s/%s\n", group, name);
		pc_tracefs_write("uprobe_events", command);
		return id < 0 ? (int)id : fd;
	}
	kept_calls[nkept_calls++] = (struct kept_calls){ func, id, fd };
	return 0;
}

int pc_attr_calls(struct perfconf_attr *out, const void *func)
{
	if (!pc_kernel_uprobes_task()) {
		*out = pc_attr_breakpoint(HW_BREAKPOINT_X, func, 0);
		out->exclude_kernel = out->exclude_hv = 1;	/* opens for every identity */
		return 0;
	}
	for (size_t i = 0; i < nkept_calls; i++) {
		if (kept_calls[i].func == func) {
			pc_depends("pmu.uprobe");	/* the same fact as the PMU's */
			*out = pc_attr(PERF_TYPE_TRACEPOINT, (uint64_t)kept_calls[i].id);
			return 0;
		}
	}
	return pc_attr_uprobe_on(out, func);
}

/* Whether a process that keeps calls is alive (a zombie has closed its fds). */
static bool calls_owner_alive(long pid)
{
	char path[64], stat[512] = "", *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(stat, sizeof(stat), f))
		stat[0] = '\0';
	fclose(f);
	p = strrchr(stat, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

int pc_calls_remove_dead(void)
{
	const char *tracefs = pc_tracefs();
	char path[256], line[PATH_MAX + 128], command[128];
	int removed = 0;
	FILE *events;

	if (!tracefs)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/uprobe_events", tracefs);
	events = fopen(path, "re");
	if (!events)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), events)) {
		char event[96];
		long pid;

		/* "p:perfconf_<pid>/calls_<n> <path>:0x<offset>" */
		if (sscanf(line, "%*c:" CALLS_GROUP "%ld/%95s", &pid, event) != 2 || calls_owner_alive(pid))
			continue;
		snprintf(command, sizeof(command), "-:" CALLS_GROUP "%ld/%s\n", pid, event);
		if (pc_tracefs_write("uprobe_events", command) == 0)
			removed++;
	}
	fclose(events);
	return removed;
}

/* read() exactly len bytes: 0, or -errno (-ENODATA for EOF, -EIO when short). */
static int read_exactly(int fd, void *buf, size_t len)
{
	ssize_t n = read(fd, buf, len);

	if (n == (ssize_t)len)
		return 0;
	if (n >= 0)
		errno = n == 0 ? ENODATA : EIO;
	return -errno;
}

int pc_read_count(int fd, uint64_t *value)
{
	return read_exactly(fd, value, sizeof(*value));
}

int pc_read_count_enabled(int fd, uint64_t *value, uint64_t *enabled)
{
	uint64_t buf[2];
	int err = read_exactly(fd, buf, sizeof(buf));

	if (err)
		return err;
	*value = buf[0];
	*enabled = buf[1];
	return 0;
}

int pc_enable(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) ? -errno : 0;
}

int pc_disable(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) ? -errno : 0;
}

int pc_reset(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_RESET, 0) ? -errno : 0;
}

uint64_t pc_event_id(int fd)
{
	uint64_t id = 0;

	return ioctl(fd, PERF_EVENT_IOC_ID, &id) ? 0 : id;
}

uint32_t pc_attr_kernel_size(void)
{
	static uint32_t cached;
	long page = sysconf(_SC_PAGESIZE);

	if (cached)
		return cached;
	/* A valid software event, the largest size allowed, a non-zero last byte. */
	struct perfconf_attr a = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	unsigned char *buf = pc_attr_page(&a, (uint32_t)page);
	if (!buf)
		return 0;
	buf[page - 1] = 1;
	int fd = pc_open_raw(buf, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	else if (errno == E2BIG)
		cached = pc_attr_page_size(buf);
	free(buf);
	return cached;
}

struct perfconf_attr pc_attr_kernel_sampling(uint64_t sample_type)
{
	struct perfconf_attr a = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, sample_type);

	a.exclude_user = 1;
	return a;
}

int pc_attr_function_sampling(struct perfconf_attr *out, const void *func, uint64_t sample_type)
{
	int err = pc_attr_calls(out, func);

	if (err)
		return err;
	out->sample_period = 1;
	out->sample_type = sample_type;
	return 0;
}

struct perfconf_attr pc_attr_defer_sampler(void)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
							PERF_SAMPLE_IP | PERF_SAMPLE_TID |
							PERF_SAMPLE_CALLCHAIN);

	attr.exclude_kernel = 1;
	attr.sample_id_all = 1;
	attr.defer_callchain = 1;
	return attr;
}

struct perfconf_attr pc_attr_synth_aux(uint32_t chunk)
{
	struct perfconf_attr attr = pc_attr((uint32_t)pc_pmu_type(PC_SYNTH_AUX), chunk);

	attr.disabled = 1;
	return attr;
}

struct perfconf_attr pc_attr_synth_out(uint64_t config)
{
	struct perfconf_attr attr = pc_attr((uint32_t)pc_pmu_type(PC_SYNTH_OUT), config);

	attr.disabled = 1;
	return attr;
}
