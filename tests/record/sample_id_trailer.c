// SPDX-License-Identifier: GPL-2.0
/*
 * The sample_id trailer of every record that is not a sample (sample_id_all,
 * since 2.6.38). With the bit set, each such record ends with the identity
 * fields that sample_type selects, always in this order whatever else is
 * selected: { pid, tid } (TID), time (TIME), id (ID), stream_id
 * (STREAM_ID), { cpu, res } (CPU), id again (IDENTIFIER, the last word).
 * Each field says where and when the record was written: by which task
 * (the one it is about, or the one whose action produced it), at what time
 * on the event's clock, for which event (its PERF_EVENT_IOC_ID), on which
 * CPU.
 *
 * Kernel (6.12): __perf_event_header_size()/perf_event__id_header_size()
 * size it from sample_type; __perf_event_header__init_id() fills it from
 * current and the event (kernel/events/core.c); __perf_event__output_id_sample()
 * writes it in the order above. Every side-band writer calls the pair:
 * perf_event_mmap_output, perf_event_comm_output, perf_event_task_output
 * (FORK, EXIT), perf_event_switch_output, perf_event_namespaces_output,
 * perf_event_cgroup_output, perf_event_ksymbol_output,
 * perf_event_bpf_output, and perf_output_begin() for LOST.
 *
 * tests/attr/sample_id_all.c shows the bit's effect on COMM and pid/tid/id
 * on a few types; here every subset of the six bits is laid out and
 * checked word by word, and every record type this machine can produce
 * has every field checked. In a process of several threads, the task
 * is the thread: a record that a thread other than the main one causes
 * (its COMM, MMAP, MMAP2, EXIT, SWITCH, LOST) names the process's pid and the
 * thread's own tid, and the FORK of a thread names its creator
 * (thread.*, on an inherited event). THROTTLE (an exclusive sysctl), TEXT_POKE
 * (arch text patching) and the AUX types (AUX hardware) are not here.
 */
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <time.h>

#include "perfconf.h"
#include "work/affinity.h"
#include "work/bpf.h"
#include "work/child.h"
#include "work/mapping.h"
#include "host/cgroup.h"
#include "ring/sideband.h"

#define ALL_ID_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
		     PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
#define NAME "pc-trailer"
/* header, pid, tid and the name padded to 8 bytes */
#define COMM_SIZE (8 + 8 + ((sizeof(NAME) + 7) / 8 * 8))

/* The six bits in trailer order. */
static const uint64_t id_bits[] = {
	PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
	PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
};
#define NR_ID_BITS (sizeof(id_bits) / sizeof(id_bits[0]))

/* What the trailer must say. */
struct expect {
	uint32_t pid, tid;
	uint64_t before, after;	/* CLOCK_MONOTONIC around the action */
	uint64_t id;
	int cpu;
	bool inherited;	/* an inherited event: STREAM_ID is its own id or a copy's */
};

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct perfconf_attr dummy(uint64_t sample_type)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.sample_type = sample_type;
	attr.sample_id_all = 1;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	return attr;
}

static unsigned int words(uint64_t st)
{
	return (unsigned int)__builtin_popcountll(st & ALL_ID_BITS);
}

/*
 * Read the trailer word by word from the record's raw bytes, in the ABI's
 * order, and compare each field, and what the lib parser made of it.
 */
