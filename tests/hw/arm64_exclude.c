// SPDX-License-Identifier: GPL-2.0
/*
 * The exclude_* bits on arm64, as Documentation/arch/arm64/perf.rst maps
 * them to exception levels:
 *  - exclude_user: "Userspace always runs at EL0 and thus this attribute
 *    will exclude EL0."
 *  - exclude_kernel: "The kernel runs at EL2 with VHE and EL1 without ...
 *    For the host this attribute will exclude EL1 and additionally EL2 on
 *    a VHE system."
 *  - exclude_hv: "For a VHE host this attribute is ignored as we consider
 *    the host kernel to be the hypervisor. For a non-VHE host this
 *    attribute will exclude EL2".
 *  - exclude_host / exclude_guest: "These attributes exclude the KVM host
 *    and guest, respectively." A task of the host is the host: with
 *    exclude_host it counts nothing (VHE: EL0 and EL2 filtered out;
 *    non-VHE: the counter is only enabled on guest entry); with
 *    exclude_guest it counts everything (VHE filters EL1 out, where no host
 *    code runs; non-VHE switches at guest entry).
 *  - exclude_idle is not supported by the PMU's filters: EOPNOTSUPP.
 *
 * So the host sees one meaning on both: user = EL0, kernel = the kernel's
 * level, whichever it is, and exclude_hv never hides the kernel (on VHE it
 * is ignored; without VHE it hides EL2, where the kernel does not run).
 * Each case measures with the exact loop (lib/event/hw.h) in groups, whose
 * members count the same interval, so the statements are equalities. The
 * kernel's exception level (`kernel_el`: 2 with VHE, 1 without) is read
 * from its boot log and pinned by kernel_exception_level, so each
 * target's baseline says which mapping it checked: arm64 targets the
 * non-VHE one, arm64-vhe (qemu -M virt,virtualization=on) the VHE one.
 * (Where the log no longer holds the boot messages, that case SKIPs; the
 * others do not depend on it.)
 */
#include <sys/ioctl.h>

#include "perfconf.h"
#include "event/hw.h"

#define N 100000
#define MAX 6	/* members per group: within the 6 general counters of a PMUv3 */

enum { ALL, USER, KERNEL, HV, HOST, GUEST, USER_HV, KERNEL_HV };

static struct perfconf_attr filtered(int kind)
{
	struct perfconf_attr a = pc_attr_hw(PERF_COUNT_HW_INSTRUCTIONS);

	switch (kind) {
	case USER:	a.exclude_kernel = 1; break;	/* only user */
	case KERNEL:	a.exclude_user = 1; break;	/* only kernel */
	case HV:	a.exclude_hv = 1; break;
	case HOST:	a.exclude_host = 1; break;
	case GUEST:	a.exclude_guest = 1; break;
	case USER_HV:	a.exclude_kernel = 1; a.exclude_hv = 1; break;
	case KERNEL_HV:	a.exclude_user = 1; a.exclude_hv = 1; break;
	}
	return a;
}

/*
 * Count the loop with a group of these kinds, the first leading and the
 * others opened enabled, following it; counts[i] per kind.
 */
static void group(struct __test_metadata *_metadata, const int *kinds, int n, uint64_t *counts)
{
	int fds[MAX];

	ASSERT_GE(MAX, n);
	for (int i = 0; i < n; i++) {
		struct perfconf_attr a = filtered(kinds[i]);

		a.disabled = i == 0;
		fds[i] = pc_open(&a, 0, -1, i ? fds[0] : -1, 0);
		ASSERT_OPEN(fds[i]);
	}
	ASSERT_EQ(0, pc_hw_loop_fd(fds[0], 0, N));
	/*
	 * Every member is read before any is closed: closing the leader makes
	 * the enabled siblings events of their own, which count again from
	 * the next time the context is scheduled in.
	 */
	for (int i = 0; i < n; i++) {
		ASSERT_EQ(0, pc_read_count(fds[i], &counts[i])) TH_LOG("member %d", i);
	}
	for (int i = n - 1; i >= 0; i--)
		close(fds[i]);
}

static void expect_user_exact(struct __test_metadata *_metadata, uint64_t count)
{
	EXPECT_LE(pc_hw_loop_insns(N), count);
	EXPECT_GE(pc_hw_loop_insns(N) + 1, count);
}

