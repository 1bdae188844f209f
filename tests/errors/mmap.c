// SPDX-License-Identifier: GPL-2.0
/*
 * The errors of mmap(2) on a perf_event_open() file descriptor.
 *
 * perf_event_open(2): the ring buffer is mapped as 1+2^n pages, a control
 * page (struct perf_event_mmap_page) followed by 2^n data pages; the
 * control page may also be mapped alone (n = 0 data pages, for the
 * self-monitoring fields). The pages are charged to perf_event_mlock_kb
 * and, past it, to RLIMIT_MEMLOCK.
 *
 * kernel/events/core.c (6.12) perf_mmap() (line 6642) refuses, each with
 * EINVAL: an inherited per-task event (cpu -1 and attr.inherit: its
 * children would all write into one ring, line 6660); a mapping that is
 * not shared (line 6663); a number of data pages that is not zero or a
 * power of two (line 6739); a second mapping of the same event whose size
 * differs from the ring it already has (line 6749; a mapping of the same
 * size shares that ring). Past the memory-lock allowance it is EPERM
 * (line 6802) unless perf_event_paranoid is -1 or the caller has
 * CAP_IPC_LOCK. 5.10 and 6.1 check the same in the same order; later
 * kernels moved the ring part into perf_mmap_rb() with the same errnos.
 * tests/privilege/mlock.c asserts the allowance itself, cell by cell;
 * here only the refusal and its control. An offset other than 0 maps the
 * AUX area, whose errnos the ABI does not document: not tested.
 *
 * Every refusal has its control: the same request changed only where the
 * refusal's cause lies maps.
 */
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "perfconf.h"

PERFCONF_META("reads=perf_event_mlock_kb,perf_event_paranoid");

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* A sampling event of this task's page faults, its ring not yet mapped. */
static int open_sampler(int inherit, int cpu)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
							PERF_SAMPLE_IP | PERF_SAMPLE_TID);

	attr.inherit = inherit;
	return pc_open(&attr, 0, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/*
 * mmap 1 + data_pages pages of fd at offset 0. 0 and the mapping in *map
 * (when map is not NULL; else it is unmapped at once), or the errno.
 */
static int map_errno(int fd, long data_pages, int prot, int flags, void **map)
{
	size_t len = (size_t)(1 + data_pages) * page_size();
	void *p = mmap(NULL, len, prot, flags, fd, 0);

	if (p == MAP_FAILED)
		return errno;
	if (map)
		*map = p;
	else
		munmap(p, len);
	return 0;
}

static int map_shared(int fd, long data_pages, void **map)
{
	return map_errno(fd, data_pages, PROT_READ | PROT_WRITE, MAP_SHARED, map);
}

/* Data pages that are neither zero nor a power of two. */
TEST(data_pages_not_power_of_two_is_einval)
{
	const long bad[] = { 3, 5, 6, 7, 12 };

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int fd = open_sampler(0, -1);

		ASSERT_OPEN(fd);
		EXPECT_ERRNO(EINVAL, map_shared(fd, bad[i], NULL)) TH_LOG("1 + %ld pages", bad[i]);
		close(fd);
	}
}

/* The control: 1 + 2^n pages map, and the control page says 2^n pages of data; the control page alone maps. */
TEST(data_pages_power_of_two_map)
{
	const long good[] = { 0, 1, 2, 4, 8 };

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		struct perf_event_mmap_page *pg = NULL;
		int fd = open_sampler(0, -1);

		ASSERT_OPEN(fd);
		ASSERT_ERRNO(0, map_shared(fd, good[i], (void **)&pg)) TH_LOG("1 + %ld pages", good[i]);
		EXPECT_EQ((uint64_t)good[i] * page_size(), pg->data_size) TH_LOG("1 + %ld pages", good[i]);
		if (good[i]) {
			EXPECT_EQ((uint64_t)page_size(), pg->data_offset);
		}
		munmap(pg, (1 + good[i]) * page_size());
		close(fd);
	}
}

/*
 * While a ring of 1 + 2 pages is mapped, another size is refused (more
 * data pages, fewer, the control page alone); the same size maps again
 * and is the same ring: the records both mappings see are the same. Once
 * every mapping is gone, another size maps.
 */
