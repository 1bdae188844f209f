// SPDX-License-Identifier: GPL-2.0
/*
 * aux_output (since Linux 5.4): "This allows normal (non-AUX) events to
 * generate data for AUX events if the hardware supports it." Only a PMU
 * that can (PERF_PMU_CAP_AUX_OUTPUT: Intel PEBS into PT) takes the bit;
 * every other event refuses it, with the errno pinned here (EOPNOTSUPP
 * since 5.4, EINVAL while the bit was reserved).
 *
 * The effect -- PEBS records written into an Intel PT leader's AUX area --
 * needs that hardware: without it the case skips.
 *
 * Where it is accepted is the core's: the member's PMU has
 * PERF_PMU_CAP_AUX_OUTPUT (else EOPNOTSUPP), its group leader is an AUX
 * event,
 * whose PMU's aux_output_match() takes the leader, and aux_sample_size
 * is not asked too (else EINVAL: perf_get_aux_event()). The suite's PMUs
 * (ring/synth.h) check each rule: perfconf_out takes aux_output, and
 * matches a perfconf_aux leader whose config1 bit 0 is clear.
 */
#include <linux/hw_breakpoint.h>

#include "perfconf.h"
#include "work/attr_probe.h"

/* Set aux_output on attr: refused (pinned errno), never accepted. */
static void expect_refused(struct __test_metadata *_metadata, struct perfconf_attr *attr)
{
	attr->aux_output = 1;
	EXPECT_NE(0, pc_open_observe_errno("errno", attr, 0, -1))
		TH_LOG("an event without AUX output took it");
}

TEST(software_event)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	expect_refused(_metadata, &attr);
}

TEST(breakpoint)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_X, (void *)pc_work_target, 0);

	REQUIRE_PMU("breakpoint");
	expect_refused(_metadata, &attr);
}

TEST(tracepoint)
{
	struct perfconf_attr attr;
	int err = pc_attr_tracepoint(&attr, "syscalls", "sys_enter_getppid");

	if (err)
		SKIP(return, "no syscalls:sys_enter_getppid tracepoint here (%s)", pc_errno_name(-err));
	expect_refused(_metadata, &attr);
}

/* With aux_sample_size as well (the two exclude each other): still refused. */
TEST(with_aux_sample_size)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	attr.aux_sample_size = 4096;
	expect_refused(_metadata, &attr);
}

/* A sibling asking for AUX output in a group whose leader has no AUX area. */
TEST(member_of_a_plain_group)
{
	struct perfconf_attr leader = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	struct perfconf_attr member = pc_attr_sw(PERF_COUNT_SW_TASK_CLOCK);
	int fd = pc_open(&leader, 0, -1, -1, 0);

	ASSERT_OPEN(fd);
	member.aux_output = 1;
	int err = pc_open_errno(&member, 0, -1, fd, 0);
	pc_observe_errno("errno", err);
	EXPECT_NE(0, err);
	close(fd);
}

/* The effect needs a PMU that writes AUX data and takes AUX output from others. */
TEST(effect_needs_aux_hardware)
{
	PROBE_ON_AUX_PMU("aux_output", 1, true, "records of a sibling written into the AUX area");
}

/*
 * A member of a perfconf_aux group (its leader's config1 as given): the
 * errno of its open with aux_output set, after the control -- the same
 * member without aux_output -- opened.
 */
static int aux_output_member(struct __test_metadata *_metadata, struct perfconf_attr *member,
			     uint64_t leader_config1)
{
	struct perfconf_attr leader = pc_attr_synth_aux(0);
	leader.config1 = leader_config1;
	int fd = pc_open(&leader, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int err;

	if (fd < 0)
		return -fd;
	member->aux_output = 0;
	EXPECT_ERRNO(0, pc_open_errno(member, 0, -1, fd, 0)) TH_LOG("the member without aux_output");
	member->aux_output = 1;
	err = pc_open_errno(member, 0, -1, fd, 0);
	close(fd);
	return err;
}

TEST(accepted_from_a_member_the_leader_matches)
{
	REQUIRE_SYNTH_PMU();
	struct perfconf_attr member = pc_attr_synth_out(0);

	EXPECT_ERRNO(0, aux_output_member(_metadata, &member, 0));
}

/* The member's aux_output_match() refuses the leader (config1 bit 0): EINVAL. */
TEST(refused_when_the_leader_does_not_match)
{
	REQUIRE_SYNTH_PMU();
	struct perfconf_attr member = pc_attr_synth_out(0);

	EXPECT_ERRNO(EINVAL, aux_output_member(_metadata, &member, 1));
}

/* A member whose PMU has no PERF_PMU_CAP_AUX_OUTPUT, in an AUX group: EOPNOTSUPP. */
TEST(refused_from_a_pmu_without_aux_output)
{
	REQUIRE_SYNTH_PMU();
	struct perfconf_attr member = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	EXPECT_ERRNO(EOPNOTSUPP, aux_output_member(_metadata, &member, 0));
}

/*
 * With aux_sample_size as well, in an AUX group that takes the member:
 * EINVAL; the control is the member with aux_output alone.
 */
TEST(refused_with_aux_sample_size_in_an_aux_group)
{
	REQUIRE_SYNTH_PMU();
	REQUIRE_ATTR_FIELD("aux_sample_size");
	struct perfconf_attr leader = pc_attr_synth_aux(0);
	struct perfconf_attr member = pc_attr_synth_out(0);
	int fd = pc_open(&leader, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(fd);
	member.aux_output = 1;
	member.aux_sample_size = 4096;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&member, 0, -1, fd, 0));
	member.aux_sample_size = 0;
	EXPECT_ERRNO(0, pc_open_errno(&member, 0, -1, fd, 0)) TH_LOG("aux_output alone");
	close(fd);
}

/* No AUX leader: alone, or led by a software event, EINVAL; the control is the matching group. */
TEST(refused_without_an_aux_leader)
{
	REQUIRE_SYNTH_PMU();
	struct perfconf_attr member = pc_attr_synth_out(0);
	struct perfconf_attr plain = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	member.aux_output = 1;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&member, 0, -1, -1, 0)) TH_LOG("alone");
	int fd = pc_open(&plain, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, pc_open_errno(&member, 0, -1, fd, 0)) TH_LOG("led by a software event");
	close(fd);
	EXPECT_ERRNO(0, aux_output_member(_metadata, &member, 0)) TH_LOG("led by perfconf_aux");
}

TEST_HARNESS_MAIN
