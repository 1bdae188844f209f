// SPDX-License-Identifier: GPL-2.0
/*
 * config3 (since 6.3, PERF_ATTR_SIZE_VER8, 136 bytes) extends config2 for
 * PMUs whose format/ entries name it ("config3:..."). A kernel older than
 * 6.3 does not know it: its attr ends before config3, so a non-zero value
 * there is E2BIG, with attr.size overwritten by the kernel's own size. A
 * kernel that knows it hands it to the PMU, and PMUs that give it no
 * meaning (software, tracepoint, breakpoint, uprobe) ignore it. An attr
 * whose size ends before config3 (VER7) is never read that far.
 */
#include "perfconf.h"
#include "attr_probe.h"
#include "pmu_formats.h"
#include "sample_site.h"

#define N 16

TEST(e2big_only_past_the_kernel_size)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	pc_observe_errno("errno", pc_attr_probe(&attr, "config3", ~0ULL).err);
	EXPECT_ATTR_SIZE_RULE(&attr, "config3", ~0ULL);
}

static uint64_t kernel_faults_counted(struct perfconf_attr *attr)
{
	uint64_t count = UINT64_MAX;
	int fd = pc_open(attr, 0, -1, -1, 0);

	if (fd < 0)
		return UINT64_MAX;
	if (pc_enable(fd) == 0 && pc_kernel_faults(N) == 0 && pc_disable(fd) == 0)
		pc_read_count(fd, &count);
	close(fd);
	return count;
}

/* Where the kernel knows config3, a software event counts as without it. */
TEST(software_event_ignores_config3)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	if (pc_attr_field_past_kernel("config3"))
		SKIP(return, "this kernel's attr (%u bytes) ends before config3", pc_kernel_attr_size());
	attr.exclude_user = 1;
	attr.config3 = ~0ULL;
	EXPECT_EQ(N, kernel_faults_counted(&attr)) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

/*
 * Every kind of event here: E2BIG past the kernel's size, with its size
 * written back; accepted where the kernel knows config3.
 */
TEST(each_kind_of_event)
{
	struct pc_attr_kind kinds[PC_ATTR_KINDS_MAX];
	size_t n = pc_attr_kinds(kinds, PC_ATTR_KINDS_MAX);
	uint32_t kernel_size = pc_kernel_attr_size();

	ASSERT_NE(0, kernel_size);
	for (size_t i = 0; i < n; i++) {
		struct pc_attr_probe p = pc_attr_probe(&kinds[i].attr, "config3", 0x3333333333333333ULL);

		if (pc_attr_field_past_kernel("config3")) {
			EXPECT_ERRNO(E2BIG, p.err) TH_LOG("%s event", kinds[i].kind);
			EXPECT_EQ(kernel_size, p.size) TH_LOG("%s event", kinds[i].kind);
		} else {
			EXPECT_ERRNO(0, p.err) TH_LOG("%s event", kinds[i].kind);
		}
	}
}

/* An attr of size VER7 ends before config3: whatever lies there is not read. */
TEST(size_ver7_is_not_read_that_far)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.size = PC_ATTR_SIZE_VER7;
	attr.exclude_user = 1;
	attr.config3 = ~0ULL;
	EXPECT_EQ(N, kernel_faults_counted(&attr)) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
	EXPECT_EQ(PC_ATTR_SIZE_VER7, attr.size);
}

TEST(formats_in_config3)
{
	char list[2048];
	int n = pc_pmu_formats_in_word(3, list, sizeof(list));

	EXPECT_LE(0, n) TH_LOG("format entry %s cannot be parsed", list);
	pc_observe("formats", "%s", list);
}

TEST_HARNESS_MAIN
