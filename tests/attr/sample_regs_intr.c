// SPDX-License-Identifier: GPL-2.0
/*
 * sample_regs_intr (since 3.19): with PERF_SAMPLE_REGS_INTR a sample
 * "records a subset of the current CPU register state as specified by
 * sample_regs_intr. Unlike PERF_SAMPLE_REGS_USER the register values will
 * return kernel register state if the overflow happened while kernel code
 * is running." The sample holds abi and regs[weight(mask)], in bit order,
 * with the same layout and the same mask rules as sample_regs_user.
 *
 * Samples here are page faults the kernel takes in a system call (the
 * interrupted state is the kernel's) and a uprobe on a noinline function
 * (the interrupted state is user mode, at its entry).
 */
#define SAMPLE_REGS	PERF_SAMPLE_REGS_INTR
#define GPRS_CASE	general_registers_accepted_on_software_event
#define GPRS_AT_ONCE
#include "sample_regs_mask.h"

PERFCONF_KEEP_CALLS(pc_probe)

/*
 * A sample taken in the kernel holds the kernel's registers: IP is the
 * sample's IP and, like SP, lies outside every mapping of this process,
 * while the user registers of the same sample are in this process.
 */
TEST(kernel_state_in_a_kernel_sample)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	struct pc_capture cap;

	REQUIRE_REGS_TABLE(a);
	struct perfconf_attr attr = pc_attr_kernel_sampling(PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER |
							    PERF_SAMPLE_REGS_INTR);
	attr.sample_regs_intr = a->gprs;
	attr.sample_regs_user = PC_REG(a->ip) | PC_REG(a->sp);
	int err = pc_capture_run(&cap, &attr, pc_kernel_faults_work, PC_N(CALLS));
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap.error);

	ASSERT_EQ(CALLS, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (unsigned int i = 0; i < CALLS; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);
		uint64_t ip = 0, sp = 0, uip = 0, usp = 0;

		EXPECT_EQ(a->abi, s->regs_intr_abi);
		EXPECT_EQ(__builtin_popcountll(a->gprs), s->regs_intr_nr);
		ASSERT_TRUE(pc_regs_get(s->regs_intr, s->regs_intr_nr, a->gprs, a->ip, &ip));
		ASSERT_TRUE(pc_regs_get(s->regs_intr, s->regs_intr_nr, a->gprs, a->sp, &sp));
		ASSERT_TRUE(pc_regs_get(s->regs_user, s->regs_user_nr, attr.sample_regs_user, a->ip, &uip));
		ASSERT_TRUE(pc_regs_get(s->regs_user, s->regs_user_nr, attr.sample_regs_user, a->sp, &usp));
		EXPECT_EQ(s->ip, ip);
		EXPECT_EQ(PC_ADDR_UNMAPPED, pc_addr_class(ip)) TH_LOG("intr ip %#llx", (unsigned long long)ip);
		EXPECT_EQ(PC_ADDR_UNMAPPED, pc_addr_class(sp)) TH_LOG("intr sp %#llx", (unsigned long long)sp);
		EXPECT_EQ(PC_ADDR_TEXT, pc_addr_class(uip)) TH_LOG("user ip %#llx", (unsigned long long)uip);
		EXPECT_EQ(PC_ADDR_DATA, pc_addr_class(usp)) TH_LOG("user sp %#llx", (unsigned long long)usp);
	}
	pc_capture_close(&cap);
}

/*
 * A sample taken in user mode: the interrupted state is the user's, the
 * same as sample_regs_user dumps: IP at the function, its arguments in
 * the argument registers.
 */
TEST(user_state_in_a_user_mode_sample)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	struct pc_capture cap;

	REQUIRE_REGS_TABLE(a);
	CAPTURE_PROBE_CALLS(&cap, PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR, a->gprs, a->gprs);
	for (unsigned int i = 0; i < CALLS; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);

		expect_probe_entry(_metadata, a, s->regs_intr_abi, s->regs_intr_nr, s->regs_intr, i);
		const unsigned int same[] = { a->ip, a->sp, a->arg[0], a->arg[1] };
		for (unsigned int k = 0; k < 4 && same[k] != PC_NO_REG; k++) {
			uint64_t intr = 0, user = 1;

			pc_regs_get(s->regs_intr, s->regs_intr_nr, a->gprs, same[k], &intr);
			pc_regs_get(s->regs_user, s->regs_user_nr, a->gprs, same[k], &user);
			EXPECT_EQ(user, intr) TH_LOG("%s", pc_reg_name(same[k]));
		}
	}
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
