// SPDX-License-Identifier: GPL-2.0
/*
 * Branch stacks of the kernel or the hypervisor, in every cell of identity
 * x perf_event_paranoid.
 *
 * branch_sample_type names the privilege levels whose branches a
 * PERF_SAMPLE_BRANCH_STACK sample records. Recording those of the kernel
 * (PERF_SAMPLE_BRANCH_KERNEL) or of the hypervisor (PERF_SAMPLE_BRANCH_HV)
 * is kernel profiling even on an event that counts user space only:
 * perf_copy_attr() asks perf_allow_kernel() for either, before any PMU is
 * chosen, and refuses it with EACCES at level >= 2 to users who are not
 * perfmon_capable(). The user level (PERF_SAMPLE_BRANCH_USER) passes that
 * check for everyone: it is the control in each case, so that a refusal
 * is the level's doing.
 *
 * Past the checks the PMU answers: one that records no branches refuses
 * with EOPNOTSUPP (software events, and the machines without LBR, BRS or
 * BRBE), one that does opens the event (or refuses an event it cannot
 * branch-sample: AMD's BRS takes only its own branch event, EINVAL). So
 * the privilege rule is asserted with the PMU's refusal read as passing
 * ("errno": EACCES or not), and the open's own errno is pinned ("open",
 * "user_open"). Where it opens, the event works: samples of this task's
 * calls arrive, each with its branch stack, and those of the user-level
 * control record branches.
 *
 * The event is user-only CPU cycles (exclude_kernel, exclude_hv) where
 * there is a core PMU to count them, a software one elsewhere, and where
 * a hardware branch stack must not run here (pc_hw_branch_stack_unsafe():
 * qemu's TCG POWER oopses on it): the privilege checks come before the
 * PMU's, so they are judged alike.
 */
/* As root: whether the branch sampler can be a hardware one. */
#define CELL_PREPARE(_metadata) \
	(have_cycles = pc_hw_pmu() && !pc_hw_open_errno(PERF_COUNT_HW_CPU_CYCLES) && \
		       !pc_hw_branch_stack_unsafe())

#include "cells.h"
#include "event/hw.h"

#define CALLS 2000000
#define PERIOD 100000

static bool have_cycles;

/*
 * Sample this task's calls with the branches of privilege level plm, user
 * space only, into cap: 0, or the errno of the open (cap->fd is -1 then).
 */
static int sample_branches(struct __test_metadata *_metadata, struct pc_capture *cap, uint64_t plm)
{
	struct perfconf_attr attr = have_cycles ? pc_attr_hw(PERF_COUNT_HW_CPU_CYCLES) :
						  pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.sample_period = PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | plm;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	int err = pc_capture_run(cap, &attr, pc_calls_work, PC_N(CALLS));
	if (cap->fd < 0)
		return -err;
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap->error);
	return 0;
}

/*
 * The outcome as the privilege checks see it: EACCES is theirs, any other
 * refusal the PMU's, which comes after them all. The open's own errno is
 * observed as `key`.
 */
static int past_the_checks(const char *key, int err)
{
	pc_observe_errno(key, err);
	return err == EACCES ? err : 0;
}

/* Samples arrived, each with a branch stack (decoded); the number of branches in all. */
static uint64_t expect_branch_samples(struct __test_metadata *_metadata, const struct pc_capture *cap)
{
	size_t samples = pc_capture_count(cap, PERF_RECORD_SAMPLE);
	uint64_t branches = 0;

	EXPECT_LT(0, samples) TH_LOG("%d calls, no sample", CALLS);
	for (size_t i = 0; i < samples; i++)
		branches += pc_capture_sample(cap, i)->branch_nr;
	return branches;
}

/*
 * The control: the user level's branches, which every identity may
 * sample up to level 2 (Debian's 3 refuses every open without
 * CAP_SYS_ADMIN). Where it opens, its stacks record this code's branches.
 */
static void user_level_control(struct __test_metadata *_metadata, const struct cell *cell)
{
	const enum pc_gate user[] = { PC_GATE_USER };
	struct pc_capture cap;
	int err = past_the_checks("user_open", sample_branches(_metadata, &cap, PERF_SAMPLE_BRANCH_USER));

	EXPECT_TRUE(pc_paranoid_errno_ok(user, 1, cell->level, cell->id, pc_kernel()->kver, err))
		TH_LOG("%s at perf_event_paranoid %d: user-level branches refused with %s", cell->id->name,
		       cell->level, pc_errno_name(err));
	if (cap.fd >= 0)
		EXPECT_LT(0, expect_branch_samples(_metadata, &cap)) TH_LOG("no user branch recorded");
	pc_capture_close(&cap);
}

/* The branches of privilege level plm: perf_allow_kernel(), then the PMU. */
static void privileged_level(struct __test_metadata *_metadata, const struct cell *cell, uint64_t plm)
{
	struct pc_capture cap;
	int err = past_the_checks("open", sample_branches(_metadata, &cap, plm));

	if (CELL_ALLOWS(err, PC_GATE_KERNEL) && cap.fd >= 0)
		expect_branch_samples(_metadata, &cap);
	pc_capture_close(&cap);
	user_level_control(_metadata, cell);
}

CELL_CASE(branch_kernel)
{
	privileged_level(_metadata, cell, PERF_SAMPLE_BRANCH_KERNEL);
}

CELL_CASE(branch_hv)
{
	privileged_level(_metadata, cell, PERF_SAMPLE_BRANCH_HV);
}

TEST_HARNESS_MAIN
