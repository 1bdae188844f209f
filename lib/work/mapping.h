/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mappings the kernel reports exactly as they were made.
 *
 * A new mapping next to one with the same flags may be merged with it, and
 * PERF_RECORD_MMAP then describes the merged area: a PROT_NONE guard page
 * on each side keeps a test's mapping on its own.
 *
 * A mapped temp file is removed as soon as it is mapped (the mmap record
 * already named it), so a test that fails later leaves no file behind:
 *
 *	struct pc_file_map m;
 *	pc_enable(fd);
 *	int err = pc_map_temp_file(&m, 4 * page, 2 * page, PROT_READ | PROT_EXEC,
 *				   MAP_PRIVATE, 2 * page);
 *	pc_disable(fd);
 *	ASSERT_EQ(0, err);
 *	... m.addr, m.len, m.path, m.st ...
 *	pc_unmap_guarded(m.addr, m.len);
 */
#ifndef PERFCONF_MAPPING_H
#define PERFCONF_MAPPING_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The page size, sysconf(_SC_PAGESIZE). */
size_t pc_page_size(void);
/*
 * n, a count chosen for 4 KiB pages (the samples that overflow a one-page
 * ring, say), scaled to this machine's page: n on 4 KiB pages, 4n on
 * 16 KiB (arm64 -16k kernels), 16n on 64 KiB.
 */
size_t pc_scaled_to_page(size_t n);

/*
 * mmap(len, prot, flags, fd, offset) between two PROT_NONE guard pages.
 * fd -1 with MAP_ANONYMOUS in flags maps anonymous memory. Returns the
 * address or MAP_FAILED (errno set). The reservation is itself a mapping:
 * an mmap_data event sees it as "//anon" at the guard's address.
 */
void *pc_map_guarded(size_t len, int prot, int flags, int fd, off_t offset);
/* Unmap a guarded mapping and its guards; MAP_FAILED or NULL is a no-op. */
void pc_unmap_guarded(void *addr, size_t len);

struct pc_file_map {
	void *addr;		/* MAP_FAILED when not mapped */
	size_t len;
	char path[PATH_MAX];	/* the file's canonical path (symlinks resolved), as the kernel names it */
	struct stat st;		/* the file's, taken while it existed */
	int generation_err;	/* 0 when the inode generation could be read (FS_IOC_GETVERSION) */
	uint32_t generation;
};

/*
 * Create a file of file_len zero bytes in $TMPDIR (else /tmp), opened
 * O_RDWR, map len bytes of it from offset with prot and flags
 * (pc_map_guarded), note its path, stat and inode generation, then close
 * and remove it. 0 or -errno; on failure nothing is left mapped or on disk.
 */
int pc_map_temp_file(struct pc_file_map *m, size_t file_len, size_t len, int prot, int flags,
		     off_t offset);

/*
 * The same two with the event event_fd enabled around the mmap only, so
 * that its ring holds the records of exactly that mapping.
 */
void *pc_map_guarded_enabled(int event_fd, size_t len, int prot, int flags, int fd, off_t offset);
int pc_map_temp_file_enabled(int event_fd, struct pc_file_map *m, size_t file_len, size_t len,
			     int prot, int flags, off_t offset);

/*
 * Whether size can be the page size that maps this process's code
 * (PERF_SAMPLE_CODE_PAGE_SIZE): the base page, or on arm64 a
 * contiguous-PTE run (16 pages of 4 KiB, 128 of 16 KiB, 32 of 64 KiB:
 * CONT_PTE_SIZE).
 */
bool pc_code_page_size_ok(uint64_t size);

#endif
