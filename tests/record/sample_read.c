// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_SAMPLE_READ: each sample carries the counter values as read(2)
 * would return them at that moment, laid out by the sampling event's
 * read_format (perf_event_open(2), "MMAP layout", the read_format field of
 * PERF_RECORD_SAMPLE). Without PERF_FORMAT_GROUP that is the event's own
 * { value, time_enabled?, time_running?, id?, lost? }; with it { nr,
 * time_enabled?, time_running?, { value, id?, lost? }[nr] }, the leader
 * first, then the siblings in the order they joined, whichever member
 * took the sample. The ids are those PERF_EVENT_IOC_ID gives, the times
 * those of the event that sampled, and lost (PERF_FORMAT_LOST, since 6.0)
 * the samples that event could not write.
 *
 * kernel/events/core.c (6.12): perf_output_read() (line 7512) takes the
 * times with calc_timer_values() at the sample, then
 * perf_output_read_one() (line 7419) or perf_output_read_group() (line
 * 7444), which reads every member's count as it stands. A software
 * event's count moves only when it fires, so the values are exact:
 *  - PERF_COUNT_SW_PAGE_FAULTS is counted as a fault enters the arch
 *    handler (arch/x86/mm/fault.c:1283, arch/arm64/mm/fault.c:591);
 *  - PERF_COUNT_SW_PAGE_FAULTS_MIN when handle_mm_fault() has handled it
 *    (mm/memory.c:6006, mm_account_fault(), since 5.9).
 * So at the k-th minor-fault sample both counters read k; at the k-th
 * PAGE_FAULTS sample the minor counter still reads k - 1. A software
 * group never multiplexes: time_enabled and time_running are equal.
 *
 * PERF_SAMPLE_READ with inherit was refused (EINVAL, perf_event_alloc())
 * from 4.13 to 6.11; since 6.12 (core.c:12425) it is accepted only with
 * PERF_SAMPLE_TID, each sample reading the counts of the thread that took
 * it. Without TID it is refused on every kernel this suite runs on.
 *
 * Every sample is checked against a read(2) of the same event after the
 * run: nothing happens after the last sample but the disable, so the
 * values are the same, and the times cannot be smaller.
 */
#include "perfconf.h"
#include "work/affinity.h"
#include "work/faults.h"

#define N 24
#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define LOST_BIT (1ULL << 4)	/* PERF_FORMAT_LOST, in the ABI table since 6.0 */
#define MAX_MEMBERS 3

/* Does this kernel know PERF_FORMAT_LOST (6.0+)? Observed as "format_lost". */
static uint64_t lost_bit(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

	attr.read_format = LOST_BIT;
	int err = pc_open_errno(&attr, 0, -1, -1, 0);

	pc_observe_errno("format_lost", err);
	return err ? 0 : LOST_BIT;
}

/*
 * A sampler of this task's user-mode faults (one sample per fault, each
 * naming its event by PERF_SAMPLE_IDENTIFIER) that reads rf in its samples.
 */
static struct perfconf_attr read_sampler(uint64_t config, uint64_t rf)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(config);

	attr.sample_type |= PERF_SAMPLE_READ;
	attr.read_format = rf;
	return attr;
}

/* A counter of this task's user-mode faults of config, read as rf. */
static struct perfconf_attr read_counter(uint64_t config, uint64_t rf)
{
	struct perfconf_attr attr = pc_attr_user_faults();

	attr.config = config;
	attr.read_format = rf;
	return attr;
}

/*
 * A capture whose event joins the group of group_fd (-1: a leader, opened
 * disabled; a sibling follows its leader). pc_capture_open() with a
 * group_fd; a candidate for ring/capture.h as
 * int pc_capture_open_member(struct pc_capture *, struct perfconf_attr *, int group_fd).
 */
