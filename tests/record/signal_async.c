// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow notifications as signals: with O_ASYNC set on the event's fd
 * and an owner given with F_SETOWN (a process) or F_SETOWN_EX (a thread,
 * F_OWNER_TID), the kernel sends a signal on each overflow. With F_SETSIG
 * naming a signal (a real-time one queues every occurrence) the signal
 * carries si_code POLL_IN, si_fd the event's fd and si_band POLLIN |
 * POLLRDNORM; without F_SETSIG it is a plain SIGIO with no such details
 * (si_code SI_KERNEL). An owner that is a thread gets the signal in its
 * own queue, not the process's. PERF_EVENT_IOC_REFRESH's last overflow is
 * POLL_HUP, with si_band POLLHUP | POLLERR (its codes and si_fd are
 * tests/ioctl/refresh.c).
 *
 * kernel/events/core.c (6.12) __perf_event_overflow() (line 9880): every
 * overflow sets pending_kill = POLL_IN (POLL_HUP for the last of a
 * refresh) and, when the fd has a fasync entry, queues the irq_work that
 * calls perf_event_wakeup() -> kill_fasync(SIGIO, pending_kill) (line
 * 6903). fs/fcntl.c send_sigio_to_task() (line 852): a signal set by
 * F_SETSIG gets si_code = the reason, si_fd and si_band =
 * band_table[reason] (line 827); signal 0 sends SIGIO with SEND_SIG_PRIV
 * (SI_KERNEL). F_SETOWN_EX with F_OWNER_TID sends to that thread alone
 * (PIDTYPE_PID). The same in 5.10 and 6.1.
 *
 * The signal does not need a ring: an event never mapped sends one per
 * overflow all the same (perf_event_tests overflow_requires_mmap; before
 * 3.0 it sent none). It does not need the descriptor either: close() of
 * the fd while the ring is still mapped leaves the event alive (the
 * mapping holds the file), counting, writing its records and signalling
 * with the old fd number in si_fd (perf_event_tests signal_after_close);
 * unmapping the ring then releases it, and the signals stop.
 * __perf_event_overflow() queues the signal whenever the fd has a fasync
 * entry, rb or not (line 9950); fasync entries are dropped in __fput()
 * (fs/file_table.c), which runs only when the last reference, here the
 * vma's vm_file, goes.
 *
 * Measured with this task's user-mode page faults, one sample each.
 */
#include "perfconf.h"
#include "work/sigtrap.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "ring/ring.h"
#include "work/faults.h"
#include "work/measure.h"

#define STEPS 5

static struct perfconf_attr fault_sampler(void)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_ADDR);

	attr.exclude_kernel = 1;
	attr.wakeup_events = 1;
	return attr;
}

static int sig_of(int setsig)
{
	return setsig ? SIGRTMIN + 2 : SIGIO;
}

/*
 * Block sig in this thread, and drop any occurrence already pending: with
 * pc_signals_take(), so that its code is paged in before an event counts
 * this task's faults.
 */
static void block(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pc_signals_take(sig, INT_MAX, NULL);
}

/* O_ASYNC on fd, the owner `ex`, the signal setsig (0: none). 0 or -errno. */
static int set_async(int fd, const struct f_owner_ex *ex, int setsig)
{
	if (fcntl(fd, F_SETOWN_EX, ex) || fcntl(fd, F_SETSIG, setsig) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC))
		return -errno;
	return 0;
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

FIXTURE(global) {
	struct pc_capture cap;
	struct pc_faults f;
};

FIXTURE_VARIANT(global) {
	int setsig;	/* F_SETSIG: 0, SIGIO, or a real-time signal (1) */
	int owner;	/* F_OWNER_PID or F_OWNER_TID */
};

FIXTURE_VARIANT_ADD(global, rt_signal_to_process) { .setsig = 1, .owner = F_OWNER_PID };
FIXTURE_VARIANT_ADD(global, rt_signal_to_thread) { .setsig = 1, .owner = F_OWNER_TID };
FIXTURE_VARIANT_ADD(global, sigio_set_to_process) { .setsig = -1, .owner = F_OWNER_PID };
FIXTURE_VARIANT_ADD(global, plain_sigio_to_process) { .setsig = 0, .owner = F_OWNER_PID };

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr = fault_sampler();

	self->cap.fd = -1;
	self->f.base = NULL;
	REQUIRE_IRQ_WORK_PROMPT();
	ASSERT_EQ(0, pc_faults_map(&self->f, 2 * STEPS + 8));
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &attr, 0, -1));
	pc_faults_next(&self->f, 1);
}

FIXTURE_TEARDOWN(global)
{
	if (self->cap.fd >= 0)
		pc_capture_close(&self->cap);
	if (self->f.base)
		pc_faults_unmap(&self->f);
}

