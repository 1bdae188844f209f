// SPDX-License-Identifier: GPL-2.0
/*
 * sigtrap (since Linux 5.13): "This enables synchronous signal delivery of
 * SIGTRAP on event overflow." Each overflow sends SIGTRAP, before the
 * thread that overflowed goes on, to that thread, with si_code TRAP_PERF,
 * si_perf_type the event's attr.type and si_addr the sample's address (the
 * watched address of a watchpoint, the faulting address of a page fault).
 *
 * Its companions: remove_on_exec is required (no signal may reach a new
 * program), and so is a task (pid != -1): both are EINVAL without. Whether
 * inherit needs inherit_thread is pinned. Kernels before 5.13 (the ABI
 * table's release for the bit) refuse it: those cases SKIP.
 *
 * Measured with a uprobe on pc_work_target (lib/work/sigtrap.h): it traps on
 * each call, in whichever thread calls it, on every machine; its signals
 * carry si_perf_type the uprobe PMU's type and si_addr 0. A software event
 * (page faults at known addresses) shows si_addr at work, and a write
 * watchpoint its watched address: that case needs breakpoints that fire
 * and names them as its cause where they do not. The cases that only open
 * (companions) open an execute breakpoint, which opens everywhere.
 *
 * On arm64 a breakpoint's handler returns to the instruction that trapped,
 * armed again, and it would trap forever: the catcher disarms breakpoint
 * events there and the watchpoint case calls pc_sigtrap_rearm() before the
 * next trap (lib/work/sigtrap.h); on x86 that is a no-op. A uprobe's signal
 * arrives past the probed instruction: nothing to disarm. Past
 * PC_SIGTRAP_LIMIT signals the catcher disables the events: a runaway
 * shows as a wrong count.
 */
#include <linux/hw_breakpoint.h>
#include <sys/syscall.h>

#include "perfconf.h"
#include "work/faults.h"
#include "work/sigtrap.h"

PERFCONF_KEEP_CALLS(pc_work_target)

/* An execute breakpoint on pc_work_target that traps every `period` calls: for the opens. */
static struct perfconf_attr trap_on_calls(uint64_t period)
{
	return pc_sigtrap_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0, period);
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/*
 * One SIGTRAP per call, there when the call returns, with the perf
 * siginfo: si_perf_type the event's attr.type.
 */
TEST(each_overflow_traps_synchronously)
{
	struct perfconf_attr u;
	int fd;

	SIGTRAP_UPROBE(&u, pc_work_target, 1);
	ASSERT_EQ(0, pc_sigtrap_catch());
	OPEN_SIGTRAP(fd, &u);
	ASSERT_EQ(0, pc_enable(fd));
	for (unsigned int i = 1; i <= 5; i++) {
		pc_work_calls(1);
		EXPECT_EQ(i, pc_sigtrap_count()) TH_LOG("after call %u", i);
	}
	ASSERT_EQ(0, pc_disable(fd));
	for (unsigned int i = 0; i < 5; i++) {
		const struct pc_sigtrap *t = pc_sigtrap_get(i);

		ASSERT_NE(NULL, t);
		EXPECT_EQ(SIGTRAP, t->signo);
		EXPECT_EQ(PC_TRAP_PERF, t->code);
		EXPECT_EQ(0, t->err);
		EXPECT_EQ(u.type, t->perf_type);
		EXPECT_EQ(0, t->perf_flags);
		EXPECT_EQ(gettid_(), t->tid);
	}
	/* A uprobe's sample has no data address: 0 is expected (pinned). */
	pc_observe("si_addr", "%s", pc_sigtrap_get(0)->addr == (uintptr_t)pc_work_target ?
		   "probe_addr" : pc_sigtrap_get(0)->addr ? "other" : "0");
	close(fd);
	pc_sigtrap_release();
}

/* sample_period 3: a signal after calls 3, 6 and 9 only. */
TEST(every_nth_overflow)
{
	struct perfconf_attr u;
	char pattern[10];
	int fd;

	SIGTRAP_UPROBE(&u, pc_work_target, 3);
	ASSERT_EQ(0, pc_sigtrap_catch());
	OPEN_SIGTRAP(fd, &u);
	ASSERT_EQ(0, pc_enable(fd));
	for (unsigned int i = 0; i < 9; i++) {
		unsigned int before = pc_sigtrap_count();

		pc_work_calls(1);
		pattern[i] = pc_sigtrap_count() > before ? 's' : '.';
	}
	pattern[9] = '\0';
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_STREQ("..s..s..s", pattern);
	close(fd);
	pc_sigtrap_release();
}

/* A write watchpoint: si_addr is the watched variable. Its subject is breakpoints. */
TEST(watchpoint_si_addr)
{
	static volatile uint64_t watched;
	struct perfconf_attr attr = pc_sigtrap_breakpoint(HW_BREAKPOINT_W, &watched, HW_BREAKPOINT_LEN_8, 1);
	int fd;

	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	ASSERT_EQ(0, pc_sigtrap_catch());
	OPEN_SIGTRAP(fd, &attr);
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_touch(&watched);
	ASSERT_EQ(0, pc_sigtrap_rearm());
	pc_work_touch(&watched);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(2, pc_sigtrap_count());
	for (unsigned int i = 0; i < 2; i++) {
		EXPECT_EQ(PC_TRAP_PERF, pc_sigtrap_get(i)->code);
		EXPECT_EQ((uintptr_t)&watched, pc_sigtrap_get(i)->addr);
	}
	EXPECT_EQ(2, watched);
	close(fd);
	pc_sigtrap_release();
}