static int capture_open_member(struct pc_capture *c, struct perfconf_attr *attr, int group_fd)
{
	memset(c, 0, sizeof(*c));
	attr->disabled = group_fd < 0;
	c->fmt = pc_sample_format(attr);
	c->fd = pc_open(attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (c->fd < 0) {
		int err = c->fd;

		c->fd = -1;
		return err;
	}
	int err = pc_ring_map(&c->ring, c->fd, PC_CAPTURE_PAGES_LOG2, PC_RING_READWRITE);

	if (err) {
		close(c->fd);
		c->fd = -1;
	}
	return err;
}

/* read(2) of fd as rf with nr members: exactly the documented size, decoded. */
static void read_values(struct __test_metadata *_metadata, int fd, uint64_t rf, unsigned int nr,
			struct pc_read_values *v)
{
	uint64_t buf[64];
	const char *err = NULL;
	size_t size = pc_read_values_size(rf, nr);

	memset(v, 0, sizeof(*v));
	ASSERT_EQ((ssize_t)size, read(fd, buf, sizeof(buf))) TH_LOG("read_format %#llx", (unsigned long long)rf);
	ASSERT_EQ((int)size, pc_read_values_decode(rf, buf, size, v, &err)) TH_LOG("%s", err);
}

/*
 * The times of one sample (or read) against the one before it: present
 * ones positive and never smaller, equal to each other where both are
 * asked for (software events never multiplex).
 */
static void check_times(struct __test_metadata *_metadata, uint64_t rf, const struct pc_read_values *prev,
			const struct pc_read_values *cur, const char *what, size_t k)
{
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) {
		EXPECT_LT(0, cur->time_enabled) TH_LOG("%s %zu, read_format %#llx", what, k, (unsigned long long)rf);
		EXPECT_LE(prev->time_enabled, cur->time_enabled)
			TH_LOG("%s %zu, read_format %#llx: time_enabled went back", what, k, (unsigned long long)rf);
	}
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) {
		EXPECT_LT(0, cur->time_running) TH_LOG("%s %zu, read_format %#llx", what, k, (unsigned long long)rf);
		EXPECT_LE(prev->time_running, cur->time_running)
			TH_LOG("%s %zu, read_format %#llx: time_running went back", what, k, (unsigned long long)rf);
	}
	if ((rf & TIMES) == TIMES) {
		EXPECT_EQ(cur->time_enabled, cur->time_running)
			TH_LOG("%s %zu, read_format %#llx", what, k, (unsigned long long)rf);
	}
}

/*
 * The values of a sample or read: member i has expected[i], the id of
 * fds[i] and nothing lost.
 */
static void check_values(struct __test_metadata *_metadata, uint64_t rf, const struct pc_read_values *v,
			 unsigned int nr, const uint64_t *expected, const int *fds, const char *what, size_t k)
{
	ASSERT_EQ(nr, v->nr) TH_LOG("%s %zu, read_format %#llx", what, k, (unsigned long long)rf);
	for (unsigned int i = 0; i < nr; i++) {
		EXPECT_EQ(expected[i], v->values[i].value)
			TH_LOG("%s %zu, read_format %#llx, member %u", what, k, (unsigned long long)rf, i);
		if (rf & PERF_FORMAT_ID) {
			EXPECT_EQ(pc_event_id(fds[i]), v->values[i].id)
				TH_LOG("%s %zu, read_format %#llx, member %u", what, k, (unsigned long long)rf, i);
		}
		if (rf & LOST_BIT) {
			EXPECT_EQ(0, v->values[i].lost)
				TH_LOG("%s %zu, read_format %#llx, member %u", what, k, (unsigned long long)rf, i);
		}
	}
}

/*
 * The samples of cap, all of its own event: the k-th (from 1) reads
 * expect(k) for each member, with times that never go back. The last one
 * is copied to *last.
 */
typedef void (*expect_fn)(size_t k, uint64_t *expected);

static void check_samples(struct __test_metadata *_metadata, const struct pc_capture *cap, uint64_t rf,
			  unsigned int nr, const int *fds, expect_fn expect, struct pc_read_values *last,
			  const char *what)
{
	struct pc_read_values prev = { 0 };
	uint64_t id = pc_event_id(cap->fd);

	ASSERT_EQ(N, pc_capture_count(cap, PERF_RECORD_SAMPLE)) TH_LOG("%s, read_format %#llx", what,
								       (unsigned long long)rf);
	for (size_t k = 1; k <= N; k++) {
		const struct pc_sample *s = pc_capture_sample(cap, k - 1);
		uint64_t expected[MAX_MEMBERS];

		EXPECT_EQ(id, s->identifier) TH_LOG("%s sample %zu", what, k);
		EXPECT_EQ((uint32_t)getpid(), s->pid);
		expect(k, expected);
		check_values(_metadata, rf, &s->read, nr, expected, fds, what, k);
		check_times(_metadata, rf, &prev, &s->read, what, k);
		prev = s->read;
	}
	*last = prev;
}

/* Alone, or leader of [minor faults, faults, major faults]: at minor fault k, all read k, major 0. */
static void at_minor_fault(size_t k, uint64_t *expected)
{
	expected[0] = k;
	expected[1] = k;
	expected[2] = 0;
}

/* At PAGE_FAULTS k the same group reads k - 1 minor faults: the k-th is not accounted yet. */
static void at_fault_entry(size_t k, uint64_t *expected)
{
	expected[0] = k - 1;
	expected[1] = k;
	expected[2] = 0;
}

/*
 * The last sample against the read(2) after the run: the same values (the
 * disable comes after the last fault), and times no smaller.
 */
