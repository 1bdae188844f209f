/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening events: a perf_event_open() wrapper that keeps errno, and attr
 * builders so that a test states only what it cares about.
 *
 *	struct perfconf_attr a = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
 *	a.exclude_kernel = 1;
 *	int fd = pc_open(&a, 0, -1, -1, 0);
 *
 * Every builder fills type (discovered), size (PC_ATTR_SIZE_NEWEST unless the
 * test changes it) and disabled = 1, so a test enables exactly around the
 * work it measures.
 */
#ifndef PERFCONF_EVENT_H
#define PERFCONF_EVENT_H

#include <stdint.h>
#include <sys/types.h>

#include "abi/uapi.h"

/*
 * perf_event_open(2). Returns the fd, or -errno; errno is also left set
 * exactly as the kernel left it (nothing in between may clobber it).
 *
 * Before the first event a process opens (a forked child's first too), it
 * pages in all its code and 64 KiB of stack each way from the caller, so
 * that what an event counts of this task's page faults is its work, not
 * the first run of some code or frame (event.c says why; MADV_POPULATE_*
 * where the kernel has it, 5.14, faults no event counts).
 */
int pc_open(struct perfconf_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags);
/*
 * A zeroed page-sized buffer that starts with *attr, its size field set to
 * `size`: for attr-size tests that pass sizes beyond the struct. free() it.
 */
void *pc_attr_page(const struct perfconf_attr *attr, uint32_t size);
/* The size field of such a buffer (as the kernel may have rewritten it). */
uint32_t pc_attr_page_size(const void *page);

/*
 * The kernel's own sizeof(struct perf_event_attr), probed as the ABI
 * documents: an oversized attr with a non-zero byte past the kernel's size
 * fails with E2BIG and the kernel writes its size into attr.size.
 * Returns the size, or 0 if the probe did not behave that way.
 */
uint32_t pc_attr_kernel_size(void);

/* The errno of this thread's last failed pc_open*() (0 after a success). */
int pc_last_open_errno(void);
/*
 * The same with a raw buffer of any size: for attr-size tests. The fd, or
 * -errno (errno set too).
 */
int pc_open_raw(void *attr, pid_t pid, int cpu, int group_fd, unsigned long flags);
/* errno of an open that is expected to fail (0 if it opened; the fd is closed). */
int pc_open_errno(struct perfconf_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags);
/* The same with a raw buffer (pc_attr_page), on this task, any CPU. */
int pc_open_raw_errno(void *attr);

/*
 * A group on pid and cpu: fds[0] the leader, opened from *leader, then
 * siblings opened from *sibling, until `max` members or the first
 * refusal (close-on-exec). Returns how many opened (fds[] holds them;
 * the caller closes them with pc_group_close()); *err is the refusal's
 * errno, 0 when all `max` opened.
 */
int pc_group_open(struct perfconf_attr *leader, struct perfconf_attr *sibling, pid_t pid, int cpu,
		  int *fds, int max, int *err);
/* Close n members, the last first; each fd becomes -1. */
void pc_group_close(int *fds, int n);

/*
 * Open, report the outcome as the observation `key` (the errno's name, OK
 * when it opened), close. Returns the errno, 0 if it opened: acceptance
 * that differs by kernel version is pinned by the baseline this way.
 */
int pc_open_observe_errno(const char *key, struct perfconf_attr *attr, pid_t pid, int cpu);

/* An empty attr of the newest size. */
struct perfconf_attr pc_attr(uint32_t type, uint64_t config);
/* A software counting event (PERF_COUNT_SW_*). */
struct perfconf_attr pc_attr_sw(uint64_t config);
/* A software sampling event with this period and sample_type. */
struct perfconf_attr pc_attr_sw_sampling(uint64_t config, uint64_t period, uint64_t sample_type);
/*
 * A sampler of this task's user-mode page faults, one sample per fault
 * (config PERF_COUNT_SW_PAGE_FAULTS or _MIN), each sample and each other
 * record (sample_id_all) naming its event by PERF_SAMPLE_IDENTIFIER, with
 * PERF_SAMPLE_TID: for rings that hold the records of several events.
 *
 * Two such events of one task must count different configs: the software
 * events an occurrence matches are handed one perf_sample_data in turn
 * (kernel/events/core.c, do_perf_sw_event), and in 6.12 and later its
 * sample_flags also mark the sample_id fields as filled
 * (__perf_event_header__init_id, lines 7344-7346; perf_prepare_sample, line
 * 7903), so the second event's samples carry the first one's IDENTIFIER:
 * attr/sample_type two_events_each_their_own_id FAILs there (5.10 and 6.1
 * are right).
 */
