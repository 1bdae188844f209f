// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_PAUSE_OUTPUT (since 4.7): a non-zero argument stops the
 * kernel from writing into the event's ring buffer, 0 lets it write again.
 * The event keeps counting while its output is paused; the records it
 * would have written are dropped and counted as lost, and the first record
 * written after the resume is preceded by a PERF_RECORD_LOST giving their
 * number. An event with no ring buffer is refused with EINVAL.
 *
 * In the kernel (6.12: kernel/events/core.c line 6146, _perf_ioctl; the
 * same code since 4.7, in 5.10 and 6.1 too) the ioctl acts on the ring the
 * event writes to (event->rb): EINVAL when there is none, or when it has
 * no data pages (only the control page mapped). rb_toggle_paused()
 * (internal.h line 73) takes the argument as a truth value.
 * __perf_output_begin() (ring_buffer.c line 178) finds the ring paused,
 * adds one to rb->lost and, since 6.0 (with PERF_FORMAT_LOST), to the
 * event's lost_samples, and writes nothing; the next output that does get
 * written puts the LOST record (the writer's id, the count, its sample_id)
 * first (line 248). A write_backward ring is paused the same way; there
 * the LOST record and the record it comes with share one space taken below
 * the head, the LOST record at its start, so a reader that walks from the
 * head (newest first) meets the LOST record before that record: oldest
 * first, it comes one record later than in a forward ring. A ring
 * is shared by the events redirected into it (PERF_EVENT_IOC_SET_OUTPUT),
 * so pausing through one of them pauses all of them.
 *
 * Counted with page faults of this task in user mode, one sample each.
 */
#include "perfconf.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

#include "work/measure.h"
#include "ring/capture.h"
#include "work/faults.h"

/* Two events that must be told apart count different configs (pc_attr_fault_sampler). */
#define TARGET_FAULTS PERF_COUNT_SW_PAGE_FAULTS
#define SOURCE_FAULTS PERF_COUNT_SW_PAGE_FAULTS_MIN

#define BEFORE 4
#define PAUSED 10
#define AFTER 6

/* ioctl(PERF_EVENT_IOC_PAUSE_OUTPUT, arg): 0, or the errno. */
static int pause_errno(int fd, unsigned long arg)
{
	return ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, arg) ? errno : 0;
}

/* fd enabled: BEFORE faults sampled, then its output paused over PAUSED more. */
static void sample_then_pause(struct __test_metadata *_metadata, int fd, struct pc_faults *f)
{
	ASSERT_EQ(0, pc_enable(fd));
	ASSERT_EQ(BEFORE, pc_faults_next(f, BEFORE));
	ASSERT_ERRNO(0, pause_errno(fd, 1));
	ASSERT_EQ(PAUSED, pc_faults_next(f, PAUSED));
}

FIXTURE(global) {
	struct perfconf_attr attr;
	struct pc_capture cap;
	struct pc_faults f;
	uint64_t id;
};

FIXTURE_VARIANT(global) {
	int backward;	/* write_backward, the ring mapped read-only (overwrite) */
};

FIXTURE_VARIANT_ADD(global, forward) { .backward = 0 };
FIXTURE_VARIANT_ADD(global, backward) { .backward = 1 };

FIXTURE_SETUP(global)
{
	self->cap.fd = -1;
	self->f.base = NULL;
	self->attr = pc_attr_fault_sampler(TARGET_FAULTS);
	self->attr.write_backward = variant->backward;
	ASSERT_EQ(0, pc_faults_map(&self->f, 64));
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &self->attr, 0, -1));
	self->id = pc_event_id(self->cap.fd);
	pc_faults_next(&self->f, 1);	/* the path the faults take is paged in */
	/* and the ioctl's: pausing a disabled event's ring, and resuming it */
	ASSERT_ERRNO(0, pause_errno(self->cap.fd, 1));
	ASSERT_ERRNO(0, pause_errno(self->cap.fd, 0));
}

FIXTURE_TEARDOWN(global)
{
	if (self->cap.fd >= 0)
		pc_capture_close(&self->cap);
	if (self->f.base)
		pc_faults_unmap(&self->f);
}

/*
 * BEFORE faults, PAUSED faults paused, AFTER faults resumed: BEFORE +
 * AFTER samples, and between them one LOST record of exactly PAUSED, with
 * this event's id in its body and in its sample_id. The count goes on.
 */