static int setsig_value(int v)
{
	return v > 0 ? SIGRTMIN + 2 : v < 0 ? SIGIO : 0;
}

/*
 * One fault at a time: after each, exactly one signal is there, with the
 * details F_SETSIG promises (or, without it, a plain SIGIO).
 */
TEST_F(global, one_signal_per_overflow)
{
	int sig = variant->setsig > 0 ? sig_of(1) : SIGIO;
	struct f_owner_ex ex = { .type = variant->owner,
				 .pid = variant->owner == F_OWNER_TID ? gettid_() : getpid() };
	siginfo_t si;

	block(sig);
	ASSERT_EQ(0, set_async(self->cap.fd, &ex, setsig_value(variant->setsig)));
	ASSERT_EQ(0, pc_enable(self->cap.fd));
	for (int i = 0; i < STEPS; i++) {
		pc_faults_next(&self->f, 1);
		int n = pc_signals_wait(sig, 1, 64, &si);

		EXPECT_EQ(1, n) TH_LOG("signals after fault %d", i + 1);
		if (n != 1)
			continue;
		if (variant->setsig) {
			EXPECT_EQ(POLL_IN, si.si_code);
			EXPECT_EQ(self->cap.fd, si.si_fd);
			EXPECT_EQ(POLLIN | POLLRDNORM, si.si_band);
		} else {
			EXPECT_EQ(SI_KERNEL, si.si_code) TH_LOG("a plain SIGIO carries no POLL_ code");
		}
	}
	ASSERT_EQ(0, pc_disable(self->cap.fd));
	EXPECT_EQ(STEPS, pc_count_of(self->cap.fd));
	pc_faults_next(&self->f, 2);
	EXPECT_EQ(0, pc_signals_take(sig, 64, &si)) TH_LOG("a signal from a disabled event");
}

struct waiter {
	int sig, ready[2], go[2];
	pid_t tid;
	int taken, fd;
	long code, band;
};

/* Blocks the signal, says its tid, waits for the go, then takes what its own queue holds. */
static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	siginfo_t si = { 0 };
	char c;

	block(w->sig);
	w->tid = gettid_();
	if (write(w->ready[1], "r", 1) != 1 || read(w->go[0], &c, 1) != 1)
		return NULL;
	w->taken = pc_signals_wait(w->sig, STEPS, 64, &si);
	w->fd = si.si_fd;
	w->code = si.si_code;
	w->band = si.si_band;
	return NULL;
}

/*
 * Whether sig becomes pending for this thread or the process within
 * PC_SIGNALS_WAIT_MS (an overflow's signal comes from irq_work:
 * pc_signals_wait()).
 */
static bool pending_soon(int sig)
{
	sigset_t pending;

	for (int ms = 0; ms < PC_SIGNALS_WAIT_MS; ms++) {
		if (sigpending(&pending) == 0 && sigismember(&pending, sig))
			return true;
		usleep(1000);
	}
	return false;
}

/*
 * F_SETOWN_EX to another thread (F_OWNER_TID): the signals of STEPS faults
 * of this thread are in that thread's queue, none in this thread's or the
 * process's (sigpending here). The control: F_OWNER_PID puts them in the
 * process's queue, which sigpending here shows.
 */
TEST(owner_tid_signals_that_thread)
{
	struct perfconf_attr attr = fault_sampler();
	struct waiter w = { .sig = sig_of(1) };
	struct pc_capture cap;
	struct pc_faults f;
	pthread_t t;
	sigset_t pending;
	siginfo_t si;
	char c;

	REQUIRE_IRQ_WORK_PROMPT();
	block(w.sig);
	ASSERT_EQ(0, pc_faults_map(&f, 2 * STEPS + 2));
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	pc_faults_next(&f, 1);
	ASSERT_EQ(0, pipe(w.ready));
	ASSERT_EQ(0, pipe(w.go));
	ASSERT_EQ(0, pthread_create(&t, NULL, waiter_main, &w));
	ASSERT_EQ(1, read(w.ready[0], &c, 1));

	struct f_owner_ex ex = { .type = F_OWNER_TID, .pid = w.tid };

	ASSERT_EQ(0, set_async(cap.fd, &ex, w.sig));
	ASSERT_EQ(0, pc_enable(cap.fd));
	pc_faults_next(&f, STEPS);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_EQ(0, sigpending(&pending));
	EXPECT_FALSE(sigismember(&pending, w.sig)) TH_LOG("a thread's signal is pending for the process or this thread");
	ASSERT_EQ(1, write(w.go[1], "g", 1));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(STEPS, w.taken) TH_LOG("the owner thread's signals");
	EXPECT_EQ(cap.fd, w.fd);
	EXPECT_EQ(POLL_IN, w.code);
	EXPECT_EQ(POLLIN | POLLRDNORM, w.band);

	/* The control: the process as the owner. */
	ex.type = F_OWNER_PID;
	ex.pid = getpid();
	ASSERT_EQ(0, fcntl(cap.fd, F_SETOWN_EX, &ex));
	ASSERT_EQ(0, pc_enable(cap.fd));
	pc_faults_next(&f, STEPS);
	ASSERT_EQ(0, pc_disable(cap.fd));
	EXPECT_TRUE(pending_soon(w.sig)) TH_LOG("the process's signals are not pending");
	EXPECT_EQ(STEPS, pc_signals_wait(w.sig, STEPS, 64, &si));
	close(w.ready[0]);
	close(w.ready[1]);
	close(w.go[0]);
	close(w.go[1]);
	pc_capture_close(&cap);
	pc_faults_unmap(&f);
}