static void expect_trailer(struct __test_metadata *_metadata, const struct pc_capture *cap,
			   const struct pc_record *r, uint64_t st, const struct expect *e)
{
	const unsigned char *raw = pc_capture_bytes(cap, r);
	const char *type = pc_abi_record_name(r->type);
	size_t n = words(st);
	uint32_t lo, hi;
	uint64_t w;

	ASSERT_NE(NULL, raw);
	ASSERT_TRUE(r->sample_id.present) TH_LOG("%s", type);
	ASSERT_LE(8 + 8 * n, r->size) TH_LOG("%s", type);
	size_t off = r->size - 8 * n;

	for (size_t b = 0; b < NR_ID_BITS; b++) {
		if (!(st & id_bits[b]))
			continue;
		memcpy(&lo, raw + off, 4);
		memcpy(&hi, raw + off + 4, 4);
		memcpy(&w, raw + off, 8);
		switch (id_bits[b]) {
		case PERF_SAMPLE_TID:
			EXPECT_EQ(e->pid, lo) TH_LOG("%s pid, sample_type %#llx", type, (unsigned long long)st);
			EXPECT_EQ(e->tid, hi) TH_LOG("%s tid, sample_type %#llx", type, (unsigned long long)st);
			EXPECT_EQ(e->pid, r->sample_id.pid);
			EXPECT_EQ(e->tid, r->sample_id.tid);
			break;
		case PERF_SAMPLE_TIME:
			EXPECT_LE(e->before, w) TH_LOG("%s time, sample_type %#llx", type, (unsigned long long)st);
			EXPECT_GE(e->after, w) TH_LOG("%s time, sample_type %#llx", type, (unsigned long long)st);
			EXPECT_EQ(w, r->sample_id.time);
			break;
		case PERF_SAMPLE_STREAM_ID:
			if (e->inherited) {
				/*
				 * ID names the event opened, STREAM_ID the one that
				 * wrote it: the event or a copy, in whichever task's
				 * context it is (the scheduler swaps the contexts of
				 * two tasks of one family instead of switching events).
				 */
				EXPECT_NE(0, w) TH_LOG("%s stream_id", type);
				EXPECT_EQ(w, r->sample_id.stream_id);
				break;
			}
			/* fallthrough */
		case PERF_SAMPLE_ID:
			/* A non-inherited event: ID and STREAM_ID are both its id. */
			EXPECT_EQ(e->id, w) TH_LOG("%s %s, sample_type %#llx", type,
						   id_bits[b] == PERF_SAMPLE_ID ? "id" : "stream_id",
						   (unsigned long long)st);
			if (id_bits[b] == PERF_SAMPLE_STREAM_ID) {
				EXPECT_EQ(w, r->sample_id.stream_id);
			} else {
				EXPECT_EQ(w, r->sample_id.id);
			}
			break;
		case PERF_SAMPLE_CPU:
			EXPECT_EQ((uint32_t)e->cpu, lo) TH_LOG("%s cpu, sample_type %#llx", type, (unsigned long long)st);
			EXPECT_EQ(0, hi) TH_LOG("%s res, sample_type %#llx", type, (unsigned long long)st);
			EXPECT_EQ(lo, r->sample_id.cpu);
			break;
		case PERF_SAMPLE_IDENTIFIER:
			/* The last word of the record. */
			EXPECT_EQ(r->size - 8, off) TH_LOG("%s", type);
			EXPECT_EQ(e->id, w) TH_LOG("%s identifier, sample_type %#llx", type, (unsigned long long)st);
			EXPECT_EQ(w, r->sample_id.id);
			break;
		}
		off += 8;
	}
	EXPECT_EQ((size_t)r->size, off);
}

/* Every record of `type` in the capture: checked; returns how many. */
static size_t expect_all_of_type(struct __test_metadata *_metadata, const struct pc_capture *cap,
				 uint32_t type, uint64_t st, const struct expect *e)
{
	size_t n = pc_capture_count(cap, type);

	for (size_t i = 0; i < n; i++)
		expect_trailer(_metadata, cap, pc_capture_find(cap, type, i), st, e);
	return n;
}

/* Pin this task: the CPU every trailer of its actions must name. */
static int pinned_cpu(struct __test_metadata *_metadata)
{
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu);
	return cpu;
}

/*
 * Enable the capture's event, for an action of task `pid` (its only
 * thread, or this very task when pid is 0): what its trailers must say,
 * from now on.
 */
static struct expect enable_for(struct __test_metadata *_metadata, struct pc_capture *cap, pid_t pid,
				int cpu)
{
	struct expect e = {
		.pid = (uint32_t)(pid ? pid : getpid()), .tid = (uint32_t)(pid ? pid : gettid()),
		.id = pc_event_id(cap->fd), .cpu = cpu, .before = monotonic_ns(),
	};

	ASSERT_EQ(0, pc_enable(cap->fd));
	return e;
}

