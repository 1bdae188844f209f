// SPDX-License-Identifier: GPL-2.0
/*
 * build_id (since Linux 5.12): "This changes the contents in the
 * PERF_RECORD_MMAP2 to have a build-id instead of device and inode
 * numbers." Such a record has PERF_RECORD_MISC_MMAP_BUILD_ID in misc,
 * build_id_size ("the actual size of build_id field (up to 20)") and the
 * bytes of the file's NT_GNU_BUILD_ID note. A file with no build id keeps
 * maj, min, ino and ino_generation.
 *
 * The ELF file here is this test binary itself, mapped once more.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "work/elfnote.h"
#include "work/mapping.h"
#include "ring/sideband.h"

#define BUILD_ID_MAX 20

static struct perfconf_attr build_id_attr(int mmap2, int mmap_data)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.mmap = 1;
	attr.mmap2 = mmap2;
	attr.mmap_data = mmap_data;
	attr.build_id = 1;
	return attr;
}

/*
 * Map the first page of this executable with prot while the event is
 * enabled; path[PATH_MAX] receives the name the kernel gives it.
 */
static void *map_self(int fd, int prot, char *path)
{
	int exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	void *p = MAP_FAILED;

	if (exe < 0 || !realpath("/proc/self/exe", path))
		goto out;
	p = pc_map_guarded_enabled(fd, pc_page_size(), prot, MAP_PRIVATE, exe, 0);
out:
	if (exe >= 0)
		close(exe);
	return p;
}

/*
 * Map this executable as above with cap's event, and read the records:
 * the one of the mapping *p, or NULL.
 */
static const struct pc_record *record_of_map_self(struct __test_metadata *_metadata,
						  struct pc_capture *cap, int prot, char *path,
						  void **p)
{
	*p = map_self(cap->fd, prot, path);
	ASSERT_NE(MAP_FAILED, *p);
	ASSERT_CAPTURE_READ(cap);
	return pc_find_mmap_at(cap, *p, 0);
}

/* size = the length of this binary's build id, read into id; SKIP where it has none. */
#define READ_OWN_BUILD_ID(id, size) do { \
	size = pc_elf_build_id("/proc/self/exe", id, sizeof(id)); \
	if (size == -ENOENT) \
		SKIP(return, "this test binary was linked without a GNU build id note"); \
	ASSERT_LT(0, size) TH_LOG("reading the build id: %s", pc_errno_name(-size)); \
} while (0)

