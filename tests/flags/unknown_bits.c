// SPDX-License-Identifier: GPL-2.0
/*
 * The flags argument of perf_event_open() is a bit mask of
 * PERF_FLAG_FD_NO_GROUP, PERF_FLAG_FD_OUTPUT, PERF_FLAG_PID_CGROUP and
 * PERF_FLAG_FD_CLOEXEC. Any other bit is refused with EINVAL, kept free for
 * future flags. The kernel checks this first, before it even reads the
 * attr (kernel/events/core.c, perf_event_open, 6.12 line 12844, and the
 * same in every version since the flags came), so an unknown bit wins over
 * any other error and takes no descriptor.
 *
 * The control: flags 0, and each known flag where it needs nothing else,
 * open the same attr.
 */
#include <fcntl.h>
#include <stdlib.h>

#include "perfconf.h"

#define KNOWN_FLAGS (PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | PERF_FLAG_PID_CGROUP | \
		     PERF_FLAG_FD_CLOEXEC)
#define FLAG_BITS ((int)(8 * sizeof(unsigned long)))

static struct perfconf_attr counter(void)
{
	return pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
}

/* The lowest free descriptor number (what the next open would get). */
static int lowest_free_fd(void)
{
	int fd = fcntl(0, F_DUPFD, 0);

	if (fd >= 0)
		close(fd);
	return fd;
}

TEST(known_flags_are_the_low_four_bits)
{
	EXPECT_EQ(0xfUL, KNOWN_FLAGS);
}

/* The control: the attr opens with no flags. */
TEST(no_flags_opens)
{
	struct perfconf_attr attr = counter();
	int fd = pc_open(&attr, 0, -1, -1, 0);

	ASSERT_OPEN(fd);
	close(fd);
}

/*
 * The control for each known flag that needs nothing else: FD_CLOEXEC, and
 * FD_NO_GROUP and FD_OUTPUT, which do nothing without a group_fd.
 * PID_CGROUP needs a cgroup fd and a CPU (flags/pid_cgroup).
 */
TEST(known_flags_open_alone)
{
	const unsigned long flags[] = { PERF_FLAG_FD_CLOEXEC, PERF_FLAG_FD_NO_GROUP,
					PERF_FLAG_FD_OUTPUT,
					PERF_FLAG_FD_CLOEXEC | PERF_FLAG_FD_NO_GROUP };

	for (unsigned int i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct perfconf_attr attr = counter();

		EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, flags[i]))
			TH_LOG("flags %#lx", flags[i]);
	}
}

/* Every bit above the known ones, one at a time, alone and with a known flag. */
TEST(each_unknown_bit_is_einval)
{
	for (int bit = 0; bit < FLAG_BITS; bit++) {
		unsigned long flag = 1UL << bit;
		struct perfconf_attr attr = counter();

		if (flag & KNOWN_FLAGS)
			continue;
		EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, flag))
			TH_LOG("flags bit %d (%#lx)", bit, flag);
		EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, flag | PERF_FLAG_FD_CLOEXEC))
			TH_LOG("flags bit %d with PERF_FLAG_FD_CLOEXEC", bit);
	}
}

TEST(all_unknown_bits_are_einval)
{
	struct perfconf_attr attr = counter();

	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, ~KNOWN_FLAGS));
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, ~0UL));
}

/*
 * The flags are checked before anything else: an attr the kernel would
 * refuse with E2BIG (a non-zero byte past the kernel's size), a group_fd
 * that is not open, a pid that is not there still get EINVAL.
 */
TEST(unknown_bit_is_checked_first)
{
	const unsigned long bad = 1UL << 4;
	struct perfconf_attr attr = counter();
	uint32_t ksize = pc_attr_kernel_size();

	/* E2BIG rewrites the size field: a fresh page for each try. */
	for (int with_bad = 0; ksize && ksize + 8 <= 4096 && with_bad < 2; with_bad++) {
		unsigned char *page = pc_attr_page(&attr, ksize + 8);

		ASSERT_NE(NULL, page);
		page[ksize] = 1;
		int fd = pc_open_raw(page, 0, -1, -1, with_bad ? bad : 0);

		free(page);
		if (fd >= 0)
			close(fd);
		EXPECT_ERRNO(with_bad ? EINVAL : E2BIG, fd < 0 ? -fd : 0)
			TH_LOG("%s", with_bad ? "with bit 4 set" : "the control, flags 0");
	}
	int closed = lowest_free_fd();

	ASSERT_LE(0, closed);
	EXPECT_ERRNO(EBADF, pc_open_errno(&attr, 0, -1, closed, 0)) TH_LOG("the control");
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, closed, bad));
}

/* A refused flag takes no descriptor: the next free number is unchanged. */
TEST(unknown_bit_takes_no_fd)
{
	struct perfconf_attr attr = counter();
	int before = lowest_free_fd();

	ASSERT_LE(0, before);
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 1UL << 5));
	EXPECT_EQ(before, lowest_free_fd());
}

TEST_HARNESS_MAIN
