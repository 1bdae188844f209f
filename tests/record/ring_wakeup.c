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
 * Measured with this task's user-mode page faults at known addresses, one
 * 16-byte sample (PERF_SAMPLE_ADDR) per step, the ring drained after each.
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

TEST_HARNESS_MAIN
