// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a counter from user space: where cap_user_rdpmc is set and the
 * page's index is not 0, the event sits in hardware counter index - 1 and
 * a task may read it itself (x86: rdpmc; arm64: the PMU's event counter
 * registers, or the cycle counter for index 32, through cp15 from an
 * AArch32 task); the value, sign-extended
 * from pmc_width bits, plus the page's offset is the event's count. An
 * index of 0 means no counter can be read this way: read() the fd. The
 * reading is done inside the page's seqlock (lock before and after).
 *
 * Kernel (6.12): kernel/events/core.c perf_event_update_userpage() writes
 * index = perf_event_index() (0 while the event is stopped or inactive,
 * else pmu->event_idx(); software PMUs use perf_event_idx_default(), 0)
 * and offset = count - prev_count where index != 0. The capability:
 *  - x86, arch/x86/events/core.c:2724: cap_user_rdpmc from
 *    PERF_EVENT_FLAG_USER_READ_CNT, set when a hardware event is mmapped
 *    and /sys/bus/event_source/devices/cpu/rdpmc allows it.
 *  - arm64 (5.17+), drivers/perf/arm_pmuv3.c: the "rdpmc" format term
 *    (attr.config1 bit 1) asks for it (__armv8_pmuv3_map_event, line 1137:
 *    EINVAL for an event that is not a task's); cap_user_rdpmc is that
 *    flag (line 1455), pmc_width 32 or 64 ("long"); the index is
 *    hw.idx + 1 only while kernel.perf_user_access is 1
 *    (armv8pmu_user_event_idx, line 979), and EL0 access to the counters
 *    (PMUSERENR_EL0) is granted only then (armv8pmu_start, line 814): a
 *    user read with the sysctl at 0 traps (SIGILL). Counters are started
 *    at 2^31 below overflow (drivers/perf/arm_pmu.c
 *    armpmu_event_set_period), so a 32-bit reading must be sign-extended.
 *
 * Machines here: this host and the x86 TCG guests have no hardware PMU
 * (only the software cases run); the arm64 guests have qemu's PMUv3,
 * counting instructions exactly under -icount shift=0, so there the user
 * reading around a loop of n iterations differs by exactly 2 per
 * iteration. The arm64 cases set kernel.perf_user_access (an exclusive
 * binary; restored by the parent).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

#include "perfconf.h"
#include "event/hw.h"
#include "work/clock.h"

/*
 * Exclusive: perf_user_access decides what every hardware event's mmap page
 * offers (cap_user_rdpmc), whoever reads it.
 */
PERFCONF_META("exclusive");

#define USER_ACCESS_SYSCTL "kernel/perf_user_access"
/* arm64's user access: an armhf build has it too, on arm64's compat ABI. */
#if defined(__aarch64__) || defined(__arm__)
#define ARM64_ACCESS 1
#else
#define ARM64_ACCESS 0
#endif
/* User instructions between a reading and read()'s system call: the rest of the seqlock loop and the libc wrapper. */
#define READ_SLACK 2000

struct user_read {
	uint64_t count;		/* offset + the sign-extended counter (offset alone with index 0) */
	uint64_t offset;
	uint32_t index;
	uint16_t width;
	unsigned int cap;
	unsigned int retries;
};

#if defined(__aarch64__)
#define HAVE_USER_COUNTER 1
#define EVCNTR(n) case n: asm volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break
static uint64_t read_hw_counter(uint32_t counter)
{
	uint64_t v = 0;

	switch (counter) {
	EVCNTR(0); EVCNTR(1); EVCNTR(2); EVCNTR(3); EVCNTR(4); EVCNTR(5); EVCNTR(6); EVCNTR(7);
	EVCNTR(8); EVCNTR(9); EVCNTR(10); EVCNTR(11); EVCNTR(12); EVCNTR(13); EVCNTR(14);
	EVCNTR(15); EVCNTR(16); EVCNTR(17); EVCNTR(18); EVCNTR(19); EVCNTR(20); EVCNTR(21);
	EVCNTR(22); EVCNTR(23); EVCNTR(24); EVCNTR(25); EVCNTR(26); EVCNTR(27); EVCNTR(28);
	EVCNTR(29); EVCNTR(30);
	case 31:
		asm volatile("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	default:
		break;
	}
	return v;
}

/* n iterations of two instructions. */
static void __attribute__((__noinline__)) spin(unsigned long n)
{
	asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}
#elif defined(__arm__) && !defined(__thumb__)
/*
 * AArch32 (an armhf build on arm64): the same counters through cp15, the
 * low 32 bits (enough: only a "long" event is wider): PMSELR selects an
 * event counter for PMXEVCNTR; PMCCNTR is the cycle counter.
 * PMUSERENR_EL0 grants EL0 both states' accesses alike.
 */
#define HAVE_USER_COUNTER 1
static uint64_t read_hw_counter(uint32_t counter)
{
	uint32_t v;

	if (counter == 31)
		asm volatile("mrc p15, 0, %0, c9, c13, 0" : "=r"(v));
	else
		asm volatile("mcr p15, 0, %1, c9, c12, 5\n\tisb\n\tmrc p15, 0, %0, c9, c13, 2"
			     : "=r"(v) : "r"(counter));
	return v;
}

static void __attribute__((__noinline__)) spin(unsigned long n)
{
	asm volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
}
#elif defined(__x86_64__) || defined(__i386__)
#define HAVE_USER_COUNTER 1
static uint64_t read_hw_counter(uint32_t counter)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return ((uint64_t)hi << 32) | lo;
}

static void __attribute__((__noinline__)) spin(unsigned long n)
{
	asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}
#else
#define HAVE_USER_COUNTER 0
static uint64_t read_hw_counter(uint32_t counter)
{
	return 0;
}

static void spin(unsigned long n)
{
	pc_work_loop(n);
}
#endif

/* The page's reading protocol; the counter is read only where index says there is one. */
static void __attribute__((__noinline__)) user_read(const struct perf_event_mmap_page *page, struct user_read *r)
{
	const volatile struct perf_event_mmap_page *pc = page;
	uint32_t seq;

	r->retries = 0;
	for (;;) {
		uint64_t val = 0;

		seq = __atomic_load_n(&page->lock, __ATOMIC_ACQUIRE);
		r->cap = pc->cap_user_rdpmc;
		r->index = pc->index;
		r->width = pc->pmc_width;
		r->offset = pc->offset;
		if (r->cap && r->index) {
			int64_t c = (int64_t)read_hw_counter(r->index - 1);

			if (r->width > 0 && r->width < 64) {
				c = (int64_t)((uint64_t)c << (64 - r->width));
				c >>= 64 - r->width;
			}
			val = (uint64_t)c;
		}
		r->count = r->offset + val;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(seq & 1) && __atomic_load_n(&page->lock, __ATOMIC_RELAXED) == seq)
			break;
		r->retries++;
	}
}

