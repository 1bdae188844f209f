// SPDX-License-Identifier: GPL-2.0
/* Reading an event's records into memory, decoded. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/abi.h"
#include "ring/capture.h"
#include "work/affinity.h"
#include "event/event.h"

static int open_pages(struct pc_capture *c, struct perfconf_attr *attr, pid_t pid, int cpu,
		      int group_fd, unsigned int pages_log2)
{
	memset(c, 0, sizeof(*c));
	c->fmt = pc_sample_format(attr);
	c->fd = pc_open(attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (c->fd < 0) {
		int err = c->fd;

		c->fd = -1;
		return err;
	}
	enum pc_ring_mode mode = attr->write_backward
		? (enum pc_ring_mode)(PC_RING_OVERWRITE | PC_RING_BACKWARD)
		: PC_RING_READWRITE;
	int err = pc_ring_map(&c->ring, c->fd, pages_log2, mode);
	if (err) {
		close(c->fd);
		c->fd = -1;
		return err;
	}
	return 0;
}

int pc_capture_open_pages(struct pc_capture *c, struct perfconf_attr *attr, pid_t pid, int cpu,
			  unsigned int pages_log2)
{
	return open_pages(c, attr, pid, cpu, -1, pages_log2);
}

int pc_capture_open_member(struct pc_capture *c, struct perfconf_attr *attr, int group_fd)
{
	return open_pages(c, attr, 0, -1, group_fd, PC_CAPTURE_PAGES_LOG2);
}

int pc_capture_open(struct pc_capture *c, struct perfconf_attr *attr, pid_t pid, int cpu)
{
	return pc_capture_open_pages(c, attr, pid, cpu, PC_CAPTURE_PAGES_LOG2);
}

static struct pc_captured *append(struct pc_capture *c, const void *bytes, size_t len)
{
	if (c->nr == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct pc_captured *bigger = realloc(c->recs, cap * sizeof(*bigger));
		if (!bigger)
			return NULL;
		c->recs = bigger;
		c->cap = cap;
	}
	struct pc_captured *r = &c->recs[c->nr];
	r->bytes = malloc(len);
	if (!r->bytes)
		return NULL;
	memcpy(r->bytes, bytes, len);
	r->len = len;
	c->nr++;
	return r;
}

/* Keep a copy of one record and decode it. 0, or -errno with c->error set. */
static int keep(struct pc_capture *c, const void *bytes, size_t len)
{
	struct pc_captured *r = append(c, bytes, len);
	int err;

	if (!r) {
		snprintf(c->error, sizeof(c->error), "out of memory after %zu records", c->nr);
		return -ENOMEM;
	}
	err = pc_record_parse(&c->fmt, r->bytes, r->len, &r->rec);
	if (err)
		snprintf(c->error, sizeof(c->error), "record %zu: %s", c->nr - 1, r->rec.error);
	return err;
}

/* For pc_ring_for_each(): keep the record, or stop the walk with keep()'s -errno in err. */
struct keeping {
	struct pc_capture *c;
	int err;
};

static int keep_fn(const void *rec, size_t len, void *arg)
{
	struct keeping *k = arg;

	k->err = keep(k->c, rec, len);
	return k->err;
}

static void forget_all(struct pc_capture *c)
{
	for (size_t i = 0; i < c->nr; i++)
		free(c->recs[i].bytes);
	c->nr = 0;
}

int pc_capture_read(struct pc_capture *c)
{
	const char *reason = NULL;
	const void *bytes;
	size_t len;
	int added = 0;

	if (c->ring.backward) {
		/* A write_backward ring is a snapshot of the newest records. */
		struct keeping k = { c, 0 };

		forget_all(c);
		c->error[0] = '\0';
		added = pc_ring_for_each(&c->ring, keep_fn, &k, &reason);
		if (added < 0 && reason)
			snprintf(c->error, sizeof(c->error), "ring: %s", reason);
		return added < 0 ? added : k.err ? k.err : added;
	}
	while ((bytes = pc_ring_next(&c->ring, &len, &reason))) {
		int err = keep(c, bytes, len);

		pc_ring_consume(&c->ring);
		if (err)
			return err;
		added++;
	}
	if (reason) {
		snprintf(c->error, sizeof(c->error), "ring: %s", reason);
		return -EBADMSG;
	}
	return added;
}

