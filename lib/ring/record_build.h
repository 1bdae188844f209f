/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Crafting records byte by byte, for tests of the parser and the ring
 * reader (and of anything else that consumes records):
 *
 *	uint64_t mem[64];
 *	struct pc_rb b;
 *	pc_rb_init(&b, mem, sizeof(mem));
 *	pc_rb_begin(&b, PERF_RECORD_COMM, 0);
 *	pc_rb_u32(&b, pid); pc_rb_u32(&b, tid);
 *	pc_rb_string(&b, "perfconf");
 *	pc_rb_sample_id(&b, &fmt, &id);
 *	size_t size = pc_rb_end(&b);	// header.size patched in
 *
 * Several records can follow each other in one buffer (begin/end again).
 * Nothing is ever written past `cap`: an overflow sets b.overflow and makes
 * pc_rb_end() return 0. Values are written in host byte order, like the
 * kernel writes them.
 */
#ifndef PERFCONF_RECORD_BUILD_H
#define PERFCONF_RECORD_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ring/record.h"

struct pc_rb {
	unsigned char *buf;
	size_t cap;
	size_t len;		/* bytes written so far */
	size_t start;		/* offset of the open record's header */
	bool overflow;
};

void pc_rb_init(struct pc_rb *b, void *buf, size_t cap);
/* Open a record: writes a header whose size pc_rb_end() fills in. */
void pc_rb_begin(struct pc_rb *b, uint32_t type, uint16_t misc);
void pc_rb_u8(struct pc_rb *b, uint8_t v);
void pc_rb_u16(struct pc_rb *b, uint16_t v);
void pc_rb_u32(struct pc_rb *b, uint32_t v);
void pc_rb_u64(struct pc_rb *b, uint64_t v);
void pc_rb_bytes(struct pc_rb *b, const void *p, size_t n);
void pc_rb_zeros(struct pc_rb *b, size_t n);
/* Zeros up to the next multiple of 8 from the record's start. */
void pc_rb_pad8(struct pc_rb *b);
/* A string with its NUL, zero-padded to a multiple of 8 (as the kernel does). */
void pc_rb_string(struct pc_rb *b, const char *s);
/*
 * The sample_id trailer for this format (nothing unless sample_id_all), in
 * the kernel's order; IDENTIFIER and ID both take id->id.
 */
void pc_rb_sample_id(struct pc_rb *b, const struct pc_sample_format *fmt,
		     const struct pc_sample_id *id);
/* struct read_format for this read_format (GROUP: v->nr values). */
void pc_rb_read_values(struct pc_rb *b, uint64_t read_format, const struct pc_read_values *v);
/*
 * Close the record: header.size = bytes since pc_rb_begin(). Returns that
 * size, or 0 after an overflow or if the record is over 65535 bytes. The
 * size is written as is, even if it is not a multiple of 8: pad first.
 */
size_t pc_rb_end(struct pc_rb *b);
/* The open (or last) record's start. */
void *pc_rb_record(struct pc_rb *b);

#endif
