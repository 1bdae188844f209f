/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf register numbering of this process's own ABI: the bits of
 * sample_regs_user and sample_regs_intr, as each architecture's
 * arch/<arch>/include/uapi/asm/perf_regs.h defines them (x86_64 and i386:
 * the PERF_REG_X86_* enum; aarch64: PERF_REG_ARM64_*; riscv64, s390x, ppc64le). A sample holds the
 * registers of its mask in bit order, one u64 each.
 *
 *	const struct pc_regs_arch *a = pc_regs_arch();
 *	attr.sample_regs_user = PC_REG(a->ip) | PC_REG(a->sp);
 *	...
 *	uint64_t ip;
 *	pc_regs_get(s->regs_user, s->regs_user_nr, attr.sample_regs_user, a->ip, &ip);
 */
#ifndef PERFCONF_REGS_H
#define PERFCONF_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/uapi.h"
#include "event/event.h"

#define PC_REG(bit) (1ULL << (bit))

struct pc_regs_arch {
	const char *name;	/* "x86_64", "aarch64", "i386", "armhf", "riscv64", "s390x", "ppc64le" */
	/* The general registers: every kernel of this arch accepts each alone. */
	uint64_t gprs;
	/*
	 * Bits that name no register a sample can hold: x86_64's DS, ES, FS,
	 * GS (not saved in 64-bit mode) and the gap before XMM0; aarch64's
	 * bits past PC, except VG. perf_reg_validate() refuses each (EINVAL).
	 */
	uint64_t reserved;
	/*
	 * PERF_REG_EXTENDED_MASK: registers only a PMU with extended-register
	 * capability can sample (x86_64 XMM0..15, two bits each; aarch64 VG,
	 * the SVE vector granule). Software events are not such PMUs.
	 */
	uint64_t extended;
	/*
	 * The fact those registers exist by, or NULL: aarch64's VG with SVE
	 * only (perf_reg_validate() refuses it, EINVAL, without).
	 */
	const char *extended_fact;
	unsigned int ip;	/* PERF_REG_X86_IP, PERF_REG_ARM64_PC */
	unsigned int sp;	/* PERF_REG_X86_SP, PERF_REG_ARM64_SP */
	/*
	 * The first two integer arguments of a C call; PC_NO_REG where
	 * pc_probe()'s u64 arguments are not one register each (i386: the
	 * stack; armhf: register pairs).
	 */
	unsigned int arg[2];
	uint64_t abi;		/* PERF_SAMPLE_REGS_ABI_64, or _32 for a 32-bit process */
};
#define PC_NO_REG 64U

/* SKIP a case that needs the argument registers where the ABI has none. */
#define REQUIRE_ARG_REGS(a) do { \
	if ((a)->arg[0] == PC_NO_REG) \
		SKIP(return, "%s passes a u64 argument in no single register", (a)->name); \
} while (0)

/*
 * The table of the arch this test was built for, or NULL when there is
 * none (i386 and armhf have one on a 64-bit kernel only: its compat ABI).
 */
const struct pc_regs_arch *pc_regs_arch(void);
/* SKIP a case on an arch without a table (in a test: perfconf.h brings the harness). */
#define REQUIRE_REGS_TABLE(a) do { \
	if (!(a)) \
		SKIP(return, "no perf register table for this arch in lib/event/regs.c"); \
} while (0)
/* "ip", "sp", "r8", "x29", "lr"...: the register of that bit, or "?" if none. */
const char *pc_reg_name(unsigned int bit);

/*
 * The value of register `bit` in regs[nr], dumped with `mask`: regs are in
 * bit order, so its index is the number of mask bits below it. False when
 * the bit is not in the mask or the array is too short.
 */
bool pc_regs_get(const uint64_t *regs, unsigned int nr, uint64_t mask, unsigned int bit,
		 uint64_t *value);

/*
 * Open that sampler with each bit of `bits` alone as the mask. Returns the
 * bits it opened with; the distinct outcomes go into errnos as a list of
 * errno names ("EINVAL", "EINVAL,OK"; "" for no bits).
 */
uint64_t pc_regs_accepted(uint64_t regs_sample, uint64_t bits, char *errnos, size_t len);

#endif