/* The action done: disable the event, note the time, read every record. */
static void disable_and_read(struct __test_metadata *_metadata, struct pc_capture *cap, struct expect *e)
{
	ASSERT_EQ(0, pc_disable(cap->fd));
	e->after = monotonic_ns();
	ASSERT_CAPTURE_READ(cap);
}

/*
 * Each case: this task pinned (the CPU its trailers must name), a dummy
 * event with every identity bit, which the case gives its record bit and
 * opens, its capture closed after it.
 */
FIXTURE(global) {
	struct perfconf_attr attr;
	struct pc_capture cap;
	int cpu;
};
FIXTURE_SETUP(global)
{
	self->attr = dummy(ALL_ID_BITS);
	self->cap.fd = -1;
	self->cpu = pinned_cpu(_metadata);
}
FIXTURE_TEARDOWN(global) { pc_capture_close(&self->cap); }

/*
 * Each of the 64 subsets of the six bits on a COMM record: the record
 * grows by 8 bytes per bit, and each selected field sits where the order
 * puts it, with the right value.
 */
TEST_F(global, every_subset_on_a_comm_record)
{
	ASSERT_EQ(0, pc_work_set_comm(NAME "x"));	/* warm the path once */
	for (uint64_t mask = 0; mask < (1u << NR_ID_BITS); mask++) {
		uint64_t st = 0;

		for (size_t b = 0; b < NR_ID_BITS; b++)
			if (mask & (1u << b))
				st |= id_bits[b];
		self->attr = dummy(st);
		self->attr.comm = 1;
		ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &self->attr, 0, -1))
			TH_LOG("sample_type %#llx", (unsigned long long)st);
		struct expect e = enable_for(_metadata, &self->cap, 0, self->cpu);
		ASSERT_NE(0, e.id);
		ASSERT_EQ(0, pc_work_set_comm(mask & 1 ? NAME : NAME "y"));
		disable_and_read(_metadata, &self->cap, &e);
		ASSERT_EQ(1, pc_capture_count(&self->cap, PERF_RECORD_COMM))
			TH_LOG("sample_type %#llx", (unsigned long long)st);
		const struct pc_record *r = pc_capture_find(&self->cap, PERF_RECORD_COMM, 0);
		EXPECT_EQ(COMM_SIZE + 8 * words(st), r->size) TH_LOG("sample_type %#llx", (unsigned long long)st);
		expect_trailer(_metadata, &self->cap, r, st, &e);
		pc_capture_close(&self->cap);
	}
}

/* Sample bits that are not identity bits add nothing, and do not move the fields. */
TEST_F(global, other_sample_bits_change_nothing)
{
	uint64_t st = ALL_ID_BITS | PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD |
		      PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;

	self->attr = dummy(st);
	self->attr.comm = 1;
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &self->attr, 0, -1));
	struct expect e = enable_for(_metadata, &self->cap, 0, self->cpu);
	ASSERT_EQ(0, pc_work_set_comm(NAME));
	disable_and_read(_metadata, &self->cap, &e);
	const struct pc_record *r = pc_find_tid(&self->cap, PERF_RECORD_COMM, gettid(), 0);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(COMM_SIZE + 8 * NR_ID_BITS, r->size);
	expect_trailer(_metadata, &self->cap, r, st, &e);
}

/* MMAP (mmap2 = 0) and MMAP2 of a file mapped by this task. */
FIXTURE(mapping) {
	struct pc_capture cap;
};
FIXTURE_VARIANT(mapping) {
	int mmap2;
	uint32_t type;
};
FIXTURE_VARIANT_ADD(mapping, mmap) { .mmap2 = 0, .type = PERF_RECORD_MMAP };
FIXTURE_VARIANT_ADD(mapping, mmap2) { .mmap2 = 1, .type = PERF_RECORD_MMAP2 };
FIXTURE_SETUP(mapping) { self->cap.fd = -1; }
FIXTURE_TEARDOWN(mapping) { pc_capture_close(&self->cap); }

