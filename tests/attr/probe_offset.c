// SPDX-License-Identifier: GPL-2.0
/*
 * probe_offset (since 4.17): for the uprobe PMU, the offset in the file
 * uprobe_path names of the instruction to probe (for the kprobe PMU, the
 * offset from kprobe_func). The probe fires exactly when the instruction
 * at that offset runs: at a function's entry, once per call of that
 * function and never for its neighbour. An offset past the end of the
 * file is refused (EINVAL).
 */
#include <limits.h>
#include <sys/stat.h>

#include "work/measure.h"
#include "perfconf.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

#define N 6
#define M 11

static noinline __attribute__((noipa)) void first(void)
{
	__asm__ volatile("" ::: "memory");
}

static noinline __attribute__((noipa)) void second(void)
{
	__asm__ volatile("" ::: "memory");
}

struct uprobe {
	struct perfconf_attr attr;
	char path[PATH_MAX];
};

#define UPROBE_ON(u, func) do { \
	int e_ = pc_attr_uprobe(&(u)->attr, (const void *)(func), (u)->path, sizeof((u)->path)); \
	if (e_ == -ENOENT) \
		SKIP(return, "no uprobe PMU on this kernel"); \
	ASSERT_EQ(0, e_); \
} while (0)

/* first() runs N times, then second() M times. */
static void work(void)
{
	for (int i = 0; i < N; i++)
		first();
	for (int i = 0; i < M; i++)
		second();
}

/*
 * Two probes on one file that differ only in probe_offset: each counts the
 * calls of the function at its offset, none of the other's.
 */
TEST(the_offset_selects_the_function)
{
	struct uprobe a, b;

	REQUIRE_UPROBES_ON_TASK();
	UPROBE_ON(&a, first);
	UPROBE_ON(&b, second);
	ASSERT_STREQ(a.path, b.path);
	ASSERT_NE(a.attr.probe_offset, b.attr.probe_offset);
	b.attr.uprobe_path = (uintptr_t)a.path;
	int fa = pc_open(&a.attr, 0, -1, -1, 0);
	ASSERT_OPEN(fa);
	int fb = pc_open(&b.attr, 0, -1, -1, 0);
	ASSERT_OPEN(fb);
	ASSERT_EQ(0, pc_enable(fa));
	ASSERT_EQ(0, pc_enable(fb));
	work();
	ASSERT_EQ(0, pc_disable(fa));
	ASSERT_EQ(0, pc_disable(fb));
	EXPECT_EQ(N, pc_count_of(fa));
	EXPECT_EQ(M, pc_count_of(fb));
	close(fa);
	close(fb);
}

TEST(past_the_end_of_the_file_is_einval)
{
	struct uprobe u;
	struct stat st;

	UPROBE_ON(&u, first);
	ASSERT_EQ(0, stat(u.path, &st));
	u.attr.probe_offset = (uint64_t)st.st_size + 4096;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&u.attr, 0, -1, -1, 0)) TH_LOG("offset %llu in a file of %lld bytes",
		(unsigned long long)u.attr.probe_offset, (long long)st.st_size);
}

/*
 * An offset with the top bit set is negative as the kernel's loff_t: the
 * "past the end" check does not see it. Whether it is refused is pinned;
 * if accepted, it probes nothing.
 */
TEST(offset_with_the_top_bit_set)
{
	struct uprobe u;

	UPROBE_ON(&u, first);
	u.attr.probe_offset = UINT64_MAX & ~0xfffULL;
	int fd = pc_open(&u.attr, 0, -1, -1, 0);
	int err = fd < 0 ? errno : 0;
	pc_observe_errno("errno", err);
	if (fd < 0) {
		EXPECT_ERRNO(EINVAL, err);
		return;
	}
	ASSERT_EQ(0, pc_enable(fd));
	work();
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_EQ(0, pc_count_of(fd));
	close(fd);
}

TEST_HARNESS_MAIN
