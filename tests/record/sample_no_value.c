// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_SAMPLE_WEIGHT, WEIGHT_STRUCT (since 5.12), DATA_SRC and
 * TRANSACTION describe a memory access or a transaction that a hardware
 * PMU measured. A software event or a tracepoint has none to describe:
 * the field is still in the sample, in its place, with the kernel's "no
 * value": a weight of 0 (all three parts of the struct form), no
 * transaction flags (0), and a data source that says "not available" in
 * each of its parts (PERF_MEM_NA: mem_op, mem_lvl, mem_snoop, mem_lock and
 * mem_dtlb NA; from 6.6 mem_lvl_num NA as well, 0x0f).
 *
 * The kernel: 6.12 kernel/events/core.c, perf_prepare_sample, lines
 * 7980-7994 (weight.full = 0, data_src.val = PERF_MEM_NA, txn = 0 for
 * whatever the PMU driver did not fill); include/linux/perf_event.h:1263
 * (PERF_MEM_NA). Older kernels (5.10) set the same values for every
 * sample in perf_sample_data_init().
 * PERF_MEM_S(LVLNUM, NA) joined PERF_MEM_NA in 6.6 ("perf/mem: Add
 * PERF_MEM_LVLNUM_NA to PERF_MEM_NA", Ravi Bangoria, 2023): an older
 * kernel writes the value without it (a stable backport may write the new
 * one; both are accepted there, and the value is observed).
 *
 * Each bit is checked alone with the fields that tell the sample is right
 * otherwise: IP, TID, ADDR and PERIOD of a page-fault sample, TID and
 * PERIOD of a getppid tracepoint sample.
 */
#include <sys/syscall.h>

#include "perfconf.h"
#include "work/faults.h"

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)

#define MEM_NA_OLD (PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) | \
		    PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, NA))
#define MEM_NA_NEW (MEM_NA_OLD | PERF_MEM_S(LVLNUM, NA))

FIXTURE(no_value) {
	int unused;
};

FIXTURE_VARIANT(no_value) {
	uint64_t bit;
	const char *name;
	int since;	/* PC_KVER of the first kernel with the bit */
};

FIXTURE_VARIANT_ADD(no_value, weight) {
	.bit = PERF_SAMPLE_WEIGHT, .name = "WEIGHT", .since = PC_KVER(3, 10),
};
FIXTURE_VARIANT_ADD(no_value, weight_struct) {
	.bit = PERF_SAMPLE_WEIGHT_STRUCT, .name = "WEIGHT_STRUCT", .since = PC_KVER(5, 12),
};
FIXTURE_VARIANT_ADD(no_value, data_src) {
	.bit = PERF_SAMPLE_DATA_SRC, .name = "DATA_SRC", .since = PC_KVER(3, 10),
};
FIXTURE_VARIANT_ADD(no_value, transaction) {
	.bit = PERF_SAMPLE_TRANSACTION, .name = "TRANSACTION", .since = PC_KVER(3, 13),
};

FIXTURE_SETUP(no_value)
{
}

FIXTURE_TEARDOWN(no_value)
{
}

#define OPEN_WITH_BIT(cap, attr) do { \
	int e_ = pc_capture_open(cap, attr, 0, -1); \
	if (e_ == -EINVAL && pc_kernel()->kver < variant->since) \
		SKIP(return, "PERF_SAMPLE_%s is new in %d.%d", variant->name, variant->since / 1000, \
		     variant->since % 1000); \
	ASSERT_ERRNO(0, -e_) TH_LOG("PERF_SAMPLE_%s", variant->name); \
} while (0)

/* The bit's field holds the kernel's "no value". */
static void expect_no_value(struct __test_metadata *_metadata,
			    const FIXTURE_VARIANT(no_value) *variant, const struct pc_sample *s,
			    size_t k)
{
	switch (variant->bit) {
	case PERF_SAMPLE_WEIGHT:
		EXPECT_EQ(0, s->weight) TH_LOG("sample %zu: weight", k);
		break;
	case PERF_SAMPLE_WEIGHT_STRUCT:
		EXPECT_EQ(0, s->weight) TH_LOG("sample %zu: the whole u64", k);
		EXPECT_EQ(0, s->weight_var1_dw) TH_LOG("sample %zu: var1_dw", k);
		EXPECT_EQ(0, s->weight_var2_w) TH_LOG("sample %zu: var2_w", k);
		EXPECT_EQ(0, s->weight_var3_w) TH_LOG("sample %zu: var3_w", k);
		break;
	case PERF_SAMPLE_TRANSACTION:
		EXPECT_EQ(0, s->transaction) TH_LOG("sample %zu: transaction", k);
		break;
	case PERF_SAMPLE_DATA_SRC:
		if (k == 0)
			pc_observe("data_src", "%#llx", (unsigned long long)s->data_src);
		if (pc_kernel()->kver >= PC_KVER(6, 6)) {
			EXPECT_EQ((uint64_t)MEM_NA_NEW, s->data_src)
				TH_LOG("sample %zu: data_src %#llx, PERF_MEM_NA with LVLNUM NA is %#llx", k,
				       (unsigned long long)s->data_src, (unsigned long long)MEM_NA_NEW);
		} else {
			EXPECT_TRUE(s->data_src == MEM_NA_OLD || s->data_src == MEM_NA_NEW)
				TH_LOG("sample %zu: data_src %#llx, PERF_MEM_NA is %#llx (%#llx from 6.6)", k,
				       (unsigned long long)s->data_src, (unsigned long long)MEM_NA_OLD,
				       (unsigned long long)MEM_NA_NEW);
		}
		break;
	default:
		ASSERT_TRUE(0) TH_LOG("no expectation for %s", variant->name);
	}
}

/* Page faults, one sample each: the field's "no value", the sample otherwise right. */
TEST_F(no_value, page_fault_sample)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD | variant->bit);
	struct pc_capture cap;
	struct pc_faults f;

	attr.exclude_kernel = 1;
	OPEN_WITH_BIT(&cap, &attr);
	CAPTURE_FAULT_SAMPLES(&cap, &f, 3);
	for (size_t k = 0; k < 3; k++) {
		const struct pc_sample *s = pc_capture_sample(&cap, k);

		EXPECT_TRUE(pc_fault_ip(s->ip)) TH_LOG("sample %zu: ip %#llx", k, (unsigned long long)s->ip);
		EXPECT_EQ(getpid(), s->pid);
		EXPECT_EQ(syscall(SYS_gettid), s->tid);
		EXPECT_EQ(pc_faults_addr(&f, 1 + k), s->addr);
		EXPECT_EQ(1, s->period);
		expect_no_value(_metadata, variant, s, k);
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* The getppid tracepoint, each hit sampled: the same "no value". */
TEST_F(no_value, tracepoint_sample)
{
	struct perfconf_attr attr;
	struct pc_capture cap;

	GETPPID_TRACEPOINT(&attr);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | variant->bit;
	OPEN_WITH_BIT(&cap, &attr);
	syscall(SYS_getppid);	/* warm */
	CAPTURE_GETPPID_SAMPLES(&cap, 3);
	for (size_t k = 0; k < 3; k++) {
		const struct pc_sample *s = pc_capture_sample(&cap, k);

		EXPECT_EQ(getpid(), s->pid);
		EXPECT_EQ(syscall(SYS_gettid), s->tid);
		EXPECT_EQ(1, s->period);
		expect_no_value(_metadata, variant, s, k);
	}
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
