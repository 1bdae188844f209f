// SPDX-License-Identifier: GPL-2.0
/*
 * sample_type: "The various bits in this field specify which values to
 * include in the sample." Each PERF_SAMPLE_* bit is accepted on a software
 * event or refused (pinned per bit), a bit past the kernel's last is
 * refused with EINVAL ("sample_type is out of range"), and the fields of
 * the accepted bits are in the record, in the documented order, with the
 * values they promise: IP in the function that faulted, this task's
 * pid/tid, the faulting ADDR, ID and STREAM_ID equal to PERF_EVENT_IOC_ID,
 * the CPU the task runs on, the PERIOD, the READ values, a CALLCHAIN that
 * starts in user context at that IP, and RAW tracepoint data. Alone, each
 * accepted bit's field is checked too: the fields above, and for the
 * fields a software event has no value for, the kernel's "none" (weight
 * 0, data source PERF_MEM_NA, transaction 0, RAW a u32 0, AUX size 0),
 * the task's cgroup id (name_to_handle_at), and, since a first touch is
 * sampled before the fault maps the page, PHYS_ADDR and DATA_PAGE_SIZE 0.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>

#include "perfconf.h"
#include "work/mapping.h"
#include "host/cgroup.h"
#include "work/affinity.h"
#include "work/clock.h"
#include "work/faults.h"
#include "sampling_child.h"

/* A page-fault sampler, period 1, user mode only, on this task. */
static struct perfconf_attr fault_attr(uint64_t sample_type)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, sample_type);

	attr.exclude_kernel = 1;
	attr.exclude_callchain_kernel = 1;
	return attr;
}

static const struct pc_sample *sample(const struct pc_capture *cap, size_t k)
{
	const struct pc_record *r = pc_capture_find(cap, PERF_RECORD_SAMPLE, k);

	return r ? &r->sample : NULL;
}

/*
 * Open a capture of attr and take n page faults in f with it enabled
 * (after one to warm up); read the records: one sample per fault.
 */
static void sample_each_fault(struct __test_metadata *_metadata, struct pc_capture *cap,
			      struct perfconf_attr *attr, struct pc_faults *f, size_t n)
{
	ASSERT_ERRNO(0, -pc_capture_open(cap, attr, 0, -1));
	ASSERT_EQ(0, pc_faults_map(f, n + 1));
	pc_faults_enabled(f, cap->fd, n);
	ASSERT_CAPTURE_READ(cap);
	ASSERT_EQ(n, pc_capture_count(cap, PERF_RECORD_SAMPLE));
}