static void check_against_read(struct __test_metadata *_metadata, uint64_t rf, const struct pc_read_values *last,
			       const struct pc_read_values *rd, unsigned int nr, const uint64_t *expected,
			       const int *fds)
{
	check_values(_metadata, rf, rd, nr, expected, fds, "read after", N);
	check_times(_metadata, rf, last, rd, "read after", N);
}

/*
 * A lone minor-fault sampler, every read_format without GROUP: the k-th
 * sample reads k, its own id, nothing lost, and times that grow; the read
 * after the run gives the last sample's value.
 */
TEST(lone_event_reads_its_count)
{
	uint64_t bits = TIMES | PERF_FORMAT_ID | lost_bit();
	struct pc_faults f;

	ASSERT_EQ(0, pc_faults_map(&f, (1 + N) * 16));
	for (uint64_t rf = 0; rf <= bits; rf++) {
		struct perfconf_attr attr = read_sampler(PERF_COUNT_SW_PAGE_FAULTS_MIN, rf);
		struct pc_read_values last, rd;
		struct pc_capture cap;

		if (rf & ~bits)
			continue;
		ASSERT_ERRNO(0, -capture_open_member(&cap, &attr, -1)) TH_LOG("read_format %#llx",
									     (unsigned long long)rf);
		ASSERT_EQ(0, pc_faults_enabled_timed(&f, cap.fd, N));
		ASSERT_CAPTURE_READ(&cap);
		check_samples(_metadata, &cap, rf, 1, &cap.fd, at_minor_fault, &last, "sample");
		read_values(_metadata, cap.fd, rf, 1, &rd);
		const uint64_t expected[1] = { N };
		check_against_read(_metadata, rf, &last, &rd, 1, expected, &cap.fd);
		pc_capture_close(&cap);
	}
	pc_faults_unmap(&f);
}

/*
 * A minor-fault sampler leading a PAGE_FAULTS counter and a
 * PAGE_FAULTS_MAJ counter, every read_format with GROUP: the k-th sample
 * reads { k, k, 0 } with the three ids, leader first; the group's read
 * after the run is the last sample's values.
 */
TEST(group_leader_samples_read_every_member)
{
	uint64_t bits = PERF_FORMAT_GROUP | TIMES | PERF_FORMAT_ID | lost_bit();
	struct pc_faults f;

	ASSERT_EQ(0, pc_faults_map(&f, (1 + N) * 16));
	for (uint64_t rf = PERF_FORMAT_GROUP; rf <= bits; rf++) {
		struct perfconf_attr attr = read_sampler(PERF_COUNT_SW_PAGE_FAULTS_MIN, rf);
		struct pc_read_values last, rd;
		struct pc_capture cap;
		int fds[MAX_MEMBERS];

		if ((rf & ~bits) || !(rf & PERF_FORMAT_GROUP))
			continue;
		ASSERT_ERRNO(0, -capture_open_member(&cap, &attr, -1));
		fds[0] = cap.fd;
		struct perfconf_attr faults = read_counter(PERF_COUNT_SW_PAGE_FAULTS, rf);
		struct perfconf_attr major = read_counter(PERF_COUNT_SW_PAGE_FAULTS_MAJ, rf);
		faults.disabled = major.disabled = 0;
		fds[1] = pc_open(&faults, 0, -1, fds[0], PERF_FLAG_FD_CLOEXEC);
		ASSERT_OPEN(fds[1]);
		fds[2] = pc_open(&major, 0, -1, fds[0], PERF_FLAG_FD_CLOEXEC);
		ASSERT_OPEN(fds[2]);

		ASSERT_EQ(0, pc_faults_enabled_timed(&f, fds[0], N));
		ASSERT_CAPTURE_READ(&cap);
		check_samples(_metadata, &cap, rf, MAX_MEMBERS, fds, at_minor_fault, &last, "leader sample");
		read_values(_metadata, fds[0], rf, MAX_MEMBERS, &rd);
		uint64_t expected[MAX_MEMBERS];
		at_minor_fault(N, expected);
		check_against_read(_metadata, rf, &last, &rd, MAX_MEMBERS, expected, fds);
		close(fds[2]);
		close(fds[1]);
		pc_capture_close(&cap);
	}
	pc_faults_unmap(&f);
}

/*
 * The sibling samples too (PAGE_FAULTS, a ring of its own), with the same
 * read_format: its k-th sample reads the group as it stands at the fault's
 * entry, { k - 1, k, 0 }, with its own times; the leader's samples are
 * unchanged. Read through the sibling after the run, the group gives the
 * leader's last sample's values; the sibling's last sample saw one minor
 * fault fewer.
 */
