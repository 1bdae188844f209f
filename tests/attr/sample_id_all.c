// SPDX-License-Identifier: GPL-2.0
/*
 * sample_id_all (since Linux 2.6.38): "If set, then TID, TIME, ID,
 * STREAM_ID, and CPU can additionally be included in non-PERF_RECORD_SAMPLEs
 * if the corresponding sample_type is selected. If PERF_SAMPLE_IDENTIFIER
 * is specified, then an additional ID value is included as the last value."
 *
 *	struct sample_id {
 *		{ u32 pid, tid; }	if PERF_SAMPLE_TID
 *		{ u64 time;     }	if PERF_SAMPLE_TIME
 *		{ u64 id;       }	if PERF_SAMPLE_ID
 *		{ u64 stream_id;}	if PERF_SAMPLE_STREAM_ID
 *		{ u32 cpu, res; }	if PERF_SAMPLE_CPU
 *		{ u64 id;       }	if PERF_SAMPLE_IDENTIFIER
 *	};
 *
 * It is "stashed just after ... the fields already present", at the end
 * of the record; its fields describe where and when the record was
 * written: the task writing it, the event's id (PERF_EVENT_IOC_ID, also
 * for the records of an inherited copy of the event), the CPU, the time in
 * the event's clock.
 *
 * STREAM_ID is the id of the event structure that wrote the record. For an
 * inherited event that is not stable: when parent and child run on one
 * CPU, the kernel swaps their (identical) contexts at a context switch
 * instead of switching events, so a child's records may come through the
 * parent's own event and the parent's through the child's copy. Only a
 * non-inherited event's STREAM_ID is checked (it equals its ID).
 */
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <time.h>

#include "perfconf.h"
#include "work/affinity.h"
#include "work/mapping.h"
#include "ring/sideband.h"
#include "sampling_child.h"

#define ALL_ID_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
		     PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
#define NAME "pc-sample-id"
/* header, pid, tid and the name padded to 8 bytes */
#define COMM_SIZE (8 + 8 + ((sizeof(NAME) + 7) / 8 * 8))

static struct perfconf_attr comm_attr(uint64_t sample_type, int sample_id_all)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.comm = 1;
	attr.sample_type = sample_type;
	attr.sample_id_all = sample_id_all;
	return attr;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Rename this task with the event enabled; the COMM record, or NULL. */
static const struct pc_record *renamed(struct __test_metadata *_metadata, struct pc_capture *cap)
{
	ASSERT_EQ(0, pc_enable(cap->fd));
	ASSERT_EQ(0, pc_work_set_comm(NAME));
	ASSERT_EQ(0, pc_disable(cap->fd));
	ASSERT_CAPTURE_READ(cap);
	return pc_find_tid(cap, PERF_RECORD_COMM, gettid(), 0);
}

TEST(every_field_on_a_comm_record)
{
	struct perfconf_attr attr = comm_attr(ALL_ID_BITS, 1);
	struct pc_capture cap;
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu);
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	uint64_t id = pc_event_id(cap.fd), before = monotonic_ns();
	const struct pc_record *r = renamed(_metadata, &cap);
	uint64_t after = monotonic_ns();

	ASSERT_NE(0, id);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(COMM_SIZE + 6 * 8, r->size);
	EXPECT_STREQ(NAME, r->comm.comm);
	ASSERT_TRUE(r->sample_id.present);
	EXPECT_EQ(getpid(), r->sample_id.pid);
	EXPECT_EQ(gettid(), r->sample_id.tid);
	EXPECT_LE(before, r->sample_id.time);
	EXPECT_GE(after, r->sample_id.time);
	EXPECT_EQ(id, r->sample_id.id);
	EXPECT_EQ(id, r->sample_id.stream_id);
	EXPECT_EQ(cpu, r->sample_id.cpu);
	EXPECT_EQ(0, r->sample_id.res);
	/* IDENTIFIER is the record's last u64 (and ID the third from last here). */
	const unsigned char *raw = pc_capture_bytes(&cap, r);
	uint64_t last, third;
	memcpy(&last, raw + r->size - 8, 8);
	memcpy(&third, raw + r->size - 24, 8);
	EXPECT_EQ(id, last);
	EXPECT_EQ(id, third);
	pc_capture_close(&cap);
}

TEST(absent_without_sample_id_all)
{
	struct perfconf_attr attr = comm_attr(ALL_ID_BITS, 0);
	struct pc_capture cap;

	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	const struct pc_record *r = renamed(_metadata, &cap);

	ASSERT_NE(NULL, r);
	EXPECT_EQ(COMM_SIZE, r->size);
	EXPECT_FALSE(r->sample_id.present);
	pc_capture_close(&cap);
}

