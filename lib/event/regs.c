// SPDX-License-Identifier: GPL-2.0
/* The perf register numbering of this process's ABI (see regs.h). */
#include <stddef.h>
#include <string.h>

#include "event/event.h"
#include "host/kernel.h"
#include "host/observe.h"
#include "event/regs.h"

#if defined(__x86_64__) || defined(__i386__)

/* PERF_REG_X86_*: AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15, XMM0 at 32 */
static const char *const names[] = {
	"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "ip", "flags", "cs", "ss",
	"ds", "es", "fs", "gs", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};
#define SEGMENTS_64	(PC_REG(12) | PC_REG(13) | PC_REG(14) | PC_REG(15))	/* DS ES FS GS */
#define GAP_BEFORE_XMM	(((1ULL << 32) - 1) & ~((1ULL << 24) - 1))		/* 24..31 */

/*
 * An x86_64 kernel validates every task's mask alike (perf_reg_validate()):
 * a compat (i386) task's too, whose dump is ABI_32 and whose R8..R15 are
 * never its own. i386 passes C arguments on the stack.
 */
static const struct pc_regs_arch arch = {
#ifdef __x86_64__
	.name = "x86_64",
	.arg = { 5, 4 },	/* DI, SI */
	.abi = PERF_SAMPLE_REGS_ABI_64,
#else
	.name = "i386",
	.arg = { PC_NO_REG, PC_NO_REG },
	.abi = PERF_SAMPLE_REGS_ABI_32,
#endif
	.gprs = ((1ULL << 24) - 1) & ~SEGMENTS_64,
	.reserved = SEGMENTS_64 | GAP_BEFORE_XMM,
	.extended = ~((1ULL << 32) - 1),
	.ip = 8,
	.sp = 7,
};

#elif defined(__aarch64__) || defined(__arm__)

/* PERF_REG_ARM64_*: X0..X29, LR, SP, PC; VG at 46 */
static const char *const names[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9",
	"x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19",
	"x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29",
	"lr", "sp", "pc",
};
#define VG PC_REG(46)

/*
 * An arm64 kernel takes an AArch32 task's masks as an AArch64 one's: its
 * R0..R12 are X0..X12, SP and LR are read from the compat registers, and
 * the dump is ABI_32. pc_probe()'s u64 arguments take register pairs there.
 */
static const struct pc_regs_arch arch = {
#ifdef __aarch64__
	.name = "aarch64",
	.arg = { 0, 1 },	/* X0, X1 */
	.abi = PERF_SAMPLE_REGS_ABI_64,
#else
	.name = "armhf",
	.arg = { PC_NO_REG, PC_NO_REG },
	.abi = PERF_SAMPLE_REGS_ABI_32,
#endif
	.gprs = (1ULL << 33) - 1,
	.reserved = ~((1ULL << 33) - 1) & ~VG,
	.extended = VG,
	.extended_fact = "sve",
	.ip = 32,
	.sp = 31,
};

#elif defined(__riscv) && __riscv_xlen == 64

