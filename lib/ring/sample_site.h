/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Samples taken at a known place, and where their addresses lie: for tests
 * of what a sample holds (callchains, registers, the user stack).
 *
 *  - In the kernel, on behalf of this task, with a user part: a page
 *    fault the kernel takes while a system call writes into a fresh user
 *    page (software event PAGE_FAULTS, exclude_user = 1, sample_period 1).
 *    Each fault is one sample; its IP and interrupted registers are the
 *    kernel's, its user registers those of the system call. (A syscall
 *    tracepoint would not do: it passes the syscall's user registers, so
 *    its samples are user-mode samples with no kernel callchain.)
 *  - In user mode, at a function: a uprobe on its first instruction,
 *    sample_period 1. Each call is one sample, taken in the task that
 *    made the call, with that task's user registers: the kernel's uprobe
 *    handler puts the instruction pointer back on the probed address
 *    before the perf handler runs, so the sample's IP (and user PC
 *    register) is the function's address, and its first instruction has
 *    not run: the argument registers still hold the arguments, SP is the
 *    caller's at the call. The sample is a user-mode one: its interrupted
 *    registers are these same user registers, its callchain a user part
 *    only. (A uprobe works where breakpoints do not fire, on every arch
 *    with uprobes: a software breakpoint instruction, x86 int3, arm64 BRK.)
 *
 *	struct perfconf_attr a;
 *	FUNCTION_SAMPLING(&a, target, PERF_SAMPLE_IP);
 *	ASSERT_EQ(0, pc_capture_run(&cap, &a, call_target, NULL));
 */
#ifndef PERFCONF_SAMPLE_SITE_H
#define PERFCONF_SAMPLE_SITE_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "ring/capture.h"
#include "abi/uapi.h"
#include "work/workload.h"

/*
 * pc_attr_function_sampling() in a test: SKIP where there is no uprobe PMU;
 * blocked where uprobes do not work here, or where a breakpoint samples
 * instead and breakpoints do not count.
 */
#define FUNCTION_SAMPLING(attr, func, sample_type) do { \
	CALLS_INSTRUMENT_(); \
	int e_ = pc_attr_function_sampling(attr, (const void *)(func), sample_type); \
	if (e_ == -ENOENT) \
		SKIP(return, "no uprobe PMU to sample a function with"); \
	ASSERT_EQ(0, e_) TH_LOG("a uprobe on %s: %s", #func, pc_errno_name(-e_)); \
} while (0)
/*
 * A noinline function of two integer arguments to sample at, and its
 * caller as a pc_work_fn: PC_N(n) calls, the k-th with PC_PROBE_ARG0 + k
 * and PC_PROBE_ARG1.
 */
void pc_probe(uint64_t a, uint64_t b);
void pc_probe_work(void *n);
#define PC_PROBE_ARG0 0x5eed0000a11ce000ULL
#define PC_PROBE_ARG1 0x0000b0b0cafe0001ULL

/*
 * An address of kernel text, learned without kallsyms: the IP of a sample
 * of a page fault taken in the kernel. 0, or -errno.
 */
int pc_addr_kernel_text(uint64_t *addr);

/*
 * Callchains. A context marker (PERF_CONTEXT_KERNEL, PERF_CONTEXT_USER...)
 * is an entry >= PERF_CONTEXT_MAX; the ips after it are in that context.
 */
bool pc_callchain_is_marker(uint64_t entry);
/* How many entries equal value. */
unsigned int pc_callchain_count(const struct pc_sample *s, uint64_t value);
/* The index of the first entry equal to value, or -ENOENT. */
long pc_callchain_find(const struct pc_sample *s, uint64_t value);

/*
 * Whether addr lies in one of this process's mappings (/proc/self/maps),
 * and if so whether that mapping is executable. Kernel text never does.
 */
enum pc_addr_class {
	PC_ADDR_UNMAPPED,
	PC_ADDR_DATA,	/* mapped, not executable */
	PC_ADDR_TEXT,	/* mapped executable: the binary, a library, the vdso */
};
enum pc_addr_class pc_addr_class(uint64_t addr);

#endif
