// SPDX-License-Identifier: GPL-2.0
/*
 * Wake-ups of a ring's reader, through poll() and through signals, step by
 * step. wakeup_events = N makes poll() report POLLIN after every N-th
 * sample (tests/attr/wakeup_events.c); with watermark set,
 * wakeup_watermark = B bytes makes it report POLLIN each time more than B
 * bytes were written since the last boundary, the boundary then moving on
 * by B: with 16-byte samples and B = 48 the first comes after the 4th
 * sample (64 > 48), then after every 3rd (tests/attr/watermark.c has
 * B = 2 and 0). A signal (O_ASYNC, F_SETSIG) is another matter: it is sent
 * for every overflow, whatever wakeup_events or wakeup_watermark say, so
 * a reader that waits for signals is woken once per sample.
 *
 * kernel/events/ring_buffer.c (6.12) __perf_output_begin(), line 238:
 * "if (head - rb->wakeup > rb->watermark) rb->wakeup += rb->watermark",
 * and perf_output_put_handle() (line 134) sets POLLIN (perf_output_wakeup,
 * line 20) when rb->wakeup moved; kernel/events/core.c
 * perf_output_sample() (line 7715) moves rb->wakeup every wakeup_events
 * samples. __perf_event_overflow() (lines 9898, 9950) sets pending_kill =
 * POLL_IN on every overflow and, when the fd has O_ASYNC, queues the
 * signal whether or not the ring woke. The same in 5.10 and 6.1.
 *
 * A wake-up at the watermark for a record that is no sample (a
 * PERF_RECORD_SWITCH of a dummy event with context_switch, which never
 * overflows) sends the O_ASYNC signal too, POLL_IN, since 6.10:
 * perf_output_wakeup() (ring_buffer.c line 20) sets pending_kill =
 * POLL_IN when the fd has a fasync entry, and the irq_work it queues sends
 * it (selftests watermark_signal). Before that only poll() saw it: an
 * observation (signalled=yes|no), pinned per kernel line. poll()'s POLLIN
 * is asserted everywhere, and below the watermark neither comes.
 *
 * Measured with this task's user-mode page faults at known addresses, one
 * 16-byte sample (PERF_SAMPLE_ADDR) per step, the ring drained after each;
 * the switch records with a sleep of this task.
 */
#include "perfconf.h"
#include "work/sigtrap.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

#include "ring/wakeup.h"
#include "work/faults.h"
#include "work/measure.h"

#define STEPS 10

struct patterns {
	char poll[STEPS + 1];
	char sig[STEPS + 1];
};

/*
 * One run of `steps` faults: after each, poll (timeout 0) gives 'w' or '.',
 * and the number of signals taken gives a digit; then the ring is drained.
 */
static void run_steps(struct __test_metadata *_metadata, int watermark, uint32_t value, int steps,
		      struct patterns *p)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);
	int sig = SIGRTMIN + 3;
	char polls[STEPS + 1], sigs[STEPS + 1];
	union sigval v = { 0 };
	struct pc_faults f;
	struct pc_ring r;
	sigset_t set;
	int fd;

	attr.exclude_kernel = 1;
	attr.watermark = watermark;
	attr.wakeup_events = value;
	sigemptyset(&set);
	sigaddset(&set, sig);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	ASSERT_ERRNO(0, -pc_ring_map(&r, fd, 4, PC_RING_READWRITE));
	ASSERT_EQ(0, fcntl(fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(fd, F_SETSIG, sig));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	ASSERT_EQ(0, pc_faults_map(&f, STEPS + 2));
	for (uint64_t off = 0; off < r.data_size; off += (uint64_t)sysconf(_SC_PAGESIZE))
		(void)*(volatile unsigned char *)(r.data + off);
	__atomic_store_n(&r.page->data_tail, 0, __ATOMIC_RELEASE);
	/*
	 * A rehearsal: the first fault, a poll, a take of a queued signal, a
	 * drain, unmeasured, so that every page the loop touches is there.
	 */
	ASSERT_EQ(0, sigqueue(getpid(), sig, v));
	pc_faults_next(&f, 1);
	polls[0] = pc_pollin(fd) ? 'w' : '.';
	sigs[0] = (char)('0' + pc_signals_take(sig, 9, NULL));
	pc_ring_drain(&r);
	ASSERT_EQ(0, pc_enable(fd));
	for (int i = 0; i < steps; i++) {
		pc_faults_next(&f, 1);
		polls[i] = pc_pollin(fd) ? 'w' : '.';
		sigs[i] = (char)('0' + pc_signals_take(sig, 9, NULL));
		pc_ring_drain(&r);
	}
	ASSERT_EQ(0, pc_disable(fd));
	polls[steps] = sigs[steps] = '\0';
	memcpy(p->poll, polls, sizeof(polls));
	memcpy(p->sig, sigs, sizeof(sigs));
	if (steps == STEPS) {	/* the rehearsal's count may hold its first-time faults */
		EXPECT_EQ(steps, pc_count_of(fd)) TH_LOG("faults other than the steps' own were sampled");
	}
	pc_faults_unmap(&f);
	pc_ring_unmap(&r);
	close(fd);
	pc_signals_take(sig, 9, NULL);
}

/*
 * A rehearsal of one step with a throwaway event first, so that every
 * page the steps touch (the libc data that a step writes the first time a
 * sample was read included) is there; then STEPS steps.
 */
static void run(struct __test_metadata *_metadata, int watermark, uint32_t value, struct patterns *p)
{
	run_steps(_metadata, watermark, value, 1, p);
	run_steps(_metadata, watermark, value, STEPS, p);
}

