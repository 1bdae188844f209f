// SPDX-License-Identifier: GPL-2.0
/*
 * Sample fields that need more than the event's own right, in every cell
 * of identity x perf_event_paranoid. The event is the same in each: a
 * sampler of this task's user-mode page faults (exclude_kernel,
 * exclude_hv, sample_period 1), which everyone may open up to level 2
 * (Debian's 3 closes it).
 *
 * PERF_SAMPLE_PHYS_ADDR: "Only privileged users can get physical
 * addresses": perf_event_open() asks perf_allow_kernel() for it, EACCES at
 * level >= 2 to users who are not perfmon_capable(). Where allowed, each
 * fault is one sample whose ADDR is the page it touched (the physical
 * address itself is not asserted here).
 *
 * PERF_SAMPLE_REGS_INTR: no paranoid rule; perf_event_open() only asks
 * security_locked_down(LOCKDOWN_PERF), which refuses (EPERM) when the
 * kernel is locked down for confidentiality (a case SKIPs there; integrity
 * lockdown does not cover it). Where allowed, each fault is one sample
 * whose interrupted registers (ABI 64) are the user's at the faulting
 * store: their IP is the sample's, in the function that took the fault.
 */
#include <stdio.h>

/* As root: the kernel lockdown mode, as /sys/kernel/security/lockdown selects it. */
#define CELL_PREPARE(_metadata) read_lockdown()

#include "cells.h"
#include "event/regs.h"
#include "work/faults.h"

#define N 16

static char lockdown[32] = "none";

/* "[none] integrity confidentiality": the bracketed one; "none" when there is no such file. */
static void read_lockdown(void)
{
	char line[128];
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");

	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		const char *from = strchr(line, '['), *to = from ? strchr(from, ']') : NULL;

		if (to)
			snprintf(lockdown, sizeof(lockdown), "%.*s", (int)(to - from - 1), from + 1);
	}
	fclose(f);
}

/*
 * Sample N user-mode page faults of this task in f, with IP and ADDR
 * added to attr's sample_type, into cap: 0, or the errno of the open
 * (cap->fd is -1 then).
 */
static int sample_own_faults(struct __test_metadata *_metadata, struct pc_capture *cap,
			     struct pc_faults *f, struct perfconf_attr *attr)
{
	attr->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	int err = pc_capture_open(cap, attr, 0, -1);
	if (err)
		return -err;
	ASSERT_EQ(0, pc_faults_map(f, N + 1));
	ASSERT_EQ(0, pc_faults_enabled(f, cap->fd, N));
	ASSERT_CAPTURE_READ(cap);
	return 0;
}

/* One sample per fault, at the page it touched, taken in the function that touched it. */
static void expect_fault_samples(struct __test_metadata *_metadata, const struct pc_capture *cap,
				 const struct pc_faults *f)
{
	ASSERT_EQ(N, pc_capture_count(cap, PERF_RECORD_SAMPLE));
	for (size_t k = 0; k < N; k++) {
		const struct pc_sample *s = pc_capture_sample(cap, k);

		EXPECT_EQ(pc_faults_addr(f, 1 + k), s->addr) TH_LOG("sample %zu", k);
		EXPECT_TRUE(pc_fault_ip(s->ip)) TH_LOG("sample %zu: ip %#llx", k, (unsigned long long)s->ip);
	}
}

CELL_CASE(phys_addr)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_PHYS_ADDR);
	struct pc_faults f = { 0 };
	struct pc_capture cap;
	int err = sample_own_faults(_metadata, &cap, &f, &attr);

	if (CELL_ALLOWS(err, PC_GATE_KERNEL))
		expect_fault_samples(_metadata, &cap, &f);
	pc_capture_close(&cap);
	pc_faults_unmap(&f);
}

CELL_CASE(regs_intr)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	struct pc_faults f = { 0 };
	struct pc_capture cap;

	if (!strcmp(lockdown, "confidentiality"))
		SKIP(return, "the kernel is locked down for confidentiality: REGS_INTR is EPERM to all");
	REQUIRE_REGS_TABLE(a);
	/* The IP alone: x86 refuses an empty mask (perf_reg_validate()). */
	struct perfconf_attr attr = pc_attr_regs_sampling(PERF_SAMPLE_REGS_INTR, PC_REG(a->ip));
	int err = sample_own_faults(_metadata, &cap, &f, &attr);

	if (CELL_ALLOWS(err, PC_GATE_USER)) {
		expect_fault_samples(_metadata, &cap, &f);
		for (size_t k = 0; k < N; k++) {
			const struct pc_sample *s = pc_capture_sample(&cap, k);
			uint64_t ip = 0;

			EXPECT_EQ(a->abi, s->regs_intr_abi) TH_LOG("sample %zu", k);
			ASSERT_TRUE(pc_regs_get(s->regs_intr, s->regs_intr_nr, attr.sample_regs_intr, a->ip, &ip));
			EXPECT_EQ(s->ip, ip) TH_LOG("sample %zu", k);
		}
	}
	pc_capture_close(&cap);
	pc_faults_unmap(&f);
}

TEST_HARNESS_MAIN
