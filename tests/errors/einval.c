// SPDX-License-Identifier: GPL-2.0
/*
 * EINVAL from perf_event_open(): the request is invalid, for many reasons.
 * The man page names some: a sample_freq above the maximum, a CPU that does
 * not exist, read_format, sample_type or flags out of range, exclusive or
 * pinned on an event that is not a group leader, config values out of
 * range, an unsupported generic event, no room for the event. The kernel
 * adds more: in kernel/events/core.c (6.12) perf_copy_attr() (line 12527:
 * unknown sample_type, read_format and branch_sample_type bits, reserved
 * fields, a misaligned user stack size, WEIGHT with WEIGHT_STRUCT,
 * inherit_thread without inherit, remove_on_exec with enable_on_exec,
 * sigtrap without remove_on_exec), perf_event_open() (line 12824: unknown
 * flags, sample_period with bit 63, PID_CGROUP without a pid and a CPU, a
 * group whose leader differs in inherit, clock, CPU or context, or is a
 * member itself, exclusive or pinned on a member), perf_event_alloc()
 * (pid -1 with cpu -1, a CPU past nr_cpu_ids) and perf_event_set_clock()
 * (an unknown clockid), and perf_trace_init() (kernel/trace/
 * trace_event_perf.c:219: a tracepoint id that names no event).
 *
 * This binary is the index of the errno: one variant per cause, each a
 * refused request and its control, the same request with only the cause
 * taken away, which opens. tests/attr/ and tests/flags/ look at the fields
 * themselves in depth. Causes the man page gives that no machine of ours
 * can show as EINVAL are in the report, not faked: an unsupported generic
 * event is ENOENT without a hardware PMU (and on arm64's PMUv3 too).
 */
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <time.h>

#include "host/cgroup.h"
#include "work/child.h"
#include "perfconf.h"

PERFCONF_META("reads=perf_event_max_sample_rate");

#define BIT63 (1ULL << 63)

/* Why an attempt could not be made here (a SKIP), when it returns NOT_HERE. */
#define NOT_HERE (-1)
static const char *not_here;
/*
 * The PMU took what others refuse, which the ABI leaves to its driver: the
 * attempt observed it and says why in not_here (a SKIP).
 */
#define DRIVER_ACCEPTS (-2)

static struct perfconf_attr counter(void)
{
	return pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
}

static struct perfconf_attr sampler(void)
{
	struct perfconf_attr a = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);

	a.exclude_kernel = 1;
	return a;
}

/* The errno of opening attr on this task (0: it opened, and was closed). */
static int try_attr(struct perfconf_attr a)
{
	return pc_open_errno(&a, 0, -1, -1, 0);
}

/* ---- the attempts: the refused request (bad = 1) or its control (bad = 0) ---- */

static int sample_freq_above_max(int bad)
{
	long max_rate;
	struct perfconf_attr a = sampler();

	if (pc_sysctl_get(PC_MAX_SAMPLE_RATE_SYSCTL, &max_rate) || max_rate <= 0) {
		not_here = "perf_event_max_sample_rate cannot be read";
		return NOT_HERE;
	}
	a.freq = 1;
	a.sample_freq = (uint64_t)max_rate + (bad ? 1 : 0);
	return try_attr(a);
}

static int cpu_does_not_exist(int bad)
{
	struct perfconf_attr a = counter();

	return pc_open_errno(&a, 0, bad ? 1 << 20 : 0, -1, 0);
}

static int pid_and_cpu_both_minus_one(int bad)
{
	struct perfconf_attr a = counter();

	return pc_open_errno(&a, -1, bad ? -1 : 0, -1, 0);
}

static int read_format_unknown_bit(int bad)
{
	struct perfconf_attr a = counter();

	a.read_format = PERF_FORMAT_ID | (bad ? BIT63 : 0);
	return try_attr(a);
}

