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

TEST_HARNESS_MAIN
