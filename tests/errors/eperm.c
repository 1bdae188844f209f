// SPDX-License-Identifier: GPL-2.0
/*
 * EPERM from perf_event_open(): an exclude_* setting the architecture's PMU
 * cannot apply (on many architectures, not all); an event that needs
 * CAP_PERFMON or CAP_SYS_ADMIN where the check answers EPERM rather than
 * EACCES; a breakpoint on a kernel address without CAP_SYS_ADMIN; and the
 * ftrace function tracepoint without privilege (since 3.13).
 *
 * In 6.12: perf_allow_tracepoint() (include/linux/perf_event.h) answers
 * EPERM above level -1 without perfmon_capable(); trace_event_perf.c asks it
 * for raw tracepoint data (PERF_SAMPLE_RAW) of a tracepoint not marked for
 * any user, and for every use of ftrace:function. hw_breakpoint_parse()
 * (kernel/events/hw_breakpoint.c:707) refuses a kernel address to anyone
 * without CAP_SYS_ADMIN, at any level and whatever CAP_PERFMON says. Arm's
 * PMU drivers refuse exclude_idle, which they cannot filter: EPERM from
 * armv7 and from armv8 before it became EOPNOTSUPP (arm_pmuv3.c:1001 in
 * 6.12); the errno is observed and pinned per kernel.
 *
 * The case sets the level (restored by the parent's teardown and by the
 * runner), becomes a verified identity, and opens; each refusal has its
 * control, which then counts.
 */
#include <limits.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/hw_breakpoint.h>

#include "event/hw.h"
#include "event/kprobe.h"
#include "host/paranoid.h"
#include "host/sysctl.h"
#include "work/affinity.h"
#include "work/measure.h"
#include "perfconf.h"

/*
 * It sets perf_event_paranoid. The timeout: opening
 * ftrace:function patches every traced kernel function in and out
 * (stop_machine); under qemu's TCG on a loaded machine one case took more
 * than the harness's 30 s.
 */
PERFCONF_META("writes=perf_event_paranoid timeout=600");

#define N 8

FIXTURE(global) {};
FIXTURE_SETUP(global) {}
FIXTURE_TEARDOWN_PARENT(global) { pc_sysctl_restore(PC_PARANOID_SYSCTL); }

/*
 * cause: "the event needs CAP_PERFMON or CAP_SYS_ADMIN, as for EACCES":
 * raw data of task:task_rename (not marked for any user), sampled on each
 * rename. Level 0 leaves the kernel open (exclude_kernel = 0 is allowed),
 * so only the tracepoint's rule decides.
 */
static void raw_rename(struct __test_metadata *_metadata, int level, const char *who, int want)
{
	long id = pc_tracepoint_id("task", "task_rename");	/* as root */

	if (id < 0)
		SKIP(return, "no task:task_rename tracepoint (%s)", pc_errno_name(-id));
	struct perfconf_attr attr = pc_attr(PERF_TYPE_TRACEPOINT, (uint64_t)id);

	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	SET_PARANOID(level);
	BECOME_IDENTITY(pc_identity(who));
	EXPECT_ERRNO(want, pc_open_errno(&attr, 0, -1, -1, 0));
	if (!want)
		EXPECT_EQ(N, pc_count_of_work(&attr, pc_rename_work, (void *)N));
	attr.sample_type = 0;
	attr.sample_period = 0;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_rename_work, (void *)N)) TH_LOG("counting needs nothing");
}

TEST_F(global, raw_tracepoint_data_without_perfmon_is_eperm)
{
	raw_rename(_metadata, 0, "unprivileged", EPERM);
}

TEST_F(global, raw_tracepoint_data_at_paranoid_m1_counts)
{
	raw_rename(_metadata, -1, "unprivileged", 0);
}

TEST_F(global, raw_tracepoint_data_with_perfmon_counts)
{
	raw_rename(_metadata, 0, "perfmon", 0);
}

/*
 * cause: "a breakpoint on a kernel address without privilege": a one-byte
 * write watch on the function each getppid() enters (its address read as
 * root), on the CPU this task is pinned to (arm64 takes no per-task kernel
 * breakpoint), at level -1 so that no level's rule decides. Nobody writes
 * to kernel text: where it opens, it counts 0.
 */
static void kernel_watch(struct __test_metadata *_metadata, const char *who, int want)
{
	uint64_t function = 0;

	REQUIRE_PMU("breakpoint");
	GETPPID_ADDRESS(&function);
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu) TH_LOG("pinning: %s", pc_errno_name(-cpu));
	struct perfconf_attr attr = pc_attr_breakpoint_at(HW_BREAKPOINT_W, function, HW_BREAKPOINT_LEN_1);

	SET_PARANOID(-1);
	BECOME_IDENTITY(pc_identity(who));
	int fd = pc_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	EXPECT_ERRNO(want, fd < 0 ? -fd : 0);
	if (fd >= 0) {
		uint64_t count = UINT64_MAX;

		EXPECT_EQ(0, pc_count_fd_work(fd, pc_getppid_work, (void *)N, &count));
		EXPECT_EQ(0, count);
		close(fd);
	}
}

