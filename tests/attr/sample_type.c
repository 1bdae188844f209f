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
 * starts in user context at that IP, and RAW tracepoint data.
 */
#include <ctype.h>
#include <stdio.h>
#include <sys/syscall.h>

#include "perfconf.h"
#include "work/affinity.h"
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

/*
 * Each bit alone: the outcome is pinned per bit; an accepted bit writes
 * one decodable sample per fault. The bits a software event has data for
 * since 2.6.31/3.12 must be accepted; a branch stack is EOPNOTSUPP below.
 */
TEST(each_known_bit_alone)
{
	const uint64_t must_accept = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_ADDR | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ID |
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_RAW |
		PERF_SAMPLE_IDENTIFIER;

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
		pc_faults_enabled(&f, cap.fd, 2);
		pc_faults_unmap(&f);
		EXPECT_LE(0, pc_capture_read(&cap)) TH_LOG("PERF_SAMPLE_%s: %s", b->name, cap.error);
		EXPECT_EQ(2, pc_capture_count(&cap, PERF_RECORD_SAMPLE)) TH_LOG("PERF_SAMPLE_%s", b->name);
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

/* CPU is the one the task runs on (pinned there); TIME never goes back. */
TEST(cpu_and_time)
{
	struct perfconf_attr attr = fault_attr(PERF_SAMPLE_TIME | PERF_SAMPLE_CPU);
	struct pc_capture cap;
	struct pc_faults f;
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu);
	sample_each_fault(_metadata, &cap, &attr, &f, 8);
	uint64_t last = 0;
	for (size_t k = 0; k < 8; k++) {
		const struct pc_sample *s = sample(&cap, k);

		EXPECT_EQ(cpu, s->cpu);
		EXPECT_EQ(0, s->res);
		EXPECT_NE(0, s->time);
		EXPECT_LE(last, s->time) TH_LOG("sample %zu: time went back", k);
		last = s->time;
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
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
	ASSERT_EQ(0, pc_enable(cap.fd));
	for (int i = 0; i < 3; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(3, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
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