/* A software event traps too: si_perf_type PERF_TYPE_SOFTWARE, si_addr the faulting address. */
TEST(page_fault_si_addr)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, 0);
	struct pc_faults f;
	int fd;

	attr.exclude_kernel = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	ASSERT_EQ(0, pc_sigtrap_catch());
	ASSERT_EQ(0, pc_faults_map(&f, 4));
	pc_faults_next(&f, 1);
	OPEN_SIGTRAP(fd, &attr);
	ASSERT_EQ(0, pc_enable(fd));
	pc_faults_next(&f, 3);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(3, pc_sigtrap_count());
	for (unsigned int i = 0; i < 3; i++) {
		const struct pc_sigtrap *t = pc_sigtrap_get(i);

		EXPECT_EQ(PC_TRAP_PERF, t->code);
		EXPECT_EQ(PERF_TYPE_SOFTWARE, t->perf_type);
		EXPECT_EQ(pc_faults_addr(&f, 1 + i), t->addr);
	}
	pc_faults_unmap(&f);
	close(fd);
	pc_sigtrap_release();
}

/*
 * An inherited sigtrap event (inherit + inherit_thread): a new thread that
 * overflows gets the signal itself; the thread that opened gets none.
 */
TEST(the_overflowing_thread_is_signalled)
{
	struct perfconf_attr u;
	int fd;

	SIGTRAP_UPROBE(&u, pc_work_target, 1);
	u.inherit = 1;
	u.inherit_thread = 1;
	ASSERT_EQ(0, pc_sigtrap_catch());
	OPEN_SIGTRAP(fd, &u);
	ASSERT_EQ(0, pc_enable(fd));
	pid_t tid = pc_work_in_thread("calls 1");
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_LT(0, tid);
	ASSERT_EQ(1, pc_sigtrap_count());
	EXPECT_EQ(tid, pc_sigtrap_get(0)->tid);
	EXPECT_NE(gettid_(), pc_sigtrap_get(0)->tid);
	EXPECT_EQ(PC_TRAP_PERF, pc_sigtrap_get(0)->code);
	EXPECT_EQ(u.type, pc_sigtrap_get(0)->perf_type);
	close(fd);
	pc_sigtrap_release();
}

/*
 * With SIGTRAP blocked the signal waits and arrives on unblocking; the
 * kernel flags it TRAP_PERF_FLAG_ASYNC since 5.18 (the flags are pinned).
 */
TEST(blocked_sigtrap)
{
	struct perfconf_attr u;
	sigset_t trap, old;
	int fd;

	SIGTRAP_UPROBE(&u, pc_work_target, 1);
	ASSERT_EQ(0, pc_sigtrap_catch());
	OPEN_SIGTRAP(fd, &u);
	sigemptyset(&trap);
	sigaddset(&trap, SIGTRAP);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &trap, &old));
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_calls(1);
	ASSERT_EQ(0, pc_disable(fd));
	unsigned int while_blocked = pc_sigtrap_count();
	ASSERT_EQ(0, sigprocmask(SIG_SETMASK, &old, NULL));
	pc_observe("caught_while_blocked", "%u", while_blocked);
	ASSERT_EQ(1, pc_sigtrap_count());
	EXPECT_EQ(PC_TRAP_PERF, pc_sigtrap_get(0)->code);
	pc_observe("flags", "%u", pc_sigtrap_get(0)->perf_flags);
	EXPECT_EQ(0, pc_sigtrap_get(0)->perf_flags & ~PC_TRAP_PERF_FLAG_ASYNC);
	close(fd);
	pc_sigtrap_release();
}

/* sigtrap without remove_on_exec: EINVAL (before 5.13: EINVAL for the bit itself). */
TEST(needs_remove_on_exec)
{
	struct perfconf_attr attr = trap_on_calls(1);

	attr.remove_on_exec = 0;
	EXPECT_ERRNO(EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

/* A CPU-wide sigtrap event has no task to signal: EINVAL. */
TEST(needs_a_task)
{
	struct perfconf_attr attr = trap_on_calls(1);

	EXPECT_ERRNO(EINVAL, pc_open_observe_errno("errno", &attr, -1, 0));
}

/* inherit with and without inherit_thread: pinned. */
TEST(inherit_companions)
{
	REQUIRE_PMU("breakpoint");	/* the companions are execute breakpoints */
	REQUIRE_BREAKPOINTS(HW_BREAKPOINT_X);
	struct perfconf_attr attr = trap_on_calls(1);

	attr.inherit = 1;
	int alone = pc_open_observe_errno("inherit", &attr, 0, -1);
	attr.inherit_thread = 1;
	int with_thread = pc_open_observe_errno("inherit_thread", &attr, 0, -1);
	if (with_thread && pc_kernel()->kver < pc_sigtrap_since())
		SKIP(return, "sigtrap is since Linux %d.%d", pc_sigtrap_since() / 1000,
		     pc_sigtrap_since() % 1000);
	EXPECT_ERRNO(0, with_thread);
	EXPECT_TRUE(alone == 0 || alone == EINVAL) TH_LOG("%s", pc_errno_name(alone));
}

TEST_HARNESS_MAIN
