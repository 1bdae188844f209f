// SPDX-License-Identifier: GPL-2.0
/*
 * The metadata page of a live ring: "The mmap size should be 1+2^n pages,
 * where the first page is a metadata page (struct perf_event_mmap_page)".
 * What the kernel writes into it at mmap time (perf_event_init_userpage()
 * and perf_event_update_userpage() in kernel/events/core.c) for a software
 * event that has not run: no hardware counter, nothing in the ring yet.
 */
#include <sys/mman.h>

#include "perfconf.h"

#define DATA_PAGES_LOG2 2	/* 1 + 4 pages */

FIXTURE(page) {
	int fd;
	struct pc_ring ring;
	const struct perf_event_mmap_page *pc;
	size_t page_size;
};

FIXTURE_SETUP(page)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_TASK_CLOCK);
	int err;

	attr.exclude_kernel = 1;	/* opens at any perf_event_paranoid up to 2 */

	self->page_size = (size_t)sysconf(_SC_PAGESIZE);
	self->fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(self->fd);
	err = pc_ring_map(&self->ring, self->fd, DATA_PAGES_LOG2, PC_RING_READWRITE);
	ASSERT_EQ(0, err) TH_LOG("mmap of 1 + %d pages: %s", 1 << DATA_PAGES_LOG2,
				 pc_errno_name(-err));
	self->pc = self->ring.page;
}

FIXTURE_TEARDOWN(page)
{
	pc_ring_unmap(&self->ring);
	if (self->fd >= 0)
		close(self->fd);
}

/* "version: Version number of this structure. compat_version: The lowest version this is compatible with." */
TEST_F(page, version)
{
	pc_observe("version", "%u", self->pc->version);
	pc_observe("compat_version", "%u", self->pc->compat_version);
	EXPECT_LE(self->pc->compat_version, self->pc->version);
}

/*
 * "data_offset: Contains the offset of the location in the mmap buffer
 * where perf sample data begins. data_size: Contains the size of the perf
 * sample region within the mmap buffer." (since 4.1): right after the
 * metadata page, the 2^n data pages.
 */
TEST_F(page, data_area_follows_the_metadata_page)
{
	if (pc_kernel()->kver < pc_abi_find(&pc_abi_mmap_page, "data_offset")->since)
		SKIP(return, "data_offset and data_size are 4.1");
	EXPECT_EQ(self->page_size, self->pc->data_offset);
	EXPECT_EQ(self->page_size << DATA_PAGES_LOG2, self->pc->data_size);
}

/* "size": the header size up to the __reserved[] fields (3.12). */
TEST_F(page, size_is_the_header_up_to_reserved)
{
	EXPECT_EQ(offsetof(struct perf_event_mmap_page, __reserved), self->pc->size);
	EXPECT_EQ(pc_abi_find(&pc_abi_mmap_page, "__reserved")->offset, self->pc->size);
}

/* Nothing was recorded: the event is disabled and has never run. */
TEST_F(page, ring_is_empty)
{
	EXPECT_EQ(0, self->pc->data_head);
	EXPECT_EQ(0, self->pc->data_tail);
	EXPECT_EQ(0, pc_ring_available(&self->ring));
}

/* No AUX area was set up: "aux_offset ... aux_size needs to be set" by user space. */
TEST_F(page, no_aux_area)
{
	EXPECT_EQ(0, self->pc->aux_head);
	EXPECT_EQ(0, self->pc->aux_tail);
	EXPECT_EQ(0, self->pc->aux_offset);
	EXPECT_EQ(0, self->pc->aux_size);
}

/*
 * "cap_bit0_is_deprecated: If set, this bit indicates that the kernel
 * supports the properly separated cap_user_time and cap_user_rdpmc bits."
 * Bit 0 itself is always 0 since then.
 */
TEST_F(page, cap_bit0_is_deprecated)
{
	EXPECT_EQ(1, (unsigned int)self->pc->cap_bit0_is_deprecated);
	EXPECT_EQ(0, (unsigned int)self->pc->cap_bit0);
}

/*
 * "index: A unique hardware counter identifier." A software event has no
 * hardware counter: index 0, so there is nothing to rdpmc and
 * cap_user_rdpmc is clear.
 */
TEST_F(page, software_event_has_no_hardware_counter)
{
	EXPECT_EQ(0, self->pc->index);
	EXPECT_EQ(0, (unsigned int)self->pc->cap_user_rdpmc);
	EXPECT_EQ(0, (uint64_t)self->pc->cap_____res) TH_LOG("reserved capability bits are set");
}

TEST_HARNESS_MAIN
