// SPDX-License-Identifier: GPL-2.0
/*
 * mmap_data: "This is the counterpart of the mmap field. This enables
 * generation of PERF_RECORD_MMAP samples for mmap(2) calls that do not
 * have PROT_EXEC set (for example data and SysV shared memory)." Such a
 * record carries PERF_RECORD_MISC_MMAP_DATA ("set when the mapping is not
 * executable") besides PERF_RECORD_MISC_USER; executable mappings stay
 * mmap's and never carry it.
 */
#include <limits.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>

#include "perfconf.h"
#include "mmap_records.h"

#define PAGES 4
#define MISC_DATA (PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA)

static int open_mmap(struct pc_capture *cap, int mmap, int mmap_data)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.mmap = mmap;
	attr.mmap_data = mmap_data;
	return pc_capture_open(cap, &attr, 0, -1);
}

/* Map a temp file (PAGES pages, offset 1 page) while the event is enabled. */
static int map_file(struct pc_capture *cap, struct pc_file_map *m, int prot)
{
	size_t page = pc_page_size();

	return pc_map_temp_file_enabled(cap->fd, m, (PAGES + 1) * page, PAGES * page, prot,
					MAP_PRIVATE, (off_t)page);
}

TEST(data_mapping_is_recorded)
{
	struct pc_capture cap;
	struct pc_file_map m;

	ASSERT_ERRNO(0, -open_mmap(&cap, 0, 1));
	ASSERT_ERRNO(0, -map_file(&cap, &m, PROT_READ | PROT_WRITE));
	const struct pc_record *r = only_record_of(_metadata, &cap, &m);

	expect_mmap_of(_metadata, r, &m, pc_page_size());
	EXPECT_EQ(MISC_DATA, r->misc);
	pc_unmap_guarded(m.addr, m.len);
	pc_capture_close(&cap);
}

/*
 * With an event of these bits enabled, map an executable file, then a data
 * file; read the records.
 */
static void map_code_then_data(struct __test_metadata *_metadata, struct pc_capture *cap, int mmap,
			       struct pc_file_map *code, struct pc_file_map *data)
{
	ASSERT_ERRNO(0, -open_mmap(cap, mmap, 1));
	ASSERT_ERRNO(0, -map_file(cap, code, PROT_READ | PROT_EXEC));
	ASSERT_ERRNO(0, -map_file(cap, data, PROT_READ));
	ASSERT_CAPTURE_READ(cap);
}

/* mmap_data alone: an executable mapping is not its business. */
TEST(exec_mapping_is_not_recorded)
{
	struct pc_file_map code, data;
	struct pc_capture cap;

	map_code_then_data(_metadata, &cap, 0, &code, &data);
	EXPECT_EQ(0, pc_mmap_count(&cap, code.path)) TH_LOG("an exec mapping was reported");
	EXPECT_EQ(1, pc_mmap_count(&cap, data.path)) TH_LOG("the data mapping after it was not");
	pc_unmap_guarded(code.addr, code.len);
	pc_unmap_guarded(data.addr, data.len);
	pc_capture_close(&cap);
}

/* With mmap as well, both kinds arrive, and only the data one says so. */
TEST(with_mmap_both_kinds_are_told_apart)
{
	struct pc_file_map code, data;
	struct pc_capture cap;

	map_code_then_data(_metadata, &cap, 1, &code, &data);
	const struct pc_record *c = pc_find_mmap(&cap, code.path, 0);
	const struct pc_record *d = pc_find_mmap(&cap, data.path, 0);

	ASSERT_NE(NULL, c) TH_LOG("no record of the exec mapping");
	ASSERT_NE(NULL, d) TH_LOG("no record of the data mapping");
	EXPECT_EQ(PERF_RECORD_MISC_USER, c->misc);
	EXPECT_EQ(MISC_DATA, d->misc);
	EXPECT_EQ((uintptr_t)code.addr, c->mmap.addr);
	EXPECT_EQ((uintptr_t)data.addr, d->mmap.addr);
	pc_unmap_guarded(code.addr, code.len);
	pc_unmap_guarded(data.addr, data.len);
	pc_capture_close(&cap);
}

/* Anonymous data memory is "//anon". */
TEST(anonymous_data_mapping)
{
	size_t page = pc_page_size();
	struct pc_capture cap;
	void *p;

	ASSERT_ERRNO(0, -open_mmap(&cap, 0, 1));
	const struct pc_record *r = anon_mapping_record(_metadata, &cap, 2 * page, PROT_READ | PROT_WRITE, &p);

	EXPECT_STREQ("//anon", r->mmap.filename);
	EXPECT_EQ(MISC_DATA, r->misc);
	EXPECT_EQ(2 * page, r->mmap.len);
	EXPECT_EQ(getpid(), r->mmap.pid);
	pc_unmap_guarded(p, 2 * page);
	pc_capture_close(&cap);
}

/* SysV shared memory, the man page's own example: shmat(2) is a data mapping. */
TEST(sysv_shared_memory)
{
	size_t page = pc_page_size();
	struct pc_capture cap;

	ASSERT_ERRNO(0, -open_mmap(&cap, 0, 1));
	int id = shmget(IPC_PRIVATE, page, IPC_CREAT | 0600);
	ASSERT_LE(0, id) TH_LOG("shmget: %s", pc_errno_name(errno));
	pc_enable(cap.fd);
	void *p = shmat(id, NULL, 0);
	pc_disable(cap.fd);
	/* Gone once detached, whatever happens next. */
	shmctl(id, IPC_RMID, NULL);
	ASSERT_NE((void *)-1, p);
	const struct pc_record *r = record_at(_metadata, &cap, p);

	EXPECT_EQ(MISC_DATA, r->misc);
	EXPECT_EQ(page, r->mmap.len);
	EXPECT_EQ(0, strncmp(r->mmap.filename, "/SYSV", 5)) TH_LOG("filename %s", r->mmap.filename);
	shmdt(p);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
