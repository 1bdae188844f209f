/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Perf's own clock: what time_enabled and time_running, cpu-clock and
 * task-clock, PERF_SAMPLE_TIME and a frequency event's period adjustment
 * count in (perf_clock(), local_clock()). It may be coarse: where
 * sched_clock() has no usable TSC it falls back to jiffies, and where the
 * TSC was marked unstable local_clock() is the tick's stamp of the time
 * of day plus sched_clock()'s progress since, clamped to one tick
 * (sched_clock_local() in kernel/sched/clock.c): it then stands still
 * between ticks, and a window of work shorter than a tick reads 0 ns.
 * A case that needs perf time to pass in a window waits for it:
 *
 *	struct pc_perf_clock c;
 *	ASSERT_EQ(0, pc_perf_clock_open(&c));	(before the window: no part of it)
 *	ASSERT_EQ(0, pc_enable(fd));
 *	pc_work_page_faults(FAULTS);
 *	ASSERT_EQ(0, pc_perf_clock_wait(&c));	(perf time has advanced since the call)
 *	ASSERT_EQ(0, pc_disable(fd));
 *	pc_perf_clock_close(&c);
 *
 * The witness is a dummy software event of this task, enabled, read for
 * its time_enabled: it neither counts nor samples, and the wait spins
 * without faulting, so exact counts of the window stay exact. On a fine
 * clock the wait returns at once; on a coarse one within a tick.
 */
#ifndef PERFCONF_WORK_CLOCK_H
#define PERFCONF_WORK_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "abi/uapi.h"

struct pc_perf_clock {
	int fd;			/* the witness (perf's own clock) */
	int clockid;		/* or -1: the clock_gettime() clock read instead */
	uint64_t last;		/* its time_enabled (or the clock) at the last read */
};

/* How long a wait may spin (CLOCK_MONOTONIC) before it gives up: many ticks of any HZ. */
#define PC_PERF_CLOCK_LIMIT_NS 2000000000ULL

/* Open and enable the witness on this task. 0, or -errno of the open. */
int pc_perf_clock_open(struct pc_perf_clock *c);
/*
 * The clock attr's sample times are in: perf's own (pc_perf_clock_open),
 * or with use_clockid attr->clockid, read with clock_gettime(): it may be
 * coarse too (CLOCK_MONOTONIC on a jiffies clocksource steps at the tick).
 */
int pc_perf_clock_open_for(struct pc_perf_clock *c, const struct perfconf_attr *attr);
/*
 * Spin until perf time has advanced since this call began (read at its
 * start, then after each short spin): 0, or -ETIME when it stood still for
 * PC_PERF_CLOCK_LIMIT_NS (a kernel whose perf time does not run), or
 * -errno of a read.
 */
int pc_perf_clock_wait(struct pc_perf_clock *c);
void pc_perf_clock_close(struct pc_perf_clock *c);
/*
 * The clock's step: the least advance of perf time seen from one read of
 * the witness to the next that differs, over several advances, in ns
 * (about a read's cost on a fine clock; the tick, 1 to 10 ms, on a coarse
 * one). The error of a perf time span against CLOCK_MONOTONIC is below
 * one step at each end. 0 with *ns set, or -errno (-ETIME as above).
 */
int pc_perf_clock_step(uint64_t *ns);
/* The step of clock_gettime(id), measured as pc_perf_clock_step's. */
int pc_clock_step(clockid_t id, uint64_t *ns);
/*
 * How far a span of perf time may be from the same span read on
 * CLOCK_MONOTONIC, at each end, in ns: a rate window of perf time allows
 * this much at each end. The sum of each reading's error. Perf time's: on a
 * fine clock, its step; on a coarse one local_clock() lies between the
 * last tick's stamp of the time of day and one tick past it
 * (sched_clock_local()), so a reading is off by up to a tick: the larger
 * of the step and the tick (the resolution of CLOCK_MONOTONIC_COARSE,
 * TICK_NSEC), which the least step seen may be short of. CLOCK_MONOTONIC's:
 * its step (a tick on a jiffies clocksource, where the TSC was marked
 * unstable and nothing finer was built in). A window that must show a rate
 * within 10% lasts 20 of these at least. 0 with *ns set, or -errno (-ETIME
 * as above).
 */
int pc_perf_clock_error(uint64_t *ns);
/* A step at least this long makes the clock coarse (runners/facts.c, fact perf_clock). */
#define PC_PERF_CLOCK_COARSE_NS 100000ULL

#endif