TEST_F(global, paused_samples_are_one_lost_record)
{
	const struct pc_record *lost;

	sample_then_pause(_metadata, self->cap.fd, &self->f);
	ASSERT_ERRNO(0, pause_errno(self->cap.fd, 0));
	ASSERT_EQ(AFTER, pc_faults_next(&self->f, AFTER));
	ASSERT_EQ(0, pc_disable(self->cap.fd));
	ASSERT_CAPTURE_READ(&self->cap);

	EXPECT_EQ(BEFORE + PAUSED + AFTER, pc_count_of(self->cap.fd));
	EXPECT_EQ(BEFORE + AFTER, pc_capture_samples_of(&self->cap, self->id, 0));
	EXPECT_EQ(BEFORE + AFTER, pc_capture_count(&self->cap, PERF_RECORD_SAMPLE));
	ASSERT_EQ(1, pc_capture_count(&self->cap, PERF_RECORD_LOST));
	lost = pc_capture_find(&self->cap, PERF_RECORD_LOST, 0);
	EXPECT_EQ(PAUSED, lost->lost.lost);
	EXPECT_EQ(self->id, lost->lost.id);
	EXPECT_TRUE(lost->sample_id.present);
	EXPECT_EQ(self->id, lost->sample_id.id);
	/* in a backward ring, after the sample it came with (see above) */
	EXPECT_EQ(BEFORE + variant->backward, pc_capture_index(&self->cap, lost))
		TH_LOG("the LOST record is not between");
}

/*
 * Nothing reports the loss until a record is written: paused, then
 * disabled, the ring holds the samples before the pause alone; after a
 * resume, the next sample brings the LOST record.
 */
TEST_F(global, lost_waits_for_the_next_record)
{
	const struct pc_record *lost;

	sample_then_pause(_metadata, self->cap.fd, &self->f);
	ASSERT_EQ(0, pc_disable(self->cap.fd));
	ASSERT_CAPTURE_READ(&self->cap);
	EXPECT_EQ(BEFORE, pc_capture_count(&self->cap, PERF_RECORD_SAMPLE));
	EXPECT_EQ(0, pc_capture_count(&self->cap, PERF_RECORD_LOST));

	ASSERT_ERRNO(0, pause_errno(self->cap.fd, 0));
	ASSERT_EQ(0, pc_enable(self->cap.fd));
	ASSERT_EQ(1, pc_faults_next(&self->f, 1));
	ASSERT_EQ(0, pc_disable(self->cap.fd));
	ASSERT_CAPTURE_READ(&self->cap);
	/* a forward capture keeps adding; a backward one is a snapshot of the whole ring */
	EXPECT_EQ(BEFORE + 1, pc_capture_count(&self->cap, PERF_RECORD_SAMPLE));
	ASSERT_EQ(1, pc_capture_count(&self->cap, PERF_RECORD_LOST));
	lost = pc_capture_find(&self->cap, PERF_RECORD_LOST, 0);
	EXPECT_EQ(PAUSED, lost->lost.lost);
	EXPECT_EQ(BEFORE + variant->backward, pc_capture_index(&self->cap, lost));
}

/* Any non-zero argument pauses, and pausing twice changes nothing: one LOST for all. */
TEST_F(global, any_nonzero_argument_pauses)
{
	ASSERT_EQ(0, pc_enable(self->cap.fd));
	ASSERT_ERRNO(0, pause_errno(self->cap.fd, 2));
	ASSERT_EQ(PAUSED, pc_faults_next(&self->f, PAUSED));
	ASSERT_ERRNO(0, pause_errno(self->cap.fd, 0x100));
	ASSERT_EQ(PAUSED, pc_faults_next(&self->f, PAUSED));
	ASSERT_ERRNO(0, pause_errno(self->cap.fd, 0));
	ASSERT_EQ(AFTER, pc_faults_next(&self->f, AFTER));
	ASSERT_EQ(0, pc_disable(self->cap.fd));
	ASSERT_CAPTURE_READ(&self->cap);
	EXPECT_EQ(AFTER, pc_capture_count(&self->cap, PERF_RECORD_SAMPLE));
	EXPECT_EQ(1, pc_capture_count(&self->cap, PERF_RECORD_LOST));
	EXPECT_EQ(2 * PAUSED, pc_capture_lost_total(&self->cap));
}

/*
 * PERF_FORMAT_LOST (6.0) counts the paused samples in read() as well,
 * before any LOST record is written; refused before 6.0 (observed, SKIP).
 */
