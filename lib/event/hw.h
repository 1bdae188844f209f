/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware events: the core PMU, and work whose instruction count is known.
 *
 * The core PMU is found by the runner's profile rule (runners/profile.c): a
 * PMU named "cpu" or "cpu_*" (x86, hybrids), "cpum_cf" (s390), or one whose
 * sysfs directory has a "cpus" file (arm, arm64 and riscv core PMUs). Where
 * there is none (x86 TCG guests, most VMs), PERF_TYPE_HARDWARE events give
 * ENOENT and every hardware case SKIPs with that reason:
 *
 *	TEST(instructions_count)
 *	{
 *		REQUIRE_HW_PMU();
 *		REQUIRE_HW_EVENT(PERF_COUNT_HW_INSTRUCTIONS);
 *		struct perfconf_attr a = pc_attr_hw(PERF_COUNT_HW_INSTRUCTIONS);
 *		uint64_t n;
 *		a.exclude_kernel = 1;
 *		ASSERT_EQ(0, pc_hw_count_loop(&a, 1000, &n));
 *		EXPECT_LE(pc_hw_loop_insns(1000), n);	(+1: the trapping svc)
 *	}
 *
 * The exact loop (pc_hw_loop_between) is one asm block: the enabling system
 * call, PC_HW_LOOP_OVERHEAD instructions, n iterations of
 * PC_HW_LOOP_INSNS instructions, the disabling system call. Nothing else
 * runs in user mode between the two calls (no compiler or C library code),
 * so a PMU that counts exactly (qemu's PMUv3 under -icount shift=0) counts
 * PC_HW_LOOP_INSNS * n + PC_HW_LOOP_OVERHEAD user-mode instructions, plus
 * the disabling svc/syscall instruction itself when the PMU counts an
 * instruction that traps as retired (a fact tests pin; qemu's PMUv3 does).
 *
 * Measured under qemu-system-aarch64 7.2 -M virt -cpu max,pauth-impdef=on
 * -icount shift=0 on Debian 5.10, 6.1, 6.12 and 7.2 kernels, with and
 * without VHE: a user-only instructions event counts 2n + 6 (n = 1, 1000,
 * 100000), every run, from AArch64 and from AArch32 (an armhf build, 6.12);
 * single-stepping the loop counts 2n + 5 on aarch64, ARM state and x86_64.
 *
 * Two things to know when measuring with it:
 *  - group members opened enabled follow the leader: enable and disable
 *    the leader alone (flags 0). PERF_IOC_FLAG_GROUP turns every member off
 *    on disable and on one by one on the next enable. And read every member
 *    before closing any: closing the leader makes enabled siblings events
 *    of their own, which count again from the next sched-in;
 *  - qemu's PMUv3 (TCG, 7.2) raises the overflow interrupt of its event
 *    counters (PMEVCNTR<n>) late, when the counter is next touched, and
 *    that of the cycle counter on time: sample with cycles there (under
 *    -icount shift=0 a cycle is an instruction).
 */
#ifndef PERFCONF_HW_H
#define PERFCONF_HW_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "abi/uapi.h"
#include "event/event.h"
#include "host/kernel.h"

/*
 * The core hardware PMU's sysfs name ("armv8_pmuv3_0", "cpu", ...), the
 * first in sorted order when there are several; NULL when there is none.
 */
const char *pc_hw_pmu(void);
/* How many core PMUs there are (hybrid x86 and big.LITTLE arm have two). */
int pc_hw_pmu_count(void);
/*
 * The errno of opening a PERF_TYPE_HARDWARE event (counting, user only,
 * on this task); 0 when it opens.
 */
int pc_hw_open_errno(uint64_t config);

/* SKIP when there is no core PMU (never a failure). */
#define REQUIRE_HW_PMU() do { \
	if (!pc_hw_pmu()) \
		SKIP(return, "no hardware PMU (HW events give %s)", \
		     pc_errno_name(pc_hw_open_errno(PERF_COUNT_HW_CPU_CYCLES))); \
} while (0)

/* SKIP when the core PMU has no such generalized event (e.g. qemu's instructions without -icount). */
#define REQUIRE_HW_EVENT(config) do { \
	int e_ = pc_hw_open_errno(config); \
	if (e_) \
		SKIP(return, "no %s event on %s (%s)", pc_hw_event_name(config), \
		     pc_hw_pmu() ? pc_hw_pmu() : "this machine", pc_errno_name(e_)); \
} while (0)

/*
 * The errnos perf_event_open(2) documents for an event the PMU does not
 * have: ENOENT ("some unsupported generic events"), EOPNOTSUPP ("hardware
 * support not available"), EINVAL (an invalid config).
 */
bool pc_hw_refusal_documented(int err);

/*
 * Names as perf spells them in keys: "cpu_cycles", "instructions", ...,
 * "ref_cpu_cycles"; "l1d", "l1i", "ll", "dtlb", "itlb", "bpu", "node";
 * "read", "write", "prefetch"; "access", "miss". "unknown" beyond the ABI.
 */
const char *pc_hw_event_name(uint64_t config);
const char *pc_hw_cache_name(unsigned int cache);
const char *pc_hw_cache_op_name(unsigned int op);
const char *pc_hw_cache_result_name(unsigned int result);

/*
 * The exact loop. PC_HW_LOOP_INSNS instructions per iteration (aarch64:
 * subs + b.ne; ARM state: subs + bne; x86_64: dec + jnz), PC_HW_LOOP_OVERHEAD instructions
 * between the enabling call's return and the loop (moves that set up the
 * disabling call).
 */