const struct pc_record *pc_capture_find(const struct pc_capture *c, uint32_t type, size_t nth)
{
	for (size_t i = 0; i < c->nr; i++)
		if (c->recs[i].rec.type == type && nth-- == 0)
			return &c->recs[i].rec;
	return NULL;
}

size_t pc_capture_count(const struct pc_capture *c, uint32_t type)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nr; i++)
		n += c->recs[i].rec.type == type;
	return n;
}

size_t pc_capture_samples_of(const struct pc_capture *c, uint64_t id, uint32_t pid)
{
	const struct pc_sample *s;
	size_t n = 0;

	for (size_t i = 0; (s = pc_capture_sample(c, i)); i++)
		n += s->identifier == id && (!pid || s->pid == pid);
	return n;
}

uint64_t pc_capture_lost_total(const struct pc_capture *c)
{
	const struct pc_record *r;
	uint64_t lost = 0;

	for (size_t i = 0; (r = pc_capture_find(c, PERF_RECORD_LOST, i)); i++)
		lost += r->lost.lost;
	return lost;
}

void pc_capture_types(const struct pc_capture *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nr; i++) {
		uint32_t type = c->recs[i].rec.type;
		if (pc_capture_find(c, type, 0) != &c->recs[i].rec)
			continue;	/* not its first arrival */
		int n = snprintf(buf + used, len - used, "%s%s", used ? "," : "", pc_abi_record_name(type));
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
}

void pc_capture_close(struct pc_capture *c)
{
	forget_all(c);
	free(c->recs);
	pc_ring_unmap(&c->ring);
	if (c->fd >= 0)
		close(c->fd);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

int pc_capture_open_inherited(struct pc_capture *c, struct perfconf_attr *attr)
{
	int cpu = pc_pin_self();

	attr->inherit = 1;
	return cpu < 0 ? cpu : pc_capture_open(c, attr, 0, cpu);
}

const struct pc_sample *pc_capture_sample(const struct pc_capture *c, size_t nth)
{
	const struct pc_record *r = pc_capture_find(c, PERF_RECORD_SAMPLE, nth);

	return r ? &r->sample : NULL;
}

long pc_capture_index(const struct pc_capture *c, const struct pc_record *rec)
{
	for (size_t i = 0; i < c->nr; i++)
		if (&c->recs[i].rec == rec)
			return (long)i;
	return -ENOENT;
}

const unsigned char *pc_capture_bytes(const struct pc_capture *c, const struct pc_record *rec)
{
	long i = pc_capture_index(c, rec);

	return i < 0 ? NULL : c->recs[i].bytes;
}

/* Open, (warm up,) enable, work, disable, read. */
static int capture_run(struct pc_capture *c, struct perfconf_attr *attr, unsigned int pages_log2,
		       bool warm, pc_work_fn work, void *arg)
{
	int err = pc_capture_open_pages(c, attr, 0, -1, pages_log2);

	if (err)
		return err;
	if (warm)
		work(arg);
	err = pc_enable(c->fd);
	if (err) {
		snprintf(c->error, sizeof(c->error), "enable: %s", strerror(-err));
		return err;
	}
	work(arg);
	err = pc_disable(c->fd);
	if (err) {
		snprintf(c->error, sizeof(c->error), "disable: %s", strerror(-err));
		return err;
	}
	err = pc_capture_read(c);
	return err < 0 ? err : 0;
}

int pc_capture_run_pages(struct pc_capture *c, struct perfconf_attr *attr, unsigned int pages_log2,
			 pc_work_fn work, void *arg)
{
	return capture_run(c, attr, pages_log2, false, work, arg);
}

int pc_capture_run(struct pc_capture *c, struct perfconf_attr *attr, pc_work_fn work, void *arg)
{
	return capture_run(c, attr, PC_CAPTURE_PAGES_LOG2, false, work, arg);
}

int pc_capture_run_warm(struct pc_capture *c, struct perfconf_attr *attr, pc_work_fn work, void *arg)
{
	return capture_run(c, attr, PC_CAPTURE_PAGES_LOG2, true, work, arg);
}