/* The id of this task's cgroup in the perf_event hierarchy; -errno where none is mounted. */
static int own_cgroup_id(uint64_t *id)
{
	struct pc_cgroup_mount m;
	char path[PATH_MAX];
	int err = pc_cgroup_perf_mount(&m);

	if (!err)
		err = pc_cgroup_self(&m, path, sizeof(path));
	return err ? err : pc_cgroup_id(path, id);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* What the faults of each_known_bit_alone were: where, on which CPU, in how long. */
struct fault_run {
	const struct pc_faults *f;
	uint64_t id;		/* PERF_EVENT_IOC_ID */
	int cpu;		/* the test is pinned there */
	uint64_t elapsed_ns;	/* CLOCK_MONOTONIC from before enabling to after disabling */
	uint64_t clock_error_ns;	/* of one perf time reading (pc_perf_clock_error) */
};

/*
 * The contents of the one field bit adds to sample k (from 0) of a run
 * of first-touch page faults on a software event, period 1. The values
 * the kernel writes where the event has none: 6.12 kernel/events/core.c,
 * perf_prepare_sample (weight 0, data_src PERF_MEM_NA, transaction 0,
 * lines 7980-7994), perf_output_sample (RAW without data: a u32 size of 4
 * and a u32 0, lines 7607-7615); PHYS_ADDR and DATA_PAGE_SIZE are taken
 * before the fault maps the page, so a first touch has none: 0
 * (perf_virt_to_phys, perf_get_pgtable_size; see
 * tests/record/sample_phys_addr.c and sample_page_size.c for present pages).
 */
static void expect_field(struct __test_metadata *_metadata, const struct pc_abi_bit *b,
			 const struct fault_run *run, const struct pc_sample *s,
			 const struct pc_sample *prev, size_t k)
{
	switch (1ULL << b->bit) {
	case PERF_SAMPLE_IP:
		EXPECT_TRUE(pc_fault_ip(s->ip)) TH_LOG("IP %#llx is not in pc_fault_write %p",
						       (unsigned long long)s->ip, pc_fault_write);
		break;
	case PERF_SAMPLE_TID:
		EXPECT_EQ(getpid(), s->pid);
		EXPECT_EQ(syscall(SYS_gettid), s->tid);
		break;
	case PERF_SAMPLE_TIME:
		EXPECT_NE(0, s->time);
		if (prev) {
			/*
			 * Two faults apart, perf time moved between them (paced):
			 * later, and inside the run's bracket (wide margin for clock
			 * rates, and a reading's error at each end).
			 */
			EXPECT_LT(prev->time, s->time) TH_LOG("TIME did not advance");
			EXPECT_GE(2 * run->elapsed_ns + 1000000 + 2 * run->clock_error_ns, s->time - prev->time)
				TH_LOG("TIME advanced %llu ns in a run of %llu ns (perf clock error %llu ns)",
				       (unsigned long long)(s->time - prev->time),
				       (unsigned long long)run->elapsed_ns,
				       (unsigned long long)run->clock_error_ns);
		}
		break;
	case PERF_SAMPLE_ADDR:
		EXPECT_EQ(pc_faults_addr(run->f, 1 + k), s->addr);
		break;
	case PERF_SAMPLE_READ:
		EXPECT_EQ(1, s->read.nr);
		if (s->read.nr == 1) {
			EXPECT_EQ(k + 1, s->read.values[0].value) TH_LOG("the count at the sample");
		}
		break;
	case PERF_SAMPLE_CALLCHAIN:
		EXPECT_LE(2, s->callchain_nr);
		if (s->callchain_nr >= 2) {
			EXPECT_EQ(PERF_CONTEXT_USER, s->callchain[0]);
			EXPECT_TRUE(pc_fault_ip(s->callchain[1]));
		}
		break;
	case PERF_SAMPLE_ID:
		EXPECT_EQ(run->id, s->id);
		break;
	case PERF_SAMPLE_STREAM_ID:
		EXPECT_EQ(run->id, s->stream_id);
		break;
	case PERF_SAMPLE_IDENTIFIER:
		EXPECT_EQ(run->id, s->identifier);
		break;
	case PERF_SAMPLE_CPU:
		EXPECT_EQ(run->cpu, s->cpu);
		EXPECT_EQ(0, s->res);
		break;
	case PERF_SAMPLE_PERIOD:
		EXPECT_EQ(1, s->period);
		break;
	case PERF_SAMPLE_RAW: {
		uint32_t data = 1;

		EXPECT_EQ(4, s->raw_size) TH_LOG("RAW of an event without raw data");
		if (s->raw_size >= sizeof(data))
			memcpy(&data, s->raw, sizeof(data));
		EXPECT_EQ(0, data);
		break;
	}
	case PERF_SAMPLE_STACK_USER:
		EXPECT_EQ(0, s->stack_user_size) TH_LOG("sample_stack_user is 0");
		break;
	case PERF_SAMPLE_WEIGHT:
	case PERF_SAMPLE_WEIGHT_STRUCT:
		EXPECT_EQ(0, s->weight);
		break;
	case PERF_SAMPLE_DATA_SRC: {
		const uint64_t na = PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) |
				    PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, NA);
		const uint64_t na_66 = na | PERF_MEM_S(LVLNUM, NA);	/* from 6.6 */

		EXPECT_TRUE(s->data_src == na_66 || (pc_kernel()->kver < PC_KVER(6, 6) && s->data_src == na))
			TH_LOG("DATA_SRC %#llx is not PERF_MEM_NA", (unsigned long long)s->data_src);
		break;
	}
	case PERF_SAMPLE_TRANSACTION:
		EXPECT_EQ(0, s->transaction);
		break;
	case PERF_SAMPLE_PHYS_ADDR:
		EXPECT_EQ(0, s->phys_addr) TH_LOG("no page was mapped when the fault was sampled");
		break;
	case PERF_SAMPLE_AUX:
		EXPECT_EQ(0, s->aux_size) TH_LOG("aux_sample_size is 0, and there is no AUX area");
		break;
	case PERF_SAMPLE_CGROUP: {
		uint64_t id = 0;
		int err = own_cgroup_id(&id);

		if (!err) {
			EXPECT_EQ(id, s->cgroup) TH_LOG("the id of this task's cgroup");
		} else {
			TH_LOG("this task's cgroup is not reachable (%s): CGROUP not compared",
			       pc_errno_name(-err));
			EXPECT_NE(0, s->cgroup);
		}
		break;
	}
	case PERF_SAMPLE_DATA_PAGE_SIZE:
		EXPECT_EQ(0, s->data_page_size) TH_LOG("no page was mapped when the fault was sampled");
		break;
	case PERF_SAMPLE_CODE_PAGE_SIZE:
		EXPECT_TRUE(pc_code_page_size_ok(s->code_page_size))
			TH_LOG("CODE_PAGE_SIZE %llu", (unsigned long long)s->code_page_size);
		break;
	default:
		/* BRANCH_STACK, REGS_USER, REGS_INTR: refused alone on a software event */
		EXPECT_TRUE(0) TH_LOG("PERF_SAMPLE_%s was accepted, and there is no check of its contents",
				      b->name);
	}
}