#define PC_HW_LOOP_INSNS	2
#define PC_HW_LOOP_OVERHEAD	5
/* Whether this architecture has the loop (aarch64, ARM state, x86_64). */
bool pc_hw_loop_available(void);
/*
 * SKIP a case that measures with the loop where this architecture has
 * none. riscv64 has none on purpose: an exact user-only count needs
 * counters that filter by privilege mode, and qemu 7.2's count in every
 * mode (get_ticks(): icount, or host ticks without -icount; filtering
 * came with qemu 9's Smcntrpmf support), so no loop could be exact there.
 * ppc64le has none for the same reason: qemu 7.2's POWER PMU (pseries,
 * target/ppc/power8-pmu.c) honours MMCR0's FC, FC14 and FC56 but not FCS
 * or FCP, so exclude_kernel does not stop the count in the kernel.
 */
#define REQUIRE_HW_LOOP() REQUIRE_HW_LOOP_OR(return)
/* The same in a helper: SKIP, then `statement` (return false). */
#define REQUIRE_HW_LOOP_OR(statement) do { \
	if (!pc_hw_loop_available()) \
		SKIP(statement, "no exact loop for %s", pc_kernel()->arch); \
} while (0)

/*
 * Why a hardware event with a branch stack (PERF_SAMPLE_BRANCH_STACK) must
 * not be scheduled in on this machine, or NULL where it may. ppc64le under
 * qemu's TCG pseries (the device tree's "qemu,pseries" without the
 * /hypervisor node qemu adds only under KVM): qemu 7.2 does not emulate
 * the BHRB instructions, and the POWER PMU's pmu::add runs clrbhrb for
 * such an event: an illegal-instruction oops, after which the guest hangs.
 * Opening it is safe; enabling it is not. A case that would run one is
 * BLOCKED with this reason.
 */
const char *pc_hw_branch_stack_unsafe(void);
/*
 * Whether this is qemu's TCG pseries machine (above). Its POWER PMU
 * (qemu 7.2, target/ppc/power8-pmu.c) counts cycles and instructions
 * only: PMC5, PMC6, and on PMC1-4 the event codes 0x02, 0x1e, 0xf0, 0xfa,
 * 0xfe; every other event opens and counts nothing.
 */
bool pc_hw_qemu_tcg_power(void);

/* One system call: number and its first three arguments. */
struct pc_hw_call {
	long nr, a0, a1, a2;
};
/*
 * Make the system call `on`, run n >= 1 iterations, make the system call
 * `off`, all in one asm block. Returns `on`'s result (`off`'s is lost), or
 * -ENOSYS on an architecture without the loop, -EINVAL for n == 0.
 */
long pc_hw_loop_between(const struct pc_hw_call *on, const struct pc_hw_call *off, unsigned long n);
/*
 * The usual ones: ioctl(fd, PERF_EVENT_IOC_ENABLE / _DISABLE, flags)
 * around the loop (flags PERF_IOC_FLAG_GROUP for a whole group), or
 * prctl(PR_TASK_PERF_EVENTS_ENABLE / _DISABLE) for every event this task
 * opened. 0 or -errno of the enabling call.
 */
int pc_hw_loop_fd(int fd, unsigned long flags, unsigned long n);
int pc_hw_loop_task(unsigned long n);
/*
 * Open attr on this task, run the loop of n iterations around it
 * (pc_hw_loop_fd), read the count, close. Returns 0 with *count set, or
 * -errno of the open, the enabling or the read.
 */
int pc_hw_count_loop(struct perfconf_attr *attr, unsigned long n, uint64_t *count);
/*
 * How many user-only events of config count at once on this task: as many
 * pinned ones as read a count once enabled together (the rest are in
 * error state, reading EOF), of at most PC_HW_COUNTERS_MAX. The PMU's
 * counters for that event, or -errno of an open or of the enabling prctl.
 */
#define PC_HW_COUNTERS_MAX 32
int pc_hw_counters(uint64_t config);
/* The user-mode instructions the loop runs between the two calls. */
static inline uint64_t pc_hw_loop_insns(unsigned long n)
{
	return (uint64_t)PC_HW_LOOP_INSNS * n + PC_HW_LOOP_OVERHEAD;
}
/*
 * Addresses in the loop: `begin` is the first instruction after the
 * enabling call, `body` the first instruction of an iteration, `end` the
 * disabling system call instruction (pc_hw_loop_end() - pc_hw_loop_body()
 * is the iteration's size in bytes).
 */
uintptr_t pc_hw_loop_begin(void);
uintptr_t pc_hw_loop_body(void);
uintptr_t pc_hw_loop_end(void);

/*
 * Single-step the loop in a traced child (ptrace) and count the
 * instructions executed in [begin, end): an independent count of what
 * the PMU should see. Returns the count, or -errno (-EPERM when the child
 * may not be traced).
 */
long pc_hw_loop_singlestep(unsigned long n);

/*
 * arm64: whether CPU 0's MIDR_EL1 names implementer 0x00, "reserved for
 * software use": a software model such as qemu's -cpu max. False
 * elsewhere, and when the register is not in sysfs.
 */
bool pc_hw_arm64_software_model(void);

/*
 * arm64: the exception level the kernel runs at, from its boot log
 * (klogctl): 2 when it runs at EL2 with VHE ("CPU features: detected:
 * Virtualization Host Extensions", "VHE mode initialized"), 1 when it runs
 * at EL1 ("CPU: All CPU(s) started at EL1", or started at EL2 without VHE:
 * "Hyp mode initialized"), 0 when the log does not tell (not arm64, log
 * not readable or rotated away). *why receives the line that decided.
 */
int pc_hw_arm64_kernel_el(const char **why);

#endif
