// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_COUNT_SW_BPF_OUTPUT (since 4.4) is the event a BPF program writes
 * to: it counts nothing by itself, and each bpf_perf_event_output() of a
 * program into a BPF_MAP_TYPE_PERF_EVENT_ARRAY slot holding the event's
 * fd puts one PERF_RECORD_SAMPLE into the event's ring, whose
 * PERF_SAMPLE_RAW data are the bytes the program passed
 * (__bpf_perf_event_output() and perf_prepare_sample(),
 * kernel/trace/bpf_trace.c and kernel/events/core.c, 6.12). The raw size
 * is padded so that the u32 size and the data end on a u64 boundary; 20
 * bytes need no padding.
 *
 * A tracepoint program on syscalls:sys_enter_getpgid that writes 20 known
 * bytes for this thread's hits only: n getpgid() calls give exactly n
 * samples, each with exactly those bytes and this task's pid and tid;
 * getppid() calls give none. Where BPF tracing programs cannot be loaded,
 * SKIP.
 */
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "perfconf.h"
#include "work/affinity.h"
#include "work/bpf.h"
#include "work/measure.h"

/* A program lives on the tracepoint: while it is attached, every counter of the tracepoint sees its verdict. */
PERFCONF_META("writes=bpf.sys_enter_getpgid");

#define HITS 16
#define WORDS 5

static const uint32_t words[WORDS] = { 0x706f6e66, 0x11223344, 0xdeadbeef, 0x01020304, 0xa5a5a5a5 };

FIXTURE(output) {
	struct pc_capture cap;
	struct pc_bpf_prog prog;
	int map, tp;
};

FIXTURE_SETUP(output)
{
	struct perfconf_attr out = pc_attr_sw_sampling(PERF_COUNT_SW_BPF_OUTPUT, 1,
						       PERF_SAMPLE_RAW | PERF_SAMPLE_TID);
	struct perfconf_attr tp;
	uint64_t pid_tgid = (uint64_t)getpid() << 32 | (uint64_t)syscall(SYS_gettid);

	self->cap.fd = -1;
	self->prog.fd = -1;
	self->map = self->tp = -1;
	SYSCALL_TRACEPOINT(&tp, "sys_enter_getpgid");
	int cpu = pc_pin_self();
	ASSERT_LE(0, cpu);
	self->map = pc_bpf_perf_event_array((uint32_t)cpu + 1);
	if (self->map == -EPERM || self->map == -ENOSYS)
		SKIP(return, "BPF maps are not permitted here (%s)", pc_errno_name(-self->map));
	ASSERT_LE(0, self->map) TH_LOG("BPF_MAP_CREATE: %s", pc_errno_name(-self->map));
	LOAD_TRACING_BPF_OR_SKIP(pc_bpf_load_output_tracepoint(&self->prog, "perfconf_out", self->map,
								pid_tgid, words, WORDS));
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &out, 0, -1));
	ASSERT_EQ(0, pc_bpf_perf_event_array_set(self->map, (uint32_t)cpu, self->cap.fd));
	self->tp = pc_open(&tp, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(self->tp);
	ASSERT_EQ(0, ioctl(self->tp, PERF_EVENT_IOC_SET_BPF, self->prog.fd))
		TH_LOG("PERF_EVENT_IOC_SET_BPF: %s", pc_errno_name(errno));
}

FIXTURE_TEARDOWN(output)
{
	if (self->tp >= 0)
		close(self->tp);
	pc_bpf_close(&self->prog);
	if (self->map >= 0)
		close(self->map);
	if (self->cap.fd >= 0)
		pc_capture_close(&self->cap);
}

/* Run n getpgid() and m getppid() calls with both events enabled; read the ring. */
static void run(struct __test_metadata *_metadata, FIXTURE_DATA(output) *self, int n, int m)
{
	getpgid(0);
	ASSERT_EQ(0, pc_enable(self->cap.fd));
	ASSERT_EQ(0, pc_enable(self->tp));
	for (int i = 0; i < n; i++)
		syscall(SYS_getpgid, 0);
	pc_work_getppid_calls(m);
	ASSERT_EQ(0, pc_disable(self->tp));
	ASSERT_EQ(0, pc_disable(self->cap.fd));
	ASSERT_CAPTURE_READ(&self->cap);
}

TEST_F(output, raw_data_are_the_programs_bytes_once_per_hit)
{
	run(_metadata, self, HITS, 0);
	EXPECT_EQ(HITS, pc_count_of(self->tp)) TH_LOG("the tracepoint's own count of the hits");
	ASSERT_EQ(HITS, pc_capture_count(&self->cap, PERF_RECORD_SAMPLE));
	for (size_t i = 0; i < HITS; i++) {
		const struct pc_sample *s = pc_capture_sample(&self->cap, i);

		EXPECT_EQ(getpid(), s->pid);
		EXPECT_EQ(syscall(SYS_gettid), s->tid);
		ASSERT_EQ(sizeof(words), s->raw_size) TH_LOG("sample %zu", i);
		EXPECT_EQ(0, memcmp(words, s->raw, sizeof(words))) TH_LOG("sample %zu: other bytes", i);
	}
	EXPECT_EQ(0, pc_capture_lost_total(&self->cap));
}

/* Control: other system calls with the same events enabled write nothing. */
TEST_F(output, other_syscalls_write_nothing)
{
	run(_metadata, self, 0, HITS);
	EXPECT_EQ(0, pc_count_of(self->tp));
	EXPECT_EQ(0, pc_capture_count(&self->cap, PERF_RECORD_SAMPLE));
}

TEST_HARNESS_MAIN