TEST(sibling_samples_read_the_group)
{
	uint64_t rf = PERF_FORMAT_GROUP | TIMES | PERF_FORMAT_ID | lost_bit();
	struct perfconf_attr lattr = read_sampler(PERF_COUNT_SW_PAGE_FAULTS_MIN, rf);
	struct perfconf_attr sattr = read_sampler(PERF_COUNT_SW_PAGE_FAULTS, rf);
	struct perfconf_attr major = read_counter(PERF_COUNT_SW_PAGE_FAULTS_MAJ, rf);
	struct pc_read_values llast, slast, rd;
	struct pc_capture leader, sibling;
	struct pc_faults f;
	int fds[MAX_MEMBERS];

	ASSERT_EQ(0, pc_faults_map(&f, 1 + N));
	ASSERT_ERRNO(0, -capture_open_member(&leader, &lattr, -1));
	ASSERT_ERRNO(0, -capture_open_member(&sibling, &sattr, leader.fd));
	major.disabled = 0;
	fds[0] = leader.fd;
	fds[1] = sibling.fd;
	fds[2] = pc_open(&major, 0, -1, fds[0], PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fds[2]);

	ASSERT_EQ(0, pc_faults_enabled_timed(&f, fds[0], N));
	ASSERT_CAPTURE_READ(&leader);
	ASSERT_CAPTURE_READ(&sibling);
	check_samples(_metadata, &leader, rf, MAX_MEMBERS, fds, at_minor_fault, &llast, "leader sample");
	check_samples(_metadata, &sibling, rf, MAX_MEMBERS, fds, at_fault_entry, &slast, "sibling sample");

	uint64_t expected[MAX_MEMBERS];
	at_minor_fault(N, expected);
	read_values(_metadata, fds[1], rf, MAX_MEMBERS, &rd);
	check_values(_metadata, rf, &rd, MAX_MEMBERS, expected, fds, "read through the sibling", N);
	/* A group read carries the leader's times, whichever member is read. */
	check_times(_metadata, rf, &llast, &rd, "read through the sibling", N);
	EXPECT_EQ(llast.values[0].value, rd.values[0].value);
	EXPECT_EQ(slast.values[0].value + 1, rd.values[0].value);
	EXPECT_EQ(slast.values[1].value, rd.values[1].value);

	close(fds[2]);
	pc_capture_close(&sibling);
	pc_capture_close(&leader);
	pc_faults_unmap(&f);
}

/*
 * inherit with PERF_SAMPLE_READ and a group read_format: refused without
 * PERF_SAMPLE_TID on every kernel; the controls open (the same event
 * without inherit; inherit without PERF_SAMPLE_READ). With TID the outcome
 * is pinned (EINVAL before 6.12, accepted since). Where accepted, the
 * parent's own samples read its own group counts exactly, { k, k }.
 * (tests/attr/inherit.c sample_read checks a child's per-thread counts.)
 */
TEST(inherit_group_read_needs_tid)
{
	const uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	struct perfconf_attr attr = read_sampler(PERF_COUNT_SW_PAGE_FAULTS_MIN, rf);

	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_READ;
	attr.inherit = 1;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("inherit, SAMPLE_READ, no TID");
	attr.inherit = 0;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("the control: no inherit");
	attr.inherit = 1;
	attr.sample_type &= ~(uint64_t)PERF_SAMPLE_READ;
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("the control: no SAMPLE_READ");

	attr.sample_type |= PERF_SAMPLE_READ | PERF_SAMPLE_TID;
	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	pc_observe_errno("errno.with_tid", err);
	if (err)
		SKIP(return, "inherit with PERF_SAMPLE_READ refused even with TID (%s)", pc_errno_name(err));

	/* The ring of an inherited event must be per-CPU: pin to one. */
	int cpu = pc_pin_self();
	ASSERT_LE(0, cpu);
	struct pc_capture cap;
	struct pc_faults f;
	struct pc_read_values last, rd;
	int fds[2];

	ASSERT_EQ(0, pc_faults_map(&f, 1 + N));
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, cpu));
	struct perfconf_attr faults = read_counter(PERF_COUNT_SW_PAGE_FAULTS, rf);
	faults.disabled = 0;
	faults.inherit = 1;
	fds[0] = cap.fd;
	fds[1] = pc_open(&faults, 0, cpu, fds[0], PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fds[1]);
	ASSERT_EQ(0, pc_faults_enabled_timed(&f, fds[0], N));
	ASSERT_CAPTURE_READ(&cap);
	check_samples(_metadata, &cap, rf, 2, fds, at_minor_fault, &last, "inherited sample");
	read_values(_metadata, fds[0], rf, 2, &rd);
	const uint64_t expected[2] = { N, N };
	check_against_read(_metadata, rf, &last, &rd, 2, expected, fds);
	close(fds[1]);
	pc_capture_close(&cap);
	pc_faults_unmap(&f);
}

TEST_HARNESS_MAIN
