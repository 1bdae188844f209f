// SPDX-License-Identifier: GPL-2.0
/*
 * The canonical ABI tables (see abi.h), expanded from the X-macro lists in
 * abi_layout.h, which lib/abi/abi_check.c also pins to <linux/perf_event.h> and
 * struct perfconf_attr at compile time.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/ioctl.h>

#include "abi/abi.h"
#include "abi/abi_layout.h"

/* ---- struct perf_event_attr ---- */

#define ATTR_F(n, off, sz, k, uw, ver, kv, sys) \
	{ .name = #n, .offset = off, .size = sz, .kind = PC_FIELD_##k, \
	  .union_with = uw, .size_ver = ver, .since = kv },
#define ATTR_B(n, off, wsz, b, nb, k, uw, ver, kv, sys) \
	{ .name = #n, .offset = off, .size = wsz, .kind = PC_FIELD_##k, .bit = b, \
	  .nbits = nb, .union_with = uw, .size_ver = ver, .since = kv },

static const struct pc_abi_field attr_fields[] = {
	PC_ATTR_LAYOUT(ATTR_F, ATTR_B)
};

const struct pc_abi_struct pc_abi_attr = {
	.name = "perf_event_attr",
	.size = PC_ABI_ATTR_SIZE,
	.fields = attr_fields,
	.nfields = sizeof(attr_fields) / sizeof(attr_fields[0]),
};

#define SIZE_VER(n, size, kv, added)	{ n, size, kv, added },

const struct pc_abi_size_ver pc_abi_size_vers[] = {
	PC_ATTR_SIZE_VERS(SIZE_VER)
};
const size_t pc_abi_size_vers_count =
	sizeof(pc_abi_size_vers) / sizeof(pc_abi_size_vers[0]);

/* ---- struct perf_event_mmap_page ---- */

#define MMAP_F(n, off, sz, k, uw, kv) \
	{ .name = #n, .offset = off, .size = sz, .kind = PC_FIELD_##k, \
	  .union_with = uw, .since = kv },
#define MMAP_B(n, off, wsz, b, nb, k, uw, kv) \
	{ .name = #n, .offset = off, .size = wsz, .kind = PC_FIELD_##k, .bit = b, \
	  .nbits = nb, .union_with = uw, .since = kv },

static const struct pc_abi_field mmap_page_fields[] = {
	PC_MMAP_PAGE_LAYOUT(MMAP_F, MMAP_B)
};

const struct pc_abi_struct pc_abi_mmap_page = {
	.name = "perf_event_mmap_page",
	.size = PC_ABI_MMAP_PAGE_SIZE,
	.fields = mmap_page_fields,
	.nfields = sizeof(mmap_page_fields) / sizeof(mmap_page_fields[0]),
};

/* ---- struct perf_event_header ---- */