/*
 * Each bit alone: the outcome is pinned per bit; an accepted bit writes
 * one decodable sample per fault, and its field holds what it promises
 * for that fault (expect_field). The bits a software event has data for
 * since 2.6.31/3.12 must be accepted; a branch stack is EOPNOTSUPP below.
 * Perf time moves between the two faults (work/clock.h: on a coarse clock
 * it stands still between ticks), so TIME must go strictly up.
 */
TEST(each_known_bit_alone)
{
	const uint64_t must_accept = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_ADDR | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ID |
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_RAW |
		PERF_SAMPLE_IDENTIFIER;
	int cpu = pc_pin_self();
	uint64_t clock_error = 0;

	ASSERT_LE(0, cpu);
	ASSERT_EQ(0, pc_perf_clock_error(&clock_error));
	for (size_t i = 0; i < pc_abi_sample_bits_count; i++) {
		const struct pc_abi_bit *b = &pc_abi_sample_bits[i];
		struct perfconf_attr attr = fault_attr(1ULL << b->bit);
		struct pc_capture cap;
		struct pc_faults f;
		char key[40];
		size_t j;

		for (j = 0; b->name[j] && j < sizeof(key) - 1; j++)
			key[j] = (char)tolower((unsigned char)b->name[j]);
		key[j] = '\0';
		int err = pc_capture_open(&cap, &attr, 0, -1);
		pc_observe(key, "%s", pc_errno_name(-err));
		if (must_accept & (1ULL << b->bit)) {
			EXPECT_ERRNO(0, -err) TH_LOG("PERF_SAMPLE_%s on a software event", b->name);
		}
		if (err)
			continue;
		ASSERT_EQ(0, pc_faults_map(&f, 3));
		struct fault_run run = { .f = &f, .id = pc_event_id(cap.fd), .cpu = cpu,
					 .clock_error_ns = clock_error };
		uint64_t t0 = now_ns();
		ASSERT_EQ(0, pc_faults_enabled_paced(&f, cap.fd, 2));
		run.elapsed_ns = now_ns() - t0;
		EXPECT_LE(0, pc_capture_read(&cap)) TH_LOG("PERF_SAMPLE_%s: %s", b->name, cap.error);
		EXPECT_EQ(2, pc_capture_count(&cap, PERF_RECORD_SAMPLE)) TH_LOG("PERF_SAMPLE_%s", b->name);
		for (size_t k = 0; k < pc_capture_count(&cap, PERF_RECORD_SAMPLE) && k < 2; k++) {
			int before = _metadata->exit_code;

			_metadata->exit_code = KSFT_PASS;	/* to tell this field's failure */
			expect_field(_metadata, b, &run, sample(&cap, k), k ? sample(&cap, k - 1) : NULL, k);
			if (_metadata->exit_code != KSFT_PASS)
				TH_LOG("above: PERF_SAMPLE_%s, sample %zu", b->name, k);
			else
				_metadata->exit_code = before;
		}
		pc_faults_unmap(&f);
		pc_capture_close(&cap);
	}
}

