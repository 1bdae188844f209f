// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_COUNT_SW_PAGE_FAULTS "counts the number of page faults": touching n
 * fresh anonymous pages once each is exactly n faults, all of them minor.
 */
#include "perfconf.h"

static uint64_t count_faults(struct __test_metadata *_metadata, uint64_t config, unsigned long pages)
{
	struct perfconf_attr attr = pc_attr_sw(config);
	uint64_t count = UINT64_MAX;
	int fd = pc_open(&attr, 0, -1, -1, 0);

	if (fd < 0) {
		TH_LOG("perf_event_open: %s", pc_errno_name(errno));
		return count;
	}
	pc_work_page_faults(1);		/* fault in the workload's own code and stack */
	if (pc_enable(fd) == 0) {
		pc_work_page_faults(pages);
		pc_disable(fd);
		pc_read_count(fd, &count);
	}
	close(fd);
	return count;
}

TEST(exact_count)
{
	EXPECT_EQ(256, count_faults(_metadata, PERF_COUNT_SW_PAGE_FAULTS, 256));
}

TEST(all_minor)
{
	EXPECT_EQ(256, count_faults(_metadata, PERF_COUNT_SW_PAGE_FAULTS_MIN, 256));
	EXPECT_EQ(0, count_faults(_metadata, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 256));
}

TEST(zero_pages_zero_faults)
{
	EXPECT_EQ(0, count_faults(_metadata, PERF_COUNT_SW_PAGE_FAULTS, 0));
}

TEST_HARNESS_MAIN
