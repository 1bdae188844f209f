// SPDX-License-Identifier: GPL-2.0
/*
 * mmap2: "Generate an extended executable mmap record that contains enough
 * additional information to uniquely identify shared mappings."
 * PERF_RECORD_MMAP2 takes the place of PERF_RECORD_MMAP and adds the
 * device (maj, min), inode number and inode generation of the file, and
 * the mapping's prot and flags.
 *
 * The man page adds "The mmap flag must also be set for this to work":
 * the kernel only tracks mappings at all while some event has mmap or
 * mmap_data set, so every case here sets mmap too.
 */
#include <limits.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>

#include "perfconf.h"
#include "mmap_records.h"

#define PAGES 2

static int open_mmap2(struct pc_capture *cap, int mmap_data)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.mmap_data = mmap_data;
	return pc_capture_open(cap, &attr, 0, -1);
}

/*
 * With an event of mmap2 (and mmap_data if asked) enabled, map PAGES pages
 * of a temp file; read the records. 0, or the mapping's -errno.
 */
static int map_file_recorded(struct __test_metadata *_metadata, struct pc_capture *cap,
			     struct pc_file_map *m, int mmap_data, int prot, int flags)
{
	size_t len = PAGES * pc_page_size();

	ASSERT_ERRNO(0, -open_mmap2(cap, mmap_data));
	int err = pc_map_temp_file_enabled(cap->fd, m, len, len, prot, flags, 0);
	if (!err)
		ASSERT_CAPTURE_READ(cap);
	return err;
}

/* The record of the file mapping m, or fail the case. */
static const struct pc_record *record_of(struct __test_metadata *_metadata,
					 const struct pc_capture *cap, const struct pc_file_map *m)
{
	const struct pc_record *r = pc_find_mmap(cap, m->path, 0);

	ASSERT_NE(NULL, r) TH_LOG("no MMAP2 record for %s", m->path);
	return r;
}

/* The record identifies the file as stat(2) does, and the mapping as this task made it with prot. */
static void expect_file(struct __test_metadata *_metadata, const struct pc_record *r,
			const struct pc_file_map *m, int prot)
{
	EXPECT_EQ(major(m->st.st_dev), r->mmap2.maj);
	EXPECT_EQ(minor(m->st.st_dev), r->mmap2.min);
	EXPECT_EQ(m->st.st_ino, r->mmap2.ino);
	if (m->generation_err == 0) {
		EXPECT_EQ(m->generation, r->mmap2.ino_generation);
	} else {
		TH_LOG("no inode generation to compare on this file system (%s)",
		       pc_errno_name(m->generation_err));
	}
	EXPECT_EQ(getpid(), r->mmap2.pid);
	EXPECT_EQ(gettid(), r->mmap2.tid);
	EXPECT_EQ((uintptr_t)m->addr, r->mmap2.addr);
	EXPECT_EQ(m->len, r->mmap2.len);
	EXPECT_EQ(0, r->mmap2.pgoff);
	EXPECT_EQ(prot, r->mmap2.prot);
}

TEST(exec_mapping_identifies_the_file)
{
	struct pc_capture cap;
	struct pc_file_map m;

	ASSERT_ERRNO(0, -map_file_recorded(_metadata, &cap, &m, 0, PROT_READ | PROT_EXEC, MAP_PRIVATE));
	/* One record, and it is an MMAP2: no MMAP beside it. */
	const struct pc_record *r = only_record_of(_metadata, &cap, &m);

	EXPECT_EQ(PERF_RECORD_MMAP2, r->type);
	EXPECT_EQ(PERF_RECORD_MISC_USER, r->misc);
	expect_file(_metadata, r, &m, PROT_READ | PROT_EXEC);
	EXPECT_EQ(MAP_PRIVATE, r->mmap2.flags & MAP_TYPE);
	/* Which flags beyond the type a kernel adds (MAP_EXECUTABLE before 5.15...) is pinned. */
	pc_observe("flags", "0x%x", r->mmap2.flags);
	pc_unmap_guarded(m.addr, m.len);
	pc_capture_close(&cap);
}

TEST(shared_writable_mapping)
{
	const int prot = PROT_READ | PROT_WRITE | PROT_EXEC;
	struct pc_capture cap;
	struct pc_file_map m;

	ASSERT_ERRNO(0, -map_file_recorded(_metadata, &cap, &m, 0, prot, MAP_SHARED));
	const struct pc_record *r = record_of(_metadata, &cap, &m);

	expect_file(_metadata, r, &m, prot);
	EXPECT_EQ(MAP_SHARED, r->mmap2.flags & MAP_TYPE);
	pc_observe("flags", "0x%x", r->mmap2.flags);
	pc_unmap_guarded(m.addr, m.len);
	pc_capture_close(&cap);
}

/* MAP_LOCKED shows in flags. */
TEST(locked_mapping)
{
	struct pc_capture cap;
	struct pc_file_map m;
	int err = map_file_recorded(_metadata, &cap, &m, 0, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_LOCKED);

	if (err == -EAGAIN || err == -EPERM)
		SKIP(return, "this process may not lock memory (%s)", pc_errno_name(-err));
	ASSERT_ERRNO(0, -err);
	const struct pc_record *r = record_of(_metadata, &cap, &m);

	EXPECT_EQ(MAP_LOCKED, r->mmap2.flags & MAP_LOCKED) TH_LOG("flags 0x%x", r->mmap2.flags);
	EXPECT_EQ(MAP_PRIVATE, r->mmap2.flags & MAP_TYPE);
	pc_unmap_guarded(m.addr, m.len);
	pc_capture_close(&cap);
}

/* With mmap_data, data mappings come as MMAP2 too, flagged as data. */
TEST(data_mapping_with_mmap_data)
{
	struct pc_capture cap;
	struct pc_file_map m;

	ASSERT_ERRNO(0, -map_file_recorded(_metadata, &cap, &m, 1, PROT_READ, MAP_PRIVATE));
	const struct pc_record *r = only_record_of(_metadata, &cap, &m);

	EXPECT_EQ(PERF_RECORD_MMAP2, r->type);
	EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, r->misc);
	expect_file(_metadata, r, &m, PROT_READ);
	pc_unmap_guarded(m.addr, m.len);
	pc_capture_close(&cap);
}

/* Anonymous memory has no file: device, inode and generation are 0. */
TEST(anonymous_mapping_has_no_inode)
{
	struct pc_capture cap;
	void *p;

	ASSERT_ERRNO(0, -open_mmap2(&cap, 0));
	const struct pc_record *r = anon_mapping_record(_metadata, &cap, pc_page_size(),
							PROT_READ | PROT_EXEC, &p);

	EXPECT_EQ(PERF_RECORD_MMAP2, r->type);
	EXPECT_STREQ("//anon", r->mmap2.filename);
	EXPECT_EQ(0, r->mmap2.maj);
	EXPECT_EQ(0, r->mmap2.min);
	EXPECT_EQ(0, r->mmap2.ino);
	EXPECT_EQ(0, r->mmap2.ino_generation);
	EXPECT_EQ(PROT_READ | PROT_EXEC, r->mmap2.prot);
	EXPECT_EQ(MAP_PRIVATE, r->mmap2.flags & MAP_TYPE);
	pc_unmap_guarded(p, pc_page_size());
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