/* PERF_REG_RISCV_*: PC, then X1..X31 by their ABI names */
static const char *const names[] = {
	"pc", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const struct pc_regs_arch arch = {
	.name = "riscv64",
	.gprs = (1ULL << 32) - 1,
	.reserved = ~((1ULL << 32) - 1),
	.extended = 0,
	.ip = 0,
	.sp = 2,
	.arg = { 10, 11 },	/* A0, A1 */
	.abi = PERF_SAMPLE_REGS_ABI_64,
};

#elif defined(__s390x__)

/* PERF_REG_S390_*: R0..R15, FP0..FP15, the PSW mask and address */
static const char *const names[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"fp0", "fp1", "fp2", "fp3", "fp4", "fp5", "fp6", "fp7", "fp8", "fp9", "fp10", "fp11", "fp12", "fp13",
	"fp14", "fp15", "mask", "pc",
};

static const struct pc_regs_arch arch = {
	.name = "s390x",
	.gprs = (1ULL << 34) - 1,
	.reserved = ~((1ULL << 34) - 1),
	.extended = 0,
	.ip = 33,
	.sp = 15,
	.arg = { 2, 3 },	/* R2, R3 */
	.abi = PERF_SAMPLE_REGS_ABI_64,
};

#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)

/*
 * PERF_REG_POWERPC_*: R0..R31, NIP, MSR, ORIG_R3, CTR, LINK, XER, CCR,
 * SOFTE, TRAP, DAR, DSISR, SIER, MMCRA (PERF_REG_POWERPC_MAX is 45); then
 * the PMU's own registers, MMCR0 at 45 up to SIAR at 58, which only a PMU
 * that says so can sample (PERF_REG_EXTENDED_MASK: POWER9's 45..47,
 * POWER10's 45..58; none without a core PMU). Past 58 nothing.
 */
static const char *const names[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29",
	"r30", "r31", "nip", "msr", "orig_r3", "ctr", "link", "xer", "ccr", "softe", "trap", "dar", "dsisr",
	"sier", "mmcra", "mmcr0", "mmcr1", "mmcr2", "mmcr3", "sier2", "sier3", "pmc1", "pmc2", "pmc3",
	"pmc4", "pmc5", "pmc6", "sdar", "siar",
};

static const struct pc_regs_arch arch = {
	.name = "ppc64le",
	.gprs = (1ULL << 45) - 1,
	.reserved = ~((1ULL << 59) - 1),
	.extended = ((1ULL << 59) - 1) & ~((1ULL << 45) - 1),
	.ip = 32,
	.sp = 1,
	.arg = { 3, 4 },	/* R3, R4 */
	.abi = PERF_SAMPLE_REGS_ABI_64,
};

#else
#define NO_REGS_TABLE
#endif

#ifdef NO_REGS_TABLE
const struct pc_regs_arch *pc_regs_arch(void)
{
	return NULL;
}

const char *pc_reg_name(unsigned int bit)
{
	(void)bit;
	return "?";
}
#else
const struct pc_regs_arch *pc_regs_arch(void)
{
#if defined(__i386__) || defined(__arm__)
	if (!pc_kernel_compat())
		return NULL;	/* a 32-bit kernel's numbering and masks differ: no table yet */
#endif
	pc_depends("arch");	/* the register ABI: its numbering and masks */
	return &arch;
}

const char *pc_reg_name(unsigned int bit)
{
	if (bit < sizeof(names) / sizeof(names[0]))
		return names[bit];
	return "?";
}
#endif

bool pc_regs_get(const uint64_t *regs, unsigned int nr, uint64_t mask, unsigned int bit,
		 uint64_t *value)
{
	if (bit >= 64 || !(mask & PC_REG(bit)) || !regs)
		return false;
	unsigned int index = (unsigned int)__builtin_popcountll(mask & (PC_REG(bit) - 1));
	if (index >= nr)
		return false;
	*value = regs[index];
	return true;
}

struct perfconf_attr pc_attr_regs_sampling(uint64_t regs_sample, uint64_t mask)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, regs_sample);

	if (regs_sample == PERF_SAMPLE_REGS_USER) {
		attr.sample_regs_user = mask;
		attr.exclude_kernel = 1;
	} else {
		attr.sample_regs_intr = mask;
	}
	return attr;
}

/* Add the errno's name to a list of distinct names. */
static void note_errno(char *list, size_t len, int err)
{
	const char *name = pc_errno_name(err);

	if (strstr(list, name))
		return;
	if (*list)
		strncat(list, ",", len - strlen(list) - 1);
	strncat(list, name, len - strlen(list) - 1);
}

uint64_t pc_regs_accepted(uint64_t regs_sample, uint64_t bits, char *errnos, size_t len)
{
	uint64_t accepted = 0;

	errnos[0] = '\0';
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(bits & PC_REG(bit)))
			continue;
		struct perfconf_attr attr = pc_attr_regs_sampling(regs_sample, PC_REG(bit));
		int err = pc_open_errno(&attr, 0, -1, -1, 0);

		note_errno(errnos, len, err);
		if (!err)
			accepted |= PC_REG(bit);
	}
	return accepted;
}
