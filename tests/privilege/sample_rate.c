// SPDX-License-Identifier: GPL-2.0
/*
 * The sampling frequency cap, in every cell of identity x
 * perf_event_paranoid.
 *
 * perf_event_open(2): "EINVAL ... sample_freq is higher than the maximum
 * setting" (/proc/sys/kernel/perf_event_max_sample_rate). The check has
 * no exemption: a frequency event asking for the sysctl plus one is
 * refused with EINVAL to every identity at every level, root included
 * (where the event may be opened at all: a sampler of this task's
 * user-mode page faults, open to everyone up to level 2; Debian's 3
 * closes it with EACCES first). The control, in the same case: sample_freq
 * at the sysctl itself opens wherever the event does, and works: it counts
 * each of N page faults, and samples the first of them at least (a
 * frequency event starts at period 1), in the function that took it. N is
 * small so that no frequency the sysctl allows throttles the event (which
 * would stop its counting) within one tick.
 *
 * The kernel lowers perf_event_max_sample_rate by itself when samples take
 * too long (perf_sample_event_took(), from a hardware PMU's interrupt), so
 * the sysctl is read right before each open, and an open refused with
 * EINVAL is tried again once if the sysctl has changed meanwhile. Only the
 * control can lose that race: a lowered maximum refuses its plus one all
 * the more, and only a write to the sysctl could raise it (this binary is
 * exclusive).
 */
#define CELL_READS " reads=perf_event_max_sample_rate"
#include "cells.h"
#include "work/faults.h"

#define N 8

/*
 * Open a sampler of this task's user-mode page faults at sample_freq =
 * perf_event_max_sample_rate + above into cap: 0, or the errno.
 */
static int open_at_max_rate(struct __test_metadata *_metadata, struct pc_capture *cap, long above)
{
	for (int tries = 0;; tries++) {
		struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 0, PERF_SAMPLE_IP);
		long before, after;

		ASSERT_EQ(0, pc_sysctl_get(PC_MAX_SAMPLE_RATE_SYSCTL, &before));
		attr.freq = 1;
		attr.sample_freq = (uint64_t)(before + above);
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		int err = -pc_capture_open_pages(cap, &attr, 0, -1, 0);
		if (err != EINVAL || tries)
			return err;
		ASSERT_EQ(0, pc_sysctl_get(PC_MAX_SAMPLE_RATE_SYSCTL, &after));
		if (after == before)
			return err;
	}
}

CELL_CASE(freq_above_max)
{
	struct pc_faults f = { 0 };
	struct pc_capture cap;
	uint64_t count = 0;

	int err = open_at_max_rate(_metadata, &cap, 1);
	CELL_ALLOWS(err, PC_GATE_USER, PC_GATE_SAMPLE_RATE);	/* nobody */
	pc_capture_close(&cap);

	/* The control: refused only where the event itself is (with the same errno). */
	int ctl = open_at_max_rate(_metadata, &cap, 0);
	EXPECT_ERRNO(err == EINVAL ? 0 : err, ctl) TH_LOG("sample_freq at perf_event_max_sample_rate");
	if (ctl == 0) {
		ASSERT_EQ(0, pc_faults_map(&f, N + 1));
		ASSERT_EQ(0, pc_faults_enabled(&f, cap.fd, N));
		ASSERT_EQ(0, pc_read_count(cap.fd, &count));
		EXPECT_EQ(N, count);
		ASSERT_CAPTURE_READ(&cap);
		size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
		EXPECT_LE(1, samples);
		for (size_t k = 0; k < samples; k++) {
			const struct pc_sample *s = pc_capture_sample(&cap, k);

			EXPECT_TRUE(pc_fault_ip(s->ip)) TH_LOG("sample %zu: ip %#llx", k, (unsigned long long)s->ip);
		}
	}
	pc_capture_close(&cap);
	pc_faults_unmap(&f);
}

TEST_HARNESS_MAIN
