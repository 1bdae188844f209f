// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_LOST { id, lost } and its sample_id trailer: when the ring
 * buffer has no room for a record, the record is dropped and counted; the
 * next record that does fit is preceded by one LOST record giving the
 * number dropped since the last one, and naming the event that lost them
 * (id, and the trailer with sample_id_all). Nothing is written while the
 * ring stays full: the loss is reported only once the reader has made room
 * and the event writes again. Since 6.0, read_format PERF_FORMAT_LOST
 * reports the same number through read().
 *
 * In the kernel (6.12 kernel/events/ring_buffer.c): __perf_output_begin
 * (line 150) finds no space (line 215), adds one to rb->lost and to the
 * event's lost_samples (line 270, "fail"), and writes nothing. A later
 * output that finds rb->lost set (line 185, have_lost) takes room for the
 * LOST record as well, writes it first with the event's
 * primary_event_id and the count it takes from rb->lost (line 248,
 * local_xchg), and its own id sample (perf_event__output_id_sample). The
 * same since 2.6.31 (5.10 and 6.1 too); lost_samples and PERF_FORMAT_LOST
 * since 6.0 (commit 119a784c8127).
 *
 * Counted with this task's user-mode page faults: a sampler with a ring of
 * one data page (a sample is 24 bytes: a 4 KiB page holds at most 170),
 * and an independent counter of the same faults.
 */
#include "perfconf.h"

#include <sys/syscall.h>

#include "ring/capture.h"
#include "work/faults.h"
#include "work/mapping.h"
#include "work/measure.h"

#define LOST_BIT (1ULL << 4)	/* PERF_FORMAT_LOST, since 6.0 */
#define FAULTS pc_scaled_to_page(400)	/* more than one page of 24-byte samples */
#define AFTER 3			/* faults after the ring was drained */

/* read(2) of a lone event with read_format LOST: { value, lost }. */
static int read_lost(int fd, uint64_t *value, uint64_t *lost)
{
	uint64_t buf[2];

	if (read(fd, buf, sizeof(buf)) != sizeof(buf))
		return -EIO;
	*value = buf[0];
	*lost = buf[1];
	return 0;
}

FIXTURE(global) {
	struct pc_capture cap;
	struct pc_faults f;
	int counter;
	uint64_t id;
	bool format_lost;
};

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(PERF_COUNT_SW_PAGE_FAULTS);
	struct perfconf_attr count = pc_attr_user_faults();

	self->cap.fd = -1;
	self->counter = -1;
	self->f.base = NULL;
	attr.read_format = LOST_BIT;
	self->format_lost = pc_open_errno(&attr, 0, -1, -1, 0) == 0;
	if (!self->format_lost)
		attr.read_format = 0;
	ASSERT_EQ(0, pc_faults_map(&self->f, 2 * FAULTS));
	ASSERT_ERRNO(0, -pc_capture_open_pages(&self->cap, &attr, 0, -1, 0));
	self->id = pc_event_id(self->cap.fd);
	self->counter = pc_open(&count, 0, -1, -1, 0);
	ASSERT_OPEN(self->counter);
}

FIXTURE_TEARDOWN(global)
{
	if (self->counter >= 0)
		close(self->counter);
	if (self->cap.fd >= 0)
		pc_capture_close(&self->cap);
	if (self->f.base)
		pc_faults_unmap(&self->f);
}

/* The LOST record's id, size and trailer name this event and this task. */
static void check_lost_record(struct __test_metadata *_metadata, const struct pc_record *lost,
			      uint64_t id)
{
	EXPECT_EQ(id, lost->lost.id);
	EXPECT_EQ(0, lost->misc);
	EXPECT_EQ(8 + 16 + 16, lost->size);	/* header, {id, lost}, trailer {tid, identifier} */
	EXPECT_TRUE(lost->sample_id.present);
	EXPECT_EQ(id, lost->sample_id.id);
	EXPECT_EQ((uint32_t)getpid(), lost->sample_id.pid);
	EXPECT_EQ((uint32_t)syscall(SYS_gettid), lost->sample_id.tid);
}

/*
 * FAULTS faults into a ring that holds fewer, unread: the ring keeps what
 * fit and says nothing yet. Drained, AFTER more faults: the first record
 * is one LOST whose count is exactly the faults that have no sample (the
 * counter's count less the samples kept), then the AFTER samples.
 */
