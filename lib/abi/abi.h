/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The canonical ABI tables: every field of struct perf_event_attr, struct
 * perf_event_mmap_page, struct perf_event_header and the fixed part of every
 * PERF_RECORD_* type, each with its offset, size and the kernel release that
 * introduced it; and what is not a struct: the ioctls, the open flags and
 * the errnos perf_event_open(2) documents, with their causes. The tables are data, so tests, reports and the coverage list
 * read the same facts. lib/abi/abi_check.c pins them to the UAPI header at
 * compile time; tests/abi pins them to the running kernel.
 */
#ifndef PERFCONF_ABI_H
#define PERFCONF_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A kernel release as one comparable number: PC_KVER(5, 13) */
#define PC_KVER(major, minor) ((major) * 1000 + (minor))

enum pc_field_kind {
	PC_FIELD_SCALAR,	/* a whole integer field */
	PC_FIELD_BITS,		/* a bitfield inside a flags word */
	PC_FIELD_RESERVED,	/* reserved: must be zero */
};

struct pc_abi_field {
	const char *name;
	size_t offset;		/* byte offset in the struct */
	size_t size;		/* bytes; for PC_FIELD_BITS the word's size */
	enum pc_field_kind kind;
	unsigned int bit;	/* PC_FIELD_BITS: first bit in the word */
	unsigned int nbits;	/* PC_FIELD_BITS: width */
	const char *union_with;	/* first member of the union it shares, or NULL */
	unsigned int size_ver;	/* attr: the PERF_ATTR_SIZE_VERn that covers it, else 0 */
	int since;		/* PC_KVER() of the release that introduced it */
};

struct pc_abi_struct {
	const char *name;
	size_t size;			/* newest size */
	const struct pc_abi_field *fields;
	size_t nfields;
};

/* One published attr size: PERF_ATTR_SIZE_VERn. */
struct pc_abi_size_ver {
	unsigned int ver;
	uint32_t size;
	int since;
	const char *added;	/* what it added, for reports */
};

/* The fixed part of one PERF_RECORD_* type (after the header). */
struct pc_abi_record {
	uint32_t type;
	const char *name;		/* "MMAP", "CALLCHAIN_DEFERRED" */
	int since;
	size_t fixed_size;		/* bytes of fixed fields after the header */
	const struct pc_abi_field *fields;	/* offsets count from the record start */
	size_t nfields;
	bool has_sample_id;		/* ends in struct sample_id when sample_id_all */
	bool variable_tail;		/* a string or array follows the fixed part */
};

/* One PERF_SAMPLE_* bit. */
struct pc_abi_bit {
	const char *name;
	unsigned int bit;
	int since;
};

extern const struct pc_abi_struct pc_abi_attr;
extern const struct pc_abi_struct pc_abi_mmap_page;
extern const struct pc_abi_struct pc_abi_header;
extern const struct pc_abi_size_ver pc_abi_size_vers[];
extern const size_t pc_abi_size_vers_count;
extern const struct pc_abi_record pc_abi_records[];	/* index 0 is type 1 */
extern const size_t pc_abi_records_count;
extern const struct pc_abi_bit pc_abi_sample_bits[];	/* PERF_SAMPLE_* */
extern const size_t pc_abi_sample_bits_count;
extern const struct pc_abi_bit pc_abi_read_format_bits[];	/* PERF_FORMAT_* */
extern const size_t pc_abi_read_format_bits_count;

const struct pc_abi_field *pc_abi_find(const struct pc_abi_struct *s, const char *name);
/*
 * Where a bitfield lies in its word, by the table's declaration-order bit
 * (pc_abi_field.bit, nbits, and the word's size in bytes): the shift of its
 * least significant bit, and its in-word mask. The one byte-order rule of
 * the ABI: little-endian ABIs allocate bitfields from the word's least
 * significant bit, big-endian ones (s390x) from its most significant, so
 * cap_user_time (bit 3 of capabilities) is 1 << 3 on x86_64 and 1 << 60
 * on s390x. A flag word built or read by bit number goes through these.
 */
unsigned int pc_abi_bits_shift(unsigned int bit, unsigned int nbits, size_t word_size);
uint64_t pc_abi_bits_mask(unsigned int bit, unsigned int nbits, size_t word_size);
const struct pc_abi_record *pc_abi_record(uint32_t type);	/* NULL if unknown */
const char *pc_abi_record_name(uint32_t type);			/* "UNKNOWN" if unknown */

/* ---- what is not attr: ioctls, open flags, errnos ---- */

