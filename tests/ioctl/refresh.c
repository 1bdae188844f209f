// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_REFRESH (since 2.6.31): an overflow counter that is not
 * inherited can be enabled for a given number of overflows, after which
 * the kernel disables it. A second refresh adds its argument to what is
 * left. Each overflow before the last is announced with POLL_IN, the last
 * one with POLL_HUP, and the event is then off. An argument of 0 is
 * undefined by the documentation. Inherited events are refused with EINVAL.
 *
 * The kernel (kernel/events/core.c, _perf_event_refresh) adds the argument,
 * taken as an int, to event_limit and enables the event; each overflow
 * decrements a non-zero limit, and the one that brings it to 0 disables the
 * event (perf_event_disable_inatomic). No kernel checks the sign: a
 * negative argument leaves a limit that never comes down to 0, and 0 adds
 * nothing, so both enable the event without a limit: what they return is
 * pinned as an observation and the count asserted. A counting
 * (non-sampling) event has no overflows and is refused with EINVAL too
 * (the same check as inherit, already in 3.x and in every kernel since).
 *
 * Measured with software page faults in user mode, sampled every fault
 * (sample_period 1): n refreshes give exactly n samples and a count of n,
 * however many more faults follow.
 */
#include "perfconf.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

#include "work/faults.h"
#include "work/sigtrap.h"
#include "work/measure.h"

#define AFTER 5		/* faults beyond the limit, which must go uncounted */
#define FREE 12		/* faults under a refresh that set no limit */

static struct perfconf_attr fault_sampler(void)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_TID);

	attr.exclude_kernel = 1;
	return attr;
}

/* ioctl(PERF_EVENT_IOC_REFRESH, n): 0, or the errno. */
static int refresh_errno(int fd, int n)
{
	return ioctl(fd, PERF_EVENT_IOC_REFRESH, n) ? errno : 0;
}

/* REFRESH on fd is EINVAL, and three faults later it is still off; closes fd. */
static void expect_refused(struct __test_metadata *_metadata, int fd, struct pc_faults *f)
{
	EXPECT_ERRNO(EINVAL, refresh_errno(fd, 1));
	pc_faults_next(f, 3);
	EXPECT_EQ(0, pc_count_of(fd)) TH_LOG("a refused refresh enabled the event");
	close(fd);
}

FIXTURE(refresh) {
	struct pc_capture cap;
	struct pc_faults f;
};

FIXTURE_VARIANT(refresh) {
	int first;	/* the first refresh */
	int second;	/* a second one before any work (0: none) */
};

FIXTURE_VARIANT_ADD(refresh, once) { .first = 1 };
FIXTURE_VARIANT_ADD(refresh, three) { .first = 3 };
FIXTURE_VARIANT_ADD(refresh, two_then_three) { .first = 2, .second = 3 };

FIXTURE_SETUP(refresh)
{
	struct perfconf_attr attr = fault_sampler();

	self->cap.fd = -1;
	ASSERT_EQ(0, pc_faults_map(&self->f, 64));
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &attr, 0, -1));
	pc_faults_next(&self->f, 1);	/* the path the faults take is paged in */
}

FIXTURE_TEARDOWN(refresh)
{
	if (self->cap.fd >= 0)
		pc_capture_close(&self->cap);
	pc_faults_unmap(&self->f);
}

/*
 * refresh(first) [+ refresh(second)], then more faults than that: exactly
 * first + second overflows are counted and sampled, and then the event is
 * off; a read after further faults still gives the same count.
 */
TEST_F(refresh, overflows_count_down_then_disable)
{
	int limit = variant->first + variant->second;

	REQUIRE_IRQ_WORK_PROMPT();
	ASSERT_ERRNO(0, refresh_errno(self->cap.fd, variant->first));
	if (variant->second) {
		ASSERT_ERRNO(0, refresh_errno(self->cap.fd, variant->second));
	}
	ASSERT_EQ(limit + AFTER, pc_faults_next(&self->f, limit + AFTER));
	EXPECT_EQ(limit, pc_count_of(self->cap.fd));
	ASSERT_EQ(AFTER, pc_faults_next(&self->f, AFTER));
	EXPECT_EQ(limit, pc_count_of(self->cap.fd)) TH_LOG("the event counted after its last overflow");
	ASSERT_CAPTURE_READ(&self->cap);
	EXPECT_EQ(limit, pc_capture_count(&self->cap, PERF_RECORD_SAMPLE));
}

/*
 * With signal-driven I/O on the fd (O_ASYNC, F_SETSIG to a queued real-time
 * signal), every overflow but the last sends si_code POLL_IN and the last
 * POLL_HUP; no signal follows once the event is off.
 */
