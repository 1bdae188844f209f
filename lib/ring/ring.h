/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring buffer: mmap of 1 + 2^n pages, read with the documented ordering
 * (load data_head with acquire semantics, i.e. load + rmb; read records;
 * store data_tail with release semantics, so that every read of a record is
 * done before the kernel may reuse its space), records that straddle the end
 * copied out whole.
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
	/*
	 * A flag to OR in for an event opened with attr.write_backward: sets
	 * r->backward (nothing in the mapping tells it). Usually
	 * PC_RING_OVERWRITE | PC_RING_BACKWARD.
	 */
	PC_RING_BACKWARD = 2,
};

/*
 * mmap 1 + 2^data_pages_log2 pages of an event fd. 0 or -errno (-ENOMEM if
 * the copy buffer cannot be allocated, -EPROTO if the control page
 * describes a data area that does not fit the mapping). The data area is
 * taken from data_offset/data_size when the kernel sets them (>= 4.1), else
 * it is the pages after the first.
 */
int pc_ring_map(struct pc_ring *r, int fd, unsigned int data_pages_log2, enum pc_ring_mode mode);
/*
 * Map an AUX area of 2^pages_log2 pages: writes aux_offset (the first page
 * boundary after the data area) and aux_size into the control page, then
 * mmaps there. `mode` is the AUX area's own: PC_RING_OVERWRITE maps it
 * read-only (the kernel's snapshot mode). The data ring itself must be
 * mapped PC_RING_READWRITE (a read-only control page cannot be written):
 * -EINVAL otherwise. 0 or -errno.
 */
int pc_ring_map_aux(struct pc_ring *r, int fd, unsigned int pages_log2, enum pc_ring_mode mode);
/*
 * Which PMUs here can have an AUX area, found by trying rather than by
 * name (sysfs has no flag for it): an event of each PMU (config 0, this
 * task) that opens gets a data ring and then an AUX area of 2 pages
 * mapped (writable: before 5.13 one page is EINVAL there).
 * rb_alloc_aux() refuses the area with EOPNOTSUPP when the PMU has no
 * setup_aux (has_aux(), kernel/events/ring_buffer.c, since 4.1). Returns
 * how many PMUs were tried; *aux counts those that took an area, and
 * *other those refused with another errno than EOPNOTSUPP (both listed in
 * names[] as "pmu=aux" or "pmu=ERRNO").
 */
size_t pc_ring_probe_aux_pmus(size_t *aux, size_t *other, char *names, size_t len);
/* Unmap everything and free the copy buffer; safe on a zeroed or attached ring. */
void pc_ring_unmap(struct pc_ring *r);

/*
 * Lay a ring over a control page and data area in memory (for unit tests).
 * data_size must be a power of two. The consumer tail starts at
 * page->data_tail. Set r->overwrite / r->backward by hand as needed;
 * pc_ring_unmap() frees the copy buffer and unmaps nothing.
 */
void pc_ring_attach(struct pc_ring *r, struct perf_event_mmap_page *page,
		    void *data, uint64_t data_size);

/* data_head, loaded with acquire ordering. */
uint64_t pc_ring_head(const struct pc_ring *r);
/* Bytes between the consumer's tail and head. */
uint64_t pc_ring_available(const struct pc_ring *r);

/*
 * The next record in forward order, or NULL when the ring is empty
 * (*err = NULL then). *len receives the record's size. A record that wraps
 * the end is copied into r->copy. A header that is malformed (size < 8, not
 * a multiple of 8, larger than the data available), more data than the ring
 * holds (head - tail > data_size: overrun) or a backward ring return NULL
 * with *err set to a reason (valid until the next call from this thread);
 * the tail does not move past a malformed record. The record stays valid
 * until the next call; call pc_ring_consume() to release the space to the
 * kernel (data_tail write-back). err may be NULL.
 */
const void *pc_ring_next(struct pc_ring *r, size_t *len, const char **err);
/* Publish r->tail as data_tail (release store). No-op for read-only rings. */
void pc_ring_consume(struct pc_ring *r);

/*
 * Snapshot the records of a ring, without consuming: calls fn for each
 * record from oldest to newest. fn returning non-zero stops the walk.
 * Returns the number of records fn was called for, or -errno with *err
 * set: -EBADMSG for a malformed ring (or one overwritten past the known
 * boundary), -EINVAL for a ring that is not mapped (or whose data_size is no
 * power of two), -ENOMEM.
 * The ring must be quiet (event disabled, or output paused with
 * PERF_EVENT_IOC_PAUSE_OUTPUT): nothing here can detect the kernel writing
 * underneath.
 *
 *  - write_backward (r->backward): data_head counts down from 0. The newest
 *    record is at head, older ones follow at increasing positions. If
 *    -head <= data_size the ring has not wrapped and the records are exactly
 *    [head, 0). Otherwise they are the ones lying wholly inside
 *    [head, head + data_size); the oldest, partly overwritten, is dropped.
 *  - forward (overwrite or not): records are only parseable from a known
 *    boundary, the consumer tail (0 for a fresh ring). The walk covers
 *    [tail, head). If head - tail > data_size the kernel has overwritten
 *    the boundary (forward overwrite ring that wrapped): -EBADMSG, with a
 *    reason saying so. Use write_backward to keep the newest data.
 */
typedef int (*pc_record_fn)(const void *rec, size_t len, void *arg);
int pc_ring_for_each(struct pc_ring *r, pc_record_fn fn, void *arg, const char **err);

/* Consume every record in a forward ring without copying it out (no allocation). */
void pc_ring_drain(struct pc_ring *r);

#endif
