// SPDX-License-Identifier: GPL-2.0
/*
 * aux_sample_size (since Linux 5.5): "When PERF_SAMPLE_AUX flag is set,
 * specify the desired size of AUX data. Note that it can get smaller data
 * than the specified size." The data is a snapshot of the AUX area of the
 * event's group leader, which must be an AUX event whose PMU can take
 * snapshots: without one a non-zero size is refused with EINVAL. With no
 * size asked, PERF_SAMPLE_AUX is taken and each sample carries an empty
 * AUX part (size 0, no data).
 */
#include "perfconf.h"
#include "work/attr_probe.h"
#include "aux_field_cases.h"

#define FIELD "aux_sample_size"
#define FAULTS 16

static struct perfconf_attr aux_sampler(void)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
							PERF_SAMPLE_TID | PERF_SAMPLE_AUX);

	attr.exclude_kernel = 1;
	return attr;
}

TEST(needs_an_aux_group_leader)
{
	struct perfconf_attr attr = aux_sampler();

	REQUIRE_ATTR_FIELD(FIELD);
	EXPECT_ERRNO(EINVAL, pc_field_probe(&attr, FIELD, 4096).err);
	/* The size alone, without PERF_SAMPLE_AUX, asks for the AUX event all the same. */
	attr.sample_type = PERF_SAMPLE_TID;
	pc_observe_errno("errno.without_sample_aux", pc_field_probe(&attr, FIELD, 4096).err);
}

TEST(software_group_leader_is_not_enough)
{
	struct perfconf_attr dummy = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	struct perfconf_attr attr = aux_sampler();

	REQUIRE_ATTR_FIELD(FIELD);
	int leader = pc_open(&dummy, 0, -1, -1, 0);
	ASSERT_OPEN(leader);
	EXPECT_ERRNO(EINVAL, pc_field_probe_group(&attr, FIELD, 4096, leader).err);
	close(leader);
}

/*
 * An AUX leader is not enough either: its PMU must take snapshots
 * (pmu::snapshot_aux, which intel_pt has). The suite's perfconf_aux has
 * none -- a module cannot write into a sample: perf_output_copy() is not
 * exported -- so a member asking for a size is refused (EINVAL), and the
 * control, the same member without the size, joins the group.
 */
TEST(aux_leader_without_snapshots_is_not_enough)
{
	struct perfconf_attr attr = aux_sampler();

	REQUIRE_SYNTH_PMU();
	REQUIRE_ATTR_FIELD(FIELD);
	struct perfconf_attr leader = pc_attr_synth_aux(0);
	int fd = pc_open(&leader, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, pc_field_probe_group(&attr, FIELD, 4096, fd).err);
	EXPECT_ERRNO(0, pc_field_probe_group(&attr, FIELD, 0, fd).err) TH_LOG("the member without a size");
	close(fd);
}

/* No size asked, no AUX event: every sample's AUX part is empty. */
TEST(no_size_gives_empty_aux_samples)
{
	struct perfconf_attr attr = aux_sampler();
	struct pc_capture cap;

	REQUIRE_ATTR_FIELD(FIELD);
	int err = pc_capture_open(&cap, &attr, 0, -1);
	pc_observe_errno("errno", -err);
	ASSERT_ERRNO(0, -err);
	pc_work_page_faults(1);		/* the workload's own first faults */
	ASSERT_EQ(0, pc_enable(cap.fd));
	ASSERT_EQ(0, pc_work_page_faults(FAULTS));
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	EXPECT_EQ(FAULTS, samples);
	for (size_t i = 0; i < samples; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);

		EXPECT_EQ(0, s->aux_size) TH_LOG("sample %zu", i);
		EXPECT_EQ(getpid(), s->pid);
	}
	pc_capture_close(&cap);
}

AUX_FIELD_CASES(FIELD, aux_sampler(), 4096, true,
		"samples carrying up to aux_sample_size bytes of the leader's AUX data")

TEST_HARNESS_MAIN
