// SPDX-License-Identifier: GPL-2.0
/*
 * The first pc_open() of a process pages in its code and the stack around
 * the caller (event.c), and a forked child's first does it again: after
 * it, /proc/self/pagemap shows every page of every executable segment
 * present, and the stack's too. The control: before it, a fork's child
 * lacks some code pages (fork copies no page table entry of code).
 */
#include <fcntl.h>
#include <link.h>
#include <sys/wait.h>

#include "perfconf.h"

#define STACK_CHECKED (48 * 1024)	/* below the caller: less than the 64 KiB paged in */

struct pagemap {
	int fd;
	uintptr_t page_size;
	size_t absent, pages;
};

/* Is the page at addr mapped (pagemap's bit 63)? 1, 0, or -errno. */
static int present(const struct pagemap *m, uintptr_t addr)
{
	uint64_t entry;

	if (pread(m->fd, &entry, sizeof(entry), (off_t)(addr / m->page_size * sizeof(entry))) !=
	    sizeof(entry))
		return -EIO;
	return (int)(entry >> 63);
}

static int count_code(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct pagemap *m = arg;

	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;

		if (ph->p_type != PT_LOAD || (ph->p_flags & (PF_X | PF_R)) != (PF_X | PF_R))
			continue;
		for (uintptr_t a = start & ~(m->page_size - 1); a < end; a += m->page_size) {
			m->pages++;
			m->absent += present(m, a) != 1;
		}
	}
	return 0;
}

/* Code pages of the process that are not mapped: 0 when all are; -errno. */
static long absent_code(size_t *pages)
{
	struct pagemap m = { .page_size = (uintptr_t)sysconf(_SC_PAGESIZE) };

	m.fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (m.fd < 0)
		return -errno;
	dl_iterate_phdr(count_code, &m);
	close(m.fd);
	if (pages)
		*pages = m.pages;
	return (long)m.absent;
}

/* Stack pages from frame down STACK_CHECKED that are not mapped. */
static long absent_stack(uintptr_t frame)
{
	struct pagemap m = { .page_size = (uintptr_t)sysconf(_SC_PAGESIZE) };
	long absent = 0;

	m.fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (m.fd < 0)
		return -errno;
	for (uintptr_t a = frame - STACK_CHECKED; a <= frame; a += m.page_size)
		absent += present(&m, a) != 1;
	close(m.fd);
	return absent;
}

/* The page-in comes first, whether or not the kernel then opens the event. */
static void open_dummy(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd >= 0)
		close(fd);
}

/* In this (forked) process, before and after its first event. */
static void first_open_pages_in(struct __test_metadata *_metadata)
{
	size_t pages = 0;
	long before = absent_code(NULL);

	if (before == -ENOENT || before == -EACCES)
		SKIP(return, "/proc/self/pagemap: %s", pc_errno_name((int)-before));
	ASSERT_LE(0, before);
	open_dummy();
	EXPECT_EQ(0, absent_code(&pages)) TH_LOG("of %zu code pages", pages);
	EXPECT_EQ(0, absent_stack((uintptr_t)__builtin_frame_address(0)));
	EXPECT_LT(0, before) TH_LOG("the control: a fork's child had all %zu code pages", pages);
}

TEST(first_open_pages_in_code_and_stack)
{
	first_open_pages_in(_metadata);
}

/* A child forked after its parent's first event pages in at its own first. */
TEST(a_forked_child_pages_in_again)
{
	int status;
	pid_t pid;

	open_dummy();
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		first_open_pages_in(_metadata);
		_exit(_metadata->exit_code);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(KSFT_PASS, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
