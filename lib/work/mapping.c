// SPDX-License-Identifier: GPL-2.0
/* Mappings the kernel reports exactly as they were made. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "event/event.h"
#include "work/mapping.h"

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

void *pc_map_guarded(size_t len, int prot, int flags, int fd, off_t offset)
{
	size_t page = page_size();
	unsigned char *res = mmap(NULL, len + 2 * page, PROT_NONE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	void *p;

	if (res == MAP_FAILED)
		return MAP_FAILED;
	p = mmap(res + page, len, prot, flags | MAP_FIXED, fd, offset);
	if (p == MAP_FAILED) {
		int err = errno;

		munmap(res, len + 2 * page);
		errno = err;
	}
	return p;
}

void pc_unmap_guarded(void *addr, size_t len)
{
	size_t page = page_size();

	if (addr != MAP_FAILED && addr)
		munmap((unsigned char *)addr - page, len + 2 * page);
}

int pc_map_temp_file(struct pc_file_map *m, size_t file_len, size_t len, int prot, int flags,
		     off_t offset)
{
	static unsigned int made;	/* temp files this process made */
	const char *dir = getenv("TMPDIR");
	char tmpl[PATH_MAX];
	int fd, err = 0;

	m->addr = MAP_FAILED;
	m->len = len;
	m->path[0] = '\0';
	/*
	 * A name no other call gives, by construction: the file is unlinked
	 * on return, and glibc draws mkstemp's first try from the clock, not
	 * from getrandom (tempname.c), so on a kernel whose clocks are coarse
	 * the next call may take the same name, and two mappings of a case
	 * carry one path in their MMAP records.
	 */
	snprintf(tmpl, sizeof(tmpl), "%s/perfconf-map-%d-%u-XXXXXX", dir && *dir ? dir : "/tmp",
		 (int)getpid(), made++);
	fd = mkostemp(tmpl, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)file_len) || fstat(fd, &m->st) || !realpath(tmpl, m->path)) {
		err = -errno;
	} else {
		m->generation_err = ioctl(fd, FS_IOC_GETVERSION, &m->generation) ? errno : 0;
		m->addr = pc_map_guarded(len, prot, flags, fd, offset);
		if (m->addr == MAP_FAILED)
			err = -errno;
	}
	close(fd);
	unlink(tmpl);
	return err;
}

size_t pc_page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

size_t pc_scaled_to_page(size_t n)
{
	size_t page = pc_page_size();

	return page > 4096 ? n * (page / 4096) : n;
}

void *pc_map_guarded_enabled(int event_fd, size_t len, int prot, int flags, int fd, off_t offset)
{
	pc_enable(event_fd);
	void *p = pc_map_guarded(len, prot, flags, fd, offset);
	pc_disable(event_fd);
	return p;
}

int pc_map_temp_file_enabled(int event_fd, struct pc_file_map *m, size_t file_len, size_t len,
			     int prot, int flags, off_t offset)
{
	pc_enable(event_fd);
	int err = pc_map_temp_file(m, file_len, len, prot, flags, offset);
	pc_disable(event_fd);
	return err;
}

bool pc_code_page_size_ok(uint64_t size)
{
	uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE);

	if (size == ps)
		return true;
#ifdef __aarch64__
	return size == (ps == 4096 ? 16 : ps == 16384 ? 128 : 32) * ps;
#else
	return false;
#endif
}
