// SPDX-License-Identifier: GPL-2.0
/*
 * context_switch (since Linux 4.3): "This enables the generation of
 * PERF_RECORD_SWITCH records when a context switch occurs. It also enables
 * the generation of PERF_RECORD_SWITCH_CPU_WIDE records when sampling in
 * CPU-wide mode."
 *
 * PERF_RECORD_MISC_SWITCH_OUT "indicates whether it was a context switch
 * into or away from the current process"; PERF_RECORD_MISC_SWITCH_OUT_PREEMPT
 * (4.17) marks a switch away from a task that was still runnable. A
 * task's records alternate: out, in, out, in. A CPU-wide record adds
 * next_prev_pid/tid: "the process ID of the previous (if switching in) or
 * next (if switching out) process on the CPU", so on one CPU each switch
 * out of X to Y is followed by the switch in of Y from X.
 */
#include <sched.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "work/affinity.h"
#include "work/child.h"
#include "ring/sideband.h"

#define SWITCHES 20
#define OUT PERF_RECORD_MISC_SWITCH_OUT
#define PREEMPT PERF_RECORD_MISC_SWITCH_OUT_PREEMPT

/* Switch records with the switching task's pid/tid (sample_id_all). */
static struct perfconf_attr switch_attr(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	return attr;
}

TEST(accepted)
{
	struct perfconf_attr attr = switch_attr();

	EXPECT_ERRNO_SINCE("context_switch", 0, EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST(task_switches_alternate_out_and_in)
{
	struct perfconf_attr attr = switch_attr();
	struct pc_capture cap;
	size_t outs = 0;

	ASSERT_LE(0, pc_pin_self());
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	pid_t partner = pc_work_context_switches(SWITCHES);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LT(0, partner) TH_LOG("ping-pong: %s", pc_errno_name(-partner));
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(0, pc_capture_count(&cap, PERF_RECORD_SWITCH_CPU_WIDE))
		TH_LOG("a task event got CPU-wide switch records");
	size_t n = pc_capture_count(&cap, PERF_RECORD_SWITCH);
	for (size_t i = 0; i < n; i++) {
		const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SWITCH, i);
		int out = !!(r->misc & OUT);

		/* Enabled and disabled while running: out first, in last. */
		EXPECT_EQ(i % 2 == 0, out) TH_LOG("record %zu of %zu, misc 0x%x", i, n, r->misc);
		if (!out) {
			EXPECT_EQ(0, r->misc) TH_LOG("a switch in with misc 0x%x", r->misc);
		}
		EXPECT_EQ(getpid(), r->sample_id.pid);
		EXPECT_EQ(gettid(), r->sample_id.tid);
		outs += out;
	}
	/* Each round trip with a partner on the same CPU switches this task out. */
	EXPECT_LE(SWITCHES, outs);
	EXPECT_EQ(0, n % 2);
	pc_capture_close(&cap);
}

/*
 * Waking a real-time task on the same CPU preempts this one at once: the
 * switch out happens while this task is still runnable, so it is marked
 * SWITCH_OUT_PREEMPT. (A SCHED_FIFO partner makes the preemption certain;
 * a yield to a SCHED_OTHER partner leaves it to the scheduler's mood.) A
 * machine that refuses SCHED_FIFO cannot test it: blocked by sched_fifo.
 */
TEST(woken_rt_task_preempts)
{
	struct perfconf_attr attr = switch_attr();
	struct sched_param fifo = { .sched_priority = 1 };
	struct pc_child partner;
	struct pc_capture cap;
	const struct pc_record *preempted = NULL;

	REQUIRE_INSTRUMENT(PC_INSTR_SCHED_FIFO);
	ASSERT_LE(0, pc_pin_self());
	ASSERT_EQ(0, pc_child_start(&partner, 0));
	if (sched_setscheduler(partner.pid, SCHED_FIFO, &fifo)) {
		int err = errno;

		pc_child_kill(&partner);
		BLOCKED("cannot make the partner SCHED_FIFO (%s)", pc_errno_name(err));
	}
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	int err = pc_child_do(&partner, NULL);
	ASSERT_EQ(0, pc_disable(cap.fd));
	pc_child_kill(&partner);
	ASSERT_ERRNO(0, -err);
	ASSERT_CAPTURE_READ(&cap);
	for (size_t k = 0; !preempted && pc_capture_find(&cap, PERF_RECORD_SWITCH, k); k++) {
		const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SWITCH, k);

		if (r->misc & PREEMPT)
			preempted = r;
	}
	ASSERT_NE(NULL, preempted) TH_LOG("waking a SCHED_FIFO task on this CPU gave no SWITCH_OUT_PREEMPT");
	EXPECT_EQ(OUT | PREEMPT, preempted->misc);
	EXPECT_EQ(gettid(), preempted->sample_id.tid);
	pc_capture_close(&cap);
}

