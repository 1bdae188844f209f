// SPDX-License-Identifier: GPL-2.0
/*
 * The errors of read(2) on a perf_event_open() file descriptor.
 *
 * perf_event_open(2), "Reading results": what a read returns is laid out
 * by attr.read_format, and a buffer too small to hold all of it is refused
 * with ENOSPC rather than filled in part. The size is fixed by the ABI:
 * without PERF_FORMAT_GROUP { value, time_enabled?, time_running?, id?,
 * lost? }; with it { nr, time_enabled?, time_running?, { value, id?, lost?
 * }[nr] }, nr counting the leader and its siblings, whichever member's fd
 * is read. A buffer of exactly that size (or larger) gets exactly that
 * many bytes. read(2) itself promises EFAULT for a buffer outside the
 * caller's accessible memory.
 *
 * kernel/events/core.c (6.12): __perf_event_read_size() (line 1889) is
 * that size; __perf_read() (line 5841) answers ENOSPC when the count is
 * below event->read_size, before reading anything; perf_read_one() and
 * perf_read_group() copy out with copy_to_user (EFAULT). The same check
 * stands in 5.10 and 6.1. A sampling event reads the same way: its count
 * is every event it took, sampled or not.
 *
 * Every combination of the read_format bits this kernel knows
 * (PERF_FORMAT_LOST since 6.0) is tried on a lone event and on a leader
 * with one and with two siblings, through every member's fd: one byte
 * short is ENOSPC, the exact size (the control) reads that size and the
 * values in it are the page faults counted (n fresh pages, n faults).
 *
 * The same holds for the largest group there is: with TOTAL_TIME_ENABLED,
 * TOTAL_TIME_RUNNING and ID, 1022 members read 16376 bytes (a 1023rd is
 * E2BIG, errors/e2big.c). The kernel keeps the read size in a u16: before
 * a723968c0ed3 (v4.3) bounded the group, a group of thousands wrapped it,
 * the ENOSPC check passed and the kernel wrote the whole group past the
 * caller's buffer (perf_event_tests' huge_group_start; the bound itself
 * is errors/e2big's). One byte short writes nothing, a buffer of 29 KiB
 * gets exactly the group's bytes and nothing after them.
 */
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perfconf.h"

#define N 32
#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define LOST_BIT (1ULL << 4)	/* PERF_FORMAT_LOST, in the ABI table since 6.0 */
#define MAX_MEMBERS 3

/* The read_format bits this kernel accepts: LOST where it knows it. */
static uint64_t known_bits(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t bits = TIMES | PERF_FORMAT_ID | PERF_FORMAT_GROUP;

	attr.read_format = LOST_BIT;
	return bits | (pc_open_errno(&attr, 0, -1, -1, 0) == 0 ? LOST_BIT : 0);
}

FIXTURE(group) {
	int fds[MAX_MEMBERS];
};

FIXTURE_VARIANT(group) {
	unsigned int members;	/* the leader and members - 1 siblings */
};

FIXTURE_VARIANT_ADD(group, lone) { .members = 1 };
FIXTURE_VARIANT_ADD(group, one_sibling) { .members = 2 };
FIXTURE_VARIANT_ADD(group, two_siblings) { .members = 3 };

FIXTURE_SETUP(group)
{
	for (int i = 0; i < MAX_MEMBERS; i++)
		self->fds[i] = -1;
	pc_work_page_faults(1);
}

static void close_group(int *fds)
{
	for (int i = MAX_MEMBERS - 1; i >= 0; i--) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

FIXTURE_TEARDOWN(group)
{
	close_group(self->fds);
}

/*
 * Open the group with read_format rf on every member (siblings enabled,
 * following the leader), count N page faults, close nothing. 0 or the
 * errno of the open that failed.
 */
static int count_group(int *fds, unsigned int members, uint64_t rf)
{
	for (unsigned int i = 0; i < members; i++) {
		struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);

		attr.read_format = rf;
		attr.disabled = i == 0;
		attr.exclude_kernel = 1;
		fds[i] = pc_open(&attr, 0, -1, i ? fds[0] : -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0)
			return -fds[i];
	}
	if (pc_enable(fds[0]) || pc_work_page_faults(N) || pc_disable(fds[0]))
		return EIO;
	return 0;
}

