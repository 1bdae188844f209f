// SPDX-License-Identifier: GPL-2.0
/*
 * An ioctl request a perf_event_open() file descriptor does not know is
 * refused with ENOTTY, the errno ioctl(2) gives for a request that does
 * not apply to the kind of file, and does nothing.
 *
 * kernel/events/core.c (6.12) _perf_ioctl() (line 6070) switches on the
 * whole request number, direction and size included, and answers ENOTTY
 * by default (line 6174); the same in 5.10 and 6.1. So ENOTTY comes for
 * a number in perf's '$' space past the last one the ABI table knows
 * (PERF_EVENT_IOC_MODIFY_ATTRIBUTES, 11, since 4.17; a 12th,
 * PERF_EVENT_IOC_LOST_SAMPLES, was once proposed, and lost counts came
 * as PERF_FORMAT_LOST instead), for a known number encoded with another
 * direction or size, and for another driver's request (a terminal's
 * TCGETS, the classic "not a typewriter"). The VFS handles a few
 * generic requests before the driver (FIOCLEX, FIONBIO, ...): none of
 * those is used here.
 *
 * Each refusal is made on an enabled or a disabled counter of page faults
 * whose count shows that nothing happened; the control is a known request
 * on the same fd that works (ENABLE, DISABLE, ID).
 */
#include <sys/ioctl.h>
#include <termios.h>

#include "perfconf.h"

#define N 16

/* The highest request number the ABI table knows in the '$' space. */
static unsigned int last_known_nr(void)
{
	unsigned int nr = 0;

	for (size_t i = 0; i < pc_abi_ioctls_count; i++)
		if (pc_abi_ioctls[i].nr > nr)
			nr = pc_abi_ioctls[i].nr;
	return nr;
}

/* ioctl(fd, req, arg): 0, or the errno. */
static int ioctl_errno(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg) ? errno : 0;
}

static int open_counter(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v;
	int fd;

	attr.exclude_kernel = 1;	/* not the faults read(2) may take on its buffer */
	fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	/* The path count_faults() runs through, once before anything counts. */
	if (fd >= 0 && !pc_read_count(fd, &v))
		pc_work_page_faults(1);
	return fd;
}

/* Count N faults with fd enabled around them, read the count. */
static uint64_t count_faults(struct __test_metadata *_metadata, int fd)
{
	uint64_t before = 0, after = 0;

	EXPECT_EQ(0, pc_read_count(fd, &before));
	EXPECT_EQ(0, pc_work_page_faults(N));
	EXPECT_EQ(0, pc_read_count(fd, &after));
	return after - before;
}

/*
 * Past the last known number, in every encoding, on an enabled counter:
 * ENOTTY and the counter goes on; the known ID request works.
 */
TEST(number_past_the_table_is_enotty)
{
	unsigned int next = last_known_nr() + 1;
	uint64_t word = 0, id = 0;
	const struct {
		const char *what;
		unsigned long req;
	} reqs[] = {
		{ "_IO('$', last + 1)", _IO('$', next) },
		{ "_IO('$', last + 2)", _IO('$', next + 1) },
		{ "_IOR('$', last + 1, __u64)", _IOR('$', next, uint64_t) },
		{ "_IOW('$', last + 1, __u64)", _IOW('$', next, uint64_t) },
		{ "_IOWR('$', last + 1, __u64)", _IOWR('$', next, uint64_t) },
		{ "_IO('$', 0xff)", _IO('$', 0xff) },
	};
	int fd = open_counter();

	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_enable(fd));
	for (size_t i = 0; i < ARRAY_SIZE(reqs); i++) {
		EXPECT_ERRNO(ENOTTY, ioctl_errno(fd, reqs[i].req, (unsigned long)&word)) TH_LOG("%s", reqs[i].what);
		EXPECT_EQ(0, word) TH_LOG("%s wrote its argument", reqs[i].what);
	}
	EXPECT_EQ(N, count_faults(_metadata, fd)) TH_LOG("still enabled");
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_ERRNO(0, ioctl_errno(fd, PERF_EVENT_IOC_ID, (unsigned long)&id)) TH_LOG("the control");
	EXPECT_NE(0, id);
	close(fd);
}

/*
 * Known numbers with another direction or size are other requests: ENABLE's
 * number with a size does not enable, ID's without one writes no id.
 * Controls: the real ENABLE enables, the real ID writes.
 */
TEST(known_number_with_other_encoding_is_enotty)
{
	uint64_t word = 0, id = 0;
	int fd = open_counter();

	ASSERT_OPEN(fd);
	EXPECT_ERRNO(ENOTTY, ioctl_errno(fd, _IOW('$', 0, uint64_t), (unsigned long)&word)) TH_LOG("ENABLE's number, _IOW");
	EXPECT_ERRNO(ENOTTY, ioctl_errno(fd, _IOC(_IOC_NONE, '$', 0, 4), 0)) TH_LOG("ENABLE's number, size 4");
	EXPECT_EQ(0, count_faults(_metadata, fd)) TH_LOG("not enabled");
	EXPECT_ERRNO(0, ioctl_errno(fd, PERF_EVENT_IOC_ENABLE, 0)) TH_LOG("the control");
	EXPECT_EQ(N, count_faults(_metadata, fd)) TH_LOG("enabled by the control");
	EXPECT_ERRNO(0, ioctl_errno(fd, PERF_EVENT_IOC_DISABLE, 0));

	EXPECT_ERRNO(ENOTTY, ioctl_errno(fd, _IO('$', 7), (unsigned long)&word)) TH_LOG("ID's number, _IO");
	EXPECT_ERRNO(ENOTTY, ioctl_errno(fd, _IOW('$', 7, uint64_t *), (unsigned long)&word)) TH_LOG("ID's number, _IOW");
	EXPECT_EQ(0, word) TH_LOG("an id was written");
	EXPECT_ERRNO(0, ioctl_errno(fd, PERF_EVENT_IOC_ID, (unsigned long)&id)) TH_LOG("the control");
	EXPECT_NE(0, id);
	close(fd);
}

/* Requests of other drivers: a terminal's TCGETS, and a made-up magic. The control: DISABLE works. */
TEST(other_magic_is_enotty)
{
	struct termios t;
	uint64_t word = 0;
	int fd = open_counter();

	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_enable(fd));
	memset(&t, 0x5a, sizeof(t));
	EXPECT_ERRNO(ENOTTY, ioctl_errno(fd, TCGETS, (unsigned long)&t)) TH_LOG("TCGETS");
	EXPECT_EQ(0x5a, ((unsigned char *)&t)[0]) TH_LOG("TCGETS filled a termios");
	EXPECT_ERRNO(ENOTTY, ioctl_errno(fd, _IO('X', 0), 0)) TH_LOG("_IO('X', 0)");
	EXPECT_ERRNO(ENOTTY, ioctl_errno(fd, _IOR('X', 7, uint64_t), (unsigned long)&word)) TH_LOG("_IOR('X', 7)");
	EXPECT_EQ(0, word);
	EXPECT_EQ(N, count_faults(_metadata, fd)) TH_LOG("still enabled");
	EXPECT_ERRNO(0, ioctl_errno(fd, PERF_EVENT_IOC_DISABLE, 0)) TH_LOG("the control");
	EXPECT_EQ(0, count_faults(_metadata, fd)) TH_LOG("disabled by the control");
	close(fd);
}

TEST_HARNESS_MAIN