#if ARM64_ACCESS
static sigjmp_buf trap_jmp;

static void on_sigill(int sig)
{
	siglongjmp(trap_jmp, 1);
}

/* 1 when reading the cycle counter from EL0 trapped (SIGILL), 0 when it read. */
static int el0_read_traps(void)
{
	struct sigaction sa = { .sa_handler = on_sigill }, old;
	volatile int trapped = 0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, &old);
	if (!sigsetjmp(trap_jmp, 1))
		(void)read_hw_counter(31);
	else
		trapped = 1;
	sigaction(SIGILL, &old, NULL);
	return trapped;
}
#endif

/*
 * A software event has no hardware counter: index 0 and cap_user_rdpmc 0
 * even while it counts, on every machine (the disabled case is
 * abi/mmap_page's). Its count is read().
 */
TEST(software_event_has_no_counter_to_read)
{
	struct perfconf_attr a = pc_attr_sw(PERF_COUNT_SW_TASK_CLOCK);
	struct pc_ring ring = { 0 };
	struct pc_perf_clock clk;
	struct user_read r;
	uint64_t v = 0;
	int fd, err;

	a.exclude_kernel = 1;
	fd = pc_open(&a, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	err = pc_ring_map(&ring, fd, 0, PC_RING_READWRITE);
	ASSERT_EQ(0, err) TH_LOG("%s", pc_errno_name(-err));
	ASSERT_EQ(0, pc_perf_clock_open(&clk));
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_loop(100000);
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));	/* task-clock counts perf's clock: let it move */
	pc_perf_clock_close(&clk);
	user_read(ring.page, &r);
	ASSERT_EQ(0, pc_read_count(fd, &v));
	ASSERT_EQ(0, pc_disable(fd));
	pc_ring_unmap(&ring);
	close(fd);

	EXPECT_EQ(0, r.cap);
	EXPECT_EQ(0, r.index);
	EXPECT_LT(0, v);	/* it did count: the index is not 0 for want of running */
}

