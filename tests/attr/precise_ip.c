// SPDX-License-Identifier: GPL-2.0
/*
 * precise_ip (since Linux 2.6.35): "This controls the amount of skid":
 * 0 arbitrary, 1 constant, 2 requested to be 0, 3 must be 0. Which values
 * each PMU takes is pinned per event type (EOPNOTSUPP is "requesting
 * low-skid events if not supported"); 0 is always taken. The software
 * PMUs have no skid: a page-fault sample's IP is the faulting instruction
 * at every accepted level. A hardware PMU, where there is one, is probed
 * too; here there is none and that case SKIPs.
 */
#include <linux/hw_breakpoint.h>
#include <stdio.h>

#include "perfconf.h"
#include "work/faults.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

/*
 * Observe precise_ip 0..3 on a sampling attr; 0 must open. With `anchor`,
 * the plain event stays open meanwhile, so that a tracepoint is registered
 * once and not once per probe (each unregistration waits for an RCU grace
 * period; a uprobe event has a probe of its own anyway).
 */
static void levels(struct __test_metadata *_metadata, struct perfconf_attr attr, int anchored)
{
	int anchor = anchored ? pc_open(&attr, 0, -1, -1, 0) : -1;
	char key[16];

	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_IP;
	for (unsigned int p = 0; p <= 3; p++) {
		attr.precise_ip = p;
		snprintf(key, sizeof(key), "precise_%u", p);
		int err = pc_open_observe_errno(key, &attr, 0, -1);
		if (p == 0) {
			if (pc_errno_is_unsupported(err) && anchor >= 0)
				close(anchor);
			SKIP_IF_UNSUPPORTED(err, "this event");
			EXPECT_ERRNO(0, err);
		}
	}
	if (anchor >= 0)
		close(anchor);
}

TEST(software)
{
	levels(_metadata, pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS), 0);
}

TEST(cpu_clock)
{
	levels(_metadata, pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK), 0);
}

TEST(breakpoint)
{
	levels(_metadata, pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0), 0);
}

TEST(tracepoint)
{
	struct perfconf_attr attr;

	if (pc_attr_tracepoint(&attr, "syscalls", "sys_enter_getppid"))
		SKIP(return, "no syscalls:sys_enter_getppid tracepoint");
	levels(_metadata, attr, 1);
}

TEST(uprobe)
{
	struct perfconf_attr attr;
	char path[4096];
	int err = pc_attr_uprobe(&attr, pc_work_target, path, sizeof(path));

	if (err == -ENOENT)
		SKIP(return, "no uprobe PMU");
	REQUIRE_UPROBES_ON_TASK();
	ASSERT_EQ(0, err);
	levels(_metadata, attr, 0);
}

TEST(hardware_cycles)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

	attr.exclude_kernel = 1;
	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	if (pc_errno_is_unsupported(err))
		SKIP(return, "no hardware PMU (cycles: %s)", pc_errno_name(err));
	levels(_metadata, attr, 0);
}

/* Every level a page-fault event takes samples the faulting instruction itself. */
TEST(software_samples_have_no_skid)
{
	for (unsigned int p = 0; p <= 3; p++) {
		struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
		struct pc_capture cap;
		struct pc_faults f;

		attr.exclude_kernel = 1;
		attr.precise_ip = p;
		if (pc_capture_open(&cap, &attr, 0, -1))
			continue;	/* refused: pinned above */
		ASSERT_EQ(0, pc_faults_map(&f, 4));
		ASSERT_EQ(0, pc_faults_enabled(&f, cap.fd, 3));
		ASSERT_CAPTURE_READ(&cap);
		ASSERT_EQ(3, pc_capture_count(&cap, PERF_RECORD_SAMPLE)) TH_LOG("precise_ip %u", p);
		for (size_t k = 0; k < 3; k++) {
			const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SAMPLE, k);

			EXPECT_TRUE(pc_fault_ip(r->sample.ip)) TH_LOG("precise_ip %u: ip %#llx", p,
								      (unsigned long long)r->sample.ip);
		}
		if (p == 3) {
			uint16_t misc = pc_capture_find(&cap, PERF_RECORD_SAMPLE, 0)->misc;
			pc_observe("exact_ip_flag", "%d", !!(misc & PERF_RECORD_MISC_EXACT_IP));
		}
		pc_faults_unmap(&f);
		pc_capture_close(&cap);
	}
}

TEST_HARNESS_MAIN