#define HDR_F(n, off, sz) \
	{ .name = #n, .offset = off, .size = sz, .kind = PC_FIELD_SCALAR, .since = PC_KV26 },

static const struct pc_abi_field header_fields[] = {
	PC_HEADER_LAYOUT(HDR_F)
};

const struct pc_abi_struct pc_abi_header = {
	.name = "perf_event_header",
	.size = PC_ABI_HEADER_SIZE,
	.fields = header_fields,
	.nfields = sizeof(header_fields) / sizeof(header_fields[0]),
};

/*
 * ---- PERF_RECORD_* ----
 *
 * The fixed fields of each record, at their offsets from the start of the
 * record (the header is bytes 0..7). Strings and arrays that follow the
 * fixed part are not fields: variable_tail says they are there. A field
 * that came later than its record carries its own release.
 */
#define R(n, off, sz, kv) \
	{ .name = #n, .offset = off, .size = sz, .kind = PC_FIELD_SCALAR, .since = kv }
#define RU(n, off, sz, uw, kv) \
	{ .name = #n, .offset = off, .size = sz, .kind = PC_FIELD_SCALAR, \
	  .union_with = uw, .since = kv }
/* a record's fields and their count */
#define FIELDS(a)	a, sizeof(a) / sizeof(a[0])

/* MMAP: pid, tid, addr, len, pgoff, then char filename[] */
static const struct pc_abi_field rec_mmap[] = {
	R(pid, 8, 4, PC_KV26), R(tid, 12, 4, PC_KV26), R(addr, 16, 8, PC_KV26),
	R(len, 24, 8, PC_KV26), R(pgoff, 32, 8, PC_KV26),
};
/* LOST: id, lost */
static const struct pc_abi_field rec_lost[] = {
	R(id, 8, 8, PC_KV26), R(lost, 16, 8, PC_KV26),
};
/* COMM: pid, tid, then char comm[] */
static const struct pc_abi_field rec_comm[] = {
	R(pid, 8, 4, PC_KV26), R(tid, 12, 4, PC_KV26),
};
/* EXIT and FORK: pid, ppid, tid, ptid, time */
static const struct pc_abi_field rec_exit_fork[] = {
	R(pid, 8, 4, PC_KV26), R(ppid, 12, 4, PC_KV26), R(tid, 16, 4, PC_KV26),
	R(ptid, 20, 4, PC_KV26), R(time, 24, 8, PC_KV26),
};
/* THROTTLE and UNTHROTTLE: time, id, stream_id */
static const struct pc_abi_field rec_throttle[] = {
	R(time, 8, 8, PC_KV26), R(id, 16, 8, PC_KV26), R(stream_id, 24, 8, PC_KV26),
};
/* READ: pid, tid, then struct read_format */
static const struct pc_abi_field rec_read[] = {
	R(pid, 8, 4, PC_KV26), R(tid, 12, 4, PC_KV26),
};
/*
 * MMAP2: MMAP's fields, then maj, min, ino, ino_generation or (build_id
 * bit, misc PERF_RECORD_MISC_MMAP_BUILD_ID, 5.12) build_id_size,
 * __reserved_1, __reserved_2, build_id[20]; then prot, flags, filename[].
 */
static const struct pc_abi_field rec_mmap2[] = {
	R(pid, 8, 4, PC_KV(3, 16)), R(tid, 12, 4, PC_KV(3, 16)),
	R(addr, 16, 8, PC_KV(3, 16)), R(len, 24, 8, PC_KV(3, 16)),
	R(pgoff, 32, 8, PC_KV(3, 16)),
	R(maj, 40, 4, PC_KV(3, 16)), R(min, 44, 4, PC_KV(3, 16)),
	R(ino, 48, 8, PC_KV(3, 16)), R(ino_generation, 56, 8, PC_KV(3, 16)),
	RU(build_id_size, 40, 1, "maj", PC_KV(5, 12)),
	RU(__reserved_1, 41, 1, "maj", PC_KV(5, 12)),
	RU(__reserved_2, 42, 2, "maj", PC_KV(5, 12)),
	RU(build_id, 44, 20, "maj", PC_KV(5, 12)),
	R(prot, 64, 4, PC_KV(3, 16)), R(flags, 68, 4, PC_KV(3, 16)),
};
/* AUX: aux_offset, aux_size, flags */
static const struct pc_abi_field rec_aux[] = {
	R(aux_offset, 8, 8, PC_KV(4, 1)), R(aux_size, 16, 8, PC_KV(4, 1)),
	R(flags, 24, 8, PC_KV(4, 1)),
};
/* ITRACE_START: pid, tid */
static const struct pc_abi_field rec_itrace_start[] = {
	R(pid, 8, 4, PC_KV(4, 1)), R(tid, 12, 4, PC_KV(4, 1)),
};
/* LOST_SAMPLES: lost */
static const struct pc_abi_field rec_lost_samples[] = {
	R(lost, 8, 8, PC_KV(4, 2)),
};
/* SWITCH_CPU_WIDE: next_prev_pid, next_prev_tid */
static const struct pc_abi_field rec_switch_cpu_wide[] = {
	R(next_prev_pid, 8, 4, PC_KV(4, 3)), R(next_prev_tid, 12, 4, PC_KV(4, 3)),
};
/* NAMESPACES: pid, tid, nr_namespaces, then { dev, inode }[nr_namespaces] */
static const struct pc_abi_field rec_namespaces[] = {
	R(pid, 8, 4, PC_KV(4, 12)), R(tid, 12, 4, PC_KV(4, 12)),
	R(nr_namespaces, 16, 8, PC_KV(4, 12)),
};
/* KSYMBOL: addr, len, ksym_type, flags, then char name[] */
static const struct pc_abi_field rec_ksymbol[] = {
	R(addr, 8, 8, PC_KV(5, 1)), R(len, 16, 4, PC_KV(5, 1)),
	R(ksym_type, 20, 2, PC_KV(5, 1)), R(flags, 22, 2, PC_KV(5, 1)),
};
/* BPF_EVENT: type, flags, id, tag[BPF_TAG_SIZE = 8] */
static const struct pc_abi_field rec_bpf_event[] = {
	R(type, 8, 2, PC_KV(5, 1)), R(flags, 10, 2, PC_KV(5, 1)),
	R(id, 12, 4, PC_KV(5, 1)), R(tag, 16, 8, PC_KV(5, 1)),
};
/* CGROUP: id, then char path[] */
static const struct pc_abi_field rec_cgroup[] = {
	R(id, 8, 8, PC_KV(5, 7)),
};
/* TEXT_POKE: addr, old_len, new_len, then u8 bytes[old_len + new_len] */
static const struct pc_abi_field rec_text_poke[] = {
	R(addr, 8, 8, PC_KV(5, 9)), R(old_len, 16, 2, PC_KV(5, 9)),
	R(new_len, 18, 2, PC_KV(5, 9)),
};
/* AUX_OUTPUT_HW_ID: hw_id */
static const struct pc_abi_field rec_aux_output_hw_id[] = {
	R(hw_id, 8, 8, PC_KV(5, 16)),
};
/* CALLCHAIN_DEFERRED: cookie, nr, then u64 ips[nr] */
static const struct pc_abi_field rec_callchain_deferred[] = {
	R(cookie, 8, 8, PC_KV(6, 19)), R(nr, 16, 8, PC_KV(6, 19)),
};

const struct pc_abi_record pc_abi_records[] = {
	{ 1, "MMAP", PC_KV26, 32, FIELDS(rec_mmap), true, true },		/* 2.6.31 */
	{ 2, "LOST", PC_KV26, 16, FIELDS(rec_lost), true, false },		/* 2.6.31 */
	{ 3, "COMM", PC_KV26, 8, FIELDS(rec_comm), true, true },		/* 2.6.31 */
	{ 4, "EXIT", PC_KV26, 24, FIELDS(rec_exit_fork), true, false },	/* 2.6.31 */
	{ 5, "THROTTLE", PC_KV26, 24, FIELDS(rec_throttle), true, false },	/* 2.6.31 */
	{ 6, "UNTHROTTLE", PC_KV26, 24, FIELDS(rec_throttle), true, false }, /* 2.6.31 */
	{ 7, "FORK", PC_KV26, 24, FIELDS(rec_exit_fork), true, false },	/* 2.6.31 */
	{ 8, "READ", PC_KV26, 8, FIELDS(rec_read), true, true },		/* 2.6.31 */
	/* SAMPLE: the body is whatever sample_type asked for */
	{ 9, "SAMPLE", PC_KV26, 0, NULL, 0, false, true },			/* 2.6.31 */
	/* MMAP2: see the mmap2 attr bit for why 3.16 and not 3.12 */
	{ 10, "MMAP2", PC_KV(3, 16), 64, FIELDS(rec_mmap2), true, true },
	{ 11, "AUX", PC_KV(4, 1), 24, FIELDS(rec_aux), true, false },
	{ 12, "ITRACE_START", PC_KV(4, 1), 8, FIELDS(rec_itrace_start), true, false },
	{ 13, "LOST_SAMPLES", PC_KV(4, 2), 8, FIELDS(rec_lost_samples), true, false },
	{ 14, "SWITCH", PC_KV(4, 3), 0, NULL, 0, true, false },
	{ 15, "SWITCH_CPU_WIDE", PC_KV(4, 3), 8, FIELDS(rec_switch_cpu_wide), true, false },
	{ 16, "NAMESPACES", PC_KV(4, 12), 16, FIELDS(rec_namespaces), true, true },
	{ 17, "KSYMBOL", PC_KV(5, 1), 16, FIELDS(rec_ksymbol), true, true },
	{ 18, "BPF_EVENT", PC_KV(5, 1), 16, FIELDS(rec_bpf_event), true, false },
	{ 19, "CGROUP", PC_KV(5, 7), 8, FIELDS(rec_cgroup), true, true },
	{ 20, "TEXT_POKE", PC_KV(5, 9), 12, FIELDS(rec_text_poke), true, true },
	{ 21, "AUX_OUTPUT_HW_ID", PC_KV(5, 16), 8, FIELDS(rec_aux_output_hw_id), true, false },
	{ 22, "CALLCHAIN_DEFERRED", PC_KV(6, 19), 16, FIELDS(rec_callchain_deferred), true, true },
};
const size_t pc_abi_records_count = sizeof(pc_abi_records) / sizeof(pc_abi_records[0]);

/* ---- PERF_SAMPLE_* and PERF_FORMAT_* ---- */

const struct pc_abi_bit pc_abi_sample_bits[] = {
	{ "IP",			 0, PC_KV26 },	/* 2.6.31 */
	{ "TID",		 1, PC_KV26 },	/* 2.6.31 */
	{ "TIME",		 2, PC_KV26 },	/* 2.6.31 */
	{ "ADDR",		 3, PC_KV26 },	/* 2.6.31 */
	{ "READ",		 4, PC_KV26 },	/* 2.6.31 (first named GROUP) */
	{ "CALLCHAIN",		 5, PC_KV26 },	/* 2.6.31 */
	{ "ID",			 6, PC_KV26 },	/* 2.6.31 */
	{ "CPU",		 7, PC_KV26 },	/* 2.6.31 */
	{ "PERIOD",		 8, PC_KV26 },	/* 2.6.31 */
	{ "STREAM_ID",		 9, PC_KV26 },	/* 2.6.31 */
	{ "RAW",		10, PC_KV26 },	/* 2.6.31 */
	{ "BRANCH_STACK",	11, PC_KV(3, 4) },
	{ "REGS_USER",		12, PC_KV(3, 7) },
	{ "STACK_USER",		13, PC_KV(3, 7) },
	{ "WEIGHT",		14, PC_KV(3, 10) },
	{ "DATA_SRC",		15, PC_KV(3, 10) },
	{ "IDENTIFIER",		16, PC_KV(3, 12) },
	{ "TRANSACTION",	17, PC_KV(3, 13) },
	{ "REGS_INTR",		18, PC_KV(3, 19) },
	/* man page: 4.13; commit fc7ce9c74c3a shipped in 4.14 */
	{ "PHYS_ADDR",		19, PC_KV(4, 14) },
	{ "AUX",		20, PC_KV(5, 5) },
	{ "CGROUP",		21, PC_KV(5, 7) },
	{ "DATA_PAGE_SIZE",	22, PC_KV(5, 11) },
	{ "CODE_PAGE_SIZE",	23, PC_KV(5, 11) },
	{ "WEIGHT_STRUCT",	24, PC_KV(5, 12) },
};
const size_t pc_abi_sample_bits_count =
	sizeof(pc_abi_sample_bits) / sizeof(pc_abi_sample_bits[0]);

const struct pc_abi_bit pc_abi_read_format_bits[] = {
	{ "TOTAL_TIME_ENABLED",	0, PC_KV26 },	/* 2.6.31 */
	{ "TOTAL_TIME_RUNNING",	1, PC_KV26 },	/* 2.6.31 */
	{ "ID",			2, PC_KV26 },	/* 2.6.31 */
	{ "GROUP",		3, PC_KV26 },	/* 2.6.31 */
	{ "LOST",		4, PC_KV(6, 0) },
};
const size_t pc_abi_read_format_bits_count =
	sizeof(pc_abi_read_format_bits) / sizeof(pc_abi_read_format_bits[0]);

/* ---- ioctls and flags (lists in abi.h) ---- */

#define IOC(n, t, number, enc, a, what, grp, kv) \
	{ .name = "PERF_EVENT_IOC_" #n, .test = #t, .request = (unsigned long)(enc), \
	  .nr = number, .encoding = #enc, .arg = PC_IOC_ARG_##a, .arg_what = what, \
	  .group_flag = grp, .since = kv },

const struct pc_abi_ioctl pc_abi_ioctls[] = {
	PC_ABI_IOCTL_LIST(IOC)
};
const size_t pc_abi_ioctls_count = sizeof(pc_abi_ioctls) / sizeof(pc_abi_ioctls[0]);

#define OPEN_FLAG(n, t, v, kv, m) \
	{ .name = "PERF_FLAG_" #n, .test = #t, .value = v, .since = kv, .meaning = m },
#define IOCTL_FLAG(n, t, v, kv, m) \
	{ .name = "PERF_IOC_FLAG_" #n, .test = #t, .value = v, .since = kv, .meaning = m },

const struct pc_abi_flag pc_abi_open_flags[] = {
	PC_ABI_OPEN_FLAG_LIST(OPEN_FLAG)
};
const size_t pc_abi_open_flags_count = sizeof(pc_abi_open_flags) / sizeof(pc_abi_open_flags[0]);

const struct pc_abi_flag pc_abi_ioctl_flags[] = {
	PC_ABI_IOCTL_FLAG_LIST(IOCTL_FLAG)
};
const size_t pc_abi_ioctl_flags_count = sizeof(pc_abi_ioctl_flags) / sizeof(pc_abi_ioctl_flags[0]);

/*
 * ---- the errnos of perf_event_open(2) ----
 *
 * The causes the man page's ERRORS section gives (man-pages 6.8, in
 * /work/shared/spec), paraphrased, one string each; then causes that Linux
 * 6.12's kernel/events/core.c (and the files it calls) has and the page
 * does not name, with the place.
 */
#define LIST(a)		a, sizeof(a) / sizeof(a[0])
#define NONE		NULL, 0

static const char *const e2big[] = {
	"attr.size is below PERF_ATTR_SIZE_VER0",
	"attr.size is above a page",
	"attr.size is above what the kernel knows and the extra bytes are not zero;"
	" the kernel writes its own size into attr.size",
};
static const char *const e2big_k[] = {
	"the event with its group would need a record or read() larger than the"
	" kernel allows (perf_event_validate_size)",
};
static const char *const eacces[] = {
	"the event needs CAP_PERFMON or CAP_SYS_ADMIN, or a lower perf_event_paranoid",
	"monitoring a process of another user",
	"monitoring every process on a CPU (pid -1)",
	"exclude_kernel not set where the paranoid level demands it",
};
static const char *const eacces_k[] = {
	"perf_event_paranoid above 2 (a distribution's level 3) without CAP_SYS_ADMIN",
	"attr.namespaces without CAP_PERFMON",
	"a ptrace-read access check on the target task fails",
};
static const char *const ebadf[] = {
	"group_fd is not a valid file descriptor",
	"with PERF_FLAG_PID_CGROUP, pid is not a valid cgroup file descriptor",
};
static const char *const ebadf_k[] = {
	"group_fd is open but is not a perf event (perf_fget_light)",
	"with PERF_FLAG_PID_CGROUP, pid is open but is not a cgroup directory"
	" (css_tryget_online_from_dir)",
};
static const char *const ebusy[] = {
	"another event already has exclusive use of the PMU (since 4.1)",
};
static const char *const ebusy_k[] = {
	"an exclusive PMU is in use per CPU and a per-task event asks for it, or"
	" the reverse (exclusive_event_init)",
	"an exclusive event cannot be installed beside one already in the context",
};
static const char *const efault[] = {
	"attr points at memory that cannot be read",
};
static const char *const efault_k[] = {
	"attr.size reaches past the kernel's struct into memory that cannot be"
	" read (copy_struct_from_user checks those bytes for zero)",
};
static const char *const eintr[] = {
	"a uprobe event that ftrace already uses is opened for perf, or the reverse",
};
static const char *const einval[] = {
	"sample_freq above the maximum",
	"the CPU to monitor does not exist",
	"read_format out of range",
	"sample_type out of range",
	"flags out of range",
	"exclusive or pinned on an event that is not a group leader",
	"config values out of range or with reserved bits set",
	"the generic event is not supported",
	"no room to add the event",
};
static const char *const einval_k[] = {
	"PERF_FLAG_PID_CGROUP with pid -1 or cpu -1",
	"group_fd on another CPU, or in another task, than the new event",
	"pid -1 and cpu -1 together (perf_event_alloc)",
	"a reserved attr bit or field is not zero (perf_copy_attr)",
	"sample_period with bit 63 set",
	"the group leader differs in inherit or clock, or is itself a member",
	"sample_stack_user not a multiple of 8",
	"an unknown clockid (perf_event_set_clock)",
	"WEIGHT with WEIGHT_STRUCT (5.12); inherit_thread without inherit,"
	" remove_on_exec with enable_on_exec, sigtrap without remove_on_exec (5.13)",
	"a tracepoint id that names no event (perf_trace_init)",
};
static const char *const emfile[] = {
	"the process has no free file descriptor (RLIMIT_NOFILE)",
};
static const char *const enodev[] = {
	"the event needs a feature the CPU does not have",
};
static const char *const enodev_k[] = {
	"the group leader has exited or was removed on exec",
	"the CPU is offline",
	"the CPU is outside the PMU's scope (uncore and similar PMUs)",
	"the PMU's module is going away (try_module_get fails)",
};
static const char *const enoent[] = {
	"attr.type is not valid",
	"some generic events the PMU does not support",
};
static const char *const enoent_k[] = {
	"a software event past PERF_COUNT_SW_MAX (perf_swevent_init)",
	"the file of a uprobe, or the function of a kprobe, does not exist",
};
static const char *const enospc[] = {
	"more breakpoints than the hardware has",
	"before 3.3, no room for the event (now EINVAL)",
};
static const char *const enosys[] = {
	"PERF_SAMPLE_STACK_USER where the architecture cannot dump user stacks",
};
static const char *const enosys_k[] = {
	"a kernel built without CONFIG_PERF_EVENTS has no perf_event_open()",
};
static const char *const eopnotsupp[] = {
	"a hardware feature the event needs is missing",
	"low-skid (precise_ip) events the PMU cannot do",
	"branch tracing where it is not available",
	"sampling on a PMU without an interrupt",
	"a branch stack on a software event",
};
static const char *const eopnotsupp_k[] = {
	"aux_output on a PMU without AUX output",
	"aux_start_paused on a PMU that cannot pause AUX",
};
static const char *const eoverflow[] = {
	"PERF_SAMPLE_CALLCHAIN with sample_max_stack above"
	" /proc/sys/kernel/perf_event_max_stack (since 4.8)",
};
static const char *const eperm[] = {
	"an exclude_hv, exclude_idle, exclude_user or exclude_kernel setting the"
	" architecture does not support",
	"the event needs CAP_PERFMON or CAP_SYS_ADMIN, as for EACCES",
	"a breakpoint on a kernel address without privilege",
	"a kernel function-trace tracepoint without privilege (since 3.13)",
};
static const char *const eperm_k[] = {
	"raw tracepoint data (PERF_SAMPLE_RAW) without CAP_PERFMON, at a level"
	" above -1, from a tracepoint not open to any user (perf_allow_tracepoint)",
	"PERF_SAMPLE_REGS_INTR under lockdown (LOCKDOWN_PERF)",
	"a security module refuses (security_perf_event_open)",
};
static const char *const esrch[] = {
	"the process to attach to does not exist",
};
static const char *const esrch_k[] = {
	"the target task is exiting while the event is installed",
};

/* The .causes and .kernel_causes pairs are filled by LIST() and NONE. */
#define ERRNO(e, t, kv, c, k)	{ #e, #t, e, kv, c, k },

const struct pc_abi_errno pc_abi_errnos[] = {
	ERRNO(E2BIG,      e2big,      0,             LIST(e2big),      LIST(e2big_k))
	ERRNO(EACCES,     eacces,     0,             LIST(eacces),     LIST(eacces_k))
	ERRNO(EBADF,      ebadf,      0,             LIST(ebadf),      LIST(ebadf_k))
	ERRNO(EBUSY,      ebusy,      PC_KVER(4, 1), LIST(ebusy),      LIST(ebusy_k))
	ERRNO(EFAULT,     efault,     0,             LIST(efault),     LIST(efault_k))
	ERRNO(EINTR,      eintr,      0,             LIST(eintr),      NONE)
	ERRNO(EINVAL,     einval,     0,             LIST(einval),     LIST(einval_k))
	ERRNO(EMFILE,     emfile,     0,             LIST(emfile),     NONE)
	ERRNO(ENODEV,     enodev,     0,             LIST(enodev),     LIST(enodev_k))
	ERRNO(ENOENT,     enoent,     0,             LIST(enoent),     LIST(enoent_k))
	ERRNO(ENOSPC,     enospc,     0,             LIST(enospc),     NONE)
	ERRNO(ENOSYS,     enosys,     0,             LIST(enosys),     LIST(enosys_k))
	ERRNO(EOPNOTSUPP, eopnotsupp, 0,             LIST(eopnotsupp), LIST(eopnotsupp_k))
	ERRNO(EOVERFLOW,  eoverflow,  PC_KVER(4, 8), LIST(eoverflow),  NONE)
	ERRNO(EPERM,      eperm,      0,             LIST(eperm),      LIST(eperm_k))
	ERRNO(ESRCH,      esrch,      0,             LIST(esrch),      LIST(esrch_k))
};
const size_t pc_abi_errnos_count = sizeof(pc_abi_errnos) / sizeof(pc_abi_errnos[0]);

/* ---- accessors ---- */

const struct pc_abi_field *pc_abi_find(const struct pc_abi_struct *s, const char *name)
{
	for (size_t i = 0; s && name && i < s->nfields; i++)
		if (strcmp(s->fields[i].name, name) == 0)
			return &s->fields[i];
	return NULL;
}

unsigned int pc_abi_bits_shift(unsigned int bit, unsigned int nbits, size_t word_size)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (unsigned int)(8 * word_size) - bit - nbits;	/* allocated from the top */
#else
	(void)nbits;
	(void)word_size;
	return bit;
#endif
}

uint64_t pc_abi_bits_mask(unsigned int bit, unsigned int nbits, size_t word_size)
{
	uint64_t ones = nbits >= 64 ? ~0ULL : (1ULL << nbits) - 1;

	return ones << pc_abi_bits_shift(bit, nbits, word_size);
}

const struct pc_abi_record *pc_abi_record(uint32_t type)
{
	if (type < 1 || type > pc_abi_records_count)
		return NULL;
	return &pc_abi_records[type - 1];
}

const char *pc_abi_record_name(uint32_t type)
{
	const struct pc_abi_record *r = pc_abi_record(type);

	return r ? r->name : "UNKNOWN";
}

uint32_t pc_abi_size_for_kernel(int kver)
{
	uint32_t size = 0;

	for (size_t i = 0; i < pc_abi_size_vers_count; i++)
		if (pc_abi_size_vers[i].since <= kver)
			size = pc_abi_size_vers[i].size;
	return size;
}

int pc_abi_size_ver_of(uint32_t size)
{
	for (size_t i = 0; i < pc_abi_size_vers_count; i++)
		if (pc_abi_size_vers[i].size == size)
			return (int)pc_abi_size_vers[i].ver;
	return -ENOENT;
}


const struct pc_abi_ioctl *pc_abi_ioctl_find(const char *name)
{
	static const char prefix[] = "PERF_EVENT_IOC_";

	if (!name)
		return NULL;
	if (strncmp(name, prefix, sizeof(prefix) - 1) == 0)
		name += sizeof(prefix) - 1;
	for (size_t i = 0; i < pc_abi_ioctls_count; i++)
		if (strcmp(pc_abi_ioctls[i].name + sizeof(prefix) - 1, name) == 0)
			return &pc_abi_ioctls[i];
	return NULL;
}

const struct pc_abi_errno *pc_abi_errno_find(int value)
{
	for (size_t i = 0; i < pc_abi_errnos_count; i++)
		if (pc_abi_errnos[i].value == value)
			return &pc_abi_errnos[i];
	return NULL;
}