/* Only the identity bits of sample_type go into the trailer: here TID alone. */
TEST(only_identity_fields)
{
	struct perfconf_attr attr = comm_attr(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
					      PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC, 1);
	struct pc_capture cap;

	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	const struct pc_record *r = renamed(_metadata, &cap);

	ASSERT_NE(NULL, r);
	EXPECT_EQ(COMM_SIZE + 8, r->size);
	EXPECT_EQ(getpid(), r->sample_id.pid);
	EXPECT_EQ(gettid(), r->sample_id.tid);
	pc_capture_close(&cap);
}

TEST(identifier_alone_is_the_last_word)
{
	struct perfconf_attr attr = comm_attr(PERF_SAMPLE_IDENTIFIER, 1);
	struct pc_capture cap;

	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	uint64_t id = pc_event_id(cap.fd);
	const struct pc_record *r = renamed(_metadata, &cap);

	ASSERT_NE(NULL, r);
	EXPECT_EQ(COMM_SIZE + 8, r->size);
	EXPECT_EQ(id, r->sample_id.id);
	uint64_t last;
	memcpy(&last, pc_capture_bytes(&cap, r) + r->size - 8, 8);
	EXPECT_EQ(id, last);
	pc_capture_close(&cap);
}

/*
 * Every kind of side-band record carries it, naming the task that wrote
 * it: this one (it maps, renames, forks and is switched) and this event.
 */
TEST(on_every_record_type)
{
	struct perfconf_attr attr = comm_attr(PERF_SAMPLE_TID | PERF_SAMPLE_ID, 1);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct pc_file_map m;
	struct pc_capture cap;

	attr.mmap = 1;
	attr.task = 1;
	attr.context_switch = 1;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	uint64_t id = pc_event_id(cap.fd);
	ASSERT_EQ(0, pc_enable(cap.fd));
	int err = pc_map_temp_file(&m, page, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, 0);
	pc_work_set_comm(NAME);
	pid_t child = pc_work_fork_exit(0);
	usleep(1000);		/* sleep: a switch out and back in */
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_ERRNO(0, -err);
	ASSERT_LT(0, child);
	ASSERT_CAPTURE_READ(&cap);
	for (size_t i = 0; i < cap.nr; i++) {
		const struct pc_record *r = &cap.recs[i].rec;

		ASSERT_TRUE(r->sample_id.present);
		EXPECT_EQ(getpid(), r->sample_id.pid) TH_LOG("record %zu, %s", i, pc_abi_record_name(r->type));
		EXPECT_EQ(gettid(), r->sample_id.tid) TH_LOG("record %zu, %s", i, pc_abi_record_name(r->type));
		EXPECT_EQ(id, r->sample_id.id) TH_LOG("record %zu, %s", i, pc_abi_record_name(r->type));
	}
	EXPECT_NE(NULL, pc_find_mmap(&cap, m.path, 0));
	EXPECT_NE(NULL, pc_find_tid(&cap, PERF_RECORD_COMM, gettid(), 0));
	EXPECT_NE(NULL, pc_find_tid(&cap, PERF_RECORD_FORK, child, 0));
	EXPECT_NE(0, pc_capture_count(&cap, PERF_RECORD_SWITCH));
	pc_unmap_guarded(m.addr, m.len);
	pc_capture_close(&cap);
}

/*
 * An inherited event's records from a child: the child's pid and tid, and
 * the id of the event that was opened. (Per CPU, as inherited rings must
 * be: see lib/work/affinity.h.)
 */
TEST(inherited_event_ids)
{
	struct perfconf_attr attr = comm_attr(PERF_SAMPLE_TID | PERF_SAMPLE_ID, 1);
	struct pc_capture cap;

	ASSERT_ERRNO(0, -pc_capture_open_inherited(&cap, &attr));
	uint64_t id = pc_event_id(cap.fd);
	pid_t child = child_recorded(_metadata, &cap, pc_work_in_child, "comm pc-child");
	const struct pc_record *comm = pc_find_tid(&cap, PERF_RECORD_COMM, child, 0);
	const struct pc_record *exit = pc_find_tid(&cap, PERF_RECORD_EXIT, child, 0);
	const struct pc_record *fork = pc_find_tid(&cap, PERF_RECORD_FORK, child, 0);

	ASSERT_NE(NULL, comm);
	ASSERT_NE(NULL, exit);
	ASSERT_NE(NULL, fork);
	/* Written by the child: its rename and its exit. */
	EXPECT_EQ(child, comm->sample_id.pid);
	EXPECT_EQ(child, comm->sample_id.tid);
	EXPECT_EQ(id, comm->sample_id.id);
	EXPECT_EQ(child, exit->sample_id.tid);
	EXPECT_EQ(id, exit->sample_id.id);
	/* Written by this task as it forked. */
	EXPECT_EQ(getpid(), fork->sample_id.pid);
	EXPECT_EQ(gettid(), fork->sample_id.tid);
	EXPECT_EQ(id, fork->sample_id.id);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
