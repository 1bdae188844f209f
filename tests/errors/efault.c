// SPDX-License-Identifier: GPL-2.0
/*
 * EFAULT from perf_event_open(): the attr argument points at memory the
 * kernel cannot read.
 *
 * In kernel/events/core.c (6.12) perf_copy_attr() (line 12527) first reads
 * attr->size with get_user() (a fault there is EFAULT), then copies `size`
 * bytes with copy_struct_from_user() (a fault anywhere in those bytes is
 * EFAULT, including in the tail past the kernel's own struct that it checks
 * for zeroes). So the attr must be readable as far as its size field says,
 * not only as far as the struct the caller meant. Each refusal has its
 * control: the same bytes, in readable memory, open.
 *
 * The unreadable memory is a PROT_NONE page that stays mapped while the
 * case runs, so that nothing else can be mapped there in between.
 */
#include <sys/mman.h>

#include "perfconf.h"

/*
 * Two pages: the first readable and writable, the second PROT_NONE. An attr
 * placed to end at the boundary is readable up to there and no further.
 */
FIXTURE(global) {
	size_t page;
	unsigned char *map;
};

FIXTURE_SETUP(global)
{
	self->page = (size_t)sysconf(_SC_PAGESIZE);
	self->map = mmap(NULL, 2 * self->page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->map);
	ASSERT_EQ(0, mprotect(self->map + self->page, self->page, PROT_NONE));
}

FIXTURE_TEARDOWN(global)
{
	if (self->map != MAP_FAILED)
		munmap(self->map, 2 * self->page);
}

/* A software counter whose first `readable` bytes end at the PROT_NONE page. */
static void *attr_at_boundary(FIXTURE_DATA(global) *self, uint32_t size_field, size_t readable)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
	unsigned char *at = self->map + self->page - readable;

	attr.size = size_field;
	memset(self->map, 0, self->page);
	memcpy(at, &attr, readable < sizeof(attr) ? readable : sizeof(attr));
	return at;
}

TEST_F(global, attr_in_unreadable_page_is_efault)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);

	EXPECT_ERRNO(EFAULT, pc_open_raw_errno(self->map + self->page));
	EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0)) TH_LOG("the control");
}

TEST_F(global, null_attr_is_efault)
{
	EXPECT_ERRNO(EFAULT, pc_open_raw_errno(NULL));
}

/*
 * The size field and the first bytes are readable, the rest of the struct
 * the size field announces is not: VER0 bytes readable, size VER1.
 */
TEST_F(global, size_past_readable_memory_is_efault)
{
	void *at = attr_at_boundary(self, PC_ATTR_SIZE_VER1, PC_ATTR_SIZE_VER0);

	EXPECT_ERRNO(EFAULT, pc_open_raw_errno(at));
	/* the control: the same bytes announced as the VER0 struct they are */
	at = attr_at_boundary(self, PC_ATTR_SIZE_VER0, PC_ATTR_SIZE_VER0);
	EXPECT_ERRNO(0, pc_open_raw_errno(at));
}

/*
 * A size above the kernel's own struct: the kernel reads the tail to check
 * it is zero, so an unreadable tail is EFAULT, where a zero one opens.
 */
TEST_F(global, unreadable_tail_past_kernel_struct_is_efault)
{
	uint32_t ksize = pc_attr_kernel_size();

	ASSERT_NE(0, ksize) TH_LOG("the kernel's attr size could not be probed");
	void *at = attr_at_boundary(self, ksize + 8, ksize);

	EXPECT_ERRNO(EFAULT, pc_open_raw_errno(at));
	/* the control: the tail is there, and zero */
	at = attr_at_boundary(self, ksize + 8, ksize + 8);
	EXPECT_ERRNO(0, pc_open_raw_errno(at));
}

TEST_HARNESS_MAIN