/* How an ioctl's third argument is used. */
enum pc_ioc_arg {
	PC_IOC_ARG_FLAGS,	/* an unsigned long of PERF_IOC_FLAG_* bits */
	PC_IOC_ARG_INT,		/* an int by value */
	PC_IOC_ARG_U32,		/* a __u32 by value */
	PC_IOC_ARG_U64_IN,	/* a pointer to a __u64 the kernel reads */
	PC_IOC_ARG_U64_OUT,	/* a pointer to a __u64 the kernel writes */
	PC_IOC_ARG_FD,		/* a file descriptor by value */
	PC_IOC_ARG_STRING,	/* a pointer to a NUL-terminated char array */
	PC_IOC_ARG_QUERY_BPF,	/* a pointer to struct perf_event_query_bpf */
	PC_IOC_ARG_ATTR,	/* a pointer to struct perf_event_attr */
};

/*
 * The ioctl and open-flag lists, as X-macros: abi.c expands them into the
 * tables below, abi_check.c into _Static_asserts against the UAPI macros.
 * The encodings are written out here on their own (the pointer-typed ones
 * encode the size of a pointer, as the UAPI header does), so a wrong number
 * fails the build. They expand only where <linux/ioctl.h> is included.
 *
 *   IOC(NAME, test, nr, encoding, arg, arg_what, group_flag, since)
 *
 * Releases, each the first release whose header has the macro: ENABLE ..
 * PERIOD are in 2.6.31 as PERF_COUNTER_IOC_* (renamed in 2.6.32);
 * SET_OUTPUT came with output redirection in 2.6.32, SET_FILTER in
 * 2.6.33 (the 3.7 header in /work/shared/spec has both); ID in 3.12 (commit
 * cf4957f17f2a; the 3.10 header lacks it); SET_BPF in 4.1 (2541517c32be);
 * PAUSE_OUTPUT in 4.7 (with write_backward); QUERY_BPF in 4.16;
 * MODIFY_ATTRIBUTES in 4.17 (32ff77e8cc9e; the RHEL 8 4.18 header in spec/
 * lacks it, a distribution's choice).
 */
#define PC_ABI_IOCTL_LIST(IOC) \
	IOC(ENABLE,            enable,             0, _IO('$', 0),              FLAGS,     "0 or PERF_IOC_FLAG_GROUP",           1, PC_KVER(2, 6)) /* 2.6.31 */ \
	IOC(DISABLE,           disable,            1, _IO('$', 1),              FLAGS,     "0 or PERF_IOC_FLAG_GROUP",           1, PC_KVER(2, 6)) /* 2.6.31 */ \
	IOC(REFRESH,           refresh,            2, _IO('$', 2),              INT,       "overflows to add before disabling",  0, PC_KVER(2, 6)) /* 2.6.31 */ \
	IOC(RESET,             reset,              3, _IO('$', 3),              FLAGS,     "0 or PERF_IOC_FLAG_GROUP",           1, PC_KVER(2, 6)) /* 2.6.31 */ \
	IOC(PERIOD,            period,             4, _IOW('$', 4, uint64_t),   U64_IN,    "__u64 *: the new period or frequency", 0, PC_KVER(2, 6)) /* 2.6.31 */ \
	IOC(SET_OUTPUT,        set_output,         5, _IO('$', 5),              FD,        "perf fd whose ring to use, or -1",   0, PC_KVER(2, 6)) /* 2.6.32 */ \
	IOC(SET_FILTER,        set_filter,         6, _IOW('$', 6, char *),     STRING,    "char *: filter expression",          0, PC_KVER(2, 6)) /* 2.6.33 */ \
	IOC(ID,                id,                 7, _IOR('$', 7, uint64_t *), U64_OUT,   "__u64 *: receives the event id",     0, PC_KVER(3, 12)) \
	IOC(SET_BPF,           set_bpf,            8, _IOW('$', 8, uint32_t),   FD,        "BPF program fd",                     0, PC_KVER(4, 1)) \
	IOC(PAUSE_OUTPUT,      pause_output,       9, _IOW('$', 9, uint32_t),   U32,       "nonzero pauses the ring, 0 resumes", 0, PC_KVER(4, 7)) \
	IOC(QUERY_BPF,         query_bpf,         10, _IOWR('$', 10, void *),   QUERY_BPF, "struct perf_event_query_bpf *",      0, PC_KVER(4, 16)) \
	IOC(MODIFY_ATTRIBUTES, modify_attributes, 11, _IOW('$', 11, void *),    ATTR,      "struct perf_event_attr *",           0, PC_KVER(4, 17))

