// SPDX-License-Identifier: GPL-2.0
/*
 * sample_period: "A 'sampling' event is one that generates an overflow
 * notification every N events, where N is given by sample_period." Over
 * the exact loop, an event that counted C takes C / N samples, give or
 * take one (the overflow interrupt lands a little after the N-th event,
 * and the last partial period takes none). Each sample carries the period
 * (PERF_SAMPLE_PERIOD), this task's pid and, the event being user-only,
 * user mode. The sample counts are pinned (`samples`), and where the IPs
 * fall (`ips`: "loop" when all lie between the enabling and the disabling
 * system calls).
 *
 * A PMU that raises the overflow interrupt late breaks the promise for
 * reasons that are not the kernel's: qemu's emulated PMUv3 (TCG, 7.2)
 * notices an event counter's overflow only when the counter is next
 * touched (mostly by the disabling ioctl), so an instructions event takes
 * one sample, usually in the kernel, however long the loop; its cycle
 * counter raises the interrupt on time. On such a software model of a CPU
 * (MIDR implementer 0x00, qemu's -cpu max), a case that takes some samples
 * but fewer than C / N - 1 SKIPs saying so; anywhere else it fails.
 */
#include "perfconf.h"
#include "event/hw.h"

static void sample(struct __test_metadata *_metadata, uint64_t config, uint64_t period, unsigned long n)
{
	struct perfconf_attr attr = pc_attr_hw(config);
	struct pc_capture cap;
	uint64_t count = 0;
	size_t in_loop = 0, user = 0;

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(config);
	REQUIRE_HW_LOOP();
	attr.exclude_kernel = 1;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	int err = pc_capture_open(&cap, &attr, 0, -1);
	ASSERT_EQ(0, err) TH_LOG("%s", pc_errno_name(-err));
	ASSERT_EQ(0, pc_hw_loop_fd(cap.fd, 0, n));
	ASSERT_EQ(0, pc_read_count(cap.fd, &count));
	ASSERT_CAPTURE_READ(&cap);

	size_t samples = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	for (size_t i = 0; i < samples; i++) {
		const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SAMPLE, i);

		user += (r->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
		in_loop += r->sample.ip >= pc_hw_loop_begin() && r->sample.ip <= pc_hw_loop_end();
	}
	uint64_t want = count / period;
	if (samples + 1 < want && samples > 0 && pc_hw_arm64_software_model() &&
	    !pc_capture_count(&cap, PERF_RECORD_THROTTLE)) {
		pc_capture_close(&cap);
		SKIP(return, "the overflow interrupt comes late on this software CPU model: %zu samples "
		     "(%zu in the kernel) of %llu counted with period %llu (qemu's event counters)",
		     samples, samples - user, (unsigned long long)count, (unsigned long long)period);
	}
	EXPECT_LE(want, samples + 1) TH_LOG("%zu samples of %llu counted, period %llu", samples,
		(unsigned long long)count, (unsigned long long)period);
	EXPECT_GE(want + 1, samples) TH_LOG("%zu samples of %llu counted, period %llu", samples,
		(unsigned long long)count, (unsigned long long)period);
	EXPECT_EQ(samples, user) TH_LOG("%zu of %zu samples not in user mode", samples - user, samples);
	for (size_t i = 0; i < samples; i++) {
		const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SAMPLE, i);

		EXPECT_EQ(period, r->sample.period) TH_LOG("sample %zu", i);
		EXPECT_EQ(getpid(), r->sample.pid) TH_LOG("sample %zu", i);
	}
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_LOST));
	pc_observe("samples", "%zu", samples);
	pc_observe("ips", "%s", in_loop == samples ? "loop" : "not_all_in_loop");
	pc_capture_close(&cap);
}

TEST(cycles_100)		{ sample(_metadata, PERF_COUNT_HW_CPU_CYCLES, 100, 1000); }
TEST(cycles_1000)		{ sample(_metadata, PERF_COUNT_HW_CPU_CYCLES, 1000, 10000); }
/* A prime period: the count is no multiple of it. */
TEST(cycles_10007)		{ sample(_metadata, PERF_COUNT_HW_CPU_CYCLES, 10007, 100000); }
TEST(instructions_1000)		{ sample(_metadata, PERF_COUNT_HW_INSTRUCTIONS, 1000, 10000); }
TEST(instructions_10007)	{ sample(_metadata, PERF_COUNT_HW_INSTRUCTIONS, 10007, 100000); }

TEST_HARNESS_MAIN