/*
 * PERF_EVENT_IOC_REFRESH 2: two overflows, the first POLL_IN with si_band
 * POLLIN | POLLRDNORM, the second POLL_HUP with si_band POLLHUP | POLLERR;
 * then the event is off and no signal comes.
 */
TEST(refresh_hup_band)
{
	struct perfconf_attr attr = fault_sampler();
	int sig = sig_of(1);
	struct f_owner_ex ex = { .type = F_OWNER_PID, .pid = getpid() };
	struct pc_capture cap;
	struct pc_faults f;
	siginfo_t si;

	REQUIRE_IRQ_WORK_PROMPT();
	block(sig);
	ASSERT_EQ(0, pc_faults_map(&f, 8));
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	pc_faults_next(&f, 1);
	ASSERT_EQ(0, set_async(cap.fd, &ex, sig));
	ASSERT_EQ(0, ioctl(cap.fd, PERF_EVENT_IOC_REFRESH, 2));
	pc_faults_next(&f, 1);
	ASSERT_EQ(1, pc_signals_wait(sig, 1, 64, &si));
	EXPECT_EQ(POLL_IN, si.si_code);
	EXPECT_EQ(POLLIN | POLLRDNORM, si.si_band);
	pc_faults_next(&f, 1);
	ASSERT_EQ(1, pc_signals_wait(sig, 1, 64, &si));
	EXPECT_EQ(POLL_HUP, si.si_code);
	EXPECT_EQ(POLLHUP | POLLERR, si.si_band);
	EXPECT_EQ(cap.fd, si.si_fd);
	pc_faults_next(&f, 2);
	EXPECT_EQ(0, pc_signals_take(sig, 64, &si));
	EXPECT_EQ(2, pc_count_of(cap.fd));
	pc_capture_close(&cap);
	pc_faults_unmap(&f);
}

/*
 * fd: fault_sampler() on this task, disabled, its O_ASYNC signal `sig`
 * (blocked, to be taken) to this process, after a fault of f that warms
 * the path; f mapped with `pages` fresh pages. BLOCKED where irq_work
 * comes late.
 */
#define OPEN_ASYNC_SAMPLER(fd, f, pages, sig) do { \
	struct perfconf_attr attr_ = fault_sampler(); \
	struct f_owner_ex ex_ = { .type = F_OWNER_PID, .pid = getpid() }; \
	REQUIRE_IRQ_WORK_PROMPT(); \
	block(sig); \
	ASSERT_EQ(0, pc_faults_map(f, pages)); \
	fd = pc_open(&attr_, 0, -1, -1, 0); \
	ASSERT_OPEN(fd); \
	pc_faults_next(f, 1); \
	ASSERT_EQ(0, set_async(fd, &ex_, sig)); \
} while (0)

/* STEPS faults, one at a time, each followed by the signals it brought (waiting for one). */
static void fault_by_fault(struct pc_faults *f, int sig, int n[STEPS], siginfo_t si[STEPS])
{
	for (int i = 0; i < STEPS; i++) {
		pc_faults_next(f, 1);
		n[i] = pc_signals_wait(sig, 1, 64, &si[i]);
	}
}

/*
 * An event whose ring is never mapped: one signal per overflow, POLL_IN,
 * with its fd, and the count is the faults'. (The control, with a ring:
 * one_signal_per_overflow.) The steps run once enabled before they are
 * measured: a forked case's first write to a stack page it shares with
 * the harness is one more fault, wherever ASLR put the page boundary.
 */
