// SPDX-License-Identifier: GPL-2.0
/*
 * sample_max_stack (since Linux 4.8): "When sample_type includes
 * PERF_SAMPLE_CALLCHAIN, this field specifies how many stack frames to
 * report when generating the callchain." A value above
 * /proc/sys/kernel/perf_event_max_stack is EOVERFLOW; the sysctl itself is
 * accepted; 0 means the sysctl's value.
 *
 * A page fault at the bottom of a recursion DEPTH frames deep (built with
 * frame pointers, or on s390x the back chain, so the kernel's user
 * unwinder can walk it) is sampled
 * with the default limit and with a small one: the limited callchain is
 * the PERF_CONTEXT_USER marker and the first `sample_max_stack` addresses
 * of the full one. Two events that sample the same fault at once keep to
 * their own limits. The sysctl is read, never changed.
 */
#include "perfconf.h"
#include "work/faults.h"

PERFCONF_META("reads=perf_event_max_stack");

#define DEPTH 40

/*
 * Frame pointers and real calls all the way down, so the chain can be
 * walked. s390's user unwinder follows the back chain instead
 * (arch/s390/kernel/stacktrace.c, arch_stack_walk_user_common), which gcc
 * stores only with -mbackchain: these frames keep it.
 */
#if defined(__s390x__)
#define WALKABLE_ARCH_ , target("backchain")
#else
#define WALKABLE_ARCH_
#endif
#define WALKABLE __attribute__((__noinline__, __noipa__, \
				optimize("no-omit-frame-pointer", "no-optimize-sibling-calls") \
				WALKABLE_ARCH_))

static WALKABLE int descend(struct pc_faults *f, int depth)
{
	if (depth == 0) {
		/* pc_fault_write is a leaf that leaves the frame pointer alone. */
		pc_fault_write(f->base + f->next++ * f->page_size);
		return 0;
	}
	int r = descend(f, depth - 1);
	__asm__ volatile("" ::: "memory");
	return r + 1;
}

/*
 * SKIP where the kernel's user unwinder did not walk the recursion at all
 * (n addresses, the faulting one and one more): no limit can show.
 */
#if defined(__arm__)
#define UNWALKED_WHY ": arm64's compat unwinder reads APCS frames (fp, sp, lr below fp), not this build's AAPCS ones"
#else
#define UNWALKED_WHY ""
#endif
#define REQUIRE_WALKED(n) do { \
	if ((n) <= 2) \
		SKIP(return, "the user unwinder found only %zu frames of a %d-deep recursion%s", \
		     (size_t)(n), DEPTH, UNWALKED_WHY); \
} while (0)

static long max_stack(void)
{
	long max;

	return pc_sysctl_get(PC_MAX_STACK_SYSCTL, &max) ? -1 : max;
}


/*
 * In a test: into attr, a callchain sampler whose sample_max_stack is one
 * above the sysctl; SKIP where no u16 is above it.
 */
#define ABOVE_THE_SYSCTL(attr) do { \
	long max_ = max_stack(); \
	ASSERT_LT(0, max_); \
	if (max_ >= UINT16_MAX) \
		SKIP(return, "perf_event_max_stack is %ld: no u16 is above it", max_); \
	attr = pc_attr_user_callchain_sampler((uint16_t)(max_ + 1)); \
} while (0)

/* Addresses in a callchain, context markers left out. */
static size_t addresses(const struct pc_sample *s)
{
	size_t n = 0;

	for (uint64_t i = 0; i < s->callchain_nr; i++)
		n += s->callchain[i] < PERF_CONTEXT_MAX;
	return n;
}

/* A fault DEPTH frames down, always from this one call site. */
static void fault_deep(struct pc_faults *f)
{
	descend(f, DEPTH);
}