TEST_F(group, one_byte_short_is_enospc)
{
	uint64_t bits = known_bits();

	/* once unmeasured: the stack and code below this frame are paged in (seen: 33 of 32 on arm64) */
	ASSERT_ERRNO(0, count_group(self->fds, variant->members, 0));
	close_group(self->fds);
	for (uint64_t rf = 0; rf <= bits; rf++) {
		if (rf & ~bits)
			continue;
		ASSERT_ERRNO(0, count_group(self->fds, variant->members, rf))
			TH_LOG("read_format %#llx", (unsigned long long)rf);
		size_t size = pc_read_values_size(rf, variant->members);

		for (unsigned int i = 0; i < variant->members; i++) {
			uint64_t buf[64];
			struct pc_read_values v;
			const char *err = NULL;

			memset(buf, 0xa5, sizeof(buf));
			EXPECT_EQ(-1, read(self->fds[i], buf, size - 1));
			EXPECT_ERRNO(ENOSPC, errno)
				TH_LOG("read_format %#llx, member %u, %zu bytes", (unsigned long long)rf, i, size - 1);
			/* Refused before anything was written. */
			EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, buf[0]);
			/* One byte: ENOSPC too. */
			EXPECT_EQ(-1, read(self->fds[i], buf, 1));
			EXPECT_ERRNO(ENOSPC, errno);

			/* The control: the exact size reads that size, the values in their places. */
			ASSERT_EQ((ssize_t)size, read(self->fds[i], buf, size))
				TH_LOG("read_format %#llx, member %u", (unsigned long long)rf, i);
			ASSERT_EQ((int)size, pc_read_values_decode(rf, buf, size, &v, &err)) TH_LOG("%s", err);
			unsigned int nr = (rf & PERF_FORMAT_GROUP) ? variant->members : 1;

			ASSERT_EQ(nr, v.nr);
			for (unsigned int k = 0; k < nr; k++) {
				/* The group's values, leader first; alone, the fd's own. */
				int fd = (rf & PERF_FORMAT_GROUP) ? self->fds[k] : self->fds[i];

				EXPECT_EQ(N, v.values[k].value)
					TH_LOG("read_format %#llx, member %u, value %u", (unsigned long long)rf, i, k);
				if (rf & PERF_FORMAT_ID) {
					EXPECT_EQ(pc_event_id(fd), v.values[k].id);
				}
			}
			/* A larger buffer gets the same size, no more. */
			EXPECT_EQ((ssize_t)size, read(self->fds[i], buf, sizeof(buf)));
		}
		close_group(self->fds);
	}
}

/*
 * A sampling event (every page fault a sample, no ring mapped) reads as a
 * counter: the same sizes, ENOSPC one byte short, and its count is every
 * fault it took.
 */
TEST(sampling_event_reads_as_counter)
{
	const uint64_t rf = TIMES | PERF_FORMAT_ID;
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_IP);
	size_t size = pc_read_values_size(rf, 1);
	struct pc_read_values v;
	const char *err = NULL;
	uint64_t buf[8];

	attr.read_format = rf;
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(fd);
	pc_work_page_faults(1);
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_page_faults(N);
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_EQ(-1, read(fd, buf, size - 1));
	EXPECT_ERRNO(ENOSPC, errno);
	ASSERT_EQ((ssize_t)size, read(fd, buf, size));
	ASSERT_EQ((int)size, pc_read_values_decode(rf, buf, size, &v, &err)) TH_LOG("%s", err);
	EXPECT_EQ(N, v.values[0].value);
	EXPECT_EQ(pc_event_id(fd), v.values[0].id);
	close(fd);
}

/*
 * A buffer the process cannot write (a PROT_READ page; NULL) is EFAULT,
 * for a lone event and for a group read; the control reads into a
 * writable one.
 */
