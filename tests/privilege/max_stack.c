// SPDX-License-Identifier: GPL-2.0
/*
 * The callchain depth cap, in every cell of identity x perf_event_paranoid.
 *
 * perf_event_open(2): "EOVERFLOW (since Linux 4.8) Returned if
 * PERF_SAMPLE_CALLCHAIN is requested and sample_max_stack is larger than
 * the maximum specified in /proc/sys/kernel/perf_event_max_stack."
 * get_callchain_buffers() checks it with no exemption: a sample_max_stack
 * of the sysctl plus one is refused with EOVERFLOW to every identity at
 * every level, root included (where the event may be opened at all: a
 * sampler of this task's user-mode page faults, open to everyone up to
 * level 2; Debian's 3 closes it with EACCES first). The callchain asked
 * for is the user's only (exclude_kernel and exclude_callchain_kernel): a
 * kernel callchain is itself kernel profiling, which perf_allow_kernel()
 * would refuse first at level 2.
 *
 * The control, in the same case: sample_max_stack at the sysctl itself
 * opens wherever the event does, and works: each fault is one sample,
 * whose callchain is the user context marker, then the faulting IP, and
 * no more than sample_max_stack addresses in all. The kernel never changes
 * the sysctl by itself (and refuses a write while callchain buffers are in
 * use), so reading it once cannot race.
 */
#define CELL_READS " reads=perf_event_max_stack"
#include "cells.h"
#include "ring/sample_site.h"
#include "work/faults.h"

#define N 8

/*
 * Open a sampler of this task's user-mode page faults with their user
 * callchains, sample_max_stack = limit, into cap: 0, or the errno.
 */
static int open_callchain_sampler(struct pc_capture *cap, uint16_t limit)
{
	struct perfconf_attr attr = pc_attr_user_callchain_sampler(limit);

	attr.exclude_hv = 1;
	return -pc_capture_open(cap, &attr, 0, -1);
}

/* Addresses in a callchain, context markers left out. */
static size_t addresses(const struct pc_sample *s)
{
	size_t n = 0;

	for (uint64_t i = 0; i < s->callchain_nr; i++)
		n += !pc_callchain_is_marker(s->callchain[i]);
	return n;
}

CELL_CASE(above_max)
{
	long max;
	struct pc_faults f = { 0 };
	struct pc_capture cap;

	ASSERT_EQ(0, pc_sysctl_get(PC_MAX_STACK_SYSCTL, &max));
	if (max >= UINT16_MAX)
		SKIP(return, "perf_event_max_stack is %ld: no sample_max_stack (a u16) is above it", max);
	ASSERT_LT(0, max);
	int err = open_callchain_sampler(&cap, (uint16_t)(max + 1));
	CELL_ALLOWS(err, PC_GATE_USER, PC_GATE_MAX_STACK);	/* nobody */
	pc_capture_close(&cap);

	/* The control: refused only where the event itself is (with the same errno). */
	int ctl = open_callchain_sampler(&cap, (uint16_t)max);
	EXPECT_ERRNO(err == EOVERFLOW ? 0 : err, ctl) TH_LOG("sample_max_stack at perf_event_max_stack");
	if (ctl == 0) {
		ASSERT_EQ(0, pc_faults_map(&f, N + 1));
		ASSERT_EQ(0, pc_faults_enabled(&f, cap.fd, N));
		ASSERT_CAPTURE_READ(&cap);
		ASSERT_EQ(N, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
		for (size_t k = 0; k < N; k++) {
			const struct pc_sample *s = pc_capture_sample(&cap, k);

			ASSERT_LE(2, s->callchain_nr) TH_LOG("sample %zu", k);
			EXPECT_EQ(PERF_CONTEXT_USER, s->callchain[0]) TH_LOG("sample %zu", k);
			EXPECT_EQ(s->ip, s->callchain[1]) TH_LOG("sample %zu", k);
			EXPECT_TRUE(pc_fault_ip(s->ip)) TH_LOG("sample %zu: ip %#llx", k, (unsigned long long)s->ip);
			EXPECT_GE(max, addresses(s)) TH_LOG("sample %zu", k);
		}
	}
	pc_capture_close(&cap);
	pc_faults_unmap(&f);
}

TEST_HARNESS_MAIN