TEST_F(global, kernel_breakpoint_without_sys_admin_is_eperm)
{
	kernel_watch(_metadata, "unprivileged", EPERM);
}

TEST_F(global, kernel_breakpoint_with_perfmon_only_is_eperm)
{
	kernel_watch(_metadata, "perfmon", EPERM);
}

TEST_F(global, kernel_breakpoint_with_sys_admin_opens)
{
	kernel_watch(_metadata, "sys_admin", 0);
}

/*
 * cause: "a kernel function-trace tracepoint without privilege (since
 * 3.13)": ftrace:function asks perf_allow_tracepoint() even to count, before
 * it registers anything. The level -1 case, which runs first, is the
 * refusal's control.
 *
 * Registering ftrace:function patches every traced kernel function in and
 * out: 3 s each way under qemu's TCG. So the pair registers it once: the
 * identity tries, in a child; a refusal is the rule's where the control's
 * identity opened it, and otherwise (the case run alone, or the control
 * refused too) root opens it, to tell the rule's refusal from ftrace's own
 * (function tracing off or busy, for everyone): where root is refused too,
 * the case cannot tell.
 */
static struct ftrace_seen {
	int got;	/* this case's identity: 0 opened, or the errno; -1 did not ask */
	bool opened;	/* an identity of this binary's cases opened it */
} *seen;		/* shared by the harness's forks */

static void __attribute__((constructor)) ftrace_seen_map(void)
{
	void *p = mmap(NULL, sizeof(*seen), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	seen = p == MAP_FAILED ? NULL : p;
}

static void ftrace_function_as(struct __test_metadata *_metadata, struct perfconf_attr attr, const char *who)
{
	BECOME_IDENTITY(pc_identity(who));
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	seen->got = fd < 0 ? -fd : 0;
	if (fd >= 0) {
		uint64_t count = 0;

		seen->opened = true;
		EXPECT_EQ(0, pc_count_fd_work(fd, pc_getppid_work, (void *)N, &count));
		EXPECT_LE(N, count) TH_LOG("every getppid() enters kernel functions");
		close(fd);
	}
}

static void ftrace_function(struct __test_metadata *_metadata, int level, const char *who, int want)
{
	long id = pc_tracepoint_id("ftrace", "function");
	int status;

	if (id < 0)
		SKIP(return, "no ftrace:function event (CONFIG_FUNCTION_TRACER off, or no tracefs: %s)",
		     pc_errno_name(-id));
	struct perfconf_attr attr = pc_attr(PERF_TYPE_TRACEPOINT, (uint64_t)id);

	ASSERT_NE(NULL, seen);
	seen->got = -1;
	SET_PARANOID(level);
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		ftrace_function_as(_metadata, attr, who);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("the child, as %s: wait status 0x%x", who, status);
	if (seen->got < 0)
		return;		/* the child said why it could not ask */
	if (seen->got && !seen->opened) {
		/* Root passes the rule: a refusal here is ftrace's own. */
		int as_root = pc_open_errno(&attr, 0, -1, -1, 0);

		if (as_root)
			BLOCKED("ftrace:function is refused even to root here (%s)", pc_errno_name(as_root));
	}
	EXPECT_ERRNO(want, seen->got) TH_LOG("%s at perf_event_paranoid %d", who, level);
}

TEST_F_TIMEOUT(global, ftrace_function_at_paranoid_m1_counts, 240)
{
	ftrace_function(_metadata, -1, "unprivileged", 0);
}

TEST_F_TIMEOUT(global, ftrace_function_without_perfmon_is_eperm, 240)
{
	ftrace_function(_metadata, 0, "unprivileged", EPERM);
}

/*
 * cause: "an exclude_hv, exclude_idle, exclude_user or exclude_kernel
 * setting the architecture does not support": arm's PMUs cannot filter
 * idle. x86's ignore exclude_idle, and software PMUs take every bit.
 */
TEST_F(global, unsupported_exclude_idle_is_refused)
{
	if (strcmp(pc_kernel()->arch, "aarch64"))	/* the kernel's: an armhf build on arm64 too */
		SKIP(return, "only arm's PMU drivers refuse an exclude bit they cannot filter");
	REQUIRE_HW_PMU();
	struct perfconf_attr attr = pc_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("the control");
	attr.exclude_idle = 1;
	int err = pc_open_errno(&attr, 0, -1, -1, 0);

	pc_observe("errno", "%s", err ? pc_errno_name(err) : "OK");
	EXPECT_TRUE(err == EPERM || err == EOPNOTSUPP) TH_LOG("got %s", pc_errno_name(err));
}

TEST_HARNESS_MAIN