struct perfconf_attr pc_attr_fault_sampler(uint64_t config);
/*
 * A counter of this task's user-mode page faults (exclude_kernel and
 * exclude_hv): what any user may count of its own task at every paranoid
 * level up to 2.
 */
struct perfconf_attr pc_attr_user_faults(void);
/*
 * Each user-mode page fault of this task sampled with its IP and its user
 * callchain of at most sample_max_stack = limit frames (exclude_kernel,
 * exclude_callchain_kernel: no kernel part asked for).
 */
struct perfconf_attr pc_attr_user_callchain_sampler(uint16_t limit);
/*
 * A breakpoint: bp_type HW_BREAKPOINT_{R,W,RW,X}, on addr, of len bytes.
 * The type is the "breakpoint" PMU's, discovered. For X, len is
 * pc_bp_exec_len().
 */
struct perfconf_attr pc_attr_breakpoint(unsigned int bp_type, const volatile void *addr, uint64_t len);
/* The same on an address no pointer of this process can hold: a kernel one, for a 32-bit build too. */
struct perfconf_attr pc_attr_breakpoint_at(unsigned int bp_type, uint64_t addr, uint64_t len);
/*
 * Why this machine makes no breakpoint of bp_type at all (HW_BREAKPOINT_X:
 * on a function of this process; W, R, RW: on a variable), or NULL where
 * a plain user-only one opens, or is refused for another reason (which
 * is then the case's to judge), or there is no breakpoint PMU. Where the
 * breakpoint PMU is there but refuses every such breakpoint as
 * unsupported: ENODEV (POWER9 keeps its DAWR off, ppc_breakpoint_available())
 * or EOPNOTSUPP (no slot of that kind: powerpc has no instruction
 * breakpoints). Tried once per type.
 */
const char *pc_breakpoint_refused(unsigned int bp_type);
/*
 * The bp_len an execute breakpoint takes: sizeof(long), as the man page
 * says; for an i386 task the kernel's long (an x86_64 kernel checks it
 * against its own, 8), where arm64 takes 4 from an AArch32 task.
 */
unsigned int pc_bp_exec_len(void);
/*
 * A tracepoint by name, e.g. ("syscalls", "sys_enter_getppid").
 * Returns 0, or -errno when tracefs or the tracepoint is not there.
 */
int pc_attr_tracepoint(struct perfconf_attr *out, const char *sys, const char *name);
/*
 * An event of a dynamic PMU named by its sysfs events/<event> file, e.g.
 * ("msr", "tsc") or ("armv8_pmuv3_0", "inst_retired"): the type is read
 * from sysfs and each "term=value" of the event is placed in config..config4
 * through the PMU's format/<term> bit ranges. Returns 0, or -ENOENT when
 * the PMU or event is not here, -EINVAL when a term cannot be placed.
 */
int pc_attr_pmu_event(struct perfconf_attr *out, const char *pmu, const char *event);
/*
 * Place `value` into the attr through a format/ term of the PMU ("event",
 * "umask", "retprobe"): its low bits go to the term's bits, lowest first.
 */
int pc_attr_set_format(struct perfconf_attr *attr, const char *pmu, const char *term, uint64_t value);

/*
 * A uprobe on a function of this executable (a noinline one). The offset in
 * the file is computed from /proc/self/maps. Returns 0, or -errno (-ENOENT
 * when there is no uprobe PMU, -EFAULT when func lies in no file mapping).
 * `path` must stay alive while the attr is used.
 */
int pc_attr_uprobe(struct perfconf_attr *out, const void *func, char *path, size_t pathlen);
/*
 * The same with the path kept by the lib for the life of the process: a
 * uprobe that counts every call of func exactly, in whichever task makes
 * it, on every machine (the instrument of choice where breakpoints may not
 * fire). UPROBE_ATTR (perfconf.h) SKIPs where there is no uprobe PMU.
 */
int pc_attr_uprobe_on(struct perfconf_attr *out, const void *func);