TEST(signals_without_a_ring)
{
	int sig = sig_of(1), n[STEPS];
	siginfo_t si[STEPS];
	struct pc_faults f;
	uint64_t before;
	int fd;

	OPEN_ASYNC_SAMPLER(fd, &f, 2 * STEPS + 4, sig);
	ASSERT_EQ(0, pc_enable(fd));
	fault_by_fault(&f, sig, n, si);		/* the rehearsal */
	pc_signals_take(sig, 64, NULL);
	before = pc_count_of(fd);
	fault_by_fault(&f, sig, n, si);
	ASSERT_EQ(0, pc_disable(fd));
	for (int i = 0; i < STEPS; i++) {
		EXPECT_EQ(1, n[i]) TH_LOG("no ring: signals after fault %d", i + 1);
		if (n[i] != 1)
			continue;
		EXPECT_EQ(POLL_IN, si[i].si_code);
		EXPECT_EQ(fd, si[i].si_fd);
	}
	EXPECT_EQ(before + STEPS, pc_count_of(fd));
	pc_faults_next(&f, 2);
	EXPECT_EQ(0, pc_signals_take(sig, 64, NULL)) TH_LOG("a signal from a disabled event");
	close(fd);
	pc_faults_unmap(&f);
}

/* The sample addresses the ring holds from tail to head, into addr[max], consumed; how many, or -1. */
static int ring_addrs(struct pc_ring *r, uint64_t *addr, int max)
{
	size_t len;
	int n = 0;
	const void *rec;

	while ((rec = pc_ring_next(r, &len, NULL))) {
		const struct perf_event_header *h = rec;

		if (h->type != PERF_RECORD_SAMPLE || len != 16 || n == max)
			return -1;
		addr[n++] = *(const uint64_t *)(h + 1);
	}
	pc_ring_consume(r);
	return n;
}

/*
 * STEPS faults of f: as many signals (POLL_IN, si_fd fd) as samples in
 * the ring, and the faults' addresses among them, in order. (A forked
 * case's first touch of a page the harness shares may be one more fault,
 * anywhere in the phase, even in the wait: counted, it has its sample and
 * its signal too.) A sample is written before its signal is sent (from
 * irq_work), so the phase ends when a read of the ring after the last
 * wait finds as many samples as signals came.
 */
static void expect_sampled_and_signalled(struct __test_metadata *_metadata, struct pc_faults *f,
					 struct pc_ring *r, int sig, int fd, const char *when)
{
	uint64_t addr[64];
	size_t first = f->next, k = 0;
	siginfo_t si = { 0 };
	int n, samples = 0;

	pc_faults_next(f, STEPS);
	n = pc_signals_wait(sig, STEPS, STEPS, &si);
	for (int round = 0; round < 4; round++) {
		int more = ring_addrs(r, addr + samples, 64 - samples);

		ASSERT_LE(0, more) TH_LOG("%s: a record that is not a fault's sample", when);
		samples += more;
		if (n == samples)
			break;
		if (n < samples)
			n += pc_signals_wait(sig, samples - n, samples - n, &si);
	}
	ASSERT_LE(STEPS, samples) TH_LOG("%s: samples of %d faults", when, STEPS);
	EXPECT_EQ(samples, n) TH_LOG("%s: signals for %d samples", when, samples);
	EXPECT_EQ(POLL_IN, si.si_code) TH_LOG("%s", when);
	EXPECT_EQ(fd, si.si_fd) TH_LOG("%s", when);
	for (int i = 0; i < samples && k < STEPS; i++)
		if (addr[i] == pc_faults_addr(f, first + k))
			k++;
	EXPECT_EQ(STEPS, k) TH_LOG("%s: the faults' samples in order", when);
}

/*
 * close() of the fd while the ring is mapped: STEPS more faults are
 * sampled into the ring, each sample signalled with the closed fd's
 * number in si_fd (the control: the STEPS before close, the same). Then
 * the munmap of the ring releases the event: 2 more faults, no signal.
 */
TEST(signals_after_close)
{
	int sig = sig_of(1);
	struct pc_faults f;
	struct pc_ring r;
	siginfo_t si;
	int fd;

	OPEN_ASYNC_SAMPLER(fd, &f, 2 * STEPS + 8, sig);
	ASSERT_ERRNO(0, -pc_ring_map(&r, fd, 2, PC_RING_READWRITE));
	(void)pc_ring_head(&r);
	ASSERT_EQ(0, pc_enable(fd));
	expect_sampled_and_signalled(_metadata, &f, &r, sig, fd, "before close");
	ASSERT_EQ(0, close(fd));
	expect_sampled_and_signalled(_metadata, &f, &r, sig, fd, "after close");

	pc_ring_unmap(&r);
	pc_faults_next(&f, 2);
	usleep(10000);
	EXPECT_EQ(0, pc_signals_take(sig, 64, &si)) TH_LOG("a signal after the ring, the event's last reference, went");
	pc_faults_unmap(&f);
}

TEST_HARNESS_MAIN
