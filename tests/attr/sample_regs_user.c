// SPDX-License-Identifier: GPL-2.0
/*
 * sample_regs_user (since 3.7): "This bit mask defines the set of user CPU
 * registers to dump on samples", laid out as the arch's
 * asm/perf_regs.h says. With PERF_SAMPLE_REGS_USER, a sample holds abi
 * (PERF_SAMPLE_REGS_ABI_64 for a 64-bit task, _32 for a 32-bit one) and
 * regs[weight(mask)]: one value per bit set, in bit order. A mask the arch cannot dump is refused.
 *
 * The user-mode samples here are taken by a uprobe on a noinline
 * function, before its first instruction: the IP register is the
 * function's address, the argument registers hold its arguments, and SP
 * lies just below the caller's locals.
 */
#define SAMPLE_REGS	PERF_SAMPLE_REGS_USER
#define GPRS_CASE	each_general_register_is_accepted
#include "sample_regs_mask.h"

/*
 * Every general register: abi 64, one value per mask bit, in bit order (the
 * argument registers, found by their bit, hold the arguments).
 */
TEST(every_general_register_in_bit_order)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	struct pc_capture cap;

	REQUIRE_REGS_TABLE(a);
	CAPTURE_PROBE_CALLS(&cap, PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER, a->gprs, 0);
	for (unsigned int i = 0; i < CALLS; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);

		uint64_t ip = expect_probe_entry(_metadata, a, s->regs_user_abi, s->regs_user_nr,
						 s->regs_user, i);

		EXPECT_EQ(s->ip, ip);
	}
	pc_capture_close(&cap);
}

/* One bit, one value: the first argument register alone. */
TEST(one_register)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	struct pc_capture cap;

	REQUIRE_REGS_TABLE(a);
	REQUIRE_ARG_REGS(a);
	CAPTURE_PROBE_CALLS(&cap, PERF_SAMPLE_REGS_USER, PC_REG(a->arg[0]), 0);
	for (unsigned int i = 0; i < CALLS; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);

		EXPECT_EQ(a->abi, s->regs_user_abi);
		ASSERT_EQ(1, s->regs_user_nr);
		EXPECT_EQ(PC_PROBE_ARG0 + i, s->regs_user[0]);
	}
	pc_capture_close(&cap);
}

static noinline __attribute__((noipa)) void probe_frame(volatile uint64_t *local)
{
	__asm__ volatile("" : : "r"(local) : "memory");
}

PERFCONF_KEEP_CALLS(probe_frame)
PERFCONF_KEEP_CALLS(pc_probe)

static void call_with_local(void *arg)
{
	volatile uint64_t local[4] = { 1, 2, 3, 4 };

	*(uintptr_t *)arg = (uintptr_t)local;
	probe_frame(local);
}

/* IP is the function; SP is at most a frame below the caller's locals. */
TEST(ip_and_sp)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	struct pc_capture cap;
	uintptr_t local = 0;
	uint64_t ip = 0, sp = 0;

	REQUIRE_REGS_TABLE(a);
	struct perfconf_attr attr;
	FUNCTION_SAMPLING(&attr, probe_frame, PERF_SAMPLE_REGS_USER);
	attr.sample_regs_user = PC_REG(a->ip) | PC_REG(a->sp);
	int err = pc_capture_run(&cap, &attr, call_with_local, &local);
	SKIP_IF_UNSUPPORTED(-err, "a uprobe");
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap.error);

	const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SAMPLE, 0);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(2, r->sample.regs_user_nr);
	ASSERT_TRUE(pc_regs_get(r->sample.regs_user, 2, attr.sample_regs_user, a->ip, &ip));
	ASSERT_TRUE(pc_regs_get(r->sample.regs_user, 2, attr.sample_regs_user, a->sp, &sp));
	EXPECT_EQ((uintptr_t)probe_frame, ip);
	EXPECT_LE(sp, local) TH_LOG("sp %#llx above the caller's local at %#lx",
				    (unsigned long long)sp, (unsigned long)local);
	EXPECT_LT(local - sp, 4096) TH_LOG("sp %#llx far below the caller's local at %#lx",
					   (unsigned long long)sp, (unsigned long)local);
	pc_capture_close(&cap);
}

/*
 * A sample taken in the kernel (a page fault in a system call) still dumps
 * the user registers: those of the system call, whose IP is in this
 * process's code (the C library's wrapper), not the sample's kernel IP.
 */
TEST(user_registers_of_a_kernel_sample)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	struct pc_capture cap;

	REQUIRE_REGS_TABLE(a);
	struct perfconf_attr attr = pc_attr_kernel_sampling(PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER);
	attr.sample_regs_user = a->gprs;
	int err = pc_capture_run(&cap, &attr, pc_kernel_faults_work, PC_N(CALLS));
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap.error);

	ASSERT_EQ(CALLS, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (unsigned int i = 0; i < CALLS; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);
		uint64_t ip = 0;

		EXPECT_EQ(a->abi, s->regs_user_abi);
		EXPECT_EQ(__builtin_popcountll(a->gprs), s->regs_user_nr);
		ASSERT_TRUE(pc_regs_get(s->regs_user, s->regs_user_nr, a->gprs, a->ip, &ip));
		EXPECT_EQ(PC_ADDR_TEXT, pc_addr_class(ip)) TH_LOG("user ip %#llx", (unsigned long long)ip);
		EXPECT_EQ(PC_ADDR_UNMAPPED, pc_addr_class(s->ip))
			TH_LOG("sample ip %#llx is not the kernel's", (unsigned long long)s->ip);
	}
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
