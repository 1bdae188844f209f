/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mask rules that sample_regs_user and sample_regs_intr share (the
 * same perf_reg_validate() checks both). The field file defines, then
 * includes this:
 *	SAMPLE_REGS	its sample_type bit (PERF_SAMPLE_REGS_USER)
 *	GPRS_CASE	the id of the case where the general registers pass
 *	GPRS_AT_ONCE	(optional) that case also opens all of them in one mask
 */
#include "perfconf.h"
#include "event/regs.h"
#include "ring/sample_site.h"

#define CALLS 4

static int open_with_mask(uint64_t mask)
{
	struct perfconf_attr attr = pc_attr_regs_sampling(SAMPLE_REGS, mask);

	return pc_open_errno(&attr, 0, -1, -1, 0);
}

/* perf_reg_validate(): an empty mask asks for nothing, and is refused. */
TEST(empty_mask_is_einval)
{
	EXPECT_ERRNO(EINVAL, open_with_mask(0));
}

/*
 * Bits that name no register this arch can dump (not in its perf_regs.h,
 * or segment registers x86_64 does not save) are refused, each alone. The
 * errno (EINVAL from perf_reg_validate()) is pinned.
 */
TEST(reserved_bits_are_refused)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	char seen[64];

	REQUIRE_REGS_TABLE(a);
	uint64_t accepted = pc_regs_accepted(SAMPLE_REGS, a->reserved, seen, sizeof(seen));
	EXPECT_EQ(0, accepted) TH_LOG("%s: bits %#llx accepted", a->name, (unsigned long long)accepted);
	pc_observe("errno", "%s", seen);
}

/* On a software event, each general register alone is accepted. */
TEST(GPRS_CASE)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	char refused[64];

	REQUIRE_REGS_TABLE(a);
#ifdef GPRS_AT_ONCE
	EXPECT_ERRNO(0, open_with_mask(a->gprs));
#endif
	EXPECT_EQ(a->gprs, pc_regs_accepted(SAMPLE_REGS, a->gprs, refused, sizeof(refused)))
		TH_LOG("%s: general registers: %s", a->name, refused);
}

/*
 * Extended registers (x86 XMM, arm64 VG) need a PMU that can sample them;
 * a software event cannot. Which errno (EOPNOTSUPP from the core, EINVAL
 * where the arch does not know the bit, or arm64 has no SVE) is pinned.
 */
TEST(extended_register_on_software_event)
{
	const struct pc_regs_arch *a = pc_regs_arch();

	REQUIRE_REGS_TABLE(a);
	if (a->extended_fact)
		DEPENDS_ON(a->extended_fact);
	int err = open_with_mask(PC_REG(__builtin_ctzll(a->extended)));
	pc_observe_errno("errno", err);
	EXPECT_NE(0, err);
}

/* The mask is only checked when SAMPLE_REGS asks for the dump. */
TEST(mask_ignored_without_the_sample_bit)
{
	const struct pc_regs_arch *a = pc_regs_arch();

	REQUIRE_REGS_TABLE(a);
	struct perfconf_attr attr = pc_attr_regs_sampling(SAMPLE_REGS, a->reserved);
	attr.sample_type = PERF_SAMPLE_IP;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
}

/*
 * For the dump cases: CALLS calls of pc_probe, each sampled at its entry
 * (a uprobe, FUNCTION_SAMPLING) with sample_type and the two register
 * masks, into cap. SKIPs where uprobes are not supported; one sample a
 * call is required.
 */
#define CAPTURE_PROBE_CALLS(cap, sample_type, regs_user, regs_intr) do {	\
	struct perfconf_attr attr_;					\
									\
	FUNCTION_SAMPLING(&attr_, pc_probe, sample_type);		\
	attr_.sample_regs_user = (regs_user);				\
	attr_.sample_regs_intr = (regs_intr);				\
	int err_ = pc_capture_run(cap, &attr_, pc_probe_work, PC_N(CALLS));	\
	SKIP_IF_UNSUPPORTED(-err_, "a uprobe");				\
	ASSERT_EQ(0, err_) TH_LOG("%s %s", pc_errno_name(-err_), (cap)->error); \
	ASSERT_EQ(CALLS, pc_capture_count(cap, PERF_RECORD_SAMPLE));	\
} while (0)

/*
 * A dump of every general register taken at pc_probe's entry in call i:
 * the process's abi, one value per mask bit, in bit order; IP is pc_probe,
 * and the argument registers (where the ABI has them), found by their
 * bit, hold the call's arguments.
 * Returns the IP found there.
 */
static uint64_t expect_probe_entry(struct __test_metadata *_metadata, const struct pc_regs_arch *a,
			       uint64_t abi, unsigned int nr, const uint64_t *regs, unsigned int i)
{
	uint64_t ip = 0, a0 = 0, a1 = 0;

	EXPECT_EQ(a->abi, abi);
	ASSERT_EQ(__builtin_popcountll(a->gprs), nr);
	ASSERT_TRUE(pc_regs_get(regs, nr, a->gprs, a->ip, &ip));
	EXPECT_EQ((uintptr_t)pc_probe, ip);
	if (a->arg[0] == PC_NO_REG)
		return ip;	/* the arguments are on the stack */
	ASSERT_TRUE(pc_regs_get(regs, nr, a->gprs, a->arg[0], &a0));
	ASSERT_TRUE(pc_regs_get(regs, nr, a->gprs, a->arg[1], &a1));
	EXPECT_EQ(PC_PROBE_ARG0 + i, a0) TH_LOG("sample %u: %s", i, pc_reg_name(a->arg[0]));
	EXPECT_EQ(PC_PROBE_ARG1, a1) TH_LOG("sample %u: %s", i, pc_reg_name(a->arg[1]));
	return ip;
}
