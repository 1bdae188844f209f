// SPDX-License-Identifier: GPL-2.0
/*
 * The ring buffer reader.
 *
 * Positions (data_head, data_tail, r->tail) are free-running u64 byte
 * counts; the offset in the data area is position & (data_size - 1).
 * The kernel publishes data_head after writing the records it covers, so
 * data_head is loaded with acquire ordering before any record is read, and
 * data_tail is stored with release ordering after the reads are done.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "event/event.h"
#include "event/pmu.h"
#include "host/observe.h"
#include "ring/record.h"
#include "ring/ring.h"

/* header.size is a u16: no record is larger. */
#define RING_COPY_LEN 65536

static __thread char ring_reason[160];

static const char *reason(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static const char *reason(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ring_reason, sizeof(ring_reason), fmt, ap);
	va_end(ap);
	return ring_reason;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int pc_ring_map(struct pc_ring *r, int fd, unsigned int data_pages_log2, enum pc_ring_mode mode)
{
	long pg = sysconf(_SC_PAGESIZE);
	int prot = PROT_READ;
	uint64_t off, size;
	size_t len;
	void *map;

	memset(r, 0, sizeof(*r));
	if (pg <= 0 || data_pages_log2 > 30)
		return -EINVAL;
	if (!(mode & PC_RING_OVERWRITE))
		prot |= PROT_WRITE;
	len = (size_t)pg * (1 + ((size_t)1 << data_pages_log2));
	map = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;

	r->map = map;
	r->map_len = len;
	r->page = map;
	off = __atomic_load_n(&r->page->data_offset, __ATOMIC_RELAXED);
	size = __atomic_load_n(&r->page->data_size, __ATOMIC_RELAXED);
	if (!off || !size) {
		/* Before 4.1: the data pages follow the control page. */
		off = (uint64_t)pg;
		size = (uint64_t)pg << data_pages_log2;
	}
	if (!is_pow2(size) || off > len || size > len - off) {
		pc_ring_unmap(r);
		return -EPROTO;
	}
	r->data = (unsigned char *)map + off;
	r->data_size = size;
	r->overwrite = !!(mode & PC_RING_OVERWRITE);
	r->backward = !!(mode & PC_RING_BACKWARD);
	r->copy = malloc(RING_COPY_LEN);
	if (!r->copy) {
		pc_ring_unmap(r);
		return -ENOMEM;
	}
	r->copy_len = RING_COPY_LEN;
	r->tail = __atomic_load_n(&r->page->data_tail, __ATOMIC_RELAXED);
	return 0;
}

int pc_ring_map_aux(struct pc_ring *r, int fd, unsigned int pages_log2, enum pc_ring_mode mode)
{
	long pg = sysconf(_SC_PAGESIZE);
	int prot = PROT_READ;
	uint64_t off, size;
	void *aux;

	if (!r->map || r->overwrite || r->aux || pg <= 0 || pages_log2 > 30)
		return -EINVAL;
	if (!(mode & PC_RING_OVERWRITE))
		prot |= PROT_WRITE;
	off = (uint64_t)(r->data - (unsigned char *)r->map) + r->data_size;
	off = (off + (uint64_t)pg - 1) & ~((uint64_t)pg - 1);
	size = (uint64_t)pg << pages_log2;
	r->page->aux_offset = off;
	r->page->aux_size = size;
	aux = mmap(NULL, size, prot, MAP_SHARED, fd, (off_t)off);
	if (aux == MAP_FAILED)
		return -errno;
	r->aux = aux;
	r->aux_size = size;
	return 0;
}

void pc_ring_unmap(struct pc_ring *r)
{
	if (r->map) {
		if (r->aux)
			munmap(r->aux, r->aux_size);
		munmap(r->map, r->map_len);
	}
	free(r->copy);
	memset(r, 0, sizeof(*r));
}

void pc_ring_attach(struct pc_ring *r, struct perf_event_mmap_page *page,
		    void *data, uint64_t data_size)
{
	memset(r, 0, sizeof(*r));
	r->page = page;
	r->data = data;
	r->data_size = data_size;
	r->tail = __atomic_load_n(&page->data_tail, __ATOMIC_RELAXED);
	/* r->copy is allocated on first need. */
}

uint64_t pc_ring_head(const struct pc_ring *r)
{
	return __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
}

uint64_t pc_ring_available(const struct pc_ring *r)
{
	return pc_ring_head(r) - r->tail;
}

/* Copy n bytes from ring position pos, wrapping at the end of the data area. */
static void ring_copy(const struct pc_ring *r, uint64_t pos, void *dst, size_t n)
{
	uint64_t off = pos & (r->data_size - 1);
	size_t first = n;

	if (off + n > r->data_size)
		first = (size_t)(r->data_size - off);
	memcpy(dst, r->data + off, first);
	if (first < n)
		memcpy((unsigned char *)dst + first, r->data, n - first);
}

/*
 * The record of `size` bytes at pos: in place when contiguous, else copied
 * whole into r->copy. NULL only if the copy buffer cannot be had.
 */
static const void *ring_record(struct pc_ring *r, uint64_t pos, size_t size)
{
	uint64_t off = pos & (r->data_size - 1);

	if (off + size <= r->data_size)
		return r->data + off;
	if (!r->copy) {
		r->copy = malloc(RING_COPY_LEN);
		if (!r->copy)
			return NULL;
		r->copy_len = RING_COPY_LEN;
	}
	if (size > r->copy_len)
		return NULL;
	ring_copy(r, pos, r->copy, size);
	return r->copy;
}

static const char *check_ring(const struct pc_ring *r)
{
	if (!r->page || !r->data)
		return "ring is not mapped";
	if (!is_pow2(r->data_size))
		return reason("data_size %llu is not a power of two",
			      (unsigned long long)r->data_size);
	return NULL;
}

const void *pc_ring_next(struct pc_ring *r, size_t *len, const char **err)
{
	struct perf_event_header h;
	const char *why;
	const void *rec;
	uint64_t head, avail;

	if (err)
		*err = NULL;
	*len = 0;
	why = check_ring(r);
	if (!why && r->backward)
		why = "a write_backward ring is read with pc_ring_for_each";
	if (why)
		goto fail;
	head = pc_ring_head(r);
	avail = head - r->tail;
	if (!avail)
		return NULL;
	if (avail > r->data_size) {
		why = reason("overrun: data_head %llu - tail %llu = %llu is more than data_size %llu",
			     (unsigned long long)head, (unsigned long long)r->tail,
			     (unsigned long long)avail, (unsigned long long)r->data_size);
		goto fail;
	}
	if (avail < sizeof(h)) {
		why = reason("only %llu bytes between tail %llu and data_head, less than a header",
			     (unsigned long long)avail, (unsigned long long)r->tail);
		goto fail;
	}
	ring_copy(r, r->tail, &h, sizeof(h));
	why = pc_header_check(&h, (size_t)avail);
	if (why) {
		why = reason("at position %llu: %s", (unsigned long long)r->tail, why);
		goto fail;
	}
	rec = ring_record(r, r->tail, h.size);
	if (!rec) {
		why = "out of memory for the copy buffer";
		goto fail;
	}
	r->tail += h.size;
	*len = h.size;
	return rec;
fail:
	if (err)
		*err = why;
	return NULL;
}

void pc_ring_consume(struct pc_ring *r)
{
	if (r->overwrite || !r->page)
		return;
	__atomic_store_n(&r->page->data_tail, r->tail, __ATOMIC_RELEASE);
}

/* Forward: from the consumer tail to head, not consuming. */
static int for_each_forward(struct pc_ring *r, pc_record_fn fn, void *arg, const char **err)
{
	struct perf_event_header h;
	uint64_t head = pc_ring_head(r), pos = r->tail, span = head - r->tail;
	const char *why;
	const void *rec;
	int n = 0;

	if (span > r->data_size) {
		*err = reason("forward ring wrapped: data_head %llu is %llu bytes past the last known "
			      "record boundary %llu, more than data_size %llu; the oldest record's start "
			      "is lost",
			      (unsigned long long)head, (unsigned long long)span,
			      (unsigned long long)r->tail, (unsigned long long)r->data_size);
		return -EBADMSG;
	}
	while (pos != head) {
		uint64_t left = head - pos;

		if (left < sizeof(h)) {
			*err = reason("at position %llu: %llu bytes left before data_head, less than a header",
				      (unsigned long long)pos, (unsigned long long)left);
			return -EBADMSG;
		}
		ring_copy(r, pos, &h, sizeof(h));
		why = pc_header_check(&h, (size_t)left);
		if (why) {
			*err = reason("at position %llu: %s", (unsigned long long)pos, why);
			return -EBADMSG;
		}
		rec = ring_record(r, pos, h.size);
		if (!rec) {
			*err = "out of memory for the copy buffer";
			return -ENOMEM;
		}
		pos += h.size;
		n++;
		if (fn && fn(rec, h.size, arg))
			break;
	}
	return n;
}

/*
 * Backward: newest at head, older ones above it. Collect the positions
 * newest first, then call fn in the other direction.
 */
static int for_each_backward(struct pc_ring *r, pc_record_fn fn, void *arg, const char **err)
{
	struct perf_event_header h;
	uint64_t head = pc_ring_head(r), used = 0 - head, limit, pos;
	bool wrapped = used > r->data_size;
	uint64_t *at;
	size_t nr = 0, i;
	const char *why;
	int n = 0;

	limit = wrapped ? r->data_size : used;
	if (!limit)
		return 0;
	at = malloc((size_t)(limit / sizeof(h)) * sizeof(*at));
	if (!at) {
		*err = "out of memory for the record index";
		return -ENOMEM;
	}
	for (pos = head; pos - head < limit; pos += h.size) {
		uint64_t left = limit - (pos - head);

		if (left < sizeof(h)) {
			if (wrapped)
				break;	/* the oldest record's header is gone */
			*err = reason("at position %llu: %llu bytes left before position 0, less than a header",
				      (unsigned long long)pos, (unsigned long long)left);
			goto fail;
		}
		ring_copy(r, pos, &h, sizeof(h));
		/* Shape first: a bad size means we lost the chain. */
		why = pc_header_check(&h, SIZE_MAX);
		if (why) {
			*err = reason("at position %llu: %s", (unsigned long long)pos, why);
			goto fail;
		}
		if (h.size > left) {
			if (wrapped)
				break;	/* partly overwritten by the newest records */
			*err = reason("at position %llu: header size %u crosses position 0 (%llu bytes left)",
				      (unsigned long long)pos, h.size, (unsigned long long)left);
			goto fail;
		}
		at[nr++] = pos;
	}
	for (i = nr; i-- > 0;) {
		const void *rec;

		ring_copy(r, at[i], &h, sizeof(h));
		rec = ring_record(r, at[i], h.size);
		if (!rec) {
			*err = "out of memory for the copy buffer";
			free(at);
			return -ENOMEM;
		}
		n++;
		if (fn && fn(rec, h.size, arg))
			break;
	}
	free(at);
	return n;
fail:
	free(at);
	return -EBADMSG;
}

int pc_ring_for_each(struct pc_ring *r, pc_record_fn fn, void *arg, const char **err)
{
	const char *dummy, *why;

	if (!err)
		err = &dummy;
	*err = NULL;
	why = check_ring(r);
	if (why) {
		*err = why;
		return -EINVAL;
	}
	if (r->backward)
		return for_each_backward(r, fn, arg, err);
	return for_each_forward(r, fn, arg, err);
}

void pc_ring_drain(struct pc_ring *r)
{
	size_t len;

	while (pc_ring_next(r, &len, NULL))
		pc_ring_consume(r);
}

size_t pc_ring_probe_aux_pmus(size_t *aux, size_t *other, char *names, size_t len)
{
	char **pmus = pc_pmu_list();
	size_t tried = 0;

	*aux = *other = 0;
	names[0] = 0;
	for (size_t i = 0; pmus && pmus[i]; i++) {
		int type = pc_pmu_type(pmus[i]);
		struct pc_ring ring = { 0 };

		if (type < 0)
			continue;
		struct perfconf_attr attr = pc_attr((uint32_t)type, 0);
		int fd = pc_open(&attr, 0, -1, -1, 0);
		if (fd < 0)
			continue;
		tried++;
		if (pc_ring_map(&ring, fd, 0, PC_RING_READWRITE) == 0) {
			int err = -pc_ring_map_aux(&ring, fd, 1, PC_RING_READWRITE);

			if (!err || err != EOPNOTSUPP) {
				size_t l = strlen(names);

				snprintf(names + l, len - l, "%s%s=%s", l ? "," : "", pmus[i],
					 err ? pc_errno_name(err) : "aux");
				if (!err)
					(*aux)++;
				else
					(*other)++;
			}
		}
		pc_ring_unmap(&ring);
		close(fd);
	}
	pc_strv_free(pmus);
	return tried;
}
