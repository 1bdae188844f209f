// SPDX-License-Identifier: GPL-2.0
/*
 * The record parser. Everything is read through a bounds-checked cursor over
 * [buf, buf + header.size): a field that would end past the record is an
 * error naming that field, never a read outside the buffer.
 *
 * Layouts follow perf_event_open(2) and the kernel's writers
 * (perf_output_sample, perf_output_read, perf_event__output_id_sample).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "ring/record.h"

struct pc_sample_format pc_sample_format(const struct perfconf_attr *attr)
{
	struct pc_sample_format f = {
		.sample_type = attr->sample_type,
		.read_format = attr->read_format,
		.branch_sample_type = attr->branch_sample_type,
		.sample_regs_user = attr->sample_regs_user,
		.sample_regs_intr = attr->sample_regs_intr,
		.sample_id_all = attr->sample_id_all,
	};
	return f;
}

/* ------------------------------------------------------------------ */
/* The cursor                                                           */

struct cursor {
	const unsigned char *base;
	size_t off;		/* next byte to read, from base */
	size_t end;		/* first byte not to read */
	char *err;		/* where a failure is described */
	size_t errlen;
	int failed;
};

static void cur_fail(struct cursor *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void cur_fail(struct cursor *c, const char *fmt, ...)
{
	va_list ap;

	if (c->failed)
		return;
	c->failed = 1;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
}

static size_t cur_left(const struct cursor *c)
{
	return c->end - c->off;
}

/* Claim n bytes for `field`: a pointer to them, or NULL after recording why. */
static const void *cur_take(struct cursor *c, size_t n, const char *field)
{
	const void *p;

	if (c->failed)
		return NULL;
	if (n > cur_left(c)) {
		cur_fail(c, "truncated at %s: needs %zu bytes at offset %zu, %zu left",
			 field, n, c->off, cur_left(c));
		return NULL;
	}
	p = c->base + c->off;
	c->off += n;
	return p;
}

static uint64_t cur_u64(struct cursor *c, const char *field)
{
	const void *p = cur_take(c, 8, field);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return v;
}

static uint32_t cur_u32(struct cursor *c, const char *field)
{
	const void *p = cur_take(c, 4, field);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return v;
}

static uint16_t cur_u16(struct cursor *c, const char *field)
{
	const void *p = cur_take(c, 2, field);
	uint16_t v = 0;

	if (p)
		memcpy(&v, p, 2);
	return v;
}

static uint8_t cur_u8(struct cursor *c, const char *field)
{
	const uint8_t *p = cur_take(c, 1, field);

	return p ? *p : 0;
}

/* An array of nr elements of elsize bytes, checked before multiplying. */
static const void *cur_array(struct cursor *c, uint64_t nr, size_t elsize, const char *field)
{
	if (c->failed)
		return NULL;
	if (nr > cur_left(c) / elsize) {
		cur_fail(c, "truncated at %s: %llu entries of %zu bytes at offset %zu, %zu bytes left",
			 field, (unsigned long long)nr, elsize, c->off, cur_left(c));
		return NULL;
	}
	return cur_take(c, (size_t)nr * elsize, field);
}

/*
 * A NUL-terminated string taking the rest of the region (with its padding).
 * The NUL must be inside the region.
 */
static const char *cur_string(struct cursor *c, const char *field)
{
	const char *s;
	size_t n;

	if (c->failed)
		return NULL;
	n = cur_left(c);
	s = (const char *)c->base + c->off;
	if (n == 0 || !memchr(s, 0, n)) {
		cur_fail(c, "%s at offset %zu is not NUL-terminated within its %zu bytes",
			 field, c->off, n);
		return NULL;
	}
	c->off = c->end;
	return s;
}

/* The region must have been used exactly. */
static void cur_done(struct cursor *c, const char *what)
{
	if (!c->failed && c->off != c->end)
		cur_fail(c, "%zu trailing bytes after %s (at offset %zu of %zu)",
			 c->end - c->off, what, c->off, c->end);
}

/* ------------------------------------------------------------------ */
/* Headers, sample_id, read_format                                      */

static __thread char header_reason[96];

const char *pc_header_check(const struct perf_event_header *h, size_t avail)
{
	if (avail < sizeof(*h)) {
		snprintf(header_reason, sizeof(header_reason),
			 "only %zu bytes, less than a record header", avail);
		return header_reason;
	}
	if (h->size < sizeof(*h))
		snprintf(header_reason, sizeof(header_reason),
			 "header size %u is smaller than the 8-byte header (type %u)",
			 h->size, h->type);
	else if (h->size % 8)
		snprintf(header_reason, sizeof(header_reason),
			 "header size %u is not a multiple of 8 (type %u)", h->size, h->type);
	else if (h->size > avail)
		snprintf(header_reason, sizeof(header_reason),
			 "header size %u is larger than the %zu bytes available (type %u)",
			 h->size, avail, h->type);
	else
		return NULL;
	return header_reason;
}

size_t pc_sample_id_size(const struct pc_sample_format *fmt)
{
	uint64_t t = fmt->sample_type;
	size_t n = 0;

	if (!fmt->sample_id_all)
		return 0;
	if (t & PERF_SAMPLE_TID)
		n += 8;
	if (t & PERF_SAMPLE_TIME)
		n += 8;
	if (t & PERF_SAMPLE_ID)
		n += 8;
	if (t & PERF_SAMPLE_STREAM_ID)
		n += 8;
	if (t & PERF_SAMPLE_CPU)
		n += 8;
	if (t & PERF_SAMPLE_IDENTIFIER)
		n += 8;
	return n;
}

/* The trailer, in perf_event__output_id_sample order. */
static void parse_sample_id(struct cursor *c, uint64_t t, struct pc_sample_id *id)
{
	id->present = true;
	if (t & PERF_SAMPLE_TID) {
		id->pid = cur_u32(c, "sample_id.pid");
		id->tid = cur_u32(c, "sample_id.tid");
	}
	if (t & PERF_SAMPLE_TIME)
		id->time = cur_u64(c, "sample_id.time");
	if (t & PERF_SAMPLE_ID)
		id->id = cur_u64(c, "sample_id.id");
	if (t & PERF_SAMPLE_STREAM_ID)
		id->stream_id = cur_u64(c, "sample_id.stream_id");
	if (t & PERF_SAMPLE_CPU) {
		id->cpu = cur_u32(c, "sample_id.cpu");
		id->res = cur_u32(c, "sample_id.res");
	}
	if (t & PERF_SAMPLE_IDENTIFIER) {
		uint64_t v = cur_u64(c, "sample_id.identifier");

		/* Both bits set: the kernel writes the same id twice. */
		if (!(t & PERF_SAMPLE_ID))
			id->id = v;
	}
}

size_t pc_read_values_size(uint64_t read_format, unsigned int nr)
{
	size_t head = 0, per = 8;

	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		head += 8;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		head += 8;
	if (read_format & PERF_FORMAT_ID)
		per += 8;
	if (read_format & PERF_FORMAT_LOST)
		per += 8;
	if (read_format & PERF_FORMAT_GROUP)
		return 8 + head + (size_t)nr * per;
	return head + per;
}

unsigned int pc_read_values_max_nr(uint64_t read_format)
{
	size_t head = pc_read_values_size(read_format, 0);
	size_t per = pc_read_values_size(read_format, 1) - head;

	if (!(read_format & PERF_FORMAT_GROUP))
		return UINT_MAX;
	return (unsigned int)((PC_READ_SIZE_MAX - head) / per);
}

/* struct read_format at the cursor; the cursor's error names the field. */
static void parse_read(struct cursor *c, uint64_t rf, struct pc_read_values *out)
{
	uint64_t i;

	memset(out, 0, sizeof(*out));
	if (rf & PERF_FORMAT_GROUP) {
		out->nr = cur_u64(c, "read.nr");
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out->time_enabled = cur_u64(c, "read.time_enabled");
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out->time_running = cur_u64(c, "read.time_running");
		if (c->failed)
			return;
		if (out->nr > PC_READ_MAX_VALUES) {
			cur_fail(c, "read.nr %llu is more than the %d values the parser keeps",
				 (unsigned long long)out->nr, PC_READ_MAX_VALUES);
			return;
		}
		/* Check the whole array first, so a huge nr fails fast. */
		size_t per = 8 + (rf & PERF_FORMAT_ID ? 8 : 0) + (rf & PERF_FORMAT_LOST ? 8 : 0);
		if (out->nr * per > cur_left(c)) {
			cur_fail(c, "truncated at read.values: %llu values of %zu bytes at offset %zu, %zu bytes left",
				 (unsigned long long)out->nr, per, c->off, cur_left(c));
			return;
		}
		for (i = 0; i < out->nr; i++) {
			out->values[i].value = cur_u64(c, "read.value");
			if (rf & PERF_FORMAT_ID)
				out->values[i].id = cur_u64(c, "read.id");
			if (rf & PERF_FORMAT_LOST)
				out->values[i].lost = cur_u64(c, "read.lost");
		}
		return;
	}
	out->nr = 1;
	out->values[0].value = cur_u64(c, "read.value");
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out->time_enabled = cur_u64(c, "read.time_enabled");
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out->time_running = cur_u64(c, "read.time_running");
	if (rf & PERF_FORMAT_ID)
		out->values[0].id = cur_u64(c, "read.id");
	if (rf & PERF_FORMAT_LOST)
		out->values[0].lost = cur_u64(c, "read.lost");
}

static __thread char read_reason[160];

int pc_read_values_decode(uint64_t read_format, const void *buf, size_t len,
			  struct pc_read_values *out, const char **err)
{
	struct cursor c = { .base = buf, .end = len, .err = read_reason,
			    .errlen = sizeof(read_reason) };

	parse_read(&c, read_format, out);
	if (c.failed) {
		if (err)
			*err = read_reason;
		return -EBADMSG;
	}
	if (err)
		*err = NULL;
	return (int)c.off;
}

int pc_read_values_read(int fd, uint64_t read_format, struct pc_read_values *out)
{
	uint64_t buf[3 + 3 * PC_READ_MAX_VALUES];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return -errno;
	if (pc_read_values_decode(read_format, buf, (size_t)n, out, NULL) != n)
		return -EBADMSG;
	return 0;
}

/* ------------------------------------------------------------------ */
/* PERF_RECORD_SAMPLE                                                   */

#define KNOWN_SAMPLE_BITS ((1ULL << (PC_SAMPLE_TYPE_MAX_BIT + 1)) - 1)

static const uint64_t *parse_regs(struct cursor *c, uint64_t mask, uint64_t *abi,
				  unsigned int *nr, const char *abi_field, const char *regs_field)
{
	*abi = cur_u64(c, abi_field);
	*nr = 0;
	if (c->failed || *abi == PERF_SAMPLE_REGS_ABI_NONE)
		return NULL;
	*nr = (unsigned int)__builtin_popcountll(mask);
	return cur_array(c, *nr, 8, regs_field);
}

static void parse_sample(const struct pc_sample_format *fmt, struct cursor *c,
			 struct pc_sample *s)
{
	uint64_t t = fmt->sample_type;

	if (t & ~KNOWN_SAMPLE_BITS) {
		cur_fail(c, "sample_type has bits 0x%llx this parser does not know",
			 (unsigned long long)(t & ~KNOWN_SAMPLE_BITS));
		return;
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		s->identifier = cur_u64(c, "identifier");
	if (t & PERF_SAMPLE_IP)
		s->ip = cur_u64(c, "ip");
	if (t & PERF_SAMPLE_TID) {
		s->pid = cur_u32(c, "pid");
		s->tid = cur_u32(c, "tid");
	}
	if (t & PERF_SAMPLE_TIME)
		s->time = cur_u64(c, "time");
	if (t & PERF_SAMPLE_ADDR)
		s->addr = cur_u64(c, "addr");
	if (t & PERF_SAMPLE_ID)
		s->id = cur_u64(c, "id");
	if (t & PERF_SAMPLE_STREAM_ID)
		s->stream_id = cur_u64(c, "stream_id");
	if (t & PERF_SAMPLE_CPU) {
		s->cpu = cur_u32(c, "cpu");
		s->res = cur_u32(c, "res");
	}
	if (t & PERF_SAMPLE_PERIOD)
		s->period = cur_u64(c, "period");
	if (t & PERF_SAMPLE_READ)
		parse_read(c, fmt->read_format, &s->read);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		s->callchain_nr = cur_u64(c, "callchain.nr");
		s->callchain = cur_array(c, s->callchain_nr, 8, "callchain.ips");
	}
	if (t & PERF_SAMPLE_RAW) {
		size_t start = c->off;

		s->raw_size = cur_u32(c, "raw.size");
		s->raw = cur_take(c, s->raw_size, "raw.data");
		/* Up to the next u64 boundary of the sample. */
		size_t used = c->off - start;
		if (!c->failed && used % 8)
			cur_take(c, 8 - used % 8, "raw.padding");
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		s->branch_nr = cur_u64(c, "branch_stack.nr");
		if (fmt->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			s->branch_hw_idx = cur_u64(c, "branch_stack.hw_idx");
		s->branches = cur_array(c, s->branch_nr, sizeof(struct pc_branch_entry),
					"branch_stack.entries");
		if (fmt->branch_sample_type & PC_SAMPLE_BRANCH_COUNTERS)
			s->branch_counters = cur_array(c, s->branch_nr, 8, "branch_stack.counters");
	}
	if (t & PERF_SAMPLE_REGS_USER)
		s->regs_user = parse_regs(c, fmt->sample_regs_user, &s->regs_user_abi,
					  &s->regs_user_nr, "regs_user.abi", "regs_user.regs");
	if (t & PERF_SAMPLE_STACK_USER) {
		s->stack_user_size = cur_u64(c, "stack_user.size");
		if (!c->failed && s->stack_user_size % 8)
			cur_fail(c, "stack_user.size %llu is not a multiple of 8",
				 (unsigned long long)s->stack_user_size);
		if (s->stack_user_size) {
			s->stack_user = cur_array(c, s->stack_user_size, 1, "stack_user.data");
			s->stack_user_dyn_size = cur_u64(c, "stack_user.dyn_size");
		}
	}
	if (t & PERF_SAMPLE_WEIGHT_TYPE) {
		s->weight = cur_u64(c, "weight");
		if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
			/* The union is laid out so that these hold on either endianness. */
			s->weight_var1_dw = (uint32_t)s->weight;
			s->weight_var2_w = (uint16_t)(s->weight >> 32);
			s->weight_var3_w = (uint16_t)(s->weight >> 48);
		}
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		s->data_src = cur_u64(c, "data_src");
	if (t & PERF_SAMPLE_TRANSACTION)
		s->transaction = cur_u64(c, "transaction");
	if (t & PERF_SAMPLE_REGS_INTR)
		s->regs_intr = parse_regs(c, fmt->sample_regs_intr, &s->regs_intr_abi,
					  &s->regs_intr_nr, "regs_intr.abi", "regs_intr.regs");
	if (t & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = cur_u64(c, "phys_addr");
	if (t & PERF_SAMPLE_CGROUP)
		s->cgroup = cur_u64(c, "cgroup");
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = cur_u64(c, "data_page_size");
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = cur_u64(c, "code_page_size");
	if (t & PERF_SAMPLE_AUX) {
		s->aux_size = cur_u64(c, "aux.size");
		s->aux = cur_array(c, s->aux_size, 1, "aux.data");
	}
	cur_done(c, "the sample body");
}

/* ------------------------------------------------------------------ */
/* The other record types                                               */

static void parse_body(const struct pc_sample_format *fmt, struct cursor *c,
		       struct pc_record *r)
{
	switch (r->type) {
	case PERF_RECORD_MMAP:
		r->mmap.pid = cur_u32(c, "mmap.pid");
		r->mmap.tid = cur_u32(c, "mmap.tid");
		r->mmap.addr = cur_u64(c, "mmap.addr");
		r->mmap.len = cur_u64(c, "mmap.len");
		r->mmap.pgoff = cur_u64(c, "mmap.pgoff");
		r->mmap.filename = cur_string(c, "mmap.filename");
		break;
	case PERF_RECORD_LOST:
		r->lost.id = cur_u64(c, "lost.id");
		r->lost.lost = cur_u64(c, "lost.lost");
		break;
	case PERF_RECORD_COMM:
		r->comm.pid = cur_u32(c, "comm.pid");
		r->comm.tid = cur_u32(c, "comm.tid");
		r->comm.comm = cur_string(c, "comm.comm");
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		r->task.pid = cur_u32(c, "task.pid");
		r->task.ppid = cur_u32(c, "task.ppid");
		r->task.tid = cur_u32(c, "task.tid");
		r->task.ptid = cur_u32(c, "task.ptid");
		r->task.time = cur_u64(c, "task.time");
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		r->throttle.time = cur_u64(c, "throttle.time");
		r->throttle.id = cur_u64(c, "throttle.id");
		r->throttle.stream_id = cur_u64(c, "throttle.stream_id");
		break;
	case PERF_RECORD_READ:
		r->read.pid = cur_u32(c, "read.pid");
		r->read.tid = cur_u32(c, "read.tid");
		parse_read(c, fmt->read_format, &r->read.values);
		break;
	case PERF_RECORD_MMAP2:
		r->mmap2.pid = cur_u32(c, "mmap2.pid");
		r->mmap2.tid = cur_u32(c, "mmap2.tid");
		r->mmap2.addr = cur_u64(c, "mmap2.addr");
		r->mmap2.len = cur_u64(c, "mmap2.len");
		r->mmap2.pgoff = cur_u64(c, "mmap2.pgoff");
		if (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			const void *id;

			r->mmap2.build_id_size = cur_u8(c, "mmap2.build_id_size");
			cur_take(c, 3, "mmap2.reserved");
			id = cur_take(c, 20, "mmap2.build_id");
			if (id)
				memcpy(r->mmap2.build_id, id, 20);
			if (!c->failed && r->mmap2.build_id_size > 20)
				cur_fail(c, "mmap2.build_id_size %u is more than 20",
					 r->mmap2.build_id_size);
		} else {
			r->mmap2.maj = cur_u32(c, "mmap2.maj");
			r->mmap2.min = cur_u32(c, "mmap2.min");
			r->mmap2.ino = cur_u64(c, "mmap2.ino");
			r->mmap2.ino_generation = cur_u64(c, "mmap2.ino_generation");
		}
		r->mmap2.prot = cur_u32(c, "mmap2.prot");
		r->mmap2.flags = cur_u32(c, "mmap2.flags");
		r->mmap2.filename = cur_string(c, "mmap2.filename");
		break;
	case PERF_RECORD_AUX:
		r->aux.aux_offset = cur_u64(c, "aux.aux_offset");
		r->aux.aux_size = cur_u64(c, "aux.aux_size");
		r->aux.flags = cur_u64(c, "aux.flags");
		break;
	case PERF_RECORD_ITRACE_START:
		r->itrace_start.pid = cur_u32(c, "itrace_start.pid");
		r->itrace_start.tid = cur_u32(c, "itrace_start.tid");
		break;
	case PERF_RECORD_LOST_SAMPLES:
		r->lost_samples.lost = cur_u64(c, "lost_samples.lost");
		break;
	case PERF_RECORD_SWITCH:
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		r->switch_cpu_wide.next_prev_pid = cur_u32(c, "switch.next_prev_pid");
		r->switch_cpu_wide.next_prev_tid = cur_u32(c, "switch.next_prev_tid");
		break;
	case PERF_RECORD_NAMESPACES:
		r->namespaces.pid = cur_u32(c, "namespaces.pid");
		r->namespaces.tid = cur_u32(c, "namespaces.tid");
		r->namespaces.nr_namespaces = cur_u64(c, "namespaces.nr_namespaces");
		r->namespaces.link_info = cur_array(c, r->namespaces.nr_namespaces, 16,
						    "namespaces.link_info");
		break;
	case PERF_RECORD_KSYMBOL:
		r->ksymbol.addr = cur_u64(c, "ksymbol.addr");
		r->ksymbol.len = cur_u32(c, "ksymbol.len");
		r->ksymbol.ksym_type = cur_u16(c, "ksymbol.ksym_type");
		r->ksymbol.flags = cur_u16(c, "ksymbol.flags");
		r->ksymbol.name = cur_string(c, "ksymbol.name");
		break;
	case PERF_RECORD_BPF_EVENT: {
		const void *tag;

		r->bpf_event.type = cur_u16(c, "bpf_event.type");
		r->bpf_event.flags = cur_u16(c, "bpf_event.flags");
		r->bpf_event.id = cur_u32(c, "bpf_event.id");
		tag = cur_take(c, 8, "bpf_event.tag");
		if (tag)
			memcpy(r->bpf_event.tag, tag, 8);
		break;
	}
	case PERF_RECORD_CGROUP:
		r->cgroup.id = cur_u64(c, "cgroup.id");
		r->cgroup.path = cur_string(c, "cgroup.path");
		break;
	case PERF_RECORD_TEXT_POKE: {
		size_t tot;

		r->text_poke.addr = cur_u64(c, "text_poke.addr");
		r->text_poke.old_len = cur_u16(c, "text_poke.old_len");
		r->text_poke.new_len = cur_u16(c, "text_poke.new_len");
		tot = (size_t)r->text_poke.old_len + r->text_poke.new_len;
		r->text_poke.bytes = cur_take(c, tot, "text_poke.bytes");
		/* Zero padding up to the u64 boundary of old_len+new_len+bytes. */
		if (!c->failed && (tot + 4) % 8)
			cur_take(c, 8 - (tot + 4) % 8, "text_poke.padding");
		break;
	}
	case PC_RECORD_AUX_OUTPUT_HW_ID:
		r->aux_output_hw_id.hw_id = cur_u64(c, "aux_output_hw_id.hw_id");
		break;
	case PC_RECORD_CALLCHAIN_DEFERRED:
		r->callchain_deferred.cookie = cur_u64(c, "callchain_deferred.cookie");
		r->callchain_deferred.nr = cur_u64(c, "callchain_deferred.nr");
		r->callchain_deferred.ips = cur_array(c, r->callchain_deferred.nr, 8,
						      "callchain_deferred.ips");
		break;
	}
	cur_done(c, "the record body");
}

static const char *type_name(uint32_t type)
{
	static const char *const names[] = {
		[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST",
		[PERF_RECORD_COMM] = "COMM", [PERF_RECORD_EXIT] = "EXIT",
		[PERF_RECORD_THROTTLE] = "THROTTLE", [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
		[PERF_RECORD_FORK] = "FORK", [PERF_RECORD_READ] = "READ",
		[PERF_RECORD_SAMPLE] = "SAMPLE", [PERF_RECORD_MMAP2] = "MMAP2",
		[PERF_RECORD_AUX] = "AUX", [PERF_RECORD_ITRACE_START] = "ITRACE_START",
		[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
		[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
		[PERF_RECORD_NAMESPACES] = "NAMESPACES", [PERF_RECORD_KSYMBOL] = "KSYMBOL",
		[PERF_RECORD_BPF_EVENT] = "BPF_EVENT", [PERF_RECORD_CGROUP] = "CGROUP",
		[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
		[PC_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
		[PC_RECORD_CALLCHAIN_DEFERRED] = "CALLCHAIN_DEFERRED",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "unknown";
}

int pc_record_parse(const struct pc_sample_format *fmt, const void *buf, size_t len,
		    struct pc_record *rec)
{
	static const struct pc_sample_format none;	/* fmt NULL: nothing asked for */
	struct perf_event_header h;
	const char *why;
	struct cursor c = { .base = buf, .off = sizeof(h) };
	int n;

	if (!fmt)
		fmt = &none;
	memset(rec, 0, sizeof(*rec));
	if (len < sizeof(h)) {
		snprintf(rec->error, sizeof(rec->error),
			 "only %zu bytes, less than a record header", len);
		return -EBADMSG;
	}
	memcpy(&h, buf, sizeof(h));
	rec->type = h.type;
	rec->misc = h.misc;
	rec->size = h.size;
	why = pc_header_check(&h, len);
	if (why) {
		snprintf(rec->error, sizeof(rec->error), "%s", why);
		return -EBADMSG;
	}
	c.end = h.size;
	/* A failure below reads "TYPE: what went wrong". */
	n = snprintf(rec->error, sizeof(rec->error), "%s: ", type_name(h.type));
	c.err = rec->error + n;
	c.errlen = sizeof(rec->error) - n;

	if (h.type == PERF_RECORD_SAMPLE) {
		parse_sample(fmt, &c, &rec->sample);
	} else if (h.type == 0 || h.type > PC_RECORD_TYPE_MAX) {
		rec->unknown = true;
		rec->error[0] = 0;
		return 0;
	} else {
		size_t idsz = pc_sample_id_size(fmt);

		if (fmt->sample_id_all) {	/* even with no bits: present, empty */
			struct cursor tc = c;

			if (h.size - sizeof(h) < idsz) {
				snprintf(rec->error, sizeof(rec->error),
					 "%s record of %u bytes has no room for its %zu-byte sample_id",
					 type_name(h.type), h.size, idsz);
				return -EBADMSG;
			}
			tc.off = h.size - idsz;
			parse_sample_id(&tc, fmt->sample_type, &rec->sample_id);
			c.end = h.size - idsz;
		}
		parse_body(fmt, &c, rec);
	}
	if (c.failed)
		return -EBADMSG;
	rec->error[0] = 0;
	return 0;
}

int pc_records_walk(const struct pc_sample_format *fmt, const void *buf, size_t len,
		    pc_parsed_fn fn, void *arg, char *err, size_t errlen)
{
	const unsigned char *p = buf;
	size_t off = 0;
	int n = 0;
	struct pc_record *rec = malloc(sizeof(*rec));

	if (!rec) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while (off < len) {
		if (pc_record_parse(fmt, p + off, len - off, rec)) {
			if (err && errlen)
				snprintf(err, errlen, "record %d at offset %zu: %s",
					 n, off, rec->error);
			free(rec);
			return -EBADMSG;
		}
		n++;
		off += rec->size;
		if (fn && fn(rec, arg))
			break;
	}
	free(rec);
	if (err && errlen)
		err[0] = 0;
	return n;
}
