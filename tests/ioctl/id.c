// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_ID (since 3.12): writes the event's unique id, a u64, to
 * the address given as the argument. It is the id that read() returns with
 * PERF_FORMAT_ID and that samples carry with PERF_SAMPLE_ID (and
 * PERF_SAMPLE_IDENTIFIER), so a reader can tell which event a value or a
 * record belongs to. Every event has its own. The copies an inherited
 * event makes in child tasks report the parent's id in PERF_SAMPLE_ID and
 * their own in PERF_SAMPLE_STREAM_ID (kernel/events/core.c: the ioctl
 * writes primary_event_id()). A pointer the kernel cannot write is EFAULT.
 */
#include "perfconf.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

#include "work/faults.h"
#include "work/family.h"

#define FAULTS 8
#define MEMBERS 3

/* PERF_EVENT_IOC_ID into *id: 0, or the errno. */
static int id_errno(int fd, uint64_t *id)
{
	return ioctl(fd, PERF_EVENT_IOC_ID, id) ? errno : 0;
}

/* read() with PERF_FORMAT_ID gives the same id as the ioctl. */
TEST(same_id_as_read_format_id)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct pc_read_values v;
	uint64_t buf[8], id = 0;
	const char *err = NULL;
	ssize_t n;
	int fd;

	attr.read_format = PERF_FORMAT_ID;
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	ASSERT_ERRNO(0, id_errno(fd, &id));
	EXPECT_NE(0, id);
	n = read(fd, buf, sizeof(buf));
	ASSERT_EQ((ssize_t)pc_read_values_size(attr.read_format, 1), n);
	ASSERT_LE(0, pc_read_values_decode(attr.read_format, buf, n, &v, &err)) TH_LOG("%s", err);
	EXPECT_EQ(id, v.values[0].id);
	close(fd);
}

/* Every sample carries the ioctl's id in PERF_SAMPLE_ID and PERF_SAMPLE_IDENTIFIER. */
TEST(same_id_as_sample_id)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
							PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID |
							PERF_SAMPLE_STREAM_ID);
	struct pc_capture cap;
	struct pc_faults f;
	uint64_t id = 0;

	attr.exclude_kernel = 1;
	ASSERT_EQ(0, pc_faults_map(&f, 1 + FAULTS));
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_ERRNO(0, id_errno(cap.fd, &id));
	ASSERT_EQ(0, pc_faults_enabled(&f, cap.fd, FAULTS));
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(FAULTS, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	for (size_t i = 0; i < FAULTS; i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);

		EXPECT_EQ(id, s->id) TH_LOG("sample %zu", i);
		EXPECT_EQ(id, s->identifier) TH_LOG("sample %zu", i);
		EXPECT_EQ(id, s->stream_id) TH_LOG("sample %zu: not inherited, its own stream", i);
	}
	pc_capture_close(&cap);
	pc_faults_unmap(&f);
}

/*
 * Each member of a group has its own id, and a PERF_FORMAT_GROUP read
 * lists them in the order the members were created; a lone event's id
 * differs from all of them.
 */
TEST(ids_differ_between_events)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t ids[MEMBERS + 1] = { 0 }, buf[32];
	struct pc_read_values v;
	const char *err = NULL;
	int fds[MEMBERS + 1];
	ssize_t n;

	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	for (int i = 0; i < MEMBERS; i++) {
		fds[i] = pc_open(&attr, 0, -1, i ? fds[0] : -1, 0);
		ASSERT_OPEN(fds[i]);
		ASSERT_ERRNO(0, id_errno(fds[i], &ids[i]));
	}
	attr.read_format = 0;
	fds[MEMBERS] = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fds[MEMBERS]);
	ASSERT_ERRNO(0, id_errno(fds[MEMBERS], &ids[MEMBERS]));
	for (int i = 0; i <= MEMBERS; i++) {
		for (int j = 0; j < i; j++) {
			EXPECT_NE(ids[j], ids[i]) TH_LOG("events %d and %d", j, i);
		}
	}

	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	n = read(fds[0], buf, sizeof(buf));
	ASSERT_EQ((ssize_t)pc_read_values_size(attr.read_format, MEMBERS), n);
	ASSERT_LE(0, pc_read_values_decode(attr.read_format, buf, n, &v, &err)) TH_LOG("%s", err);
	ASSERT_EQ(MEMBERS, v.nr);
	for (int i = 0; i < MEMBERS; i++) {
		EXPECT_EQ(ids[i], v.values[i].id) TH_LOG("member %d", i);
	}
	for (int i = 0; i <= MEMBERS; i++)
		close(fds[i]);
}

/*
 * A child's copy of an inherited event samples with the parent's id in
 * PERF_SAMPLE_ID and a stream id of its own; the parent's samples carry
 * its id in both.
 */
TEST(inherited_copies_report_the_parent_id)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
							PERF_SAMPLE_TID | PERF_SAMPLE_ID |
							PERF_SAMPLE_STREAM_ID);
	size_t mine = 0, theirs = 0;
	struct pc_capture cap;
	uint64_t id = 0;
	int anchor = pc_family_anchor();	/* keeps each event in its own task (family.h) */
	pid_t child;

	ASSERT_LE(0, anchor);
	attr.exclude_kernel = 1;
	ASSERT_ERRNO(0, -pc_capture_open_inherited(&cap, &attr));
	ASSERT_ERRNO(0, id_errno(cap.fd, &id));
	ASSERT_EQ(0, pc_enable(cap.fd));
	pc_work_page_faults(FAULTS);
	child = pc_work_in_child("faults 8");
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LT(0, child);
	ASSERT_CAPTURE_READ(&cap);
	for (size_t i = 0; i < pc_capture_count(&cap, PERF_RECORD_SAMPLE); i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);

		EXPECT_EQ(id, s->id) TH_LOG("sample %zu of pid %u", i, s->pid);
		if ((pid_t)s->pid == child) {
			EXPECT_NE(id, s->stream_id) TH_LOG("sample %zu: the child's copy", i);
			theirs++;
		} else {
			EXPECT_EQ(id, s->stream_id) TH_LOG("sample %zu", i);
			mine++;
		}
	}
	EXPECT_LE(FAULTS, mine);
	EXPECT_LE(8, theirs);
	pc_capture_close(&cap);
	close(anchor);
}

/* The argument is where the id goes: NULL or a page with no access is EFAULT. */
TEST(bad_pointer_is_efault)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	long page = sysconf(_SC_PAGESIZE);
	uint64_t id = 0;
	void *gone;
	int fd;

	/* mapped without access, so that no later mapping lands there while the case runs */
	gone = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, gone);
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_ID, NULL));
	EXPECT_ERRNO(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_ID, gone));
	EXPECT_ERRNO(EFAULT, errno);
	EXPECT_ERRNO(0, id_errno(fd, &id));	/* the control */
	EXPECT_NE(0, id);
	close(fd);
	munmap(gone, page);
}

TEST_HARNESS_MAIN
