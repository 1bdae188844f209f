// SPDX-License-Identifier: GPL-2.0
/*
 * mmap: "The mmap bit enables generation of PERF_RECORD_MMAP samples for
 * every mmap(2) call that has PROT_EXEC set. This allows tools to notice
 * new executable code being mapped into a program." The record names the
 * mapping: pid and tid of the task that mapped it, its address and length,
 * where it starts in the file (pgoff: a byte offset, although the man page
 * says "page offset"), and the file's name; misc is PERF_RECORD_MISC_USER.
 * Mappings without PROT_EXEC are left to mmap_data.
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "perfconf.h"
#include "work/affinity.h"
#include "mmap_records.h"

#define PAGES 4

/* An event that reports executable mappings of this task, its ring mapped. */
static int open_mmap(struct pc_capture *cap)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.mmap = 1;
	return pc_capture_open(cap, &attr, 0, -1);
}

/* Map pages of a temp file from offset_pages while the event is enabled. */
static int map_file(struct pc_capture *cap, struct pc_file_map *m, size_t pages, int prot,
		    size_t offset_pages)
{
	size_t page = pc_page_size();

	return pc_map_temp_file_enabled(cap->fd, m, PAGES * page, pages * page, prot, MAP_PRIVATE,
					(off_t)(offset_pages * page));
}

TEST(exec_mapping_is_recorded)
{
	struct pc_capture cap;
	struct pc_file_map m;

	ASSERT_ERRNO(0, -open_mmap(&cap));
	ASSERT_ERRNO(0, -map_file(&cap, &m, PAGES, PROT_READ | PROT_EXEC, 0));
	const struct pc_record *r = only_record_of(_metadata, &cap, &m);

	expect_mmap_of(_metadata, r, &m, 0);
	EXPECT_EQ(PERF_RECORD_MISC_USER, r->misc);
	pc_unmap_guarded(m.addr, m.len);
	pc_capture_close(&cap);
}

/* A mapping that starts two pages into the file: pgoff is that offset, in bytes. */
TEST(pgoff_is_the_file_offset)
{
	struct pc_capture cap;
	struct pc_file_map m;

	ASSERT_ERRNO(0, -open_mmap(&cap));
	ASSERT_ERRNO(0, -map_file(&cap, &m, 2, PROT_READ | PROT_EXEC, 2));
	ASSERT_CAPTURE_READ(&cap);
	const struct pc_record *r = pc_find_mmap(&cap, m.path, 0);

	ASSERT_NE(NULL, r) TH_LOG("no MMAP record for %s", m.path);
	EXPECT_EQ((uintptr_t)m.addr, r->mmap.addr);
	EXPECT_EQ(2 * pc_page_size(), r->mmap.len);
	EXPECT_EQ(2 * pc_page_size(), r->mmap.pgoff);
	pc_unmap_guarded(m.addr, m.len);
	pc_capture_close(&cap);
}

/* Without PROT_EXEC the mapping is data: mmap alone does not report it. */
TEST(data_mapping_is_not_recorded)
{
	struct pc_file_map data, code;
	struct pc_capture cap;

	ASSERT_ERRNO(0, -open_mmap(&cap));
	ASSERT_ERRNO(0, -map_file(&cap, &data, PAGES, PROT_READ | PROT_WRITE, 0));
	ASSERT_ERRNO(0, -map_file(&cap, &code, PAGES, PROT_READ | PROT_EXEC, 0));
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(0, pc_mmap_count(&cap, data.path)) TH_LOG("a data mapping was reported");
	EXPECT_EQ(NULL, pc_find_mmap_at(&cap, data.addr, 0));
	EXPECT_EQ(1, pc_mmap_count(&cap, code.path)) TH_LOG("the exec mapping after it was not");
	pc_unmap_guarded(data.addr, data.len);
	pc_unmap_guarded(code.addr, code.len);
	pc_capture_close(&cap);
}

/* Anonymous executable memory is named "//anon". */
TEST(anonymous_exec_mapping)
{
	struct pc_capture cap;
	size_t page = pc_page_size();
	void *p;

	ASSERT_ERRNO(0, -open_mmap(&cap));
	const struct pc_record *r = anon_mapping_record(_metadata, &cap, page, PROT_READ | PROT_EXEC, &p);

	EXPECT_EQ(PERF_RECORD_MMAP, r->type);
	EXPECT_STREQ("//anon", r->mmap.filename);
	EXPECT_EQ(page, r->mmap.len);
	EXPECT_EQ(getpid(), r->mmap.pid);
	EXPECT_EQ(PERF_RECORD_MISC_USER, r->misc);
	/* An anonymous mapping has no file offset: which value stands in is pinned. */
	pc_observe("anon_pgoff", "%s", r->mmap.pgoff == (uintptr_t)p ? "addr" :
		   r->mmap.pgoff == 0 ? "0" : "other");
	pc_unmap_guarded(p, page);
	pc_capture_close(&cap);
}

/*
 * execve(2) maps the new program: with inherit, the child's event reports
 * the executable's text, named by its path, from the child's pid. (The
 * ring of an inherited event can only be mapped per CPU: the test keeps to
 * one.)
 */
TEST(exec_maps_the_new_image)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	struct pc_capture cap;
	char exe[PATH_MAX];
	int cpu = pc_pin_self();

	ASSERT_LE(0, cpu);
	ASSERT_NE(NULL, realpath("/proc/self/exe", exe));
	attr.mmap = 1;
	attr.inherit = 1;
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, cpu));
	ASSERT_EQ(0, pc_enable(cap.fd));
	pid_t child = pc_work_exec("exit");
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LT(0, child) TH_LOG("exec helper: %s", pc_errno_name(-child));
	ASSERT_CAPTURE_READ(&cap);

	const struct pc_record *r = pc_find_mmap(&cap, exe, 0);
	ASSERT_NE(NULL, r) TH_LOG("no MMAP record names %s", exe);
	EXPECT_EQ(child, r->mmap.pid);
	EXPECT_EQ(child, r->mmap.tid);
	EXPECT_EQ(PERF_RECORD_MISC_USER, r->misc);
	EXPECT_EQ(0, r->mmap.pgoff % pc_page_size());
	EXPECT_NE(0, r->mmap.len);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