/*
 * Bits past the kernel's last known one are refused with EINVAL, all of
 * them from the first refused up (the kernel checks against one mask).
 * Which is the first is pinned; bit 63 is never a sample field.
 */
TEST(unknown_bits_refused)
{
	unsigned int first_refused = 64;

	for (unsigned int bit = PC_SAMPLE_TYPE_MAX_BIT + 1; bit < 64; bit++) {
		struct perfconf_attr attr = fault_attr(1ULL << bit);
		int err = pc_open_errno(&attr, 0, -1, -1, 0);

		if (err && first_refused == 64)
			first_refused = bit;
		if (first_refused < 64) {
			EXPECT_ERRNO(EINVAL, err) TH_LOG("bit %u, past the first refused bit %u",
							 bit, first_refused);
		}
	}
	pc_observe("first_refused_bit", "%u", first_refused);
	EXPECT_GT(64, first_refused);
}

/* IP in the faulting function, this task's pid/tid, ADDR the faulting address. */
TEST(ip_tid_addr)
{
	struct perfconf_attr attr = fault_attr(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR);
	struct pc_capture cap;
	struct pc_faults f;

	sample_each_fault(_metadata, &cap, &attr, &f, 8);
	for (size_t k = 0; k < 8; k++) {
		const struct pc_sample *s = sample(&cap, k);

		EXPECT_TRUE(pc_fault_ip(s->ip)) TH_LOG("sample %zu: ip %#llx is not in pc_fault_write %p",
						       k, (unsigned long long)s->ip, pc_fault_write);
		EXPECT_EQ(getpid(), s->pid);
		EXPECT_EQ(syscall(SYS_gettid), s->tid);
		EXPECT_EQ(pc_faults_addr(&f, 1 + k), s->addr);
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

#include <time.h>	/* cpu_and_time reads CLOCK_MONOTONIC */

PERFCONF_KEEP_TRACEPOINT(syscalls, sys_enter_getppid)

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#define SLEEP_NS 2000000ull	/* between the 4th and the 5th fault, at least */

/*
 * Eight faults sampled by attr, four before and four after a sleep of
 * sleep_ns, with CLOCK_MONOTONIC read around each part: mono[0] before the
 * first, mono[1] after the 4th, mono[2] before the 5th, mono[3] after the
 * 8th. The time attr's samples are in (perf's, or use_clockid's) moves
 * between one fault and the next (work/clock.h). The
 * path (clock read, wait, sleep, fault) runs once before, unmeasured, so
 * that no other page faults in user mode while enabled.
 */
static void faults_around_a_sleep(struct __test_metadata *_metadata, struct pc_capture *cap,
				  struct perfconf_attr *attr, struct pc_faults *f, uint64_t sleep_ns,
				  uint64_t mono[4])
{
	struct pc_perf_clock clk;

	ASSERT_ERRNO(0, -pc_capture_open(cap, attr, 0, -1));
	ASSERT_EQ(0, pc_faults_map(f, 9));
	ASSERT_EQ(0, pc_perf_clock_open_for(&clk, attr));
	mono[0] = mono_ns();
	usleep(1);
	ASSERT_EQ(1, pc_faults_next_paced(f, 1, &clk));
	ASSERT_EQ(0, pc_perf_clock_wait(&clk));
	mono[0] = mono_ns();
	ASSERT_EQ(0, pc_enable(cap->fd));
	ASSERT_EQ(4, pc_faults_next_paced(f, 4, &clk));
	mono[1] = mono_ns();
	usleep((useconds_t)(sleep_ns / 1000));
	mono[2] = mono_ns();
	ASSERT_EQ(4, pc_faults_next_paced(f, 4, &clk));
	ASSERT_EQ(0, pc_disable(cap->fd));
	mono[3] = mono_ns();
	pc_perf_clock_close(&clk);
	ASSERT_CAPTURE_READ(cap);
	ASSERT_EQ(8, pc_capture_count(cap, PERF_RECORD_SAMPLE));
}

/*
 * CPU is the one the task runs on (pinned there). TIME goes strictly up
 * from one fault to the next (perf time moved between them) and advances
 * in nanoseconds: the default clock (the perf clock, local_clock(),
 * kernel/events/core.c perf_clock()) is not CLOCK_MONOTONIC, so only its
 * rate is compared with it: the sleep between the 4th and 5th samples
 * shows in full (90% allowed for a clock that runs a little slow) and the
 * whole run takes no longer than CLOCK_MONOTONIC saw (110%), each less
 * a reading's error at both ends (pc_perf_clock_error: a tick on a coarse
 * clock), the sleep 20 such errors long at least so that the rate still
 * tells: a clock that misses a fifth of the sleep, or runs a fifth fast,
 * fails. With use_clockid = CLOCK_MONOTONIC the times are that clock's
 * (perf_event_alloc() sets event->clock to ktime_get_mono_fast_ns) and lie
 * exactly inside the readings around them; their rate is held to the
 * same bounds, less that clock's own step at each end (a tick on a
 * jiffies clocksource).
 */
TEST(cpu_and_time)
{
	int cpu = pc_pin_self();
	uint64_t clock_error = 0, mono_step = 0;

	ASSERT_LE(0, cpu);
	ASSERT_EQ(0, pc_perf_clock_error(&clock_error));
	ASSERT_EQ(0, pc_clock_step(CLOCK_MONOTONIC, &mono_step));
	uint64_t sleep_ns = 20 * clock_error > SLEEP_NS ? 20 * clock_error : SLEEP_NS;
	for (int monotonic = 0; monotonic < 2; monotonic++) {
		struct perfconf_attr attr = fault_attr(PERF_SAMPLE_TIME | PERF_SAMPLE_CPU);
		struct pc_capture cap;
		struct pc_faults f;
		uint64_t mono[4], t[8];
		const char *clock = monotonic ? "CLOCK_MONOTONIC" : "the perf clock";
		uint64_t e = monotonic ? mono_step : clock_error;	/* at each end of a window */

		if (monotonic) {
			attr.use_clockid = 1;
			attr.clockid = CLOCK_MONOTONIC;
		}
		faults_around_a_sleep(_metadata, &cap, &attr, &f, sleep_ns, mono);
		for (size_t k = 0; k < 8; k++) {
			const struct pc_sample *s = sample(&cap, k);

			EXPECT_EQ(cpu, s->cpu);
			EXPECT_EQ(0, s->res);
			EXPECT_NE(0, s->time);
			t[k] = s->time;
			if (k) {
				EXPECT_LT(t[k - 1], t[k]) TH_LOG("%s: sample %zu is not later than sample %zu",
								 clock, k, k - 1);
			}
		}
		EXPECT_LE((mono[2] - mono[1]) / 10 * 9, t[4] - t[3] + 2 * e)
			TH_LOG("%s: a sleep of %llu ns shows as %llu (error %llu ns at each end)", clock,
			       (unsigned long long)(mono[2] - mono[1]), (unsigned long long)(t[4] - t[3]),
			       (unsigned long long)e);
		EXPECT_GE((mono[3] - mono[0]) / 10 * 11 + 2 * e, t[7] - t[0])
			TH_LOG("%s: a run of %llu ns shows as %llu (error %llu ns at each end)", clock,
			       (unsigned long long)(mono[3] - mono[0]), (unsigned long long)(t[7] - t[0]),
			       (unsigned long long)e);
		if (monotonic) {
			EXPECT_LE(mono[0], t[0]);
			EXPECT_GE(mono[1], t[3]);
			EXPECT_LE(mono[2], t[4]);
			EXPECT_GE(mono[3], t[7]);
		}
		pc_faults_unmap(&f);
		pc_capture_close(&cap);
	}
}

/* ID, STREAM_ID and IDENTIFIER all carry the event's PERF_EVENT_IOC_ID. */
TEST(id_stream_id_identifier)
{
	struct perfconf_attr attr = fault_attr(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID |
					       PERF_SAMPLE_STREAM_ID);
	struct pc_capture cap;
	struct pc_faults f;

	sample_each_fault(_metadata, &cap, &attr, &f, 3);
	uint64_t id = pc_event_id(cap.fd);
	ASSERT_NE(0, id);
	for (size_t k = 0; k < 3; k++) {
		EXPECT_EQ(id, sample(&cap, k)->identifier);
		EXPECT_EQ(id, sample(&cap, k)->id);
		EXPECT_EQ(id, sample(&cap, k)->stream_id);
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/*
 * Two events sampling the same faults: each sample carries the ID,
 * STREAM_ID and IDENTIFIER of the event whose ring it is in.
 */
TEST(two_events_each_their_own_id)
{
	struct perfconf_attr attr = fault_attr(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID |
					       PERF_SAMPLE_STREAM_ID);
	struct pc_capture cap[2];
	struct pc_faults f;
	uint64_t id[2];

	for (int i = 0; i < 2; i++) {
		ASSERT_ERRNO(0, -pc_capture_open(&cap[i], &attr, 0, -1));
		id[i] = pc_event_id(cap[i].fd);
	}
	ASSERT_NE(id[0], id[1]);
	ASSERT_EQ(0, pc_faults_map(&f, 3));
	pc_faults_next(&f, 1);
	ASSERT_EQ(0, pc_enable(cap[0].fd));
	ASSERT_EQ(0, pc_enable(cap[1].fd));
	pc_faults_next(&f, 2);
	ASSERT_EQ(0, pc_disable(cap[1].fd));
	ASSERT_EQ(0, pc_disable(cap[0].fd));
	for (int i = 0; i < 2; i++) {
		ASSERT_LE(0, pc_capture_read(&cap[i])) TH_LOG("%s", cap[i].error);
		ASSERT_EQ(2, pc_capture_count(&cap[i], PERF_RECORD_SAMPLE));
		for (size_t k = 0; k < 2; k++) {
			const struct pc_sample *s = sample(&cap[i], k);

			EXPECT_EQ(id[i], s->identifier) TH_LOG("event %d (of 2), sample %zu", i, k);
			EXPECT_EQ(id[i], s->id) TH_LOG("event %d (of 2), sample %zu", i, k);
			EXPECT_EQ(id[i], s->stream_id) TH_LOG("event %d (of 2), sample %zu", i, k);
		}
		pc_capture_close(&cap[i]);
	}
	pc_faults_unmap(&f);
}

/*
 * ID is "a unique ID for the opened event": in an inherited event, the
 * child's samples land in the parent's ring carrying the ID of the event
 * the user opened, while STREAM_ID is "the actual ID" of the copy that
 * sampled. The kernel may swap the contexts of a parent and child that
 * run on one CPU, so which copy samples which task is not fixed; there
 * are at most the two copies. (An inherited event has a ring only when
 * it is bound to a CPU.)
 */
TEST(inherited_id_is_the_opened_event)
{
	struct perfconf_attr attr = fault_attr(PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID);
	struct pc_capture cap;
	uint64_t streams[2] = { 0, 0 };
	size_t from_child = 0, nstreams = 0;

	ASSERT_ERRNO(0, -pc_capture_open_inherited(&cap, &attr));
	uint64_t id = pc_event_id(cap.fd);
	pid_t child = child_recorded(_metadata, &cap, pc_work_in_child, "faults 4");
	for (size_t k = 0; k < pc_capture_count(&cap, PERF_RECORD_SAMPLE); k++) {
		const struct pc_sample *s = sample(&cap, k);

		EXPECT_EQ(id, s->id) TH_LOG("sample %zu of pid %u", k, s->pid);
		from_child += s->pid == (uint32_t)child;
		if (nstreams < 2 && s->stream_id != streams[0])
			streams[nstreams++] = s->stream_id;
		EXPECT_TRUE(s->stream_id == streams[0] || s->stream_id == streams[1])
			TH_LOG("a third STREAM_ID %llu", (unsigned long long)s->stream_id);
	}
	EXPECT_LE(4, from_child);
	pc_capture_close(&cap);
}

/*
 * READ: the event's count at the sample, including the sampled event,
 * with its id; PERIOD: the period, here 1.
 */
TEST(read_and_period)
{
	struct perfconf_attr attr = fault_attr(PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD);
	struct pc_capture cap;
	struct pc_faults f;

	attr.read_format = PERF_FORMAT_ID;
	sample_each_fault(_metadata, &cap, &attr, &f, 5);
	uint64_t id = pc_event_id(cap.fd);
	for (size_t k = 0; k < 5; k++) {
		const struct pc_sample *s = sample(&cap, k);

		EXPECT_EQ(1, s->period);
		ASSERT_EQ(1, s->read.nr);
		EXPECT_EQ(k + 1, s->read.values[0].value);
		EXPECT_EQ(id, s->read.values[0].id);
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* CALLCHAIN of a user-mode fault: PERF_CONTEXT_USER, then the sampled IP. */
TEST(callchain_starts_at_ip)
{
	struct perfconf_attr attr = fault_attr(PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	struct pc_capture cap;
	struct pc_faults f;

	sample_each_fault(_metadata, &cap, &attr, &f, 3);
	for (size_t k = 0; k < 3; k++) {
		const struct pc_sample *s = sample(&cap, k);

		ASSERT_LE(2, s->callchain_nr);
		EXPECT_EQ(PERF_CONTEXT_USER, s->callchain[0]);
		EXPECT_EQ(s->ip, s->callchain[1]);
		EXPECT_TRUE(pc_fault_ip(s->callchain[1]));
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* The offset and size of a field of a tracepoint, from its tracefs format file. */
static int tp_field(const char *sys, const char *event, const char *field,
		    unsigned int *offset, unsigned int *size)
{
	const char *tracefs = pc_tracefs();
	char path[512], line[256], want[96];
	int found = -ENOENT;
	FILE *fp;

	if (!tracefs)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracefs, sys, event);
	snprintf(want, sizeof(want), " %s;", field);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		char *at = strstr(line, want);

		if (at && sscanf(at + strlen(want), " offset:%u; size:%u;", offset, size) == 2) {
			found = 0;
			break;
		}
	}
	fclose(fp);
	return found;
}

static int64_t raw_field(const struct pc_sample *s, unsigned int offset, unsigned int size)
{
	const unsigned char *p = (const unsigned char *)s->raw + offset;
	int32_t v32;
	uint16_t v16;

	if (offset + size > s->raw_size)
		return -1;
	if (size == 2) {
		memcpy(&v16, p, 2);
		return v16;
	}
	memcpy(&v32, p, 4);
	return v32;
}

/*
 * RAW on a tracepoint: the tracepoint's record as its tracefs format file
 * lays it out: common_type is the tracepoint id, common_pid this task,
 * __syscall_nr the syscall that was entered.
 */
TEST(raw_on_tracepoint)
{
	unsigned int type_off, type_size, pid_off, pid_size, nr_off, nr_size;
	struct perfconf_attr attr;
	struct pc_capture cap;

	GETPPID_TRACEPOINT(&attr);
	ASSERT_EQ(0, tp_field("syscalls", "sys_enter_getppid", "common_type", &type_off, &type_size));
	ASSERT_EQ(0, tp_field("syscalls", "sys_enter_getppid", "common_pid", &pid_off, &pid_size));
	ASSERT_EQ(0, tp_field("syscalls", "sys_enter_getppid", "__syscall_nr", &nr_off, &nr_size));
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	CAPTURE_GETPPID_SAMPLES(&cap, 3);
	for (size_t k = 0; k < 3; k++) {
		const struct pc_sample *s = sample(&cap, k);

		ASSERT_LE(nr_off + nr_size, s->raw_size);
		EXPECT_EQ(0, (4 + s->raw_size) % 8) TH_LOG("u32 size + data is not u64-aligned");
		EXPECT_EQ((int64_t)attr.config, raw_field(s, type_off, type_size));
		EXPECT_EQ(getpid(), raw_field(s, pid_off, pid_size));
		EXPECT_EQ(SYS_getppid, raw_field(s, nr_off, nr_size));
	}
	pc_capture_close(&cap);
}

/* "EOPNOTSUPP ... branch stacks for software events." */
TEST(branch_stack_on_software_event)
{
	struct perfconf_attr attr = fault_attr(PERF_SAMPLE_BRANCH_STACK);

	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	EXPECT_ERRNO(EOPNOTSUPP, pc_open_observe_errno("errno", &attr, 0, -1));
}

/* WEIGHT and WEIGHT_STRUCT share their space: "either of those, not both". */
TEST(weight_and_weight_struct_together)
{
	struct perfconf_attr attr = fault_attr(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT);

	EXPECT_ERRNO(EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST_HARNESS_MAIN