TEST_F(global, format_lost_counts_paused_samples)
{
	uint64_t buf[8];
	struct pc_read_values v;
	struct pc_capture cap;
	const char *err = NULL;
	const uint64_t rf = PERF_FORMAT_LOST | PERF_FORMAT_ID;
	struct perfconf_attr attr = self->attr;

	attr.read_format = rf;
	int e = pc_open_errno(&attr, 0, -1, -1, 0);

	pc_observe_errno("errno", e);
	if (e)
		SKIP(return, "PERF_FORMAT_LOST refused (%s): a kernel before 6.0", pc_errno_name(e));
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	sample_then_pause(_metadata, cap.fd, &self->f);
	ASSERT_EQ(0, pc_disable(cap.fd));

	ssize_t n = read(cap.fd, buf, sizeof(buf));

	ASSERT_EQ((ssize_t)pc_read_values_size(rf, 1), n);
	ASSERT_LE(0, pc_read_values_decode(rf, buf, (size_t)n, &v, &err)) TH_LOG("%s", err);
	EXPECT_EQ(BEFORE + PAUSED, v.values[0].value);
	EXPECT_EQ(PAUSED, v.values[0].lost);
	EXPECT_EQ(pc_event_id(cap.fd), v.values[0].id);
	pc_capture_close(&cap);
}

/* An event without a ring: EINVAL, to pause and to resume; the control: with one mapped, 0. */
TEST(without_ring_is_einval)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(TARGET_FAULTS);
	struct pc_ring ring = { 0 };
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, pause_errno(fd, 1));
	EXPECT_ERRNO(EINVAL, pause_errno(fd, 0));
	ASSERT_EQ(0, pc_ring_map(&ring, fd, 2, PC_RING_READWRITE));
	EXPECT_ERRNO(0, pause_errno(fd, 1)) TH_LOG("the control");
	EXPECT_ERRNO(0, pause_errno(fd, 0)) TH_LOG("the control");
	pc_ring_unmap(&ring);
	/* unmapped again, the ring is gone */
	EXPECT_ERRNO(EINVAL, pause_errno(fd, 1));
	close(fd);
}

/* Only the control page mapped (a ring of no data pages): EINVAL as well. */
TEST(control_page_alone_is_einval)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(TARGET_FAULTS);
	long page = sysconf(_SC_PAGESIZE);
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(fd);
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	ASSERT_NE(MAP_FAILED, p);
	EXPECT_ERRNO(EINVAL, pause_errno(fd, 1));
	EXPECT_ERRNO(EINVAL, pause_errno(fd, 0));
	munmap(p, page);
	close(fd);
}

/*
 * An event redirected into another's ring (SET_OUTPUT) pauses that ring:
 * the samples of both events are lost, and both are counted in LOST.
 */
TEST(redirected_event_pauses_the_shared_ring)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(TARGET_FAULTS);
	struct pc_capture target;
	struct pc_faults f;

	ASSERT_EQ(0, pc_faults_map(&f, 64));
	ASSERT_ERRNO(0, -pc_capture_open(&target, &attr, 0, -1));
	attr = pc_attr_fault_sampler(SOURCE_FAULTS);
	int source = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(source);
	EXPECT_ERRNO(EINVAL, pause_errno(source, 1)) TH_LOG("no ring yet");
	ASSERT_EQ(0, ioctl(source, PERF_EVENT_IOC_SET_OUTPUT, (long)target.fd));
	pc_faults_next(&f, 1);
	ASSERT_ERRNO(0, pause_errno(source, 1));
	ASSERT_ERRNO(0, pause_errno(source, 0));

	ASSERT_EQ(0, pc_enable(target.fd));
	ASSERT_EQ(0, pc_enable(source));
	ASSERT_EQ(BEFORE, pc_faults_next(&f, BEFORE));
	ASSERT_ERRNO(0, pause_errno(source, 1));
	ASSERT_EQ(PAUSED, pc_faults_next(&f, PAUSED));
	ASSERT_ERRNO(0, pause_errno(source, 0));
	ASSERT_EQ(AFTER, pc_faults_next(&f, AFTER));
	ASSERT_EQ(0, pc_disable(source));
	ASSERT_EQ(0, pc_disable(target.fd));
	ASSERT_CAPTURE_READ(&target);

	EXPECT_EQ(BEFORE + AFTER, pc_capture_samples_of(&target, pc_event_id(target.fd), 0));
	EXPECT_EQ(BEFORE + AFTER, pc_capture_samples_of(&target, pc_event_id(source), 0));
	EXPECT_EQ(1, pc_capture_count(&target, PERF_RECORD_LOST));
	EXPECT_EQ(2 * PAUSED, pc_capture_lost_total(&target));
	close(source);
	pc_capture_close(&target);
	pc_faults_unmap(&f);
}

TEST_HARNESS_MAIN