/*
 * Counting every call of func, for a case whose subject is something else
 * (a flag, inheritance, a redirection): opening and closing a uprobe PMU
 * event creates and destroys a probe and waits for RCU grace periods
 * (about 80 ms a case, serialized machine-wide on event_mutex), so a
 * binary keeps one probe per function instead.
 *
 * pc_calls_keep(func), in the harness's process before the first case
 * forks (PERFCONF_KEEP_CALLS, perfconf.h): defines a uprobe event on func
 * in tracefs (group perfconf_<pid>) and keeps it registered with a
 * disabled counter on this task for the life of the process; at exit the
 * counter is closed and the event removed. 0 or -errno (not root, no
 * tracefs or uprobe events: nothing is kept).
 *
 * pc_attr_calls(out, func): the attr of a counter of every call of func, in
 * whichever task makes it (0 = disabled): that kept event
 * (PERF_TYPE_TRACEPOINT) where this process kept one, else the uprobe PMU
 * (pc_attr_uprobe_on). Both are the kernel's uprobe tracing event, counted
 * and sampled alike. Where uprobes cannot probe this task's code
 * (pc_kernel_uprobes_task), a user-only execute breakpoint on func
 * (PERF_TYPE_BREAKPOINT): it counts and samples each call as exactly, in
 * the tasks it follows, and CALLS_ATTR then needs the breakpoints
 * instrument. 0 or -errno as pc_attr_uprobe_on.
 *
 * pc_calls_remove_dead(): removes the events that processes now dead left
 * in tracefs (a binary killed before its exit ran). Mounts tracefs in a
 * private mount namespace when it is not mounted, so a runner calls it in
 * a child. The number removed, or -errno.
 */
int pc_calls_keep(const void *func);
int pc_attr_calls(struct perfconf_attr *out, const void *func);
int pc_calls_remove_dead(void);

/*
 * Every attr builder is declared here; event/hw.c, kprobe.c and regs.c
 * implement those of their PMU.
 *
 * A PERF_TYPE_HARDWARE / PERF_TYPE_HW_CACHE counting attr (disabled, the
 * newest size). Cache events are named by id, op and result.
 */
struct perfconf_attr pc_attr_hw(uint64_t config);
struct perfconf_attr pc_attr_hw_cache(unsigned int cache, unsigned int op, unsigned int result);

/*
 * A kprobe on func + offset, or on addr when func is NULL. func must stay
 * alive while the attr is used. 0, or -ENOENT when there is no kprobe PMU.
 */
int pc_attr_kprobe(struct perfconf_attr *out, const char *func, uint64_t addr, uint64_t offset);

/*
 * A page-fault sampler of this task that dumps the registers of `mask`:
 * regs_sample is PERF_SAMPLE_REGS_USER (mask in sample_regs_user, user
 * mode only) or PERF_SAMPLE_REGS_INTR (mask in sample_regs_intr).
 */
struct perfconf_attr pc_attr_regs_sampling(uint64_t regs_sample, uint64_t mask);

/*
 * The sampling attr of page faults taken in the kernel; its workload is
 * work/workload.h's pc_work_kernel_faults() (pc_kernel_faults_work as a pc_work_fn).
 */
struct perfconf_attr pc_attr_kernel_sampling(uint64_t sample_type);

/*
 * The sampling attr of a uprobe on func, a noinline function of this
 * process's executable (or of a library it maps), into *out. The probed
 * file's path is kept in this library's storage, alive as long as the
 * process. 0, or -errno: -ENOENT when there is no uprobe PMU, -EFAULT when
 * func lies in no file mapping.
 */
int pc_attr_function_sampling(struct perfconf_attr *out, const void *func, uint64_t sample_type);

/*
 * A sampler whose user callchains are deferred: every user-mode page fault
 * (exclude_kernel) sampled with PERF_SAMPLE_IP, TID and CALLCHAIN,
 * sample_id_all, defer_callchain; add defer_output to get the records too.
 * Page faults suit it: each is its own kernel entry, so each sample gets
 * its own cookie, and the deferred user stack starts at the faulting
 * instruction, the sample's IP.
 */
struct perfconf_attr pc_attr_defer_sampler(void);

/*
 * Events of the suite's own PMUs (ring/synth.h), disabled: perfconf_aux
 * writing chunk bytes each time it starts, and perfconf_out with config
 * as given. Where the module is not loaded their type is no PMU's.
 */
struct perfconf_attr pc_attr_synth_aux(uint32_t chunk);
struct perfconf_attr pc_attr_synth_out(uint64_t config);

/*
 * One counter value (read_format 0): 0, or -errno (errno set too); a read
 * that returns 0 bytes (an event in error state reads as EOF) is -ENODATA,
 * a short one -EIO.
 */
int pc_read_count(int fd, uint64_t *value);
/*
 * The value and time_enabled of an event opened with read_format
 * PERF_FORMAT_TOTAL_TIME_ENABLED: 0, or -errno as pc_read_count().
 */
int pc_read_count_enabled(int fd, uint64_t *value, uint64_t *enabled);
/* The event's id (PERF_EVENT_IOC_ID), as samples and read values carry it; 0 if the ioctl failed. */
uint64_t pc_event_id(int fd);
/* ioctl wrappers returning 0 or -errno. */
int pc_enable(int fd);
int pc_disable(int fd);
int pc_reset(int fd);

#endif
