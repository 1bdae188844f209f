// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling the kernel on behalf of one's own task, in every cell of
 * identity x perf_event_paranoid.
 *
 * perf_event_open(2): ">= 2 Disallow kernel profiling by users without
 * CAP_PERFMON." A sampler with exclude_kernel = 0 records the kernel's
 * instruction pointers, so perf_event_open() asks perf_allow_kernel() for
 * it: refused with EACCES at level >= 2 to users who are not
 * perfmon_capable(). A kernel callchain (PERF_SAMPLE_CALLCHAIN without
 * exclude_callchain_kernel) is itself a kernel-profiling request: 6.12's
 * perf_event_open() asks perf_allow_kernel() for it too, even on a
 * user-only event (a 2026 fix, "perf/core: Check kernel access when kernel
 * callchains are requested", backported to the stable lines: Debian's
 * 6.12.113 has it; kernels without it open a user-only event with a
 * kernel callchain). The events here do not exclude the kernel, so the
 * exclude_kernel check decides on every kernel, with or without it.
 *
 * The samples are the page faults the kernel takes while writing to this
 * task's memory (exclude_user = 1, sample_period 1). Where allowed there
 * is exactly one sample per fault, taken in the kernel
 * (PERF_RECORD_MISC_KERNEL) at a kernel IP (in the upper half of the
 * address space on x86_64 and arm64), and with PERF_SAMPLE_CALLCHAIN a
 * callchain that starts with PERF_CONTEXT_KERNEL and a kernel frame.
 */
#include "cells.h"
#include "ring/sample_site.h"

#define N 16

/*
 * Whether addr is a kernel address: the upper half on x86_64 and arm64
 * (the top bit set, whatever the layout); elsewhere, at least outside
 * every mapping of this process.
 */
static bool kernel_address(uint64_t addr)
{
#if defined(__x86_64__) || defined(__aarch64__)
	return addr >> 63;
#else
	return pc_addr_class(addr) == PC_ADDR_UNMAPPED;
#endif
}

/*
 * Sample N page faults the kernel takes for this task, with sample_type
 * besides IP, into cap: 0, or the errno of the open (cap->fd is -1 then).
 */
static int sample_kernel_faults(struct __test_metadata *_metadata, struct pc_capture *cap,
				uint64_t sample_type)
{
	struct perfconf_attr attr = pc_attr_kernel_sampling(PERF_SAMPLE_IP | sample_type);
	int err = pc_capture_run(cap, &attr, pc_kernel_faults_work, PC_N(N));

	if (cap->fd < 0)
		return -err;
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap->error);
	return 0;
}

/* Exactly N samples, each taken in the kernel at a kernel IP. */
static void expect_kernel_samples(struct __test_metadata *_metadata, const struct pc_capture *cap)
{
	ASSERT_EQ(N, pc_capture_count(cap, PERF_RECORD_SAMPLE));
	for (size_t i = 0; i < N; i++) {
		const struct pc_record *r = pc_capture_find(cap, PERF_RECORD_SAMPLE, i);

		EXPECT_EQ(PERF_RECORD_MISC_KERNEL, r->misc & PERF_RECORD_MISC_CPUMODE_MASK);
		EXPECT_TRUE(kernel_address(r->sample.ip))
			TH_LOG("sample %zu: ip %#llx", i, (unsigned long long)r->sample.ip);
	}
}

CELL_CASE(kernel_ip)
{
	struct pc_capture cap;
	int err = sample_kernel_faults(_metadata, &cap, 0);

	if (CELL_ALLOWS(err, PC_GATE_KERNEL))
		expect_kernel_samples(_metadata, &cap);
	pc_capture_close(&cap);
}

/* Each callchain starts with the kernel marker and a kernel frame. */
CELL_CASE(kernel_callchain)
{
	struct pc_capture cap;
	int err = sample_kernel_faults(_metadata, &cap, PERF_SAMPLE_CALLCHAIN);

	if (CELL_ALLOWS(err, PC_GATE_KERNEL)) {
		expect_kernel_samples(_metadata, &cap);
		for (size_t i = 0; i < N; i++) {
			const struct pc_sample *s = pc_capture_sample(&cap, i);

			ASSERT_LE(2, s->callchain_nr);
			EXPECT_EQ(PERF_CONTEXT_KERNEL, s->callchain[0]);
			EXPECT_FALSE(pc_callchain_is_marker(s->callchain[1]));
			EXPECT_TRUE(kernel_address(s->callchain[1]))
				TH_LOG("sample %zu: first frame %#llx", i, (unsigned long long)s->callchain[1]);
		}
	}
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
