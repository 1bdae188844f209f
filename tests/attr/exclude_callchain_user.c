// SPDX-License-Identifier: GPL-2.0
/*
 * exclude_callchain_user (since 3.7): "Do not include user callchains."
 *
 * A PERF_SAMPLE_CALLCHAIN callchain holds a kernel part (PERF_CONTEXT_KERNEL
 * and the kernel frames) when the sample was taken in the kernel, and a
 * user part (PERF_CONTEXT_USER and the user frames, from the user IP).
 * With the bit set, the user marker and every user frame are gone: a
 * sample taken in the kernel keeps its kernel part only, and a sample
 * taken in user mode has nothing left. With both exclude_callchain_* bits
 * the callchain is empty.
 *
 * Samples here are page faults the kernel takes in a system call (a kernel
 * part and a user part) and a uprobe on a function (user mode only).
 */
#include "perfconf.h"
#include "work/measure.h"
#include "ring/sample_site.h"

#define FAULTS 4
#define FIELD exclude_callchain_user
#include "exclude_callchain_count.h"	/* count_unchanged */

PERFCONF_KEEP_CALLS(pc_probe)

/*
 * Exactly FAULTS kernel-mode page-fault samples into cap (or the case
 * fails), with their callchain.
 */
static void capture_kernel_samples(struct __test_metadata *_metadata, struct pc_capture *cap,
				   bool exclude_user_chain, bool exclude_kernel_chain)
{
	struct perfconf_attr attr = pc_attr_kernel_sampling(PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);

	attr.exclude_callchain_user = exclude_user_chain;
	attr.exclude_callchain_kernel = exclude_kernel_chain;
	int err = pc_capture_run(cap, &attr, pc_kernel_faults_work, PC_N(FAULTS));
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap->error);
	ASSERT_EQ(FAULTS, pc_capture_count(cap, PERF_RECORD_SAMPLE));
}

/* Without the bit, the user part follows the kernel part. */
TEST(user_part_present_without_the_bit)
{
	struct pc_capture cap;

	capture_kernel_samples(_metadata, &cap, false, false);
	for (unsigned int i = 0; i < FAULTS; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);
		long user = pc_callchain_find(s, PERF_CONTEXT_USER);

		EXPECT_EQ(1, pc_callchain_count(s, PERF_CONTEXT_USER));
		ASSERT_LT(0, user);
		ASSERT_LT(user + 1, s->callchain_nr);
		EXPECT_EQ(PC_ADDR_TEXT, pc_addr_class(s->callchain[user + 1]))
			TH_LOG("first user frame %#llx", (unsigned long long)s->callchain[user + 1]);
	}
	pc_capture_close(&cap);
}

/* With the bit: the kernel marker and kernel frames only, none of this process's code. */
TEST(user_part_absent)
{
	struct pc_capture cap;

	capture_kernel_samples(_metadata, &cap, true, false);
	for (unsigned int i = 0; i < FAULTS; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);

		ASSERT_LE(2, s->callchain_nr);
		EXPECT_EQ(PERF_CONTEXT_KERNEL, s->callchain[0]);
		EXPECT_EQ(0, pc_callchain_count(s, PERF_CONTEXT_USER));
		for (uint64_t k = 1; k < s->callchain_nr; k++) {
			EXPECT_FALSE(pc_callchain_is_marker(s->callchain[k])) TH_LOG("entry %llu",
										  (unsigned long long)k);
			EXPECT_EQ(PC_ADDR_UNMAPPED, pc_addr_class(s->callchain[k]))
				TH_LOG("entry %llu %#llx lies in this process", (unsigned long long)k,
				       (unsigned long long)s->callchain[k]);
		}
	}
	pc_capture_close(&cap);
}

/* Both bits: an empty callchain (nr = 0), the record still well formed. */
TEST(both_bits_empty_callchain)
{
	struct pc_capture cap;

	capture_kernel_samples(_metadata, &cap, true, true);
	for (unsigned int i = 0; i < FAULTS; i++)
		EXPECT_EQ(0, pc_capture_find(&cap, PERF_RECORD_SAMPLE, i)->sample.callchain_nr);
	pc_capture_close(&cap);
}

/* A sample taken in user mode has only a user part: with the bit, nothing is left. */
TEST(user_mode_sample_empty)
{
	struct perfconf_attr attr;
	struct pc_capture cap;

	FUNCTION_SAMPLING(&attr, pc_probe, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	attr.exclude_callchain_user = 1;
	int err = pc_capture_run(&cap, &attr, pc_probe_work, PC_N(1));
	SKIP_IF_UNSUPPORTED(-err, "a uprobe");
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap.error);
	const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SAMPLE, 0);
	ASSERT_NE(NULL, r);
	EXPECT_EQ((uintptr_t)pc_probe, r->sample.ip);
	EXPECT_EQ(0, r->sample.callchain_nr);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
