// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe_addr (since 4.17): for the kprobe PMU, "use kprobe_addr and
 * leave kprobe_func as NULL": the kernel address to probe. A kprobe on the
 * address of the function every getppid() enters (from /proc/kallsyms)
 * counts each call of this task exactly (past the ftrace call site where
 * the entry is one that kprobes cannot share: pc_kprobe_entry_offset). The field is also probe_offset:
 * when kprobe_func names a function it is the offset from there; an empty
 * name counts as NULL. With neither a name nor an address there is nothing
 * to probe, and an address that is not kernel text cannot be probed: both
 * are refused (pinned).
 *
 * The kprobe PMU exists when the kernel has CONFIG_KPROBE_EVENTS; without
 * it each effect SKIPs with that reason. Other PMUs read the field as
 * config2 and ignore it.
 */
#include "perfconf.h"
#include "event/kprobe.h"
#include "work/measure.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

#define N 17

TEST(counts_each_call)
{
	struct perfconf_attr attr;
	uint64_t addr;

	REQUIRE_KPROBE_PMU();
	GETPPID_ADDRESS(&addr);
	addr += pc_kprobe_entry_offset();
	ASSERT_EQ(0, pc_attr_kprobe(&attr, NULL, addr, 0));
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_getppid_work, PC_N(N))) TH_LOG("kprobe at %#llx: %s", (unsigned long long)addr,
						     pc_errno_name(pc_last_open_errno()));
}

/* An empty kprobe_func is no name: the address is probed. */
TEST(empty_name_uses_the_address)
{
	struct perfconf_attr attr;
	uint64_t addr;

	REQUIRE_KPROBE_PMU();
	GETPPID_ADDRESS(&addr);
	addr += pc_kprobe_entry_offset();
	ASSERT_EQ(0, pc_attr_kprobe(&attr, NULL, addr, 0));
	attr.kprobe_func = (uintptr_t)"";
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_getppid_work, PC_N(N))) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

/*
 * kprobe_addr and probe_offset are one field: with a name it is the offset
 * from the function. 1 lands inside the first instruction (every arch's
 * instructions are longer than a byte), which cannot be probed: pinned.
 */
TEST(with_a_name_it_is_the_offset)
{
	struct perfconf_attr attr;

	REQUIRE_KPROBE_PMU();
	REQUIRE_GETPPID_SYMBOL();
	ASSERT_EQ(0, pc_attr_kprobe(&attr, pc_kprobe_getppid_symbol(), 0, pc_kprobe_entry_offset()));
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_getppid_work, PC_N(N))) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
	attr.kprobe_addr = 1;
	EXPECT_EQ(1, attr.probe_offset);
	pc_depends("arch");	/* the errno for a probe inside an instruction: x86 EILSEQ, arm64 EINVAL */
	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	pc_observe_errno("errno", err);
	EXPECT_NE(0, err);
}

TEST(neither_name_nor_address_is_refused)
{
	struct perfconf_attr attr;

	REQUIRE_KPROBE_PMU();
	ASSERT_EQ(0, pc_attr_kprobe(&attr, NULL, 0, 0));
	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	pc_observe_errno("errno", err);
	EXPECT_NE(0, err);
}

/* A user-space address (this test's own code) is not kernel text. */
TEST(user_address_is_refused)
{
	struct perfconf_attr attr;

	REQUIRE_KPROBE_PMU();
	ASSERT_EQ(0, pc_attr_kprobe(&attr, NULL, (uintptr_t)pc_work_target, 0));
	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	pc_observe_errno("errno", err);
	EXPECT_NE(0, err);
}

/* On a tracepoint the same bytes are config2: ignored, the count exact. */
TEST(other_pmus_ignore_it)
{
	struct perfconf_attr attr;

	GETPPID_TRACEPOINT(&attr);
	attr.kprobe_addr = ~0ULL;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_getppid_work, PC_N(N))) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

TEST_HARNESS_MAIN
