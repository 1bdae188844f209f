/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For freq and sample_period: sampling events over work whose events are
 * known one by one, so that the samples can be held against an exact
 * count. Page faults of this task in user mode, each at a known address
 * (work/faults.h), and calls of pc_work_target, each of which an execute
 * breakpoint or a uprobe on it counts.
 */
#ifndef PERFCONF_TESTS_ATTR_SAMPLING_COUNTED_H
#define PERFCONF_TESTS_ATTR_SAMPLING_COUNTED_H

#include "perfconf.h"
#include "ring/sample_site.h"
#include "work/faults.h"
#include "work/measure.h"

/*
 * Open a capture of attr (user mode only) and take n page faults in f with
 * it enabled, after one to warm up; the count must be n; the records are
 * read. The caller unmaps f (pc_faults_addr(f, 1 + k) is the k-th fault).
 */
static void sample_faults(struct __test_metadata *_metadata, struct pc_capture *cap,
			  struct perfconf_attr *attr, struct pc_faults *f, size_t n)
{
	uint64_t count;

	attr->exclude_kernel = 1;
	ASSERT_ERRNO(0, -pc_capture_open(cap, attr, 0, -1));
	ASSERT_EQ(0, pc_faults_map(f, n + 1));
	ASSERT_EQ(0, pc_faults_enabled(f, cap->fd, n));
	ASSERT_EQ(0, pc_read_count(cap->fd, &count));
	ASSERT_CAPTURE_READ(cap);
	EXPECT_EQ(n, count);
}

/*
 * Open a capture of attr and run work(PC_N(n)) with it enabled (lib's
 * pc_capture_run); the count must be n; the records are read. 0, or the
 * open's -errno, for the case to SKIP on, with nothing else done.
 */
static int sample_work(struct __test_metadata *_metadata, struct pc_capture *cap,
		       struct perfconf_attr *attr, pc_work_fn work, unsigned long n)
{
	int err = pc_capture_run(cap, attr, work, PC_N(n));

	if (cap->fd < 0)
		return err;
	ASSERT_ERRNO(0, -err) TH_LOG("%s", cap->error);
	EXPECT_EQ(n, pc_count_of(cap->fd));
	return 0;
}

/* Every sample was taken at the breakpoint: its IP is pc_work_target. */
static void expect_samples_at_target(struct __test_metadata *_metadata, const struct pc_capture *cap)
{
	for (size_t k = 0; k < pc_capture_count(cap, PERF_RECORD_SAMPLE); k++) {
		EXPECT_EQ((uint64_t)(uintptr_t)pc_work_target,
			  pc_capture_find(cap, PERF_RECORD_SAMPLE, k)->sample.ip);
	}
}

#endif