TEST_F(mapping, written_by_the_mapping_task)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct perfconf_attr attr = dummy(ALL_ID_BITS);
	struct pc_file_map m;
	int cpu = pinned_cpu(_metadata);

	attr.mmap = 1;
	attr.mmap2 = variant->mmap2;
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &attr, 0, -1));
	struct expect e = enable_for(_metadata, &self->cap, 0, cpu);
	int err = pc_map_temp_file(&m, page, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, 0);
	disable_and_read(_metadata, &self->cap, &e);
	ASSERT_ERRNO(0, -err);
	pc_unmap_guarded(m.addr, m.len);
	const struct pc_record *r = pc_find_mmap(&self->cap, m.path, 0);
	ASSERT_NE(NULL, r) TH_LOG("no record of %s", m.path);
	EXPECT_EQ(variant->type, r->type);
	expect_trailer(_metadata, &self->cap, r, ALL_ID_BITS, &e);
}

/*
 * The record of `type` about a child this task forks (and reaps) with the
 * event on: what the trailer must say is in e.
 */
static const struct pc_record *fork_record(struct __test_metadata *_metadata, struct pc_capture *cap,
					   int cpu, uint32_t type, struct expect *e)
{
	*e = enable_for(_metadata, cap, 0, cpu);
	pid_t child = pc_work_fork_exit(0);
	disable_and_read(_metadata, cap, e);
	ASSERT_LT(0, child);
	const struct pc_record *r = pc_find_tid(cap, type, child, 0);
	ASSERT_NE(NULL, r) TH_LOG("no %s record of child %d", pc_abi_record_name(type), child);
	return r;
}

/* FORK: written by the parent as it forks (the record's own tid is the child's). */
TEST_F(global, fork_written_by_the_parent)
{
	struct expect e;

	self->attr.task = 1;
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &self->attr, 0, -1));
	const struct pc_record *r = fork_record(_metadata, &self->cap, self->cpu, PERF_RECORD_FORK, &e);
	EXPECT_EQ(getpid(), r->task.ppid);
	expect_trailer(_metadata, &self->cap, r, ALL_ID_BITS, &e);
}

/* NAMESPACES of a new child: written by the parent in fork(). */
TEST_F(global, namespaces_written_by_the_parent)
{
	struct expect e;

	self->attr.namespaces = 1;
	PC_CAPTURE_OPEN_SINCE(&self->cap, &self->attr, 0, -1, "namespaces");
	const struct pc_record *r = fork_record(_metadata, &self->cap, self->cpu, PERF_RECORD_NAMESPACES, &e);
	expect_trailer(_metadata, &self->cap, r, ALL_ID_BITS, &e);
}

/*
 * On an event of another task (a waiting child): its COMM and its EXIT are
 * written by that task, so the trailer names it, not the reader.
 */
TEST_F(global, comm_and_exit_written_by_the_monitored_task)
{
	struct pc_child c;	/* it inherits the fixture's affinity */

	self->attr.task = 1;
	self->attr.comm = 1;
	ASSERT_EQ(0, pc_child_start(&c, 0));
	int err = pc_capture_open(&self->cap, &self->attr, c.pid, -1);
	if (err) {
		pc_child_kill(&c);
		ASSERT_ERRNO(0, -err);
	}
	struct expect e = enable_for(_metadata, &self->cap, c.pid, self->cpu);
	EXPECT_EQ(0, pc_child_do(&c, "comm " NAME));
	EXPECT_EQ(0, pc_child_finish(&c));
	e.after = monotonic_ns();
	pc_child_kill(&c);
	ASSERT_CAPTURE_READ(&self->cap);
	const struct pc_record *comm = pc_find_tid(&self->cap, PERF_RECORD_COMM, (pid_t)e.pid, 0);
	const struct pc_record *exit = pc_find_tid(&self->cap, PERF_RECORD_EXIT, (pid_t)e.pid, 0);
	ASSERT_NE(NULL, comm);
	ASSERT_NE(NULL, exit);
	EXPECT_STREQ(NAME, comm->comm.comm);
	expect_trailer(_metadata, &self->cap, comm, ALL_ID_BITS, &e);
	expect_trailer(_metadata, &self->cap, exit, ALL_ID_BITS, &e);
}

