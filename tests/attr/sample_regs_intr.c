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
 * interrupted state is the kernel's) and an execute breakpoint on a
 * noinline function (the interrupted state is user mode, at its entry).
 */
#include "perfconf.h"
#include "regs.h"
#include "sample_site.h"

#define CALLS 4
#define ARG0 0x1234000056780000ULL
#define ARG1 0x00000000feedf00dULL

#define REQUIRE_REGS_TABLE(a) do { \
	if (!(a)) \
		SKIP(return, "no perf register table for this arch in lib/regs.c"); \
} while (0)

static int open_with_mask(uint64_t mask)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
							PERF_SAMPLE_REGS_INTR);

	attr.sample_regs_intr = mask;
	return pc_open_errno(&attr, 0, -1, -1, 0);
}

TEST(empty_mask_is_einval)
{
	EXPECT_ERRNO(EINVAL, open_with_mask(0));
}

/* The distinct errnos seen, as a list of names: "EINVAL". */
static void note_errno(char *list, size_t len, int err)
{
	const char *name = pc_errno_name(err);

	if (strstr(list, name))
		return;
	if (*list)
		strncat(list, ",", len - strlen(list) - 1);
	strncat(list, name, len - strlen(list) - 1);
}

/*
 * Bits that name no register this arch can dump (not in its perf_regs.h,
 * or segment registers x86_64 does not save) are refused, each alone. The
 * errno (EINVAL from perf_reg_validate()) is pinned.
 */
TEST(reserved_bits_are_refused)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	char seen[64] = "";

	REQUIRE_REGS_TABLE(a);
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(a->reserved & PC_REG(bit)))
			continue;
		int err = open_with_mask(PC_REG(bit));
		EXPECT_NE(0, err) TH_LOG("%s: bit %u accepted", a->name, bit);
		note_errno(seen, sizeof(seen), err);
	}
	pc_observe("errno", "%s", seen);
}

/* On a software event (no PEBS or other hardware capture), every general register. */
TEST(general_registers_accepted_on_software_event)
{
	const struct pc_regs_arch *a = pc_regs_arch();

	REQUIRE_REGS_TABLE(a);
	EXPECT_ERRNO(0, open_with_mask(a->gprs));
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (a->gprs & PC_REG(bit))
			EXPECT_ERRNO(0, open_with_mask(PC_REG(bit)))
				TH_LOG("%s: bit %u (%s)", a->name, bit, pc_reg_name(bit));
	}
}

/* Extended registers need a capable PMU; the errno is pinned. */
TEST(extended_register_on_software_event)
{
	const struct pc_regs_arch *a = pc_regs_arch();

	REQUIRE_REGS_TABLE(a);
	int err = open_with_mask(PC_REG(__builtin_ctzll(a->extended)));
	pc_observe_errno("errno", err);
	EXPECT_NE(0, err);
}

TEST(mask_ignored_without_the_sample_bit)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);

	REQUIRE_REGS_TABLE(a);
	attr.sample_regs_intr = a->reserved;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
}

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
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(err), cap.error);

	ASSERT_EQ(CALLS, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (unsigned int i = 0; i < CALLS; i++) {
		const struct pc_sample *s = &pc_capture_find(&cap, PERF_RECORD_SAMPLE, i)->sample;
		uint64_t ip = 0, sp = 0, uip = 0, usp = 0;

		EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, s->regs_intr_abi);
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

static noinline __attribute__((noipa)) void probe(uint64_t a, uint64_t b)
{
	__asm__ volatile("" : : "r"(a), "r"(b) : "memory");
}

static void call_probe(void *arg)
{
	(void)arg;
	for (uint64_t i = 0; i < CALLS; i++)
		probe(ARG0 + i, ARG1);
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
	struct perfconf_attr attr = pc_attr_function_sampling(probe, PERF_SAMPLE_REGS_USER |
							      PERF_SAMPLE_REGS_INTR);
	attr.sample_regs_intr = a->gprs;
	attr.sample_regs_user = a->gprs;
	int err = pc_capture_run(&cap, &attr, call_probe, NULL);
	SKIP_IF_UNSUPPORTED(err, "an execute breakpoint");
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(err), cap.error);

	ASSERT_EQ(CALLS, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (unsigned int i = 0; i < CALLS; i++) {
		const struct pc_sample *s = &pc_capture_find(&cap, PERF_RECORD_SAMPLE, i)->sample;
		uint64_t ip = 0, a0 = 0, a1 = 0;

		EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, s->regs_intr_abi);
		ASSERT_EQ(__builtin_popcountll(a->gprs), s->regs_intr_nr);
		ASSERT_TRUE(pc_regs_get(s->regs_intr, s->regs_intr_nr, a->gprs, a->ip, &ip));
		ASSERT_TRUE(pc_regs_get(s->regs_intr, s->regs_intr_nr, a->gprs, a->arg[0], &a0));
		ASSERT_TRUE(pc_regs_get(s->regs_intr, s->regs_intr_nr, a->gprs, a->arg[1], &a1));
		EXPECT_EQ((uintptr_t)probe, ip);
		EXPECT_EQ(ARG0 + i, a0);
		EXPECT_EQ(ARG1, a1);
		const unsigned int same[] = { a->ip, a->sp, a->arg[0], a->arg[1] };
		for (unsigned int k = 0; k < 4; k++) {
			uint64_t intr = 0, user = 1;

			pc_regs_get(s->regs_intr, s->regs_intr_nr, a->gprs, same[k], &intr);
			pc_regs_get(s->regs_user, s->regs_user_nr, a->gprs, same[k], &user);
			EXPECT_EQ(user, intr) TH_LOG("%s", pc_reg_name(same[k]));
		}
	}
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
