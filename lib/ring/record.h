/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record parser: validate a record's header, decode its type's fixed
 * fields, the sample_id trailer and the full PERF_RECORD_SAMPLE body.
 *
 * Decoding needs what the event asked for (sample_type, read_format, ...):
 * pass a struct pc_sample_format built from the attr. Variable parts
 * (filenames, callchains, raw data, registers) point into the record
 * buffer, which must outlive the decoded struct. Malformed input returns
 * -EBADMSG with a reason in rec->error; nothing is read outside
 * [buf, buf + len).
 */
#ifndef PERFCONF_RECORD_H
#define PERFCONF_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/uapi.h"

struct pc_sample_format {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint64_t sample_regs_intr;
	bool sample_id_all;
};

struct pc_sample_format pc_sample_format(const struct perfconf_attr *attr);

/*
 * struct sample_id, the trailer of non-sample records when sample_id_all=1,
 * read from the end of the record. IDENTIFIER and ID carry the same value.
 */
struct pc_sample_id {
	bool present;		/* sample_id_all was set (even if no field is) */
	uint32_t pid, tid;	/* PERF_SAMPLE_TID */
	uint64_t time;		/* PERF_SAMPLE_TIME */
	uint64_t id;		/* PERF_SAMPLE_ID or PERF_SAMPLE_IDENTIFIER */
	uint64_t stream_id;	/* PERF_SAMPLE_STREAM_ID */
	uint32_t cpu, res;	/* PERF_SAMPLE_CPU */
};

/* struct read_format, single or PERF_FORMAT_GROUP */
#define PC_READ_MAX_VALUES 64
struct pc_read_value {
	uint64_t value, id, lost;
};
struct pc_read_values {
	uint64_t nr;		/* 1 unless PERF_FORMAT_GROUP */
	uint64_t time_enabled, time_running;
	struct pc_read_value values[PC_READ_MAX_VALUES];
};

/*
 * Decode a read(2) buffer or a READ record body. Returns bytes used (len may
 * be larger) or -EBADMSG with *err set (per-thread buffer; err may be NULL).
 * A group of more than PC_READ_MAX_VALUES is an error.
 */
int pc_read_values_decode(uint64_t read_format, const void *buf, size_t len,
			  struct pc_read_values *out, const char **err);
/*
 * read(2) of an event opened with read_format, decoded into *out: 0, the
 * read's -errno, or -EBADMSG (a size the read_format does not explain).
 */
int pc_read_values_read(int fd, uint64_t read_format, struct pc_read_values *out);
/* The size read(2) returns for this read_format with nr events in the group. */
size_t pc_read_values_size(uint64_t read_format, unsigned int nr);
/*
 * The most a read may return: an event joins a group only while the read
 * size of every member, counted with it, stays within 16 KiB
 * (perf_event_validate_size(), kernel/events/core.c; E2BIG past it), so
 * that a READ record fits in a sample.
 */
#define PC_READ_SIZE_MAX (16 * 1024)
/*
 * The most members a group whose members all read with read_format may
 * have: the largest nr whose pc_read_values_size() is within
 * PC_READ_SIZE_MAX (UINT_MAX without PERF_FORMAT_GROUP: the size never
 * grows).
 */
unsigned int pc_read_values_max_nr(uint64_t read_format);

struct pc_branch_entry {
	uint64_t from, to, flags;
};

struct pc_sample {
	uint64_t identifier;		/* PERF_SAMPLE_IDENTIFIER */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, res;
	uint64_t period;
	struct pc_read_values read;	/* PERF_SAMPLE_READ */
	uint64_t callchain_nr;
	const uint64_t *callchain;	/* ips, context markers included */
	uint32_t raw_size;
	const void *raw;
	uint64_t branch_nr;
	uint64_t branch_hw_idx;		/* PERF_SAMPLE_BRANCH_HW_INDEX */
	const struct pc_branch_entry *branches;
	const uint64_t *branch_counters;	/* PC_SAMPLE_BRANCH_COUNTERS */
	uint64_t regs_user_abi;
	unsigned int regs_user_nr;
	const uint64_t *regs_user;
	uint64_t stack_user_size;
	const void *stack_user;
	uint64_t stack_user_dyn_size;
	uint64_t weight;		/* PERF_SAMPLE_WEIGHT, or the whole union */
	uint32_t weight_var1_dw;	/* PERF_SAMPLE_WEIGHT_STRUCT */
	uint16_t weight_var2_w, weight_var3_w;
	uint64_t data_src;
	uint64_t transaction;
	uint64_t regs_intr_abi;
	unsigned int regs_intr_nr;
	const uint64_t *regs_intr;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t aux_size;
	const void *aux;
};

