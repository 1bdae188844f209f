/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring buffer: mmap of 1 + 2^n pages, read with the documented ordering
 * (load data_head, read barrier, read records, full barrier, store
 * data_tail), records that straddle the end copied out whole.
 *
 * A ring can also be laid over any memory (pc_ring_attach), so the reader is
 * unit-tested on crafted buffers without a kernel.
 */
#ifndef PERFCONF_RING_H
#define PERFCONF_RING_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pc_ring {
	struct perf_event_mmap_page *page;	/* the control page */
	unsigned char *data;			/* the data area */
	uint64_t data_size;			/* a power of two */
	void *map;				/* what mmap returned, or NULL */
	size_t map_len;
	bool overwrite;		/* read-only mapping: kernel overwrites, no data_tail */
	bool backward;		/* write_backward: records grow down from head */
	/* AUX area, when mapped */
	unsigned char *aux;
	uint64_t aux_size;
	/* A buffer large enough for one straddling record. */
	unsigned char *copy;
	size_t copy_len;
	/* Consumer position for forward reading */
	uint64_t tail;
};

enum pc_ring_mode {
	PC_RING_READWRITE = 0,	/* normal mode: PROT_READ|PROT_WRITE, data_tail written back */
	PC_RING_OVERWRITE = 1,	/* PROT_READ only: the kernel overwrites old data */
};

/* mmap 1 + 2^data_pages_log2 pages of an event fd. 0 or -errno. */
int pc_ring_map(struct pc_ring *r, int fd, unsigned int data_pages_log2, enum pc_ring_mode mode);
/* Map an AUX area of 2^pages_log2 pages (sets aux_offset/aux_size first). 0 or -errno. */
int pc_ring_map_aux(struct pc_ring *r, int fd, unsigned int pages_log2, enum pc_ring_mode mode);
void pc_ring_unmap(struct pc_ring *r);

/* Lay a ring over a control page and data area in memory (for unit tests). */
void pc_ring_attach(struct pc_ring *r, struct perf_event_mmap_page *page,
		    void *data, uint64_t data_size);

/* data_head, loaded with acquire ordering. */
uint64_t pc_ring_head(const struct pc_ring *r);
/* Bytes between the consumer's tail and head. */
uint64_t pc_ring_available(const struct pc_ring *r);

/*
 * The next record in forward order, or NULL when the ring is empty.
 * *len receives the record's size. A record that wraps the end is copied
 * into r->copy. A header that is malformed (size < 8, not a multiple of 8,
 * larger than the data available) returns NULL with *err set to a reason.
 * The record stays valid until the next call; call pc_ring_consume() to
 * release the space to the kernel (data_tail write-back).
 */
const void *pc_ring_next(struct pc_ring *r, size_t *len, const char **err);
void pc_ring_consume(struct pc_ring *r);

/*
 * Snapshot the records of an overwrite or write_backward ring, newest last:
 * calls fn for each record from oldest to newest. Returns the number of
 * records, or -1 with *err set.
 */
typedef int (*pc_record_fn)(const void *rec, size_t len, void *arg);
int pc_ring_for_each(struct pc_ring *r, pc_record_fn fn, void *arg, const char **err);

#endif
