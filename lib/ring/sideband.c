// SPDX-License-Identifier: GPL-2.0
/* Finding a test's own side-band records in a capture. */
#include <errno.h>
#include <string.h>

#include "ring/sideband.h"

typedef int (*match_fn)(const struct pc_record *r, const void *arg);

/* The nth record of `type` that `match` accepts. */
static const struct pc_record *find(const struct pc_capture *c, uint32_t type, match_fn match,
				    const void *arg, size_t nth)
{
	for (size_t i = 0; i < c->nr; i++) {
		const struct pc_record *r = &c->recs[i].rec;

		if (r->type == type && match(r, arg) && nth-- == 0)
			return r;
	}
	return NULL;
}

static size_t count(const struct pc_capture *c, uint32_t type, match_fn match, const void *arg)
{
	size_t n = 0;

	while (find(c, type, match, arg, n))
		n++;
	return n;
}

static int mmap_named(const struct pc_record *r, const void *name)
{
	const char *file = r->type == PERF_RECORD_MMAP ? r->mmap.filename : r->mmap2.filename;

	return file && !strcmp(file, name);
}

/* MMAP and MMAP2 in arrival order. */
const struct pc_record *pc_find_mmap(const struct pc_capture *c, const char *filename, size_t nth)
{
	for (size_t i = 0; i < c->nr; i++) {
		const struct pc_record *r = &c->recs[i].rec;

		if ((r->type == PERF_RECORD_MMAP || r->type == PERF_RECORD_MMAP2) &&
		    mmap_named(r, filename) && nth-- == 0)
			return r;
	}
	return NULL;
}

size_t pc_mmap_count(const struct pc_capture *c, const char *filename)
{
	size_t n = 0;

	while (pc_find_mmap(c, filename, n))
		n++;
	return n;
}

const struct pc_record *pc_find_mmap_at(const struct pc_capture *c, const void *addr, size_t nth)
{
	uint64_t a = (uint64_t)(uintptr_t)addr;

	for (size_t i = 0; i < c->nr; i++) {
		const struct pc_record *r = &c->recs[i].rec;

		if (((r->type == PERF_RECORD_MMAP && r->mmap.addr == a) ||
		     (r->type == PERF_RECORD_MMAP2 && r->mmap2.addr == a)) && nth-- == 0)
			return r;
	}
	return NULL;
}

static int about_tid(const struct pc_record *r, const void *arg)
{
	uint32_t tid = (uint32_t)*(const pid_t *)arg;

	switch (r->type) {
	case PERF_RECORD_COMM:
		return r->comm.tid == tid;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return r->task.tid == tid;
	case PERF_RECORD_NAMESPACES:
		return r->namespaces.tid == tid;
	case PERF_RECORD_MMAP:
		return r->mmap.tid == tid;
	case PERF_RECORD_MMAP2:
		return r->mmap2.tid == tid;
	}
	return 0;
}

const struct pc_record *pc_find_tid(const struct pc_capture *c, uint32_t type, pid_t tid,
				    size_t nth)
{
	return find(c, type, about_tid, &tid, nth);
}

size_t pc_tid_count(const struct pc_capture *c, uint32_t type, pid_t tid)
{
	return count(c, type, about_tid, &tid);
}

struct ksym_key {
	const char *name;
	uint16_t flags;
};

static int ksym_is(const struct pc_record *r, const void *arg)
{
	const struct ksym_key *k = arg;

	return r->ksymbol.flags == k->flags && r->ksymbol.name && !strcmp(r->ksymbol.name, k->name);
}

const struct pc_record *pc_find_ksymbol(const struct pc_capture *c, const char *name,
					uint16_t flags)
{
	struct ksym_key k = { name, flags };

	return find(c, PERF_RECORD_KSYMBOL, ksym_is, &k, 0);
}

struct bpf_key {
	uint16_t type;
	uint32_t id;
};

static int bpf_is(const struct pc_record *r, const void *arg)
{
	const struct bpf_key *k = arg;

	return r->bpf_event.type == k->type && r->bpf_event.id == k->id;
}

const struct pc_record *pc_find_bpf_event(const struct pc_capture *c, uint16_t type, uint32_t id)
{
	struct bpf_key k = { type, id };

	return find(c, PERF_RECORD_BPF_EVENT, bpf_is, &k, 0);
}

static int cgroup_is(const struct pc_record *r, const void *path)
{
	return r->cgroup.path && !strcmp(r->cgroup.path, path);
}

const struct pc_record *pc_find_cgroup(const struct pc_capture *c, const char *path)
{
	return find(c, PERF_RECORD_CGROUP, cgroup_is, path, 0);
}