FIXTURE(global) {
	struct patterns p;
};

FIXTURE_VARIANT(global) {
	int watermark;
	uint32_t value;
	const char *poll;	/* the pattern poll() sees */
};

/* Every 3rd sample. */
FIXTURE_VARIANT_ADD(global, wakeup_events_3) { .watermark = 0, .value = 3, .poll = "..w..w..w." };
/* Every sample. */
FIXTURE_VARIANT_ADD(global, wakeup_events_1) { .watermark = 0, .value = 1, .poll = "wwwwwwwwww" };
/* More than 48 bytes: 64 after the 4th, then the boundary moves by 48 each time. */
FIXTURE_VARIANT_ADD(global, watermark_48_bytes) { .watermark = 1, .value = 48, .poll = "...w..w..w" };
/* More than 40 bytes: the boundary at 40, 80, 120, 160 falls inside samples. */
FIXTURE_VARIANT_ADD(global, watermark_40_bytes) { .watermark = 1, .value = 40, .poll = "..w..w.w.." };

FIXTURE_SETUP(global)
{
	run(_metadata, variant->watermark, variant->value, &self->p);
}

FIXTURE_TEARDOWN(global)
{
}

/* poll() reports POLLIN exactly at the wake-ups, and not before. */
TEST_F(global, poll_wakes_at_the_boundary)
{
	EXPECT_STREQ(variant->poll, self->p.poll);
}

/*
 * A signal comes for every sample, one each, wake-up or not (sent from
 * irq_work: REQUIRE_IRQ_WORK_PROMPT).
 */
TEST_F(global, a_signal_per_sample)
{
	REQUIRE_IRQ_WORK_PROMPT();
	EXPECT_STREQ("1111111111", self->p.sig);
}

struct switch_wakeup {
	int pollin;		/* POLLIN after the sleep */
	int signals;		/* the signals taken */
	siginfo_t si;		/* the last one's */
	size_t switches;	/* PERF_RECORD_SWITCH records in the ring */
	int fd;
};

/*
 * A dummy event of this task with context_switch and wakeup_watermark
 * `watermark` bytes, its ring of 1 + 4 pages, O_ASYNC to this process with
 * F_SETSIG; the task sleeps 2 ms (a switch out and one in), then polls and
 * takes the signals that are pending. It waits for none: a wakeup's signal
 * is sent by the irq_work the record queued, which has run before the task
 * runs again (REQUIRE_IRQ_WORK_PROMPT), and a kernel that sends none would
 * make a wait last its whole timeout.
 */
static void switch_wakeup_run(struct __test_metadata *_metadata, uint32_t watermark,
			      struct switch_wakeup *w)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	int sig = SIGRTMIN + 3;
	const void *rec;
	struct pc_ring r;
	sigset_t set;
	size_t len;

	memset(w, 0, sizeof(*w));
	attr.context_switch = 1;
	attr.watermark = 1;
	attr.wakeup_watermark = watermark;
	sigemptyset(&set);
	sigaddset(&set, sig);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	pc_signals_take(sig, INT_MAX, NULL);
	w->fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(w->fd);
	ASSERT_ERRNO(0, -pc_ring_map(&r, w->fd, 2, PC_RING_READWRITE));
	ASSERT_EQ(0, fcntl(w->fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(w->fd, F_SETSIG, sig));
	ASSERT_EQ(0, fcntl(w->fd, F_SETFL, fcntl(w->fd, F_GETFL) | O_ASYNC));
	ASSERT_EQ(0, pc_enable(w->fd));
	usleep(2000);
	ASSERT_EQ(0, pc_disable(w->fd));
	w->pollin = pc_pollin(w->fd);
	w->signals = pc_signals_take(sig, 64, &w->si);
	while ((rec = pc_ring_next(&r, &len, NULL)))
		if (((const struct perf_event_header *)rec)->type == PERF_RECORD_SWITCH)
			w->switches++;
	pc_ring_unmap(&r);
	close(w->fd);
}

/*
 * wakeup_watermark 1: the first switch record crosses it. poll() reports
 * POLLIN; whether a signal came too is the observation `signalled`
 * (yes from 6.10 on), and one that came is POLL_IN with the event's fd.
 */
TEST(watermark_signals_a_switch_record)
{
	struct switch_wakeup w;

	REQUIRE_IRQ_WORK_PROMPT();
	switch_wakeup_run(_metadata, 1, &w);
	ASSERT_LE(2, w.switches) TH_LOG("switch records of a sleep");
	EXPECT_TRUE(w.pollin) TH_LOG("poll() saw no wake-up at the watermark");
	pc_observe("signalled", "%s", w.signals > 0 ? "yes" : "no");
	if (w.signals > 0) {
		EXPECT_EQ(POLL_IN, w.si.si_code);
		EXPECT_EQ(w.fd, w.si.si_fd);
	}
}

/*
 * The control: wakeup_watermark 4096 bytes, which a sleep's few 8-byte
 * switch records do not reach: no POLLIN, no signal.
 */
TEST(below_the_watermark_no_signal)
{
	struct switch_wakeup w;

	REQUIRE_IRQ_WORK_PROMPT();
	switch_wakeup_run(_metadata, 4096, &w);
	ASSERT_LE(2, w.switches) TH_LOG("switch records of a sleep");
	ASSERT_GT(4096 / 8, w.switches) TH_LOG("so many switches that they reached the watermark");
	EXPECT_FALSE(w.pollin) TH_LOG("POLLIN below the watermark");
	EXPECT_EQ(0, w.signals) TH_LOG("a signal below the watermark");
}

TEST_HARNESS_MAIN