/*
 *   FLAG(NAME, test, value, since, meaning)
 *
 * FD_NO_GROUP and FD_OUTPUT came with output redirection in 2.6.32 (the
 * 2.6.31 syscall took no flags); FD_OUTPUT is broken since 2.6.35 (man
 * page). PID_CGROUP: 2.6.39 (e5d1367f17ba); FD_CLOEXEC: 3.14 (a21b0b354d4a;
 * the 3.10 header lacks it).
 */
#define PC_ABI_OPEN_FLAG_LIST(FLAG) \
	FLAG(FD_NO_GROUP, fd_no_group, 1UL << 0, PC_KVER(2, 6),  /* 2.6.32 */ \
	     "group_fd is not a group to join, only an output target for FD_OUTPUT") \
	FLAG(FD_OUTPUT,   fd_output,   1UL << 1, PC_KVER(2, 6),  /* 2.6.32 */ \
	     "send the event's records to group_fd's ring (broken since 2.6.35)") \
	FLAG(PID_CGROUP,  pid_cgroup,  1UL << 2, PC_KVER(2, 6),  /* 2.6.39 */ \
	     "pid is a cgroup directory fd: count only its tasks on cpu") \
	FLAG(FD_CLOEXEC,  fd_cloexec,  1UL << 3, PC_KVER(3, 14), \
	     "the new fd is close-on-exec")

/*   FLAG(NAME, test, value, since, meaning) for PERF_IOC_FLAG_* */
#define PC_ABI_IOCTL_FLAG_LIST(FLAG) \
	FLAG(GROUP, flag_group, 1UL << 0, PC_KVER(2, 6), /* 2.6.31 */ \
	     "ENABLE/DISABLE/RESET act on the whole group (broken until 3.4: man page BUGS)")

/* One PERF_EVENT_IOC_* request. */
struct pc_abi_ioctl {
	const char *name;	/* "PERF_EVENT_IOC_ENABLE" */
	const char *test;	/* "enable": its binary is tests/ioctl/<test>.c */
	unsigned long request;	/* the encoded request number */
	unsigned int nr;	/* the number in the '$' space */
	const char *encoding;	/* how the UAPI header encodes it */
	enum pc_ioc_arg arg;
	const char *arg_what;	/* what the argument is, for reports */
	bool group_flag;	/* honours PERF_IOC_FLAG_GROUP */
	int since;
};

/* One flag bit: of perf_event_open()'s flags, or of an ioctl argument. */
struct pc_abi_flag {
	const char *name;	/* "PERF_FLAG_FD_CLOEXEC" */
	const char *test;	/* its binary: tests/flags/<test>.c (tests/ioctl/ for ioctl flags) */
	unsigned long value;
	int since;
	const char *meaning;	/* one line */
};

/* One errno perf_event_open(2) documents, with its causes. */
struct pc_abi_errno {
	const char *name;	/* "EBADF" */
	const char *test;	/* "ebadf": tests/errors/<test>.c */
	int value;
	int since;		/* when the man page gives a release for it, else 0 */
	const char *const *causes;	/* the man page's causes, paraphrased */
	size_t ncauses;
	const char *const *kernel_causes;	/* causes in kernel/events/core.c the page lacks */
	size_t nkernel_causes;
};

extern const struct pc_abi_ioctl pc_abi_ioctls[];	/* in request-number order */
extern const size_t pc_abi_ioctls_count;
extern const struct pc_abi_flag pc_abi_ioctl_flags[];	/* PERF_IOC_FLAG_* */
extern const size_t pc_abi_ioctl_flags_count;
extern const struct pc_abi_flag pc_abi_open_flags[];	/* PERF_FLAG_* */
extern const size_t pc_abi_open_flags_count;
extern const struct pc_abi_errno pc_abi_errnos[];	/* alphabetical, as the man page */
extern const size_t pc_abi_errnos_count;

/* The ioctl named `name` ("ID" or "PERF_EVENT_IOC_ID"), or NULL. */
const struct pc_abi_ioctl *pc_abi_ioctl_find(const char *name);
/* The documented errno `value` (EBADF), or NULL. */
const struct pc_abi_errno *pc_abi_errno_find(int value);

/* The largest attr size the table says a kernel of this release accepts. */
uint32_t pc_abi_size_for_kernel(int kver);
/* The size version whose size is exactly `size`, or -ENOENT. */
int pc_abi_size_ver_of(uint32_t size);

#endif