TEST(second_mapping_of_another_size_is_einval)
{
	struct perf_event_mmap_page *a = NULL, *b = NULL;
	const long other[] = { 4, 1, 0, 8 };
	int fd = open_sampler(0, -1);

	ASSERT_OPEN(fd);
	ASSERT_ERRNO(0, map_shared(fd, 2, (void **)&a));
	for (size_t i = 0; i < ARRAY_SIZE(other); i++) {
		EXPECT_ERRNO(EINVAL, map_shared(fd, other[i], NULL)) TH_LOG("1 + %ld pages beside 1 + 2", other[i]);
	}

	ASSERT_ERRNO(0, map_shared(fd, 2, (void **)&b)) TH_LOG("the control: the same size again");
	ASSERT_NE(a, b);
	pc_work_page_faults(1);
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_page_faults(4);
	ASSERT_EQ(0, pc_disable(fd));
	uint64_t head = __atomic_load_n(&a->data_head, __ATOMIC_ACQUIRE);

	EXPECT_LT(0, head);
	EXPECT_EQ(head, __atomic_load_n(&b->data_head, __ATOMIC_ACQUIRE));
	EXPECT_EQ(0, memcmp((char *)a + page_size(), (char *)b + page_size(), 2 * page_size()));
	munmap(b, 3 * page_size());
	EXPECT_ERRNO(EINVAL, map_shared(fd, 4, NULL)) TH_LOG("one mapping of 1 + 2 is left");
	munmap(a, 3 * page_size());

	ASSERT_ERRNO(0, map_shared(fd, 4, (void **)&a)) TH_LOG("no mapping left: another size");
	EXPECT_EQ((uint64_t)4 * page_size(), a->data_size);
	munmap(a, 5 * page_size());
	close(fd);
}

/* A private mapping, writable or read-only, is refused; the shared one (control) maps. */
TEST(map_private_is_einval)
{
	int fd = open_sampler(0, -1);

	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, map_errno(fd, 1, PROT_READ | PROT_WRITE, MAP_PRIVATE, NULL));
	EXPECT_ERRNO(EINVAL, map_errno(fd, 1, PROT_READ, MAP_PRIVATE, NULL));
	EXPECT_ERRNO(0, map_errno(fd, 1, PROT_READ | PROT_WRITE, MAP_SHARED, NULL)) TH_LOG("the control");
	EXPECT_ERRNO(0, map_errno(fd, 1, PROT_READ, MAP_SHARED, NULL)) TH_LOG("the control, read-only");
	close(fd);
}

/*
 * attr.inherit on a task with cpu -1 cannot be mapped. Controls: the same
 * event without inherit, and the inherited event bound to one CPU.
 */
TEST(inherited_per_task_event_is_einval)
{
	int cpu = sched_getcpu();
	int fd = open_sampler(1, -1);

	ASSERT_LE(0, cpu);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, map_shared(fd, 1, NULL)) TH_LOG("inherit, cpu -1");
	EXPECT_ERRNO(EINVAL, map_shared(fd, 0, NULL)) TH_LOG("inherit, cpu -1, the control page alone");
	close(fd);

	fd = open_sampler(0, -1);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(0, map_shared(fd, 1, NULL)) TH_LOG("the control: no inherit, cpu -1");
	close(fd);

	fd = open_sampler(1, cpu);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(0, map_shared(fd, 1, NULL)) TH_LOG("the control: inherit, cpu %d", cpu);
	close(fd);
}

/*
 * Past the allowance, as uid 65534 without CAP_IPC_LOCK and with
 * RLIMIT_MEMLOCK 0: the smallest ring larger than perf_event_mlock_kb
 * (in pages, times the online CPUs) is EPERM; a ring of one data page
 * (the control) maps. The events are opened as root before giving it up
 * (whoever holds the fd may map it), so perf_event_paranoid's gate on
 * opening does not enter.
 */
TEST(past_mlock_limit_is_eperm)
{
	long paranoid, mlock_kb;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct rlimit rl = { 0, 0 };
	long allowance, pages = 1;

	ASSERT_EQ(0, pc_sysctl_get(PC_PARANOID_SYSCTL, &paranoid));
	ASSERT_EQ(0, pc_sysctl_get(PC_MLOCK_KB_SYSCTL, &mlock_kb));
	ASSERT_LT(0, cpus);
	if (paranoid < 0)
		SKIP(return, "perf_event_paranoid is %ld: the lock limit binds no one", paranoid);
	allowance = mlock_kb / (page_size() / 1024) * cpus;	/* in pages, as perf_mmap() counts */
	while (pages + 1 <= allowance && pages < (1L << 16))
		pages <<= 1;
	if (pages + 1 <= allowance)
		SKIP(return, "perf_event_mlock_kb allows %ld pages: too many to pass", allowance);

	int big = open_sampler(0, -1), small = open_sampler(0, -1);

	ASSERT_OPEN(big);
	ASSERT_OPEN(small);
	BECOME_NOBODY();
	ASSERT_EQ(0, getrlimit(RLIMIT_MEMLOCK, &rl));
	rl.rlim_cur = 0;
	ASSERT_EQ(0, setrlimit(RLIMIT_MEMLOCK, &rl));

	EXPECT_ERRNO(EPERM, map_shared(big, pages, NULL))
		TH_LOG("1 + %ld pages past an allowance of %ld", pages, allowance);
	EXPECT_ERRNO(0, map_shared(small, 1, NULL)) TH_LOG("the control: 1 + 1 pages");
	close(small);
	close(big);
}

TEST_HARNESS_MAIN