/* A PMU reading: open, map, enable. SKIPs end the case where the kernel or machine lacks it. */
struct hw_event {
	int fd;
	struct pc_ring ring;
};

/* The arm64 attr: the core PMU's event by name, with the rdpmc term. */
static int arm64_rdpmc_attr(struct perfconf_attr *a, const char *event, int rdpmc)
{
	const char *pmu = pc_hw_pmu();
	int err;

	if (!pmu)
		return -ENOENT;
	err = pc_attr_pmu_event(a, pmu, event);
	if (err)
		return err;
	a->exclude_kernel = 1;
	return rdpmc ? pc_attr_set_format(a, pmu, "rdpmc", 1) : 0;
}

/* Sysctl at `on` (arm64), SKIP where this kernel has neither the sysctl nor the term. */
#define REQUIRE_USER_ACCESS(on) do { \
	struct pc_pmu_format f_; \
	long now_ = -1; \
	int e_; \
	REQUIRE_HW_PMU(); \
	if (pc_pmu_format(pc_hw_pmu(), "rdpmc", &f_)) \
		SKIP(return, "%s has no rdpmc format term (arm64 user access is 5.17)", pc_hw_pmu()); \
	if (pc_sysctl_get(USER_ACCESS_SYSCTL, &now_)) \
		SKIP(return, "no %s sysctl (5.17)", USER_ACCESS_SYSCTL); \
	e_ = pc_sysctl_set(USER_ACCESS_SYSCTL, (on)); \
	if (e_) \
		BLOCKED("cannot set %s to %d (%s)", USER_ACCESS_SYSCTL, (on), pc_errno_name(-e_)); \
	ASSERT_EQ(0, pc_sysctl_get(USER_ACCESS_SYSCTL, &now_)); \
	ASSERT_EQ((on), now_); \
} while (0)

FIXTURE(user_access) {
	int fd;
	struct pc_ring ring;
};

FIXTURE_VARIANT(user_access) {
	const char *arm64_event;	/* events/ name of the arm64 core PMU */
	uint64_t hw_config;		/* the x86 generalized event */
	int exact;			/* counts the loop's instructions */
};

/* An event counter: PMEVCNTR<index - 1>. */
FIXTURE_VARIANT_ADD(user_access, instructions) {
	.arm64_event = "inst_retired", .hw_config = PERF_COUNT_HW_INSTRUCTIONS, .exact = 1,
};
/* The cycle counter (arm64: index 32, PMCCNTR_EL0). */
FIXTURE_VARIANT_ADD(user_access, cycles) {
	.arm64_event = "cpu_cycles", .hw_config = PERF_COUNT_HW_CPU_CYCLES, .exact = 0,
};

FIXTURE_SETUP(user_access)
{
	self->fd = -1;
	memset(&self->ring, 0, sizeof(self->ring));
	if (!HAVE_USER_COUNTER)
		SKIP(return, "no user counter read known for %s", pc_kernel()->arch);
	REQUIRE_HW_PMU();
#if ARM64_ACCESS
	REQUIRE_USER_ACCESS(1);
#endif
}

/* The case runs in a child of its own: its fd and ring go with it; the sysctl is restored here. */
FIXTURE_TEARDOWN_PARENT(user_access)
{
#if ARM64_ACCESS
	pc_sysctl_restore(USER_ACCESS_SYSCTL);
#endif
}

