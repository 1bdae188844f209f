// SPDX-License-Identifier: GPL-2.0
/*
 * branch_sample_type (since 3.4): "If PERF_SAMPLE_BRANCH_STACK is enabled,
 * then this specifies what branches to include in the branch record." It
 * is a privilege level (USER, KERNEL, HV; the event's own when none is
 * given) and "at least one or more" branch type or modifier bits.
 *
 * A branch stack needs hardware that records branches (Intel LBR, AMD
 * BRS/LbrExtV2, arm64 BRBE): every other event refuses it, "EOPNOTSUPP ...
 * branch stacks for software events". A bit this kernel does not define is
 * EINVAL; bits are added in order, so the unknown ones are the top bits.
 * Which bits this kernel knows is pinned.
 */
#include "perfconf.h"
#include "event/hw.h"
#include "work/attr_probe.h"
#include "ring/sample_site.h"

static const char *const names[] = {
	"user", "kernel", "hv", "any", "any_call", "any_return", "ind_call", "abort_tx",
	"in_tx", "no_tx", "cond", "call_stack", "ind_jump", "call", "no_flags", "no_cycles",
	"type_save", "hw_index", "priv_save", "counters",
};
#define NAMED_BITS (ARRAY_SIZE(names))
#define PLM_ALL (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

static int sw_branch_errno(uint64_t branch_sample_type)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
							PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK);

	attr.branch_sample_type = branch_sample_type;
	return pc_open_errno(&attr, 0, -1, -1, 0);
}

/* A privilege level alone selects no branch: EINVAL. */
TEST(privilege_level_alone_is_einval)
{
	const uint64_t plm[] = { PERF_SAMPLE_BRANCH_USER, PERF_SAMPLE_BRANCH_KERNEL,
				 PERF_SAMPLE_BRANCH_HV, PLM_ALL };

	for (unsigned int i = 0; i < ARRAY_SIZE(plm); i++) {
		EXPECT_ERRNO(EINVAL, sw_branch_errno(plm[i])) TH_LOG("branch_sample_type %#llx",
								    (unsigned long long)plm[i]);
	}
}

/* The man page's own example: a branch stack on a software event. */
TEST(software_event_is_eopnotsupp)
{
	EXPECT_ERRNO(EOPNOTSUPP, sw_branch_errno(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER));
	EXPECT_ERRNO(EOPNOTSUPP, sw_branch_errno(PERF_SAMPLE_BRANCH_ANY));
}

/*
 * Every branch bit past the privilege level, alone, on a software event:
 * EOPNOTSUPP when this kernel knows it, EINVAL when not, and no known bit
 * above an unknown one. The number of bits known is pinned (20 in 6.8+).
 */
TEST(each_bit_on_software_event)
{
	unsigned int known = 64;

	for (unsigned int bit = 3; bit < 64; bit++) {
		int err = sw_branch_errno(1ULL << bit);

		if (bit < NAMED_BITS) {
			char key[40];

			snprintf(key, sizeof(key), "bit.%s", names[bit]);
			pc_observe_errno(key, err);
		}
		if (err == EINVAL && known == 64)
			known = bit;
		if (known < bit) {
			EXPECT_ERRNO(EINVAL, err) TH_LOG("bit %u accepted as known above unknown bit %u", bit, known);
		} else if (known > bit) {
			EXPECT_ERRNO(EOPNOTSUPP, err) TH_LOG("bit %u", bit);
		}
	}
	pc_observe("known_bits", "%u", known);
	EXPECT_LE(17, known) TH_LOG("bits through PERF_SAMPLE_BRANCH_TYPE_SAVE are older than 5.0");
	EXPECT_GT(64, known) TH_LOG("bit 63 is not a branch type");
}

/* Without PERF_SAMPLE_BRANCH_STACK the field is not looked at. */
TEST(ignored_without_the_sample_bit)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);

	attr.branch_sample_type = ~0ULL;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0));
}

/* No PMU here besides a hardware one records branches: each refuses. */
TEST(other_pmus_refuse_branch_stacks)
{
	struct pc_field_event kinds[PC_FIELD_EVENTS_MAX];
	size_t n = pc_field_events(kinds, PC_FIELD_EVENTS_MAX);

	for (size_t i = 0; i < n; i++) {
		struct perfconf_attr attr = kinds[i].attr;
		char key[40];

		attr.sample_period = 1;
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
		int err = pc_open_errno(&attr, 0, -1, -1, 0);
		snprintf(key, sizeof(key), "%s", kinds[i].kind);
		pc_observe_errno(key, err);
		EXPECT_ERRNO(EOPNOTSUPP, err) TH_LOG("%s event", kinds[i].kind);
	}
}

static void calls(void *arg)
{
	pc_work_calls((unsigned long)(uintptr_t)arg);
}

/*
 * The effect, where a PMU records branches: user-level call branches
 * sampled from CPU cycles while this process calls a function many times.
 * Each branch entry's target is user code of this process.
 */
TEST(user_branches_recorded)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	struct pc_capture cap;
	const char *unsafe = pc_hw_branch_stack_unsafe();

	if (unsafe)
		BLOCKED("%s", unsafe);
	attr.sample_period = 100000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_USER;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	int err = pc_capture_run(&cap, &attr, calls, PC_N(2000000));
	if (err && cap.fd < 0)
		SKIP(return, "no PMU here records branch stacks (%s)", pc_errno_name(-err));
	ASSERT_EQ(0, err) TH_LOG("%s", cap.error);

	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE), entries = 0;
	ASSERT_LT(0, samples);
	for (size_t i = 0; i < samples; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);

		for (uint64_t k = 0; k < s->branch_nr; k++, entries++) {
			EXPECT_EQ(PC_ADDR_TEXT, pc_addr_class(s->branches[k].to))
				TH_LOG("sample %zu entry %llu: to %#llx", i, (unsigned long long)k,
				       (unsigned long long)s->branches[k].to);
		}
	}
	EXPECT_LT(0, entries) TH_LOG("%zu samples, no branch recorded", samples);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
