// SPDX-License-Identifier: GPL-2.0
/* Deferred user callchains: the marker in samples, the record that answers it. */
#include <stdio.h>
#include <unistd.h>

#include "ring/callchain_deferred.h"
#include "event/event.h"
#include "abi/uapi.h"
#include "work/workload.h"

bool pc_deferred_cookie(const struct pc_sample *s, uint64_t *cookie)
{
	uint64_t nr = s->callchain_nr;

	if (!s->callchain || nr < 2 || s->callchain[nr - 2] != PC_CONTEXT_USER_DEFERRED)
		return false;
	if (cookie)
		*cookie = s->callchain[nr - 1];
	return true;
}

size_t pc_deferred_samples(const struct pc_capture *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nr; i++)
		if (c->recs[i].rec.type == PERF_RECORD_SAMPLE && pc_deferred_cookie(&c->recs[i].rec.sample, NULL))
			n++;
	return n;
}

const struct pc_record *pc_deferred_record(const struct pc_capture *c, uint64_t cookie, size_t *index)
{
	for (size_t i = 0; i < c->nr; i++) {
		const struct pc_record *r = &c->recs[i].rec;

		if (r->type == PC_RECORD_CALLCHAIN_DEFERRED && r->callchain_deferred.cookie == cookie) {
			if (index)
				*index = i;
			return r;
		}
	}
	return NULL;
}

static int fail(struct pc_capture *c, const char *what, int err)
{
	snprintf(c->error, sizeof(c->error), "%s failed", what);
	return err;
}

int pc_deferred_faults(unsigned long n, struct pc_capture *a, struct pc_capture *b)
{
	int err;

	pc_work_page_faults(1);		/* the workload's own first faults */
	err = pc_enable(a->fd);
	if (!err && b)
		err = pc_enable(b->fd);
	if (err)
		return fail(a, "PERF_EVENT_IOC_ENABLE", err);
	int work = pc_work_page_faults(n);
	err = pc_disable(a->fd);
	if (!err && b)
		err = pc_disable(b->fd);
	if (err)
		return fail(a, "PERF_EVENT_IOC_DISABLE", err);
	if (work)
		return fail(a, "the page-fault workload", work);
	err = pc_capture_read(a);
	if (err >= 0 && b)
		err = pc_capture_read(b);
	return err < 0 ? err : 0;
}

int pc_defer_errno(void)
{
	struct perfconf_attr attr = pc_attr_defer_sampler();

	attr.defer_output = 1;
	return pc_open_errno(&attr, 0, -1, -1, 0);
}