TEST(unwritable_buffer_is_efault)
{
	const uint64_t formats[] = { 0, PERF_FORMAT_GROUP | PERF_FORMAT_ID };
	long page = sysconf(_SC_PAGESIZE);
	void *ro = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, ro);
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
		uint64_t buf[8];

		attr.read_format = formats[i];
		int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

		ASSERT_OPEN(fd);
		size_t size = pc_read_values_size(formats[i], 1);

		EXPECT_EQ(-1, read(fd, ro, size));
		EXPECT_ERRNO(EFAULT, errno) TH_LOG("read_format %#llx", (unsigned long long)formats[i]);
		EXPECT_EQ(-1, read(fd, NULL, size));
		EXPECT_ERRNO(EFAULT, errno) TH_LOG("read_format %#llx", (unsigned long long)formats[i]);
		EXPECT_EQ((ssize_t)size, read(fd, buf, size)) TH_LOG("the control");
		close(fd);
	}
	munmap(ro, page);
}

/*
 * The largest group of GROUP | TIMES | ID, every member a page-fault
 * counter: ENOSPC one byte short with the buffer untouched, through the
 * leader and through the last sibling; the control, a 29 KiB buffer, gets
 * the group's size, every value N, every id its member's, and no byte
 * past the size.
 */
TEST(largest_group_reads_within_the_buffer)
{
	const uint64_t rf = PERF_FORMAT_GROUP | TIMES | PERF_FORMAT_ID;
	const unsigned int max = pc_read_values_max_nr(rf);
	const size_t size = pc_read_values_size(rf, max), room = 29 * 1024, guard = 64;
	struct perfconf_attr attr = pc_attr_user_faults(), sibling;
	int err, n, *fds = calloc(max, sizeof(*fds));
	unsigned char *buf = malloc(room + guard);

	ASSERT_NE(NULL, fds);
	ASSERT_NE(NULL, buf);
	ASSERT_GT(room, size);
	REQUIRE_NOFILE(max + 64);
	attr.read_format = rf;
	sibling = attr;
	sibling.disabled = 0;	/* following the leader */
	n = pc_group_open(&attr, &sibling, 0, -1, fds, (int)max, &err);
	ASSERT_EQ((int)max, n) TH_LOG("refused at member %d: %s", n + 1, pc_errno_name(err));
	/* Once unmeasured (the path paged in), then counted from zero. */
	for (int round = 0; round < 2; round++) {
		ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
		ASSERT_EQ(0, pc_enable(fds[0]));
		ASSERT_EQ(0, pc_work_page_faults(N));
		ASSERT_EQ(0, pc_disable(fds[0]));
	}
	for (int m = 0; m < 2; m++) {
		int fd = m ? fds[max - 1] : fds[0];
		size_t at;

		memset(buf, 0xa5, room + guard);
		EXPECT_EQ(-1, read(fd, buf, size - 1)) TH_LOG("%s, %zu bytes", m ? "sibling" : "leader", size - 1);
		EXPECT_ERRNO(ENOSPC, errno);
		for (at = 0; at < room + guard && buf[at] == 0xa5; at++)
			;
		EXPECT_EQ(room + guard, at) TH_LOG("refused, yet byte %zu written", at);

		ASSERT_EQ((ssize_t)size, read(fd, buf, room)) TH_LOG("%s", m ? "sibling" : "leader");
		for (at = size; at < room + guard && buf[at] == 0xa5; at++)
			;
		EXPECT_EQ(room + guard, at) TH_LOG("%zu bytes read, byte %zu written", size, at);

		uint64_t v[4];	/* nr, enabled, running, then { value, id } per member */

		memcpy(v, buf, 3 * sizeof(uint64_t));
		EXPECT_EQ(max, v[0]);
		EXPECT_LT(0, v[1]);
		EXPECT_EQ(v[1], v[2]);
		for (unsigned int i = 0; i < max; i++) {
			memcpy(v, buf + 24 + 16 * i, 2 * sizeof(uint64_t));
			if (v[0] != N || v[1] != pc_event_id(fds[i])) {
				EXPECT_EQ(N, v[0]) TH_LOG("member %u", i);
				EXPECT_EQ(pc_event_id(fds[i]), v[1]) TH_LOG("member %u", i);
				break;
			}
		}
	}
	pc_group_close(fds, n);
	free(buf);
	free(fds);
}

TEST_HARNESS_MAIN