/* Open the variant's event on this task with user access asked for, map it, enable it. */
#define OPEN_USER_EVENT() do { \
	struct perfconf_attr a_; \
	int e_; \
	if (!strcmp(pc_kernel()->arch, "aarch64")) { \
		e_ = arm64_rdpmc_attr(&a_, variant->arm64_event, 1); \
		if (e_ == -ENOENT) \
			SKIP(return, "no %s event on %s", variant->arm64_event, pc_hw_pmu()); \
		ASSERT_EQ(0, e_) TH_LOG("%s", pc_errno_name(-e_)); \
	} else { \
		char buf_[16] = ""; \
		FILE *f_ = fopen("/sys/bus/event_source/devices/cpu/rdpmc", "r"); \
		if (f_) { \
			if (!fgets(buf_, sizeof(buf_), f_)) \
				buf_[0] = 0; \
			fclose(f_); \
		} \
		if (buf_[0] == '0') \
			SKIP(return, "rdpmc is turned off (/sys/bus/event_source/devices/cpu/rdpmc)"); \
		REQUIRE_HW_EVENT(variant->hw_config); \
		a_ = pc_attr_hw(variant->hw_config); \
		a_.exclude_kernel = 1; \
	} \
	self->fd = pc_open(&a_, 0, -1, -1, 0); \
	SKIP_IF_UNSUPPORTED(pc_last_open_errno(), variant->arm64_event); \
	ASSERT_OPEN(self->fd); \
	e_ = pc_ring_map(&self->ring, self->fd, 0, PC_RING_READWRITE); \
	ASSERT_EQ(0, e_) TH_LOG("%s", pc_errno_name(-e_)); \
	ASSERT_EQ(0, pc_enable(self->fd)); \
} while (0)

/*
 * "cap_user_rdpmc": the counter is readable; the user reading (offset +
 * the sign-extended counter) is at most what read() says right after,
 * by no more than the instructions in between; after disabling, the page
 * has index 0 and its offset is the count read() gives.
 */
TEST_F(user_access, user_reading_agrees_with_read)
{
	struct user_read r, d;
	uint64_t v = 0, fin = 0;

	OPEN_USER_EVENT();
	spin(1000);
	user_read(self->ring.page, &r);
	ASSERT_EQ(0, pc_read_count(self->fd, &v));
	ASSERT_EQ(0, pc_disable(self->fd));
	ASSERT_EQ(0, pc_read_count(self->fd, &fin));
	user_read(self->ring.page, &d);

	ASSERT_EQ(1, r.cap);
	ASSERT_NE(0, r.index) TH_LOG("no counter index while the event runs");
#if ARM64_ACCESS
	{
		ASSERT_EQ(0, pc_enable(self->fd));
		EXPECT_EQ(0, el0_read_traps()) TH_LOG("user access is on, yet the counter read traps");
		ASSERT_EQ(0, pc_disable(self->fd));
	}
#endif
	if (!strcmp(pc_kernel()->arch, "aarch64")) {
		EXPECT_EQ(32, r.width);	/* not a "long" event */
	} else {
		EXPECT_LT(0, r.width);
	}
	pc_observe("index", "%u", r.index);
	EXPECT_LE(2000, r.count) TH_LOG("the loop alone is 2000 instructions");
	EXPECT_LE(r.count, v) TH_LOG("user %llu, read() %llu", (unsigned long long)r.count,
				     (unsigned long long)v);
	EXPECT_GE(r.count + READ_SLACK, v) TH_LOG("user %llu, read() %llu", (unsigned long long)r.count,
						  (unsigned long long)v);
	EXPECT_EQ(0, d.index) TH_LOG("a disabled event still names a counter");
	EXPECT_EQ(fin, d.count) TH_LOG("page offset %llu, read() %llu", (unsigned long long)d.offset,
				       (unsigned long long)fin);
}

/*
 * Two user readings around a loop of n iterations differ by the loop's
 * 2n instructions plus the same small overhead for every n; on an exactly
 * counting PMU (qemu's, a software model) by exactly 2 per iteration more
 * for the bigger loop.
 */
TEST_F(user_access, user_readings_count_the_work_between)
{
	static const unsigned long sizes[] = { 10, 1000, 100000 };
	uint64_t d[3] = { 0 };
	size_t i;

	OPEN_USER_EVENT();
	for (i = 0; i < 3; i++) {
		struct user_read a, b;
		int tries;

		for (tries = 0; tries < 5; tries++) {
			user_read(self->ring.page, &a);
			spin(sizes[i]);
			user_read(self->ring.page, &b);
			if (!a.retries && !b.retries && a.index == b.index)
				break;
		}
		ASSERT_NE(0, a.index);
		d[i] = b.count - a.count;
		if (variant->exact) {
			EXPECT_LE(2 * sizes[i], d[i]) TH_LOG("n %lu", sizes[i]);
			EXPECT_GE(2 * sizes[i] + READ_SLACK, d[i]) TH_LOG("n %lu", sizes[i]);
		} else {
			/* cycles: the loop is a chain of dependent decrements */
			EXPECT_LE(sizes[i], d[i]) TH_LOG("n %lu", sizes[i]);
		}
	}
	ASSERT_EQ(0, pc_disable(self->fd));
	if (variant->exact && !strcmp(pc_kernel()->arch, "aarch64") && pc_hw_arm64_software_model()) {
		EXPECT_EQ(2 * (sizes[1] - sizes[0]), d[1] - d[0]);
		EXPECT_EQ(2 * (sizes[2] - sizes[0]), d[2] - d[0]);
	}
}