/* SWITCH out and in, both written by the task being switched (this one). */
TEST_F(global, switch_written_by_the_switched_task)
{
	self->attr.context_switch = 1;
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &self->attr, 0, -1));
	struct expect e = enable_for(_metadata, &self->cap, 0, self->cpu);
	usleep(1000);
	usleep(1000);
	disable_and_read(_metadata, &self->cap, &e);
	EXPECT_LE(4, expect_all_of_type(_metadata, &self->cap, PERF_RECORD_SWITCH, ALL_ID_BITS, &e));
}

/*
 * LOST: a one-page ring of a sampler of this task's page faults overflows;
 * the LOST record, written by the faulting task once there is room again,
 * carries the trailer too, and its own id field is the event's id.
 */
TEST_F(global, lost_written_by_the_sampled_task)
{
	self->attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, ALL_ID_BITS);
	self->attr.exclude_kernel = 1;
	self->attr.sample_id_all = 1;
	self->attr.use_clockid = 1;
	self->attr.clockid = CLOCK_MONOTONIC;
	ASSERT_ERRNO(0, -pc_capture_open_pages(&self->cap, &self->attr, 0, -1, 0));
	pc_work_page_faults(1);		/* the workload's own first faults */
	struct expect e = enable_for(_metadata, &self->cap, 0, self->cpu);
	ASSERT_EQ(0, pc_work_page_faults(pc_scaled_to_page(512)));	/* far more than one page holds */
	/*
	 * Room again, by consuming without copying: a copy allocates, and each
	 * new page it touches is one more sampled fault, so reading while the
	 * sampler is enabled can feed itself (on the s390x guest it grew
	 * until the OOM killer took it, at 800 MiB).
	 */
	pc_ring_drain(&self->cap.ring);
	ASSERT_EQ(0, pc_work_page_faults(4));	/* the LOST record goes first */
	disable_and_read(_metadata, &self->cap, &e);
	ASSERT_NE(0, pc_capture_count(&self->cap, PERF_RECORD_LOST));
	const struct pc_record *r = pc_capture_find(&self->cap, PERF_RECORD_LOST, 0);
	EXPECT_EQ(e.id, r->lost.id);
	EXPECT_LT(0, r->lost.lost);
	EXPECT_EQ(8 + 16 + 8 * NR_ID_BITS, r->size);
	expect_all_of_type(_metadata, &self->cap, PERF_RECORD_LOST, ALL_ID_BITS, &e);
}

/* KSYMBOL and BPF_EVENT of a program this task loads: written by the loader. */
TEST_F(global, ksymbol_and_bpf_event_written_by_the_loader)
{
	struct pc_bpf_prog prog;

	self->attr.ksymbol = 1;
	self->attr.bpf_event = 1;
	PC_CAPTURE_OPEN_SINCE(&self->cap, &self->attr, 0, -1, "bpf_event");
	struct expect e = enable_for(_metadata, &self->cap, 0, self->cpu);
	int err = pc_bpf_load_trivial(&prog, "pc_trailer");
	disable_and_read(_metadata, &self->cap, &e);
	if (err == -EPERM || err == -ENOSYS)
		SKIP(return, "cannot load a BPF program here (%s)", pc_errno_name(-err));
	ASSERT_ERRNO(0, -err);
	const struct pc_record *b = pc_find_bpf_event(&self->cap, PERF_BPF_EVENT_PROG_LOAD, prog.id);
	ASSERT_NE(NULL, b) TH_LOG("no BPF_EVENT for program %u", prog.id);
	expect_trailer(_metadata, &self->cap, b, ALL_ID_BITS, &e);
	if (prog.jited_len) {
		const struct pc_record *k = pc_find_ksymbol(&self->cap, prog.ksym, 0);

		ASSERT_NE(NULL, k) TH_LOG("no KSYMBOL for %s", prog.ksym);
		expect_trailer(_metadata, &self->cap, k, ALL_ID_BITS, &e);
	} else {
		TH_LOG("the program is not JITed: no KSYMBOL record to check");
	}
	pc_bpf_close(&prog);
}

