// SPDX-License-Identifier: GPL-2.0
/*
 * exclude_callchain_kernel (since 3.7): "Do not include kernel callchains."
 *
 * A PERF_SAMPLE_CALLCHAIN callchain is a list of ips in which each context
 * starts with a marker: PERF_CONTEXT_KERNEL and the kernel frames, then
 * PERF_CONTEXT_USER and the user frames, starting at the user IP. With the
 * bit set, the kernel marker and its frames are gone and the user part is
 * all that is left. A kernel callchain may need the right to see the
 * kernel: an unprivileged user who excludes the kernel from the event can
 * always sample callchains with this bit set; whether the kernel also
 * insists on it (EACCES without) differs between releases and is pinned.
 *
 * Samples here are page faults the kernel takes in a system call (a kernel
 * part and a user part) and a uprobe on a function (user mode only).
 */
#include "perfconf.h"
#include "work/measure.h"
#include "event/regs.h"
#include "ring/sample_site.h"

#define FAULTS 4
#define FIELD exclude_callchain_kernel
#include "exclude_callchain_count.h"	/* count_unchanged */

PERFCONF_META("reads=perf_event_paranoid");

PERFCONF_KEEP_CALLS(pc_probe)

/*
 * Exactly FAULTS kernel-mode page-fault samples into cap (or the case
 * fails), with their callchain and user IP register.
 */
static void capture_kernel_samples(struct __test_metadata *_metadata, struct pc_capture *cap,
				   bool exclude_kernel_chain)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	struct perfconf_attr attr = pc_attr_kernel_sampling(PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN |
							    (a ? PERF_SAMPLE_REGS_USER : 0));

	if (a)
		attr.sample_regs_user = PC_REG(a->ip);
	attr.exclude_callchain_kernel = exclude_kernel_chain;
	int err = pc_capture_run(cap, &attr, pc_kernel_faults_work, PC_N(FAULTS));
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap->error);
	ASSERT_EQ(FAULTS, pc_capture_count(cap, PERF_RECORD_SAMPLE));
}

/* The user part starts with the user IP (checked when the arch has a regs table). */
static bool user_part_starts_at_user_ip(const struct pc_sample *s, long user)
{
	if (user < 0 || (uint64_t)user + 1 >= s->callchain_nr)
		return false;
	if (s->regs_user_nr == 1)
		return s->callchain[user + 1] == s->regs_user[0];
	return pc_addr_class(s->callchain[user + 1]) == PC_ADDR_TEXT;
}

/* Without the bit: both parts, the kernel one first, starting at the sample IP's context. */
TEST(kernel_part_present_without_the_bit)
{
	struct pc_capture cap;

	capture_kernel_samples(_metadata, &cap, false);
	for (unsigned int i = 0; i < FAULTS; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);
		long user = pc_callchain_find(s, PERF_CONTEXT_USER);

		ASSERT_LE(2, s->callchain_nr);
		EXPECT_EQ(PERF_CONTEXT_KERNEL, s->callchain[0]);
		EXPECT_EQ(1, pc_callchain_count(s, PERF_CONTEXT_KERNEL));
		EXPECT_FALSE(pc_callchain_is_marker(s->callchain[1]));
		EXPECT_EQ(PC_ADDR_UNMAPPED, pc_addr_class(s->callchain[1]))
			TH_LOG("first kernel frame %#llx", (unsigned long long)s->callchain[1]);
		EXPECT_LT(1, user) TH_LOG("sample %u: no user part after the kernel part", i);
		EXPECT_TRUE(user_part_starts_at_user_ip(s, user));
	}
	pc_capture_close(&cap);
}

/* With the bit: no kernel marker, no kernel frame, the user part first. */
TEST(kernel_part_absent)
{
	struct pc_capture cap;

	capture_kernel_samples(_metadata, &cap, true);
	for (unsigned int i = 0; i < FAULTS; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);

		ASSERT_LE(2, s->callchain_nr);
		EXPECT_EQ(0, pc_callchain_count(s, PERF_CONTEXT_KERNEL));
		EXPECT_EQ(PERF_CONTEXT_USER, s->callchain[0]);
		EXPECT_TRUE(user_part_starts_at_user_ip(s, 0));
		EXPECT_EQ(-ENOENT, pc_callchain_find(s, s->ip))
			TH_LOG("the kernel sample IP is in the chain");
	}
	pc_capture_close(&cap);
}

/* A sample taken in user mode has no kernel part: the bit changes nothing. */
TEST(user_mode_sample_unchanged)
{
	for (int bit = 0; bit <= 1; bit++) {
		struct perfconf_attr attr;
		struct pc_capture cap;

		FUNCTION_SAMPLING(&attr, pc_probe, PERF_SAMPLE_CALLCHAIN);
		attr.exclude_callchain_kernel = bit;
		int err = pc_capture_run(&cap, &attr, pc_probe_work, PC_N(1));
		SKIP_IF_UNSUPPORTED(-err, "a uprobe");
		ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap.error);
		const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SAMPLE, 0);
		ASSERT_NE(NULL, r);
		ASSERT_LE(2, r->sample.callchain_nr);
		EXPECT_EQ(PERF_CONTEXT_USER, r->sample.callchain[0]) TH_LOG("exclude_callchain_kernel=%d", bit);
		EXPECT_EQ((uintptr_t)pc_probe, r->sample.callchain[1]) TH_LOG("exclude_callchain_kernel=%d", bit);
		EXPECT_EQ(0, pc_callchain_count(&r->sample, PERF_CONTEXT_KERNEL));
		pc_capture_close(&cap);
	}
}

/*
 * An unprivileged user at perf_event_paranoid 2 may sample its own user
 * space (exclude_kernel = 1). With PERF_SAMPLE_CALLCHAIN it must also set
 * exclude_callchain_kernel: that open succeeds. Without it, whether the
 * kernel asks for the kernel-profiling right (EACCES) is pinned.
 */
TEST(unprivileged_user_callchain)
{
	int paranoid = pc_paranoid();

	if (paranoid > 2)
		SKIP(return, "perf_event_paranoid %d refuses every unprivileged open", paranoid);
	BECOME_NOBODY();

	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_CALLCHAIN);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	int without = pc_open_errno(&attr, 0, -1, -1, 0);
	attr.exclude_callchain_kernel = 1;
	int with = pc_open_errno(&attr, 0, -1, -1, 0);

	pc_observe("paranoid", "%d", paranoid);
	pc_observe_errno("without_bit", without);
	EXPECT_ERRNO(0, with);
	if (paranoid <= 1)
		EXPECT_ERRNO(0, without) TH_LOG("paranoid %d allows kernel profiling", paranoid);
}

TEST_HARNESS_MAIN
