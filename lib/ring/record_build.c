// SPDX-License-Identifier: GPL-2.0
/* Crafting records byte by byte: see record_build.h. */
#include <string.h>

#include <linux/perf_event.h>

#include "ring/record_build.h"

void pc_rb_init(struct pc_rb *b, void *buf, size_t cap)
{
	memset(b, 0, sizeof(*b));
	b->buf = buf;
	b->cap = cap;
}

void pc_rb_bytes(struct pc_rb *b, const void *p, size_t n)
{
	if (b->overflow || n > b->cap - b->len) {
		b->overflow = true;
		return;
	}
	if (n)
		memcpy(b->buf + b->len, p, n);
	b->len += n;
}

void pc_rb_zeros(struct pc_rb *b, size_t n)
{
	if (b->overflow || n > b->cap - b->len) {
		b->overflow = true;
		return;
	}
	memset(b->buf + b->len, 0, n);
	b->len += n;
}

void pc_rb_u8(struct pc_rb *b, uint8_t v)
{
	pc_rb_bytes(b, &v, sizeof(v));
}

void pc_rb_u16(struct pc_rb *b, uint16_t v)
{
	pc_rb_bytes(b, &v, sizeof(v));
}

void pc_rb_u32(struct pc_rb *b, uint32_t v)
{
	pc_rb_bytes(b, &v, sizeof(v));
}

void pc_rb_u64(struct pc_rb *b, uint64_t v)
{
	pc_rb_bytes(b, &v, sizeof(v));
}

void pc_rb_begin(struct pc_rb *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };

	b->start = b->len;
	pc_rb_bytes(b, &h, sizeof(h));
}

void pc_rb_pad8(struct pc_rb *b)
{
	size_t used = b->len - b->start;

	if (used % 8)
		pc_rb_zeros(b, 8 - used % 8);
}

void pc_rb_string(struct pc_rb *b, const char *s)
{
	pc_rb_bytes(b, s, strlen(s) + 1);
	pc_rb_pad8(b);
}

void pc_rb_sample_id(struct pc_rb *b, const struct pc_sample_format *fmt,
		     const struct pc_sample_id *id)
{
	uint64_t t = fmt->sample_type;

	if (!fmt->sample_id_all)
		return;
	if (t & PERF_SAMPLE_TID) {
		pc_rb_u32(b, id->pid);
		pc_rb_u32(b, id->tid);
	}
	if (t & PERF_SAMPLE_TIME)
		pc_rb_u64(b, id->time);
	if (t & PERF_SAMPLE_ID)
		pc_rb_u64(b, id->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		pc_rb_u64(b, id->stream_id);
	if (t & PERF_SAMPLE_CPU) {
		pc_rb_u32(b, id->cpu);
		pc_rb_u32(b, id->res);
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		pc_rb_u64(b, id->id);
}

void pc_rb_read_values(struct pc_rb *b, uint64_t rf, const struct pc_read_values *v)
{
	uint64_t i, nr = v->nr;

	if (rf & PERF_FORMAT_GROUP) {
		pc_rb_u64(b, nr);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			pc_rb_u64(b, v->time_enabled);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			pc_rb_u64(b, v->time_running);
		if (nr > PC_READ_MAX_VALUES)
			nr = PC_READ_MAX_VALUES;
		for (i = 0; i < nr; i++) {
			pc_rb_u64(b, v->values[i].value);
			if (rf & PERF_FORMAT_ID)
				pc_rb_u64(b, v->values[i].id);
			if (rf & PERF_FORMAT_LOST)
				pc_rb_u64(b, v->values[i].lost);
		}
		return;
	}
	pc_rb_u64(b, v->values[0].value);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		pc_rb_u64(b, v->time_enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		pc_rb_u64(b, v->time_running);
	if (rf & PERF_FORMAT_ID)
		pc_rb_u64(b, v->values[0].id);
	if (rf & PERF_FORMAT_LOST)
		pc_rb_u64(b, v->values[0].lost);
}

size_t pc_rb_end(struct pc_rb *b)
{
	size_t size = b->len - b->start;
	uint16_t s16;

	if (b->overflow || size > UINT16_MAX || size < sizeof(struct perf_event_header))
		return 0;
	s16 = (uint16_t)size;
	memcpy(b->buf + b->start + offsetof(struct perf_event_header, size), &s16, sizeof(s16));
	return size;
}

void *pc_rb_record(struct pc_rb *b)
{
	return b->buf + b->start;
}
