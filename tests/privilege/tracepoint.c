// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints of one's own task, in every cell of identity x
 * perf_event_paranoid.
 *
 * A kernel tracepoint fires in the kernel: it counts only for an event that
 * does not exclude the kernel (perf_tp_event_match() drops a kernel hit
 * under exclude_kernel), so every request here is exclude_kernel = 0, which
 * perf_event_open() asks perf_allow_kernel() for: EACCES at level >= 2 to
 * users who are not perfmon_capable(). Counting needs nothing more: "No
 * tracing, just counting, so no obvious leak" (perf_trace_event_perm()).
 *
 * perf_event_open(2): PERF_SAMPLE_RAW "records additional data, if
 * applicable. Usually returned by tracepoint events." That data is the
 * tracepoint's record, which may be "a severe data leak": a per-task event
 * gets it only from a tracepoint marked for any user (TRACE_EVENT_FL_CAP_ANY:
 * the system call tracepoints), any other only through
 * perf_allow_tracepoint(), level -1 or perfmon_capable(), EPERM otherwise
 * (kernel/trace/trace_event_perf.c). The rule is per tracepoint: the same
 * request on task:task_rename and on syscalls:sys_enter_getppid is refused
 * and granted in different cells.
 *
 * The tracepoints fire a known number of times in this task:
 * task:task_rename once per prctl(PR_SET_NAME), syscalls:sys_enter_getppid
 * once per getppid(). Where allowed, a counter counts each hit, and a
 * sampler (sample_period 1) takes one sample per hit whose raw record
 * starts with the common fields of every tracepoint's format: common_type,
 * the tracepoint's id, and common_pid, this task. Where tracefs or the
 * tracepoint is missing (FTRACE_SYSCALLS), the case SKIPs.
 */
/* As root: the tracepoints' ids (tracefs). */
#define CELL_PREPARE(_metadata) find_tracepoints()

#include "cells.h"
#include "work/measure.h"

#define N 16

struct tracepoint {
	const char *sys, *name;
	long id;		/* or -errno where it is not here */
};

static struct tracepoint task_rename = { "task", "task_rename", -ENOENT };
static struct tracepoint sys_enter_getppid = { "syscalls", "sys_enter_getppid", -ENOENT };

static void find_tracepoints(void)
{
	task_rename.id = pc_tracepoint_id(task_rename.sys, task_rename.name);
	sys_enter_getppid.id = pc_tracepoint_id(sys_enter_getppid.sys, sys_enter_getppid.name);
}

/* Closing a case's last event on one would wait for RCU: the harness's process keeps both. */
PERFCONF_KEEP_TRACEPOINT(task, task_rename)
PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)

/* The attr of a tracepoint, exclude_kernel = 0; SKIP where it is not here. */
#define TRACEPOINT_ATTR(attr, tp) do { \
	if ((tp)->id < 0) \
		SKIP(return, "no %s:%s tracepoint (%s)", (tp)->sys, (tp)->name, pc_errno_name(-(tp)->id)); \
	*(attr) = pc_attr(PERF_TYPE_TRACEPOINT, (uint64_t)(tp)->id); \
} while (0)

/*
 * Sample each hit of tp that work(N) fires, with PERF_SAMPLE_RAW, into
 * cap: 0, or the errno of the open (cap->fd is -1 then).
 */
static int sample_raw(struct __test_metadata *_metadata, struct pc_capture *cap, struct perfconf_attr *attr,
		      pc_work_fn work)
{
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_RAW;
	int err = pc_capture_run(cap, attr, work, PC_N(N));
	if (cap->fd < 0)
		return -err;
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap->error);
	return 0;
}

/* Exactly N samples, each with the record of tp fired by this task. */
static void expect_raw_samples(struct __test_metadata *_metadata, const struct pc_capture *cap,
			       const struct tracepoint *tp)
{
	/* struct trace_entry, the common fields of every format file */
	struct {
		uint16_t common_type;
		uint8_t common_flags, common_preempt_count;
		int32_t common_pid;
	} entry;

	ASSERT_EQ(N, pc_capture_count(cap, PERF_RECORD_SAMPLE));
	for (size_t i = 0; i < N; i++) {
		const struct pc_sample *s = pc_capture_sample(cap, i);

		ASSERT_LE(sizeof(entry), s->raw_size) TH_LOG("sample %zu", i);
		memcpy(&entry, s->raw, sizeof(entry));
		EXPECT_EQ(tp->id, entry.common_type) TH_LOG("sample %zu", i);
		EXPECT_EQ(getpid(), entry.common_pid) TH_LOG("sample %zu", i);
	}
}

/* Counting a kernel tracepoint: each prctl(PR_SET_NAME) is one hit. */
CELL_CASE(count)
{
	struct perfconf_attr attr;
	uint64_t count = UINT64_MAX;

	TRACEPOINT_ATTR(&attr, &task_rename);
	int err = pc_count_work(&attr, pc_rename_work, PC_N(N), &count);
	if (CELL_ALLOWS(-err, PC_GATE_KERNEL))
		EXPECT_EQ(N, count);
}

/* The raw record of a tracepoint not marked for any user. */
CELL_CASE(raw_sample)
{
	struct perfconf_attr attr;
	struct pc_capture cap;

	TRACEPOINT_ATTR(&attr, &task_rename);
	int err = sample_raw(_metadata, &cap, &attr, pc_rename_work);
	if (CELL_ALLOWS(err, PC_GATE_KERNEL, PC_GATE_RAW))
		expect_raw_samples(_metadata, &cap, &task_rename);
	pc_capture_close(&cap);
}

/* The raw record of a system call tracepoint, marked for any user of a per-task event. */
CELL_CASE(raw_sample_any_user)
{
	struct perfconf_attr attr;
	struct pc_capture cap;

	TRACEPOINT_ATTR(&attr, &sys_enter_getppid);
	REQUIRE_INSTRUMENT(PC_INSTR_SYSCALL_TRACEPOINTS);
	int err = sample_raw(_metadata, &cap, &attr, pc_getppid_work);
	if (CELL_ALLOWS(err, PC_GATE_KERNEL))
		expect_raw_samples(_metadata, &cap, &sys_enter_getppid);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