/* CGROUP of a cgroup this task makes: written by the task that made it. */
TEST_F(global, cgroup_written_by_its_maker)
{
	struct pc_cgroup_mount m;
	char rel[64], path[PATH_MAX], kpath[PATH_MAX];

	REQUIRE_CONFIG("CGROUP_PERF");
	if (pc_cgroup_perf_mount(&m))
		SKIP(return, "no cgroup hierarchy is mounted");
	self->attr.cgroup = 1;
	PC_CAPTURE_OPEN_SINCE(&self->cap, &self->attr, 0, -1, "cgroup");
	pc_cgroup_unique_name(rel, sizeof(rel));
	pc_cgroup_kernel_path(&m, rel, kpath, sizeof(kpath));
	struct expect e = enable_for(_metadata, &self->cap, 0, self->cpu);
	int err = pc_cgroup_create(&m, rel, path, sizeof(path));
	disable_and_read(_metadata, &self->cap, &e);
	if (!err)
		pc_cgroup_remove(path);
	if (err == -EACCES || err == -EPERM || err == -EROFS)
		SKIP(return, "cannot create a cgroup here (%s)", pc_errno_name(-err));
	ASSERT_ERRNO(0, -err);
	const struct pc_record *r = pc_find_cgroup(&self->cap, kpath);
	ASSERT_NE(NULL, r) TH_LOG("no CGROUP record for %s", kpath);
	expect_trailer(_metadata, &self->cap, r, ALL_ID_BITS, &e);
}

/*
 * Records of a thread other than the main one. The event, on this process
 * and inherited, on the one CPU the process is pinned to (as perf record
 * opens it: an inherited event of a task on every CPU cannot be mapped),
 * is copied to each thread created while it is on; a copy writes into the
 * event's ring. What a thread does is written by the thread: its trailer
 * names this process and the thread's own tid (not the main one's), and
 * its ID the event opened. Its FORK is written by its creator, whose tid
 * it names.
 */
struct thread_action {
	int (*act)(struct thread_action *a);
	struct pc_file_map map;		/* "map": the file mapped */
	struct pc_ring *ring;		/* "overflow": the sampler's ring */
	int err;
};

static int thread_comm(struct thread_action *a)
{
	(void)a;
	return pc_work_set_comm(NAME);
}

static int thread_map(struct thread_action *a)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int err = pc_map_temp_file(&a->map, page, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, 0);

	if (!err)
		pc_unmap_guarded(a->map.addr, a->map.len);
	return err;
}

/* Two sleeps: switched out and back in, twice. */
static int thread_sleep(struct thread_action *a)
{
	(void)a;
	usleep(1000);
	usleep(1000);
	return 0;
}

/*
 * Overflow the one-page ring of the page-fault sampler, make room by
 * consuming without copying (lost_written_by_the_sampled_task says why),
 * and fault again: the LOST record is written by this thread.
 */
static int thread_overflow(struct thread_action *a)
{
	int err = pc_work_page_faults(pc_scaled_to_page(512));

	pc_ring_drain(a->ring);
	return err ? err : pc_work_page_faults(4);
}

static int thread_nothing(struct thread_action *a)
{
	(void)a;
	return 0;
}

static void thread_act(void *arg)
{
	struct thread_action *a = arg;

	a->err = a->act(a);
}