TEST(accepted)
{
	struct perfconf_attr attr = build_id_attr(1, 0);

	EXPECT_ERRNO_SINCE("build_id", 0, EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST(elf_file_gives_its_build_id)
{
	struct perfconf_attr attr = build_id_attr(1, 0);
	uint8_t id[BUILD_ID_MAX], zero[BUILD_ID_MAX] = { 0 };
	char path[PATH_MAX];
	struct pc_capture cap;
	void *p;
	int size;

	READ_OWN_BUILD_ID(id, size);
	ASSERT_GE(BUILD_ID_MAX, size);
	PC_CAPTURE_OPEN_SINCE(&cap, &attr, 0, -1, "build_id");
	const struct pc_record *r = record_of_map_self(_metadata, &cap, PROT_READ | PROT_EXEC,
						       path, &p);

	ASSERT_NE(NULL, r) TH_LOG("no MMAP2 record at %p", p);
	EXPECT_EQ(PERF_RECORD_MMAP2, r->type);
	EXPECT_STREQ(path, r->mmap2.filename);
	EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID, r->misc);
	EXPECT_EQ(size, r->mmap2.build_id_size);
	EXPECT_EQ(0, memcmp(id, r->mmap2.build_id, (size_t)size)) TH_LOG("build id bytes differ");
	/* The 20-byte field is padded with zeros past the id. */
	EXPECT_EQ(0, memcmp(zero, r->mmap2.build_id + size, BUILD_ID_MAX - (size_t)size));
	EXPECT_EQ(PROT_READ | PROT_EXEC, r->mmap2.prot);
	EXPECT_EQ(MAP_PRIVATE, r->mmap2.flags & MAP_TYPE);
	EXPECT_EQ((uintptr_t)p, r->mmap2.addr);
	EXPECT_EQ(pc_page_size(), r->mmap2.len);
	pc_unmap_guarded(p, pc_page_size());
	pc_capture_close(&cap);
}

/* A file that is not ELF has no build id: the record keeps the inode form. */
TEST(file_without_build_id_keeps_inode)
{
	struct perfconf_attr attr = build_id_attr(1, 0);
	struct pc_capture cap;
	struct pc_file_map m;

	PC_CAPTURE_OPEN_SINCE(&cap, &attr, 0, -1, "build_id");
	int err = pc_map_temp_file_enabled(cap.fd, &m, pc_page_size(), pc_page_size(),
					   PROT_READ | PROT_EXEC, MAP_PRIVATE, 0);
	ASSERT_ERRNO(0, -err);
	ASSERT_CAPTURE_READ(&cap);
	const struct pc_record *r = pc_find_mmap(&cap, m.path, 0);

	ASSERT_NE(NULL, r) TH_LOG("no MMAP2 record for %s", m.path);
	EXPECT_EQ(PERF_RECORD_MISC_USER, r->misc);
	EXPECT_EQ(major(m.st.st_dev), r->mmap2.maj);
	EXPECT_EQ(minor(m.st.st_dev), r->mmap2.min);
	EXPECT_EQ(m.st.st_ino, r->mmap2.ino);
	pc_unmap_guarded(m.addr, m.len);
	pc_capture_close(&cap);
}

/* Every MMAP2 record carries it, data mappings (mmap_data) included. */
TEST(data_mapping_carries_it_too)
{
	struct perfconf_attr attr = build_id_attr(1, 1);
	uint8_t id[BUILD_ID_MAX];
	char path[PATH_MAX];
	struct pc_capture cap;
	void *p;
	int size;

	READ_OWN_BUILD_ID(id, size);
	PC_CAPTURE_OPEN_SINCE(&cap, &attr, 0, -1, "build_id");
	const struct pc_record *r = record_of_map_self(_metadata, &cap, PROT_READ, path, &p);

	ASSERT_NE(NULL, r) TH_LOG("no MMAP2 record at %p", p);
	EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA | PERF_RECORD_MISC_MMAP_BUILD_ID,
		  r->misc);
	EXPECT_EQ(size, r->mmap2.build_id_size);
	EXPECT_EQ(0, memcmp(id, r->mmap2.build_id, (size_t)size));
	EXPECT_EQ(PROT_READ, r->mmap2.prot);
	pc_unmap_guarded(p, pc_page_size());
	pc_capture_close(&cap);
}

/*
 * A build id only has a place in MMAP2: without mmap2 the bit is accepted
 * or not (pinned), and when accepted the plain MMAP record is unchanged.
 */
TEST(without_mmap2_the_mmap_record_is_unchanged)
{
	struct perfconf_attr attr = build_id_attr(0, 0);
	char path[PATH_MAX];
	struct pc_capture cap;
	void *p;

	int err = pc_capture_open(&cap, &attr, 0, -1);
	pc_observe_errno("errno", -err);
	if (err)
		return;
	const struct pc_record *r = record_of_map_self(_metadata, &cap, PROT_READ | PROT_EXEC,
						       path, &p);

	ASSERT_NE(NULL, r) TH_LOG("no MMAP record at %p", p);
	EXPECT_EQ(PERF_RECORD_MMAP, r->type);
	EXPECT_EQ(PERF_RECORD_MISC_USER, r->misc);
	EXPECT_STREQ(path, r->mmap.filename);
	pc_unmap_guarded(p, pc_page_size());
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
