// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_COUNT_SW_PAGE_FAULTS_MAJ counts the page faults that needed I/O:
 * the kernel calls a fault major when the final, successful try returned
 * VM_FAULT_MAJOR or the fault had to be retried (mm_account_fault(),
 * mm/memory.c, 6.12, the same place that adds to the task's maj_flt);
 * filemap_fault() returns VM_FAULT_MAJOR when the page was not in the
 * page cache at all (mm/filemap.c, 6.12).
 *
 * A file on a disk filesystem, its page cache dropped
 * (posix_fadvise(POSIX_FADV_DONTNEED), checked with mincore()), mapped
 * with MADV_RANDOM so that no fault reads ahead (do_sync_mmap_readahead()
 * returns for VM_RAND_READ): reading one byte of each of its n pages is
 * exactly n major faults and no minor one. Read again, the same pages are
 * in the cache: minor faults only. Where the filesystem
 * keeps the pages in memory anyway (tmpfs), SKIP.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/vfs.h>

#include "perfconf.h"

#define PAGES 32
#define TMPFS_MAGIC_ 0x01021994

struct counters {
	uint64_t maj, min, all;
	long ru_maj;		/* the task's own maj_flt over the window */
};

FIXTURE(file) {
	char path[64];
	int fd;
	long page;
	volatile unsigned char *map;
};

FIXTURE_SETUP(file)
{
	static const char *const dirs[] = { "/var/tmp", "/tmp", "." };
	struct statfs fs;

	self->fd = -1;
	self->map = MAP_FAILED;
	self->page = sysconf(_SC_PAGESIZE);
	DEPENDS_ON("rootfs");	/* an initramfs or tmpfs root has no disk to fault from */
	for (size_t i = 0; i < ARRAY_SIZE(dirs) && self->fd < 0; i++) {
		if (statfs(dirs[i], &fs) || fs.f_type == TMPFS_MAGIC_)
			continue;
		snprintf(self->path, sizeof(self->path), "%s/perfconf-majXXXXXX", dirs[i]);
		self->fd = mkstemp(self->path);
	}
	if (self->fd < 0)
		SKIP(return, "no writable directory on a disk filesystem (all tmpfs?)");
	unsigned char *buf = malloc(self->page);
	ASSERT_NE(NULL, buf);
	for (int i = 0; i < PAGES; i++) {
		memset(buf, 0x40 + i, self->page);
		ASSERT_EQ(self->page, write(self->fd, buf, self->page));
	}
	free(buf);
	ASSERT_EQ(0, fsync(self->fd));
	self->map = mmap(NULL, PAGES * self->page, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->map);
	ASSERT_EQ(0, madvise((void *)self->map, PAGES * self->page, MADV_RANDOM));
}

FIXTURE_TEARDOWN(file)
{
	if (self->map != MAP_FAILED)
		munmap((void *)self->map, PAGES * self->page);
	if (self->fd >= 0) {
		close(self->fd);
		unlink(self->path);
	}
}

/* Pages of the mapping now in the page cache. */
static int resident(FIXTURE_DATA(file) *self)
{
	unsigned char vec[PAGES];
	int n = 0;

	if (mincore((void *)self->map, PAGES * self->page, vec))
		return -errno;
	for (int i = 0; i < PAGES; i++)
		n += vec[i] & 1;
	return n;
}

static long ru_majflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_majflt;
}

/* Read one byte of every page with MAJ, MIN and all faults counted (user mode). */
static int read_pages(FIXTURE_DATA(file) *self, struct counters *c)
{
	struct perfconf_attr maj = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS_MAJ);
	struct perfconf_attr min = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	struct perfconf_attr all = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	int fds[3], err = 0;
	unsigned int sum = 0;

	min.disabled = all.disabled = 0;	/* they follow the leader */
	fds[0] = pc_open(&maj, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fds[0] < 0)
		return fds[0];
	fds[1] = pc_open(&min, 0, -1, fds[0], PERF_FLAG_FD_CLOEXEC);
	fds[2] = pc_open(&all, 0, -1, fds[0], PERF_FLAG_FD_CLOEXEC);
	if (fds[1] < 0 || fds[2] < 0)
		err = fds[1] < 0 ? fds[1] : fds[2];
	long ru0 = ru_majflt();
	if (!err)
		err = pc_enable(fds[0]);
	if (!err) {
		for (int i = 0; i < PAGES; i++)
			sum += self->map[(size_t)i * self->page];
		pc_disable(fds[0]);
	}
	c->ru_maj = ru_majflt() - ru0;
	if (!err)
		err = pc_read_count(fds[0], &c->maj);
	if (!err)
		err = pc_read_count(fds[1], &c->min);
	if (!err)
		err = pc_read_count(fds[2], &c->all);
	for (int i = 2; i >= 0; i--)
		if (fds[i] >= 0)
			close(fds[i]);
	/* The bytes are the file's: page i holds 0x40 + i. */
	if (!err && sum != PAGES * 0x40u + PAGES * (PAGES - 1) / 2)
		err = -EBADMSG;
	return err;
}

/* Drop the file's pages from the cache; SKIP where the filesystem keeps them. */
#define DROP_CACHE() do { \
	int r_; \
	ASSERT_EQ(0, posix_fadvise(self->fd, 0, 0, POSIX_FADV_DONTNEED)); \
	r_ = resident(self); \
	ASSERT_LE(0, r_); \
	if (r_) \
		SKIP(return, "%s keeps %d of %d pages cached after POSIX_FADV_DONTNEED", self->path, r_, PAGES); \
} while (0)

TEST_F(file, one_major_fault_per_uncached_page)
{
	struct counters c;

	read_pages(self, &c);		/* warm up this path, and the pages' page tables */
	/* Unmapped first: the cache keeps a page that is mapped. */
	ASSERT_EQ(0, madvise((void *)self->map, PAGES * self->page, MADV_DONTNEED));
	DROP_CACHE();
	ASSERT_ERRNO(0, -read_pages(self, &c));
	EXPECT_EQ(PAGES, c.maj);
	EXPECT_EQ(0, c.min);
	EXPECT_EQ(PAGES, c.all);
	EXPECT_EQ(PAGES, c.ru_maj) TH_LOG("the kernel's own maj_flt");
	EXPECT_EQ(PAGES, resident(self));
}

/*
 * Control: the same reads with the pages cached (only unmapped) are all
 * minor. How many faults they take is not n: a fault on a cached page maps
 * its cached neighbours too (fault-around, do_fault_around()).
 */
TEST_F(file, cached_pages_fault_minor)
{
	struct counters c;

	read_pages(self, &c);		/* the pages are in the cache now */
	ASSERT_EQ(PAGES, resident(self));
	ASSERT_EQ(0, madvise((void *)self->map, PAGES * self->page, MADV_DONTNEED));
	ASSERT_ERRNO(0, -read_pages(self, &c));
	EXPECT_EQ(0, c.maj);
	EXPECT_LE(1, c.min);
	EXPECT_GE(PAGES, c.min);
	EXPECT_EQ(c.min, c.all);
	EXPECT_EQ(0, c.ru_maj);
}

TEST_HARNESS_MAIN