FIXTURE(thread) {
	struct pc_capture cap;
	struct expect main, thread;
	pid_t tid;
	struct thread_action a;
};
FIXTURE_VARIANT(thread) {
	int (*act)(struct thread_action *a);
	uint32_t type;
	unsigned int comm : 1, mmap : 1, mmap2 : 1, task : 1, context_switch : 1;
	unsigned int sampler : 1;	/* a page-fault sampler with a one-page ring */
};
FIXTURE_VARIANT_ADD(thread, comm) { .act = thread_comm, .type = PERF_RECORD_COMM, .comm = 1 };
FIXTURE_VARIANT_ADD(thread, mmap) { .act = thread_map, .type = PERF_RECORD_MMAP, .mmap = 1 };
FIXTURE_VARIANT_ADD(thread, mmap2) {
	.act = thread_map, .type = PERF_RECORD_MMAP2, .mmap = 1, .mmap2 = 1,
};
FIXTURE_VARIANT_ADD(thread, exit) { .act = thread_nothing, .type = PERF_RECORD_EXIT, .task = 1 };
FIXTURE_VARIANT_ADD(thread, fork) { .act = thread_nothing, .type = PERF_RECORD_FORK, .task = 1 };
FIXTURE_VARIANT_ADD(thread, switch) {
	.act = thread_sleep, .type = PERF_RECORD_SWITCH, .context_switch = 1,
};
FIXTURE_VARIANT_ADD(thread, lost) { .act = thread_overflow, .type = PERF_RECORD_LOST, .sampler = 1 };
/*
 * This task pinned (its threads inherit the CPU), the event opened with
 * the variant's record bit, enabled around a thread that does the
 * variant's action and is gone: self->main and self->thread say what a
 * trailer of each must say.
 */
FIXTURE_SETUP(thread)
{
	struct perfconf_attr attr = dummy(ALL_ID_BITS);
	int cpu = pinned_cpu(_metadata);

	self->cap.fd = -1;
	if (variant->sampler) {
		attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, ALL_ID_BITS);
		attr.exclude_kernel = 1;
		attr.sample_id_all = 1;
		attr.use_clockid = 1;
		attr.clockid = CLOCK_MONOTONIC;
	}
	attr.inherit = 1;
	attr.comm = variant->comm;
	attr.mmap = variant->mmap;
	attr.mmap2 = variant->mmap2;
	attr.task = variant->task;
	attr.context_switch = variant->context_switch;
	ASSERT_ERRNO(0, -pc_capture_open_pages(&self->cap, &attr, 0, cpu,
					       variant->sampler ? 0 : PC_CAPTURE_PAGES_LOG2));
	self->a.act = variant->act;
	self->a.ring = &self->cap.ring;
	ASSERT_LT(0, pc_work_fn_in_thread(thread_act, &self->a));	/* warm */
	self->main = enable_for(_metadata, &self->cap, 0, cpu);
	self->tid = pc_work_fn_in_thread(thread_act, &self->a);
	disable_and_read(_metadata, &self->cap, &self->main);
	ASSERT_LT(0, self->tid) TH_LOG("%s", pc_errno_name(-self->tid));
	ASSERT_ERRNO(0, -self->a.err);
	ASSERT_NE(getpid(), self->tid);
	self->main.inherited = true;
	self->thread = self->main;
	self->thread.tid = (uint32_t)self->tid;
}
FIXTURE_TEARDOWN(thread) { pc_capture_close(&self->cap); }

/*
 * FORK of the thread (its own tid field the thread's): written by the
 * main thread in clone(), through the event itself, so its trailer is
 * the main thread's.
 */
static void expect_fork(struct __test_metadata *_metadata, FIXTURE_DATA(thread) *self)
{
	const struct pc_record *r = pc_find_tid(&self->cap, PERF_RECORD_FORK, self->tid, 0);

	ASSERT_NE(NULL, r) TH_LOG("no FORK record of thread %d", self->tid);
	EXPECT_EQ((uint32_t)getpid(), r->task.pid);
	EXPECT_EQ((uint32_t)getpid(), r->task.ppid);
	EXPECT_EQ((uint32_t)gettid(), r->task.ptid);
	expect_trailer(_metadata, &self->cap, r, ALL_ID_BITS, &self->main);
}

