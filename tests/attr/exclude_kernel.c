// SPDX-License-Identifier: GPL-2.0
/*
 * exclude_kernel: "If this bit is set, the count excludes events that
 * happen in kernel space." A page fault taken by user code is counted, one
 * the kernel takes while writing to user memory is not, and every sample
 * was taken in user mode (PERF_RECORD_MISC_USER, an IP in this process's
 * code). Tracepoints follow it too, by the registers they carry: a kernel
 * tracepoint counts nothing, a uprobe (a user-space tracepoint, since 5.3)
 * counts every hit.
 *
 * The bit is also what the paranoid setting asks of an unprivileged user:
 * "not setting exclude_kernel when the paranoid setting requires it" gives
 * EACCES (perf_event_paranoid >= 2, without CAP_PERFMON or CAP_SYS_ADMIN).
 */
#include <limits.h>

#include "work/faults.h"
#include "work/measure.h"
#include "perfconf.h"
#include "ring/sample_site.h"

#define N 64
#define FIELD exclude_kernel
#include "exclude_faults.h"

PERFCONF_META("reads=perf_event_paranoid");

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)
PERFCONF_KEEP_TRACEPOINT(task, task_rename)

TEST(user_faults_counted)
{
	EXPECT_EQ(N, faults_counted(pc_user_faults_work, 1));
}

TEST(kernel_faults_not_counted)
{
	EXPECT_EQ(N, faults_counted(pc_kernel_faults_work, 0));
	EXPECT_EQ(0, faults_counted(pc_kernel_faults_work, 1));
}

/* Both kinds of fault in one sampled run: only the user's are sampled, at IPs in our own code. */
TEST(samples_are_user_mode)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
							PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	struct pc_capture cap;

	attr.exclude_kernel = 1;
	int err = pc_capture_run_warm(&cap, &attr, pc_mixed_faults_work, PC_N(N));
	ASSERT_EQ(0, err) TH_LOG("%s %s", pc_errno_name(-err), cap.error);

	ASSERT_EQ(N, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (size_t i = 0; i < N; i++) {
		const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SAMPLE, i);

		EXPECT_EQ(PERF_RECORD_MISC_USER, r->misc & PERF_RECORD_MISC_CPUMODE_MASK);
		EXPECT_TRUE(pc_fault_ip(r->sample.ip))
			TH_LOG("sample %zu: ip %#llx is not in pc_fault_write()", i,
			       (unsigned long long)r->sample.ip);
	}
	pc_capture_close(&cap);
}

/*
 * The tracepoint twice, without and with exclude_kernel, over one run of
 * the work (a tracepoint is costly to arm: once is enough). 0, or the
 * errno of an open.
 */
static int tracepoint_counts(struct perfconf_attr attr, pc_work_fn work, void *arg, uint64_t counts[2])
{
	int fds[2], err = 0;

	for (int i = 0; i < 2; i++) {
		attr.exclude_kernel = i;
		fds[i] = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0) {
			err = errno;
			if (i)
				close(fds[0]);
			return err;
		}
	}
	work(arg);
	for (int i = 0; i < 2; i++)
		err |= pc_enable(fds[i]);
	work(arg);
	for (int i = 0; i < 2; i++) {
		err |= pc_disable(fds[i]);
		err |= pc_read_count(fds[i], &counts[i]);
		close(fds[i]);
	}
	return err ? EIO : 0;
}

/* task:task_rename fires inside the kernel (prctl(PR_SET_NAME)): with the bit it counts nothing. */
TEST(kernel_tracepoint_not_counted)
{
	struct perfconf_attr attr;
	uint64_t counts[2];

	int err = pc_attr_tracepoint(&attr, "task", "task_rename");
	if (err)
		SKIP(return, "no task:task_rename tracepoint (%s)", pc_errno_name(-err));
	ASSERT_ERRNO(0, tracepoint_counts(attr, pc_rename_work, PC_N(N), counts));
	EXPECT_EQ(N, counts[0]);
	EXPECT_EQ(0, counts[1]);
}

/*
 * A syscall tracepoint carries the system call's user registers, so the
 * kernel takes its hits for user-mode events: whether exclude_kernel
 * removes them is pinned.
 */
TEST(syscall_tracepoint)
{
	struct perfconf_attr attr;
	uint64_t counts[2];

	GETPPID_TRACEPOINT(&attr);
	ASSERT_ERRNO(0, tracepoint_counts(attr, pc_getppid_work, PC_N(N), counts));
	EXPECT_EQ(N, counts[0]);
	ASSERT_TRUE(counts[1] == 0 || counts[1] == N) TH_LOG("%llu of %d", (unsigned long long)counts[1], N);
	pc_observe("count", "%s", counts[1] ? "counted" : "excluded");
}

TEST(uprobe_counted)
{
	struct perfconf_attr attr;

	UPROBE_ATTR(&attr, pc_work_target);
	attr.exclude_kernel = 1;
	EXPECT_EQ(100, pc_count_of_work(&attr, pc_calls_work, PC_N(100)));
}

/*
 * Without privileges (uid 65534, no capabilities), an event on oneself:
 * paranoid <= 1 allows both, 2 asks for exclude_kernel, 3 and above (a
 * Debian patch) refuses both.
 */
TEST(required_by_paranoid)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	int paranoid = pc_paranoid();

	if (paranoid == INT_MIN)
		SKIP(return, "perf_event_paranoid is unreadable");
	BECOME_NOBODY();
	attr.exclude_kernel = 0;
	EXPECT_ERRNO(paranoid <= 1 ? 0 : EACCES, pc_open_errno(&attr, 0, -1, -1, 0))
		TH_LOG("perf_event_paranoid=%d", paranoid);
	attr.exclude_kernel = 1;
	EXPECT_ERRNO(paranoid <= 2 ? 0 : EACCES, pc_open_errno(&attr, 0, -1, -1, 0))
		TH_LOG("perf_event_paranoid=%d", paranoid);
}

TEST_HARNESS_MAIN
