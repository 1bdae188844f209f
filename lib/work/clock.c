// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "event/event.h"
#include "work/clock.h"
#include "work/workload.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int witness_read(struct pc_perf_clock *c)
{
	struct timespec ts;
	uint64_t value;

	if (c->clockid < 0)
		return pc_read_count_enabled(c->fd, &value, &c->last);
	if (clock_gettime(c->clockid, &ts))
		return -errno;
	c->last = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	return 0;
}

int pc_perf_clock_open_for(struct pc_perf_clock *c, const struct perfconf_attr *attr)
{
	if (!attr->use_clockid)
		return pc_perf_clock_open(c);
	c->fd = -1;
	c->clockid = attr->clockid;
	return witness_read(c);
}

int pc_perf_clock_open(struct pc_perf_clock *c)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	c->clockid = -1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	attr.disabled = 0;
	c->fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (c->fd < 0)
		return c->fd;
	/*
	 * Everything a wait touches, touched now: its first read of the vDSO's
	 * data page would be a page fault that the window's events count.
	 */
	mono_ns();
	return witness_read(c);
}

/* Spin until the witness reads past base; spin_loops of work between reads. */
static int advance(struct pc_perf_clock *c, uint64_t base, unsigned long spin_loops)
{
	uint64_t deadline = mono_ns() + PC_PERF_CLOCK_LIMIT_NS;
	int err;

	for (;;) {
		if (spin_loops)
			pc_work_loop(spin_loops);
		err = witness_read(c);
		if (err)
			return err;
		if (c->last > base)
			return 0;
		if (mono_ns() > deadline)
			return -ETIME;
	}
}

int pc_perf_clock_wait(struct pc_perf_clock *c)
{
	int err = witness_read(c);

	return err ? err : advance(c, c->last, 1000);
}

void pc_perf_clock_close(struct pc_perf_clock *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* The least advance of c's clock over several, into *ns; closes c. */
static int least_step(struct pc_perf_clock *c, uint64_t *ns)
{
	uint64_t least = UINT64_MAX;
	int err = 0;

	/* The first advance may end a partial step: it does not count. */
	for (int i = 0; !err && i < 6; i++) {
		uint64_t base = c->last;

		err = advance(c, base, 0);
		if (!err && i && c->last - base < least)
			least = c->last - base;
	}
	pc_perf_clock_close(c);
	if (!err)
		*ns = least;
	return err;
}

int pc_perf_clock_step(uint64_t *ns)
{
	struct pc_perf_clock c;
	int err = pc_perf_clock_open(&c);

	return err ? err : least_step(&c, ns);
}

int pc_clock_step(clockid_t id, uint64_t *ns)
{
	struct pc_perf_clock c = { .fd = -1, .clockid = id };
	int err = witness_read(&c);

	return err ? err : least_step(&c, ns);
}

int pc_perf_clock_error(uint64_t *ns)
{
	struct timespec res;
	uint64_t step, tick = 0, mono;
	int err = pc_perf_clock_step(&step);

	if (!err)
		err = pc_clock_step(CLOCK_MONOTONIC, &mono);
	if (err)
		return err;
	if (step >= PC_PERF_CLOCK_COARSE_NS && !clock_getres(CLOCK_MONOTONIC_COARSE, &res))
		tick = (uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec;
	*ns = (step > tick ? step : tick) + mono;
	return 0;
}