TEST_F(global, lost_counts_the_missing_samples)
{
	const int fds[2] = { self->counter, self->cap.fd };
	const struct pc_record *lost;
	uint64_t faults, kept, value, nlost;

	ASSERT_EQ(0, pc_faults_enabled_all(&self->f, fds, 2, FAULTS));
	ASSERT_CAPTURE_READ(&self->cap);
	faults = pc_count_of(self->counter);
	ASSERT_EQ(FAULTS, faults);
	kept = pc_capture_samples_of(&self->cap, self->id, 0);
	EXPECT_EQ(kept, pc_capture_count(&self->cap, PERF_RECORD_SAMPLE));
	ASSERT_GT(FAULTS, kept) TH_LOG("one data page held every sample");
	ASSERT_LT(0, kept);
	EXPECT_EQ(0, pc_capture_count(&self->cap, PERF_RECORD_LOST))
		TH_LOG("a LOST record while the ring was still full");
	if (self->format_lost) {
		ASSERT_EQ(0, read_lost(self->cap.fd, &value, &nlost));
		EXPECT_EQ(FAULTS, value);
		EXPECT_EQ(FAULTS - kept, nlost) TH_LOG("PERF_FORMAT_LOST");
	}

	/* the ring is drained now: the next sample brings the LOST record */
	ASSERT_EQ(0, pc_faults_enabled_all(&self->f, fds, 2, AFTER));
	ASSERT_CAPTURE_READ(&self->cap);
	EXPECT_EQ(FAULTS + AFTER, pc_count_of(self->counter));
	EXPECT_EQ(kept + AFTER, pc_capture_samples_of(&self->cap, self->id, 0));
	ASSERT_EQ(1, pc_capture_count(&self->cap, PERF_RECORD_LOST));
	lost = pc_capture_find(&self->cap, PERF_RECORD_LOST, 0);
	EXPECT_EQ(faults - kept, lost->lost.lost)
		TH_LOG("%llu faults, %llu samples kept", (unsigned long long)faults,
		       (unsigned long long)kept);
	EXPECT_EQ((long)kept, pc_capture_index(&self->cap, lost)) TH_LOG("LOST is not the first new record");
	check_lost_record(_metadata, lost, self->id);
	if (self->format_lost) {
		/* the event's own count of lost samples is not reset by the record */
		ASSERT_EQ(0, read_lost(self->cap.fd, &value, &nlost));
		EXPECT_EQ(FAULTS - kept, nlost);
	}
	DEPENDS_ON("page_size");	/* what one page holds */
	pc_observe("lost.samples_in_one_page", "%llu", (unsigned long long)kept);
}

/*
 * Two rounds of losses, drained between: each LOST record counts only the
 * samples lost since the previous one, and together they are every sample
 * missing.
 */
TEST_F(global, each_lost_record_counts_since_the_last)
{
	const int fds[2] = { self->counter, self->cap.fd };
	uint64_t kept1, kept2;

	ASSERT_EQ(0, pc_faults_enabled_all(&self->f, fds, 2, FAULTS / 2));
	ASSERT_CAPTURE_READ(&self->cap);
	kept1 = pc_capture_samples_of(&self->cap, self->id, 0);
	ASSERT_GT(FAULTS / 2, kept1);
	ASSERT_EQ(0, pc_faults_enabled_all(&self->f, fds, 2, FAULTS / 2));
	ASSERT_CAPTURE_READ(&self->cap);
	kept2 = pc_capture_samples_of(&self->cap, self->id, 0) - kept1;
	ASSERT_EQ(1, pc_capture_count(&self->cap, PERF_RECORD_LOST));
	EXPECT_EQ(FAULTS / 2 - kept1, pc_capture_find(&self->cap, PERF_RECORD_LOST, 0)->lost.lost);
	/* the second round: its first sample came after the LOST record, and lost the rest */
	ASSERT_GT(FAULTS / 2, kept2);
	ASSERT_EQ(0, pc_faults_enabled_all(&self->f, fds, 2, 1));
	ASSERT_CAPTURE_READ(&self->cap);
	ASSERT_EQ(2, pc_capture_count(&self->cap, PERF_RECORD_LOST));
	EXPECT_EQ(FAULTS / 2 - kept2, pc_capture_find(&self->cap, PERF_RECORD_LOST, 1)->lost.lost);
	check_lost_record(_metadata, pc_capture_find(&self->cap, PERF_RECORD_LOST, 1), self->id);
	EXPECT_EQ(FAULTS + 1, pc_count_of(self->counter));
	EXPECT_EQ(FAULTS + 1, pc_capture_samples_of(&self->cap, self->id, 0) +
			      pc_capture_lost_total(&self->cap));
}

/* The control: a ring with room for every sample has no LOST record. */
TEST_F(global, no_lost_record_when_nothing_is_lost)
{
	const int fds[2] = { self->counter, self->cap.fd };

	ASSERT_EQ(0, pc_faults_enabled_all(&self->f, fds, 2, 10));
	ASSERT_CAPTURE_READ(&self->cap);
	EXPECT_EQ(10, pc_count_of(self->counter));
	EXPECT_EQ(10, pc_capture_samples_of(&self->cap, self->id, 0));
	EXPECT_EQ(0, pc_capture_count(&self->cap, PERF_RECORD_LOST));
}

TEST_HARNESS_MAIN