/* The one sample of a fault DEPTH frames down, taken by an event with this limit. */
static void sample_deep_fault(struct __test_metadata *_metadata, uint16_t limit, struct pc_capture *cap)
{
	struct perfconf_attr attr = pc_attr_user_callchain_sampler(limit);
	struct pc_faults f;

	ASSERT_ERRNO(0, -pc_capture_open(cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_faults_map(&f, 2));
	fault_deep(&f);			/* the path's own faults, unsampled */
	ASSERT_EQ(0, pc_enable(cap->fd));
	fault_deep(&f);
	ASSERT_EQ(0, pc_disable(cap->fd));
	pc_faults_unmap(&f);
	ASSERT_CAPTURE_READ(cap);
	ASSERT_EQ(1, pc_capture_count(cap, PERF_RECORD_SAMPLE));
}

static const struct pc_sample *the_sample(const struct pc_capture *cap)
{
	return pc_capture_sample(cap, 0);
}

/*
 * The same fault sampled with the default limit and with `limit`: the
 * limited callchain is the marker and the first `limit` addresses of the
 * full one.
 */
static void expect_prefix(struct __test_metadata *_metadata, uint16_t limit)
{
	struct pc_capture full, cut;

	sample_deep_fault(_metadata, 0, &full);
	sample_deep_fault(_metadata, limit, &cut);
	const struct pc_sample *all = the_sample(&full), *few = the_sample(&cut);

	if (addresses(all) <= limit)
		SKIP(return, "the user unwinder found only %zu frames of a %d-deep recursion",
		     addresses(all), DEPTH);
	ASSERT_LE(1, few->callchain_nr);
	EXPECT_EQ(PERF_CONTEXT_USER, few->callchain[0]);
	EXPECT_EQ(limit, addresses(few));
	EXPECT_EQ(limit + 1, few->callchain_nr);
	for (uint64_t i = 0; i < few->callchain_nr && i < all->callchain_nr; i++) {
		EXPECT_EQ(all->callchain[i], few->callchain[i])
			TH_LOG("entry %llu", (unsigned long long)i);
	}
	EXPECT_TRUE(pc_fault_ip(few->callchain[1]));
	pc_capture_close(&full);
	pc_capture_close(&cut);
}

TEST(callchain_is_cut_at_the_limit)
{
	expect_prefix(_metadata, 8);
}

TEST(one_frame)
{
	expect_prefix(_metadata, 1);
}

/*
 * Two events sampling the same fault at once, with limits 8 and 0 (the
 * sysctl): each callchain keeps to its own event's limit.
 */
TEST(each_event_its_own_limit)
{
	struct perfconf_attr a = pc_attr_user_callchain_sampler(8), b = pc_attr_user_callchain_sampler(0);
	struct pc_capture ca, cb;
	struct pc_faults f;

	ASSERT_ERRNO(0, -pc_capture_open(&ca, &a, 0, -1));
	ASSERT_ERRNO(0, -pc_capture_open(&cb, &b, 0, -1));
	ASSERT_EQ(0, pc_faults_map(&f, 2));
	fault_deep(&f);
	ASSERT_EQ(0, pc_enable(ca.fd));
	ASSERT_EQ(0, pc_enable(cb.fd));
	fault_deep(&f);
	ASSERT_EQ(0, pc_disable(cb.fd));
	ASSERT_EQ(0, pc_disable(ca.fd));
	pc_faults_unmap(&f);
	ASSERT_CAPTURE_READ(&ca);
	ASSERT_CAPTURE_READ(&cb);
	ASSERT_EQ(1, pc_capture_count(&ca, PERF_RECORD_SAMPLE));
	ASSERT_EQ(1, pc_capture_count(&cb, PERF_RECORD_SAMPLE));
	size_t na = addresses(the_sample(&ca)), nb = addresses(the_sample(&cb));
	REQUIRE_WALKED(nb);
	EXPECT_EQ(8, na) TH_LOG("the sample_max_stack=8 event's callchain");
	EXPECT_LT(DEPTH, nb) TH_LOG("the sample_max_stack=0 event's callchain");
	pc_capture_close(&ca);
	pc_capture_close(&cb);
}

/* 0 is the sysctl's value: the chain holds the whole recursion. */
TEST(zero_means_the_sysctl)
{
	struct pc_capture full;
	long max = max_stack();

	ASSERT_LT(0, max);
	if (max <= DEPTH + 1)
		SKIP(return, "perf_event_max_stack is %ld, not deeper than the recursion", max);
	sample_deep_fault(_metadata, 0, &full);
	size_t n = addresses(the_sample(&full));
	REQUIRE_WALKED(n);
	EXPECT_LT(DEPTH, n) TH_LOG("a %d-deep recursion gave %zu frames", DEPTH, n);
	EXPECT_GE(max, n);
	pc_capture_close(&full);
}

/* "EOVERFLOW ... sample_max_stack is larger than the maximum specified in perf_event_max_stack" */
TEST(above_the_sysctl_is_eoverflow)
{
	struct perfconf_attr attr;

	ABOVE_THE_SYSCTL(attr);
	EXPECT_ERRNO(EOVERFLOW, pc_open_observe_errno("errno", &attr, 0, -1));
	attr.sample_max_stack = UINT16_MAX;
	EXPECT_ERRNO(EOVERFLOW, pc_open_observe_errno("errno_u16_max", &attr, 0, -1));
}

TEST(the_sysctl_itself_is_accepted)
{
	long max = max_stack();

	ASSERT_LT(0, max);
	if (max > UINT16_MAX)
		SKIP(return, "perf_event_max_stack is %ld: beyond a u16", max);
	struct perfconf_attr attr = pc_attr_user_callchain_sampler((uint16_t)max);
	EXPECT_ERRNO(0, pc_open_observe_errno("errno", &attr, 0, -1));
}

/* EOVERFLOW is for a callchain event: without PERF_SAMPLE_CALLCHAIN the limit is not looked at. */
TEST(above_the_sysctl_without_callchain)
{
	struct perfconf_attr attr;

	ABOVE_THE_SYSCTL(attr);
	attr.sample_type = PERF_SAMPLE_IP;
	EXPECT_ERRNO(0, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST_HARNESS_MAIN