static int sample_type_unknown_bit(int bad)
{
	struct perfconf_attr a = sampler();

	a.sample_type |= bad ? BIT63 : 0;
	return try_attr(a);
}

/* Checked only with PERF_SAMPLE_BRANCH_STACK: without it the field is not read. */
static int branch_sample_type_unknown_bit(int bad)
{
	struct perfconf_attr a = sampler();

	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER | BIT63;
	if (bad)
		a.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	return try_attr(a);
}

/*
 * Not ENOENT: perf_trace_init() (trace_event_perf.c:219) finds no event
 * with the id. An id past 16 bits is never any event's: an event's id is
 * its trace_entry type, an unsigned short (TRACE_EVENT_TYPE_MAX). The
 * next id after the highest would not do: another program's dynamic
 * event (a uprobe, a kprobe) may take it at any moment.
 */
#define TRACEPOINT_ID_NEVER ((uint64_t)UINT16_MAX + 1)

static int tracepoint_id_unknown(int bad)
{
	struct perfconf_attr a;

	if (pc_attr_tracepoint(&a, "syscalls", "sys_enter_getppid")) {
		not_here = "no tracefs, or no syscalls:sys_enter_getppid tracepoint";
		return NOT_HERE;
	}
	if (bad)
		a.config = TRACEPOINT_ID_NEVER;
	return try_attr(a);
}

static int flags_unknown_bit(int bad)
{
	struct perfconf_attr a = counter();

	return pc_open_errno(&a, 0, -1, -1, bad ? 1UL << 31 : 0);
}

static int reserved_field_set(int bad)
{
	struct perfconf_attr a = counter();

	a.__reserved_2 = bad ? 1 : 0;
	return try_attr(a);
}

static int sample_period_bit_63(int bad)
{
	struct perfconf_attr a = sampler();

	a.sample_period = bad ? BIT63 : 1ULL << 62;
	return try_attr(a);
}

static int sample_stack_user_misaligned(int bad)
{
	struct perfconf_attr a = sampler();

	a.sample_type |= PERF_SAMPLE_STACK_USER;
	a.sample_stack_user = bad ? 12 : 16;
	return try_attr(a);
}

static int weight_with_weight_struct(int bad)
{
	struct perfconf_attr a = sampler();

	a.sample_type |= PERF_SAMPLE_WEIGHT_STRUCT | (bad ? PERF_SAMPLE_WEIGHT : 0);
	return try_attr(a);
}

static int inherit_thread_without_inherit(int bad)
{
	struct perfconf_attr a = counter();

	a.inherit_thread = 1;
	a.inherit = !bad;
	return try_attr(a);
}

static int remove_on_exec_with_enable_on_exec(int bad)
{
	struct perfconf_attr a = counter();

	a.remove_on_exec = 1;
	a.enable_on_exec = bad;
	return try_attr(a);
}

static int sigtrap_without_remove_on_exec(int bad)
{
	struct perfconf_attr a = counter();

	a.sigtrap = 1;
	a.remove_on_exec = !bad;
	return try_attr(a);
}

static int clockid_unknown(int bad)
{
	struct perfconf_attr a = counter();

	a.use_clockid = 1;
	a.clockid = bad ? 99 : CLOCK_MONOTONIC;
	return try_attr(a);
}

/* A config value out of range: a data breakpoint of length 0 (the control: 8). */
static int breakpoint_length_zero(int bad)
{
	static volatile uint64_t watched;
	struct perfconf_attr a = pc_attr_breakpoint(HW_BREAKPOINT_W, &watched, bad ? 0 : 8);

	pc_depends("pmu.breakpoint");
	if (!pc_pmu_exists("breakpoint")) {
		not_here = "no breakpoint PMU on this machine";
		return NOT_HERE;
	}
	if (pc_breakpoint_refused(HW_BREAKPOINT_W)) {
		pc_depends("instrument.breakpoints");
		not_here = pc_breakpoint_refused(HW_BREAKPOINT_W);
		return NOT_HERE;
	}
	return try_attr(a);
}

