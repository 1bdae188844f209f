/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The canonical ABI tables: every field of struct perf_event_attr, struct
 * perf_event_mmap_page, struct perf_event_header and the fixed part of every
 * PERF_RECORD_* type, each with its offset, size and the kernel release that
 * introduced it. The tables are data, so tests, reports and the coverage list
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
const struct pc_abi_record *pc_abi_record(uint32_t type);	/* NULL if unknown */
const char *pc_abi_record_name(uint32_t type);			/* "UNKNOWN" if unknown */

/* The largest attr size the table says a kernel of this release accepts. */
uint32_t pc_abi_size_for_kernel(int kver);
/* The size version whose size is exactly `size`, or -ENOENT. */
int pc_abi_size_ver_of(uint32_t size);

#endif