/*
 * The control: with kernel.perf_user_access at 0 the same event (rdpmc
 * term set) opens and counts, but its page names no counter (index 0),
 * and a read of the counter from user space traps; with 1 it does not
 * (user_reading_agrees_with_read).
 */
FIXTURE(access_off) {};
FIXTURE_SETUP(access_off) {}
FIXTURE_TEARDOWN_PARENT(access_off)
{
#if ARM64_ACCESS
	pc_sysctl_restore(USER_ACCESS_SYSCTL);
#endif
}

TEST_F(access_off, arm64_index_is_zero_and_reads_trap)
{
#if !ARM64_ACCESS
	SKIP(return, "arm64's perf_user_access (this is %s)", pc_kernel()->arch);
#else
	struct perfconf_attr a;
	struct pc_ring ring = { 0 };
	struct user_read r;
	uint64_t v = 0;
	int fd, err, trapped;

	REQUIRE_USER_ACCESS(0);
	err = arm64_rdpmc_attr(&a, "inst_retired", 1);
	if (err == -ENOENT)
		SKIP(return, "no inst_retired event on %s", pc_hw_pmu());
	ASSERT_EQ(0, err);
	fd = pc_open(&a, 0, -1, -1, 0);
	SKIP_IF_UNSUPPORTED(pc_last_open_errno(), "inst_retired");
	ASSERT_OPEN(fd);
	err = pc_ring_map(&ring, fd, 0, PC_RING_READWRITE);
	ASSERT_EQ(0, err) TH_LOG("%s", pc_errno_name(-err));
	ASSERT_EQ(0, pc_enable(fd));
	spin(1000);
	user_read(ring.page, &r);
	trapped = el0_read_traps();
	ASSERT_EQ(0, pc_read_count(fd, &v));
	ASSERT_EQ(0, pc_disable(fd));
	pc_ring_unmap(&ring);
	close(fd);

	pc_observe("off.cap_user_rdpmc", "%u", r.cap);
	EXPECT_EQ(0, r.index);
	EXPECT_LE(2000, v);
	EXPECT_EQ(1, trapped) TH_LOG("the cycle counter was readable from EL0 with user access off");
#endif
}

/*
 * A counter readable from user space must belong to one task: the rdpmc
 * term on a CPU-wide event is EINVAL (__armv8_pmuv3_map_event, 6.12
 * drivers/perf/arm_pmuv3.c:1138); the same event without it opens.
 */
TEST(arm64_rdpmc_term_needs_a_task)
{
#if !ARM64_ACCESS
	SKIP(return, "arm64's rdpmc format term (this is %s)", pc_kernel()->arch);
#else
	struct perfconf_attr a;
	struct pc_pmu_format f;
	int cpu = sched_getcpu(), err;

	REQUIRE_HW_PMU();
	if (pc_pmu_format(pc_hw_pmu(), "rdpmc", &f))
		SKIP(return, "%s has no rdpmc format term (arm64 user access is 5.17)", pc_hw_pmu());
	ASSERT_LE(0, cpu);
	err = arm64_rdpmc_attr(&a, "inst_retired", 0);
	if (err == -ENOENT)
		SKIP(return, "no inst_retired event on %s", pc_hw_pmu());
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, pc_open_errno(&a, -1, cpu, -1, 0)) TH_LOG("the control, without the term");
	ASSERT_EQ(0, arm64_rdpmc_attr(&a, "inst_retired", 1));
	EXPECT_ERRNO(EINVAL, pc_open_errno(&a, -1, cpu, -1, 0));
	EXPECT_ERRNO(0, pc_open_errno(&a, 0, -1, -1, 0)) TH_LOG("the same term on this task");
#endif
}

TEST_HARNESS_MAIN