TEST_F(refresh, last_overflow_is_poll_hup)
{
	int limit = variant->first + variant->second;
	int sig = SIGRTMIN + 1;
	struct timespec zero = { 0 };
	sigset_t set;
	siginfo_t si;
	int codes[32], n = 0;

	REQUIRE_IRQ_WORK_PROMPT();
	sigemptyset(&set);
	sigaddset(&set, sig);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	ASSERT_EQ(0, fcntl(self->cap.fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(self->cap.fd, F_SETSIG, sig));
	ASSERT_EQ(0, fcntl(self->cap.fd, F_SETFL, fcntl(self->cap.fd, F_GETFL) | O_ASYNC));

	ASSERT_ERRNO(0, refresh_errno(self->cap.fd, variant->first));
	if (variant->second) {
		ASSERT_ERRNO(0, refresh_errno(self->cap.fd, variant->second));
	}
	ASSERT_EQ(limit + AFTER, pc_faults_next(&self->f, limit + AFTER));
	while (n < 32 && sigtimedwait(&set, &si, &zero) == sig) {
		EXPECT_EQ(self->cap.fd, si.si_fd);
		codes[n++] = si.si_code;
	}
	ASSERT_EQ(limit, n) TH_LOG("one signal per overflow");
	for (int i = 0; i < n - 1; i++) {
		EXPECT_EQ(POLL_IN, codes[i]) TH_LOG("overflow %d of %d", i + 1, limit);
	}
	EXPECT_EQ(POLL_HUP, codes[n - 1]) TH_LOG("the last overflow");
	EXPECT_EQ(limit, pc_count_of(self->cap.fd));
}

/*
 * Once the limit was reached and the event turned itself off, a new
 * refresh enables it for that many overflows again.
 */
TEST_F(refresh, refresh_after_disable_counts_again)
{
	REQUIRE_IRQ_WORK_PROMPT();
	ASSERT_ERRNO(0, refresh_errno(self->cap.fd, variant->first));
	ASSERT_EQ(variant->first + AFTER, pc_faults_next(&self->f, variant->first + AFTER));
	ASSERT_EQ(variant->first, pc_count_of(self->cap.fd));
	ASSERT_ERRNO(0, refresh_errno(self->cap.fd, variant->second ?: 1));
	ASSERT_EQ((variant->second ?: 1) + AFTER, pc_faults_next(&self->f, (variant->second ?: 1) + AFTER));
	EXPECT_EQ(variant->first + (variant->second ?: 1), pc_count_of(self->cap.fd));
}

/*
 * The documented refusal: an inherited event is EINVAL and stays off; the
 * same event without inherit is refreshed (the control).
 */
TEST(inherited_event_is_einval)
{
	struct perfconf_attr attr = fault_sampler();
	struct pc_faults f;
	int fd;

	ASSERT_EQ(0, pc_faults_map(&f, 16));
	pc_faults_next(&f, 1);
	attr.inherit = 1;
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	expect_refused(_metadata, fd, &f);

	attr.inherit = 0;
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(0, refresh_errno(fd, 1));
	pc_faults_next(&f, 3);
	EXPECT_EQ(1, pc_count_of(fd));
	close(fd);
	pc_faults_unmap(&f);
}

/*
 * A counting event has no overflows to count down: EINVAL, and it stays
 * off. (The control, a sampling event refreshed, is above.)
 */
TEST(counting_event_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct pc_faults f;
	int fd;

	attr.exclude_kernel = 1;
	ASSERT_EQ(0, pc_faults_map(&f, 16));
	pc_faults_next(&f, 1);
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	expect_refused(_metadata, fd, &f);
	pc_faults_unmap(&f);
}

/*
 * Arguments that set no limit: 0 (undefined by the documentation) and a
 * negative one (no kernel checks the sign). What the ioctl returns is
 * pinned; where it succeeds the event is enabled and counts every fault,
 * since event_limit never reaches 0.
 */
FIXTURE(no_limit) {
	struct pc_faults f;
};

FIXTURE_VARIANT(no_limit) {
	int arg;
};

FIXTURE_VARIANT_ADD(no_limit, zero) { .arg = 0 };
FIXTURE_VARIANT_ADD(no_limit, minus_one) { .arg = -1 };
FIXTURE_VARIANT_ADD(no_limit, int_min) { .arg = INT32_MIN };

FIXTURE_SETUP(no_limit)
{
	ASSERT_EQ(0, pc_faults_map(&self->f, 32));
	pc_faults_next(&self->f, 1);
}

FIXTURE_TEARDOWN(no_limit)
{
	pc_faults_unmap(&self->f);
}

TEST_F(no_limit, refresh_enables_without_limit)
{
	struct perfconf_attr attr = fault_sampler();
	int fd = pc_open(&attr, 0, -1, -1, 0);
	int err;

	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_disable(fd));	/* the path of the disable below is paged in */
	err = refresh_errno(fd, variant->arg);
	pc_faults_next(&self->f, FREE);
	ASSERT_EQ(0, pc_disable(fd));
	pc_observe_errno("errno", err);
	if (err) {
		EXPECT_EQ(0, pc_count_of(fd)) TH_LOG("a refused refresh enabled the event");
	} else {
		EXPECT_EQ(FREE, pc_count_of(fd)) TH_LOG("refresh(%d) set a limit", variant->arg);
	}
	close(fd);
}

TEST_HARNESS_MAIN