/*
 * SWITCH names no task but in its trailer: every one names this process
 * and either thread, each with the rest of its trailer right, and the
 * thread's own at least for its first switch in. (Its two sleeps usually
 * add four, but a sleep whose timer fires before the thread gets to
 * schedule, its vCPU held up by a busy host, switches nothing.)
 */
static void expect_switches(struct __test_metadata *_metadata, FIXTURE_DATA(thread) *self)
{
	size_t n = pc_capture_count(&self->cap, PERF_RECORD_SWITCH), of_thread = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pc_record *r = pc_capture_find(&self->cap, PERF_RECORD_SWITCH, i);

		if (r->sample_id.tid == (uint32_t)self->tid) {
			of_thread++;
			expect_trailer(_metadata, &self->cap, r, ALL_ID_BITS, &self->thread);
		} else {
			EXPECT_EQ((uint32_t)gettid(), r->sample_id.tid) TH_LOG("SWITCH %zu of %zu", i, n);
			expect_trailer(_metadata, &self->cap, r, ALL_ID_BITS, &self->main);
		}
	}
	EXPECT_LE(1, of_thread) TH_LOG("%zu SWITCH records, %zu name thread %d", n, of_thread, self->tid);
}

/* LOST: every one written by the thread, about the event opened. */
static void expect_lost(struct __test_metadata *_metadata, FIXTURE_DATA(thread) *self)
{
	size_t n = pc_capture_count(&self->cap, PERF_RECORD_LOST);

	ASSERT_NE(0, n) TH_LOG("the thread's faults overflowed no ring");
	for (size_t i = 0; i < n; i++) {
		const struct pc_record *r = pc_capture_find(&self->cap, PERF_RECORD_LOST, i);

		EXPECT_EQ(self->thread.id, r->lost.id);
		EXPECT_LT(0, r->lost.lost);
		expect_trailer(_metadata, &self->cap, r, ALL_ID_BITS, &self->thread);
	}
}

/* COMM, MMAP, MMAP2, EXIT: the record's own pid and tid, and its trailer, the thread's. */
static void expect_thread_record(struct __test_metadata *_metadata, FIXTURE_DATA(thread) *self,
				 uint32_t type)
{
	const struct pc_record *r;
	uint32_t pid, tid;

	if (type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) {
		r = pc_find_mmap(&self->cap, self->a.map.path, 0);
		ASSERT_NE(NULL, r) TH_LOG("no record of %s", self->a.map.path);
		EXPECT_EQ(type, r->type);
		pid = r->type == PERF_RECORD_MMAP ? r->mmap.pid : r->mmap2.pid;
		tid = r->type == PERF_RECORD_MMAP ? r->mmap.tid : r->mmap2.tid;
	} else {
		r = pc_find_tid(&self->cap, type, self->tid, 0);
		ASSERT_NE(NULL, r) TH_LOG("no %s record of thread %d", pc_abi_record_name(type), self->tid);
		pid = type == PERF_RECORD_COMM ? r->comm.pid : r->task.pid;
		tid = type == PERF_RECORD_COMM ? r->comm.tid : r->task.tid;
		if (type == PERF_RECORD_COMM)
			EXPECT_STREQ(NAME, r->comm.comm);
	}
	EXPECT_EQ((uint32_t)getpid(), pid);
	EXPECT_EQ((uint32_t)self->tid, tid);
	expect_trailer(_metadata, &self->cap, r, ALL_ID_BITS, &self->thread);
}

TEST_F(thread, trailer_names_its_writer)
{
	if (variant->type == PERF_RECORD_FORK)
		expect_fork(_metadata, self);
	else if (variant->type == PERF_RECORD_SWITCH)
		expect_switches(_metadata, self);
	else if (variant->type == PERF_RECORD_LOST)
		expect_lost(_metadata, self);
	else
		expect_thread_record(_metadata, self, variant->type);
}

TEST_HARNESS_MAIN
