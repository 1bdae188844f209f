// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_COUNT_SW_ALIGNMENT_FAULTS counts unaligned accesses the kernel had
 * to fix up, and PERF_COUNT_SW_EMULATION_FAULTS instructions the kernel
 * had to emulate: an architecture counts them where its trap handlers do
 * that work, and nowhere else.
 *
 * x86 never counts either (no perf_sw_event() of them under arch/x86 in
 * 6.12): the CPU does unaligned accesses itself. arm64 counts them for
 * AArch32 (compat) tasks only: ALIGNMENT_FAULTS in the compat alignment
 * fixup (arch/arm64/kernel/compat_alignment.c:381, 6.12) and
 * EMULATION_FAULTS for the deprecated AArch32 SWP, CP15 barrier and SETEND
 * instructions (arch/arm64/kernel/armv8_deprecated.c:170,254,353); an
 * AArch64 task's unaligned loads to normal memory need no fixup. So on
 * both, a 64-bit task doing unaligned loads counts 0 of each, while the
 * page faults of the same work (a control in the same group) count.
 *
 * An AArch32 task on arm64 (an armhf build) is the one that counts: an
 * LDRD or STRD in ARM state whose address is not a multiple of 4 takes an
 * alignment fault whatever SCTLR says, and with COMPAT_ALIGNMENT_FIXUPS the
 * kernel does the access for it and counts one ALIGNMENT_FAULTS
 * (do_compat_alignment_fixup(), 6.1+; without it, SIGBUS).
 */
#include "perfconf.h"

#define PAGES 16
#define LOADS 4096

static volatile uint64_t misaligned_sink;

/* Unaligned 8-byte loads at every odd offset of a buffer. */
static noinline void misaligned_loads(const unsigned char *buf, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		uint64_t v;

		__builtin_memcpy(&v, buf + 1 + (i % 64) * 3, sizeof(v));
		misaligned_sink += *(const volatile uint64_t *)(const volatile void *)(buf + 1 + (i % 64) * 3);
		misaligned_sink += v;
	}
}

FIXTURE(arch) {
	const char *why;
};

FIXTURE_VARIANT(arch) {
	uint64_t config;
	const char *name;
};

FIXTURE_VARIANT_ADD(arch, alignment_faults) {
	.config = PERF_COUNT_SW_ALIGNMENT_FAULTS,
	.name = "ALIGNMENT_FAULTS",
};

FIXTURE_VARIANT_ADD(arch, emulation_faults) {
	.config = PERF_COUNT_SW_EMULATION_FAULTS,
	.name = "EMULATION_FAULTS",
};

FIXTURE_SETUP(arch)
{
#if defined(__x86_64__) || defined(__i386__)
	self->why = "x86 never counts it";
#elif defined(__aarch64__)
	self->why = "arm64 counts it for AArch32 tasks only";
#elif defined(__arm__)
	if (pc_kernel_compat())
		SKIP(return, "an AArch32 task on arm64, whose unaligned accesses the kernel may fix up "
		     "(aarch32_ldrd_strd_fixups_count)");
	self->why = NULL;
#else
	self->why = NULL;
#endif
}

FIXTURE_TEARDOWN(arch)
{
}

/* Unaligned loads and n page faults: the event counts 0, the faults n. */
TEST_F(arch, native_task_counts_none)
{
	struct perfconf_attr attr = pc_attr_sw(variant->config);
	struct perfconf_attr faults = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t count = UINT64_MAX, nfaults = UINT64_MAX;
	static unsigned char buf[512];

	if (!self->why)
		SKIP(return, "what this architecture counts as %s is not known to this test", variant->name);
	faults.disabled = 0;
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	int ffd = pc_open(&faults, 0, -1, fd, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(ffd);
	misaligned_loads(buf, 1);	/* warm up */
	pc_work_page_faults(1);
	ASSERT_EQ(0, pc_enable(fd));
	misaligned_loads(buf, LOADS);
	int err = pc_work_page_faults(PAGES);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, pc_read_count(fd, &count));
	ASSERT_EQ(0, pc_read_count(ffd, &nfaults));
	EXPECT_EQ(PAGES, nfaults) TH_LOG("the control: the group counted the work");
	EXPECT_EQ(0, count) TH_LOG("%s: %s", variant->name, self->why);
	close(ffd);
	close(fd);
}

#if defined(__arm__) && !defined(__thumb__)
/* One LDRD and one STRD of the u64 at p, in ARM state: *p += 1. */
static noinline void ldrd_strd_add1(unsigned char *p)
{
	register uint32_t lo __asm__("r2"), hi __asm__("r3");	/* LDRD's even-odd pair */

	__asm__ volatile("ldrd	%0, %1, [%2]\n"
			 "	adds	%0, %0, #1\n"
			 "	adc	%1, %1, #0\n"
			 "	strd	%0, %1, [%2]\n"
			 : "=&r"(lo), "=&r"(hi) : "r"(p) : "memory", "cc");
}
#endif

/*
 * An AArch32 task on arm64: n LDRD and n STRD at an odd address, each
 * fixed up by the kernel (the value goes up by n) and counted: 2n
 * ALIGNMENT_FAULTS, no EMULATION_FAULTS.
 */
TEST(aarch32_ldrd_strd_fixups_count)
{
#if !defined(__arm__) || defined(__thumb__)
	SKIP(return, "an AArch32 (ARM state) task's case; this build is not one");
#else
	struct perfconf_attr align = pc_attr_sw(PERF_COUNT_SW_ALIGNMENT_FAULTS);
	struct perfconf_attr emul = pc_attr_sw(PERF_COUNT_SW_EMULATION_FAULTS);
	static uint64_t words[4];
	unsigned char *p = (unsigned char *)words + 5;	/* not a multiple of 4 */
	uint64_t v = 0x00000001ffffffffULL, got, aligns = UINT64_MAX, emuls = UINT64_MAX;
	const unsigned int n = 100;

	if (!pc_kernel_compat())
		SKIP(return, "arm64's fixup of an AArch32 task (this kernel is %s)", pc_kernel()->arch);
	REQUIRE_CONFIG("COMPAT_ALIGNMENT_FIXUPS");
	emul.disabled = 0;
	int fd = pc_open(&align, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	int efd = pc_open(&emul, 0, -1, fd, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(efd);
	__builtin_memcpy(p, &v, sizeof(v));
	ldrd_strd_add1(p);	/* warm up: the fixup's own first faults */
	ASSERT_EQ(0, pc_enable(fd));
	for (unsigned int i = 0; i < n; i++)
		ldrd_strd_add1(p);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(0, pc_read_count(fd, &aligns));
	ASSERT_EQ(0, pc_read_count(efd, &emuls));
	__builtin_memcpy(&got, p, sizeof(got));
	EXPECT_EQ(v + n + 1, got) TH_LOG("the fixed-up accesses did their work");
	EXPECT_EQ(2 * n, aligns);
	EXPECT_EQ(0, emuls);
	close(efd);
	close(fd);
#endif
}

TEST_HARNESS_MAIN