/* Every case needs an arm64 PMU that counts instructions, and the exact loop. */
FIXTURE(global) {};

FIXTURE_SETUP(global)
{
	REQUIRE_HW_PMU();
	if (strcmp(pc_kernel()->arch, "aarch64"))
		SKIP(return, "the exception levels of arm64-perf.rst are arm64's (this is %s)",
		     pc_kernel()->arch);
	REQUIRE_HW_EVENT(PERF_COUNT_HW_INSTRUCTIONS);
	REQUIRE_HW_LOOP();
}

FIXTURE_TEARDOWN(global)
{
}

/*
 * The kernel's exception level, pinned. Observation only: a fact of the
 * machine (VHE or not), which the man page does not cover; the other cases
 * assert what each level implies.
 */
TEST_F(global, kernel_exception_level)
{
	const char *why;

	DEPENDS_ON("kernel_el");	/* EL2 with VHE, EL1 without: the machine's, not the ABI's */
	int el = pc_hw_arm64_kernel_el(&why);
	if (!el)
		SKIP(return, "cannot tell the kernel's exception level: %s", why);
	pc_observe("kernel_el", "%d", el);
	TH_LOG("EL%d: \"%s\" in the kernel log", el, why);
}

/* exclude_user is EL0: the kernel-only count is the whole less the user's, the user's the loop. */
TEST_F(global, exclude_user_is_el0)
{
	static const int kinds[] = { ALL, USER, KERNEL };
	uint64_t c[3];

	group(_metadata, kinds, 3, c);
	expect_user_exact(_metadata, c[1]);
	EXPECT_EQ(c[0], c[1] + c[2]) TH_LOG("all %llu, EL0 %llu, kernel %llu", (unsigned long long)c[0],
					   (unsigned long long)c[1], (unsigned long long)c[2]);
}

/*
 * exclude_kernel hides the kernel at whichever level it runs (EL2 with
 * VHE): what is left is exactly the loop, while without it the kernel's
 * instructions are counted.
 */
TEST_F(global, exclude_kernel_hides_the_kernel)
{
	static const int kinds[] = { ALL, USER, USER_HV };
	uint64_t c[3];

	group(_metadata, kinds, 3, c);
	expect_user_exact(_metadata, c[1]);
	EXPECT_EQ(c[1], c[2]);
	EXPECT_LT(c[1], c[0]) TH_LOG("no kernel instructions counted without exclude_kernel");
}

/* exclude_hv never hides the kernel: ignored with VHE, EL2 only (no kernel there) without. */
TEST_F(global, exclude_hv_keeps_the_kernel)
{
	static const int kinds[] = { ALL, HV, KERNEL, KERNEL_HV, USER, USER_HV };
	uint64_t c[6];

	group(_metadata, kinds, 6, c);
	EXPECT_EQ(c[0], c[1]) TH_LOG("exclude_hv hid %lld instructions", (long long)(c[0] - c[1]));
	EXPECT_EQ(c[2], c[3]) TH_LOG("exclude_hv hid %lld kernel instructions", (long long)(c[2] - c[3]));
	EXPECT_LT(0, c[3]);
	EXPECT_EQ(c[4], c[5]);
	expect_user_exact(_metadata, c[5]);
}

/* This task is the host: exclude_host leaves nothing, exclude_guest everything. */
TEST_F(global, exclude_host_and_guest)
{
	static const int kinds[] = { ALL, HOST, GUEST };
	uint64_t c[3];

	group(_metadata, kinds, 3, c);
	EXPECT_EQ(0, c[1]) TH_LOG("exclude_host counted %llu of %llu", (unsigned long long)c[1],
				  (unsigned long long)c[0]);
	EXPECT_EQ(c[0], c[2]) TH_LOG("exclude_guest counted %llu of %llu", (unsigned long long)c[2],
				     (unsigned long long)c[0]);
}

TEST_F(global, exclude_idle_is_refused)
{
	struct perfconf_attr attr = filtered(ALL);

	attr.exclude_idle = 1;
	int err = pc_open_observe_errno("open", &attr, 0, -1);
	EXPECT_TRUE(err == EOPNOTSUPP || err == EINVAL) TH_LOG("%s", pc_errno_name(err));
}

TEST_HARNESS_MAIN