/* A new event joining `leader` (open on pid, cpu), then closing both. */
static int join(struct perfconf_attr leader_attr, pid_t lpid, int lcpu,
		struct perfconf_attr member_attr, pid_t mpid, int mcpu)
{
	int leader = pc_open(&leader_attr, lpid, lcpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (leader < 0) {
		not_here = "the group leader does not open";
		return NOT_HERE;
	}
	int err = pc_open_errno(&member_attr, mpid, mcpu, leader, 0);

	close(leader);
	return err;
}

static int exclusive_on_a_member(int bad)
{
	struct perfconf_attr m = counter();

	m.exclusive = bad;
	return join(counter(), 0, -1, m, 0, -1);
}

static int pinned_on_a_member(int bad)
{
	struct perfconf_attr m = counter();

	m.pinned = bad;
	return join(counter(), 0, -1, m, 0, -1);
}

static int group_leader_with_other_inherit(int bad)
{
	struct perfconf_attr m = counter();

	m.inherit = bad;
	return join(counter(), 0, -1, m, 0, -1);
}

static int group_leader_with_other_clock(int bad)
{
	struct perfconf_attr l = counter(), m = counter();

	l.use_clockid = 1;
	l.clockid = CLOCK_MONOTONIC;
	m.use_clockid = !bad;
	m.clockid = bad ? 0 : CLOCK_MONOTONIC;
	return join(l, 0, -1, m, 0, -1);
}

static int group_leader_on_another_cpu(int bad)
{
	DEPENDS_ON("cpus_online");
	if (pc_cpus_online() < 2) {
		not_here = "one CPU online";
		return NOT_HERE;
	}
	return join(counter(), -1, 0, counter(), -1, bad ? 1 : 0);
}

static int group_leader_in_another_task(int bad)
{
	struct pc_child child;
	int err;

	if (pc_child_start(&child, 0)) {
		not_here = "no child process";
		return NOT_HERE;
	}
	err = join(counter(), child.pid, -1, counter(), bad ? 0 : child.pid, -1);
	pc_child_finish(&child);
	return err;
}

/* group_fd names a member: a group cannot be nested in another. */
static int group_fd_is_a_member(int bad)
{
	struct perfconf_attr a = counter();
	int leader = pc_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int member = leader < 0 ? -1 : pc_open(&a, 0, -1, leader, PERF_FLAG_FD_CLOEXEC);
	int err;

	if (member < 0) {
		not_here = "the group does not open";
		if (leader >= 0)
			close(leader);
		return NOT_HERE;
	}
	err = pc_open_errno(&a, 0, -1, bad ? member : leader, 0);
	close(member);
	close(leader);
	return err;
}

/* PID_CGROUP needs a CPU: this process's own cgroup, with cpu -1 or cpu 0. */
static int cgroup_without_a_cpu(int bad)
{
	struct perfconf_attr a = counter();
	struct pc_cgroup_mount m;
	char path[PATH_MAX];
	int fd, err;

	if (pc_kernel_config("CONFIG_CGROUP_PERF") == 'n' || pc_cgroup_perf_mount(&m) ||
	    pc_cgroup_self(&m, path, sizeof(path))) {
		not_here = "no perf_event cgroup reachable (CONFIG_CGROUP_PERF or a mount missing)";
		return NOT_HERE;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		not_here = "this process's cgroup directory does not open";
		return NOT_HERE;
	}
	err = pc_open_errno(&a, fd, bad ? -1 : 0, -1, PERF_FLAG_PID_CGROUP);
	close(fd);
	return err;
}

/*
 * No room: a group of more hardware events than the PMU has counters
 * (refused when the member that does not fit joins; the control is the
 * member before it). Needs a hardware PMU.
 */
static int group_larger_than_the_counters(int bad)
{
	struct perfconf_attr a = pc_attr_hw(PERF_COUNT_HW_INSTRUCTIONS);
	int fds[64], n, err = 0;

	/* enabled: the drivers' group checks (validate_group) leave out members that are off */
	a.disabled = 0;

	fds[0] = pc_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fds[0] < 0) {
		not_here = "no hardware PMU counts instructions here";
		return NOT_HERE;
	}
	for (n = 1; n < 64; n++) {
		fds[n] = pc_open(&a, 0, -1, fds[0], PERF_FLAG_FD_CLOEXEC);
		if (fds[n] < 0) {
			err = -fds[n];
			break;
		}
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
	/*
	 * riscv's PMU drivers (drivers/perf/riscv_pmu*.c) validate no group at
	 * open: every member opens there (pinned). Anywhere else that is the
	 * regression this case names, and it fails.
	 */
	if (bad && n == 64 && !strcmp(pc_kernel()->arch, "riscv64")) {
		pc_observe("members_opened", "%d", n);
		not_here = "this PMU validates no group at open (a driver's choice): 64 members opened";
		return DRIVER_ACCEPTS;
	}
	/* the control is the last member that found a counter: it opened */
	return bad ? err : 0;
}

FIXTURE(einval) {
};

FIXTURE_VARIANT(einval) {
	int (*attempt)(int bad);
	int since;		/* PC_KVER of the rule's first kernel, 0 for all we run */
};

#define CAUSE(name, kv) \
	FIXTURE_VARIANT_ADD(einval, name) { .attempt = name, .since = kv }

/* the man page's causes */
CAUSE(sample_freq_above_max, 0);
CAUSE(cpu_does_not_exist, 0);
CAUSE(read_format_unknown_bit, 0);
CAUSE(sample_type_unknown_bit, 0);
CAUSE(flags_unknown_bit, 0);
CAUSE(exclusive_on_a_member, 0);
CAUSE(pinned_on_a_member, 0);
CAUSE(breakpoint_length_zero, 0);
CAUSE(group_larger_than_the_counters, 0);
/* what kernel/events/core.c adds */
CAUSE(pid_and_cpu_both_minus_one, 0);
CAUSE(cgroup_without_a_cpu, 0);
CAUSE(group_leader_on_another_cpu, 0);
CAUSE(group_leader_in_another_task, 0);
CAUSE(group_leader_with_other_clock, 0);
CAUSE(group_leader_with_other_inherit, 0);
CAUSE(group_fd_is_a_member, 0);
CAUSE(reserved_field_set, 0);
CAUSE(branch_sample_type_unknown_bit, 0);
CAUSE(sample_period_bit_63, 0);
CAUSE(sample_stack_user_misaligned, 0);
CAUSE(clockid_unknown, 0);
CAUSE(tracepoint_id_unknown, 0);
CAUSE(weight_with_weight_struct, PC_KVER(5, 12));
CAUSE(inherit_thread_without_inherit, PC_KVER(5, 13));
CAUSE(remove_on_exec_with_enable_on_exec, PC_KVER(5, 13));
CAUSE(sigtrap_without_remove_on_exec, PC_KVER(5, 13));

FIXTURE_SETUP(einval)
{
	if (variant->since && pc_kernel()->kver < variant->since)
		SKIP(return, "a rule of %d.%d; this kernel is %s", variant->since / 1000,
		     variant->since % 1000, pc_kernel()->release);
}

FIXTURE_TEARDOWN(einval)
{
}

TEST_F(einval, is_einval)
{
	int err = variant->attempt(1);

	if (err == NOT_HERE || err == DRIVER_ACCEPTS)
		SKIP(return, "%s", not_here);
	EXPECT_ERRNO(EINVAL, err);
}

TEST_F(einval, control_opens)
{
	int err = variant->attempt(0);

	if (err == NOT_HERE)
		SKIP(return, "%s", not_here);
	EXPECT_ERRNO(0, err);
}

TEST_HARNESS_MAIN