struct pc_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	union {
		struct { uint32_t pid, tid; uint64_t addr, len, pgoff; const char *filename; } mmap;
		struct { uint64_t id, lost; } lost;
		struct { uint32_t pid, tid; const char *comm; } comm;
		struct { uint32_t pid, ppid, tid, ptid; uint64_t time; } task;	/* FORK, EXIT */
		struct { uint64_t time, id, stream_id; } throttle;		/* THROTTLE, UNTHROTTLE */
		struct { uint32_t pid, tid; struct pc_read_values values; } read;
		struct {
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint8_t build_id_size;		/* PERF_RECORD_MISC_MMAP_BUILD_ID */
			uint8_t build_id[20];
			uint32_t prot, flags;
			const char *filename;
		} mmap2;
		struct { uint64_t aux_offset, aux_size, flags; } aux;
		struct { uint32_t pid, tid; } itrace_start;
		struct { uint64_t lost; } lost_samples;
		struct { uint32_t next_prev_pid, next_prev_tid; } switch_cpu_wide;
		struct {
			uint32_t pid, tid;
			uint64_t nr_namespaces;
			const uint64_t *link_info;	/* nr pairs of (dev, inode) */
		} namespaces;
		struct { uint64_t addr; uint32_t len; uint16_t ksym_type, flags; const char *name; } ksymbol;
		struct { uint16_t type, flags; uint32_t id; uint8_t tag[8]; } bpf_event;
		struct { uint64_t id; const char *path; } cgroup;
		struct { uint64_t addr; uint16_t old_len, new_len; const uint8_t *bytes; } text_poke;
		struct { uint64_t hw_id; } aux_output_hw_id;
		struct { uint64_t cookie, nr; const uint64_t *ips; } callchain_deferred;
	};
	struct pc_sample sample;	/* PERF_RECORD_SAMPLE */
	struct pc_sample_id sample_id;	/* trailer of the other types */
	/*
	 * A type this parser does not know (0, > PC_RECORD_TYPE_MAX): only the
	 * header was decoded and checked. Not an error: walks go on past it.
	 */
	bool unknown;
	char error[160];
};

/*
 * Check a record header alone: size >= 8, a multiple of 8, not beyond `avail`.
 * Returns NULL if good, else a reason (in a per-thread buffer, valid until
 * the next call). With avail < 8 the header is not read at all.
 */
const char *pc_header_check(const struct perf_event_header *h, size_t avail);

/*
 * Decode the record at buf; `len` is the buffer's size, which may hold more
 * after this record (only header.size bytes are decoded). 0, or -EBADMSG
 * with rec->error set. Every byte of the record must be accounted for: a
 * fixed layout that leaves bytes over, a string without its NUL or a count
 * that runs past the end is an error.
 *
 * Two layout choices the ABI leaves to the reader:
 *  - PERF_SAMPLE_BRANCH_STACK with PERF_SAMPLE_BRANCH_HW_INDEX: hw_idx is
 *    always expected after nr (as perf does). A kernel that had no branch
 *    stack at all writes nr = 0 alone, which then reads as truncated.
 *  - PERF_SAMPLE_RAW: `size` counts the data; if 4 + size is not a multiple
 *    of 8, the padding up to the next u64 is skipped (the kernel includes the
 *    padding in size, so there is none to skip in its records).
 * Unknown sample_type bits are an error: their layout cannot be known.
 */
int pc_record_parse(const struct pc_sample_format *fmt, const void *buf, size_t len,
		    struct pc_record *rec);

/* The bytes the sample_id trailer takes for this format (0 if !sample_id_all). */
size_t pc_sample_id_size(const struct pc_sample_format *fmt);

/*
 * Walk a linear buffer of records (a perf.data-like stream, or a ring
 * snapshot). Calls fn per decoded record; stops at the first malformed one.
 * fn returning non-zero stops the walk early.
 * Returns the number of records decoded, or -errno with the reason in err
 * (-EBADMSG for a malformed record, -ENOMEM).
 */
typedef int (*pc_parsed_fn)(const struct pc_record *rec, void *arg);
int pc_records_walk(const struct pc_sample_format *fmt, const void *buf, size_t len,
		    pc_parsed_fn fn, void *arg, char *err, size_t errlen);

#endif