/*
 * A CPU-wide event on this test's CPU: SWITCH_CPU_WIDE records only. This
 * task switches out to its ping-pong partner and the partner's switch in
 * follows, naming this task as the previous one; and back.
 *
 * (Only this task and its partner are checked: here, switches of the VM
 * agent's threads never show in CPU-wide records, though other tasks'
 * records name them as next or previous, and no LOST record says so.)
 */
TEST(cpu_wide_records_name_next_and_prev)
{
	struct perfconf_attr attr = switch_attr();
	struct pc_capture cap;
	int cpu = pc_pin_self();
	uint32_t me = (uint32_t)gettid();

	ASSERT_LE(0, cpu);
	int err = pc_capture_open_pages(&cap, &attr, -1, cpu, 6);
	if (err == -EACCES)
		SKIP(return, "CPU-wide events need CAP_PERFMON or perf_event_paranoid <= 0");
	ASSERT_ERRNO(0, -err);
	ASSERT_EQ(0, pc_enable(cap.fd));
	pid_t partner = pc_work_context_switches(SWITCHES);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LT(0, partner) TH_LOG("ping-pong: %s", pc_errno_name(-partner));
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(0, pc_capture_count(&cap, PERF_RECORD_LOST)) TH_LOG("the ring overflowed");
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_SWITCH));

	size_t n = pc_capture_count(&cap, PERF_RECORD_SWITCH_CPU_WIDE), outs = 0, handovers = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_SWITCH_CPU_WIDE, i);
		const struct pc_record *next = pc_capture_find(&cap, PERF_RECORD_SWITCH_CPU_WIDE, i + 1);
		uint32_t from = r->sample_id.tid, to = r->switch_cpu_wide.next_prev_tid;

		if (!(r->misc & OUT)) {
			EXPECT_EQ(0, r->misc);
			continue;
		}
		outs += from == me;
		/* A handover between the two: out of one, into the other. */
		if (!((from == me && to == (uint32_t)partner) || (from == (uint32_t)partner && to == me)))
			continue;
		handovers++;
		EXPECT_EQ(r->sample_id.pid, from == me ? (uint32_t)getpid() : (uint32_t)partner);
		EXPECT_EQ(r->switch_cpu_wide.next_prev_pid, to == me ? (uint32_t)getpid() : (uint32_t)partner);
		ASSERT_NE(NULL, next) TH_LOG("switch out of %u to %u is the last record", from, to);
		EXPECT_EQ(0, next->misc) TH_LOG("switch out of %u to %u not followed by a switch in", from, to);
		EXPECT_EQ(to, next->sample_id.tid) TH_LOG("out of %u to %u, then in of %u", from, to,
							 next->sample_id.tid);
		EXPECT_EQ(from, next->switch_cpu_wide.next_prev_tid);
	}
	/* Each round trip switches this task out at least once, mostly to the partner. */
	EXPECT_LE(SWITCHES, outs);
	EXPECT_LT(0, handovers) TH_LOG("never switched between this task and its partner %d", partner);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
