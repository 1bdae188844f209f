// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_path (since 4.17): for the uprobe PMU, "use uprobe_path and
 * probe_offset": a pointer to the path of the file to probe, and the file
 * offset of the instruction. The uprobe lives as long as the fd. With the
 * retprobe format bit (format/retprobe, "config:0") it is a uretprobe and
 * fires on each return.
 *
 * The kernel copies the path as a string of at most PATH_MAX: no path
 * (NULL or "") is EINVAL, a bad pointer EFAULT, a string without its end
 * within PATH_MAX E2BIG; a path that is not there is the lookup's ENOENT.
 * Only CAP_SYS_ADMIN may create a uprobe (EACCES).
 */
#include <limits.h>
#include <stdlib.h>

#include "perfconf.h"

/* Its cases create and destroy probe events: one such binary at a time (serial=). */
PERFCONF_META("reads=perf_event_paranoid serial=probes");

/* Some cases probe its own code as another identity: from a copy it can reach. */
PERFCONF_REACHABLE_BY_EVERY_IDENTITY()

#define N 9

static noinline __attribute__((noipa)) void probe(void)
{
	__asm__ volatile("" ::: "memory");
}

struct uprobe {
	struct perfconf_attr attr;
	char path[PATH_MAX];
};

/* A uprobe on probe() in this executable. */
#define UPROBE_ON_PROBE(u) do { \
	int e_ = pc_attr_uprobe(&(u)->attr, (const void *)probe, (u)->path, sizeof((u)->path)); \
	if (e_ == -ENOENT) \
		SKIP(return, "no uprobe PMU on this kernel"); \
	ASSERT_EQ(0, e_); \
} while (0)

static uint64_t calls_counted(struct perfconf_attr *attr)
{
	uint64_t count = UINT64_MAX;
	int fd = pc_open(attr, 0, -1, -1, 0);

	if (fd < 0)
		return UINT64_MAX;
	if (pc_enable(fd) == 0) {
		for (int i = 0; i < N; i++)
			probe();
		pc_disable(fd);
		pc_read_count(fd, &count);
	}
	close(fd);
	return count;
}

TEST(counts_each_call)
{
	struct uprobe u;

	REQUIRE_UPROBES_ON_TASK();
	UPROBE_ON_PROBE(&u);
	EXPECT_EQ(N, calls_counted(&u.attr)) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

/* The retprobe bit, found in sysfs: a uretprobe fires once per return. */
TEST(retprobe_counts_each_return)
{
	struct pc_pmu_format retprobe;
	struct uprobe u;

	REQUIRE_UPROBES_ON_TASK();
	UPROBE_ON_PROBE(&u);
	ASSERT_EQ(0, pc_pmu_format("uprobe", "retprobe", &retprobe));
	ASSERT_EQ(0, retprobe.word) TH_LOG("retprobe is documented in config");
	u.attr.config |= retprobe.mask;
	EXPECT_EQ(N, calls_counted(&u.attr)) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

TEST(missing_file_is_enoent)
{
	struct uprobe u;

	UPROBE_ON_PROBE(&u);
	strcpy(u.path, "/nonexistent-perfconf/binary");
	EXPECT_ERRNO(ENOENT, pc_open_errno(&u.attr, 0, -1, -1, 0));
}

TEST(no_path_is_einval)
{
	struct uprobe u;

	UPROBE_ON_PROBE(&u);
	u.path[0] = '\0';
	EXPECT_ERRNO(EINVAL, pc_open_errno(&u.attr, 0, -1, -1, 0)) TH_LOG("empty path");
	u.attr.uprobe_path = 0;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&u.attr, 0, -1, -1, 0)) TH_LOG("NULL path");
}

/* Only a regular file can be probed; which errno a directory gets is pinned. */
TEST(directory_is_refused)
{
	struct uprobe u;

	UPROBE_ON_PROBE(&u);
	strcpy(u.path, "/");
	int err = pc_open_errno(&u.attr, 0, -1, -1, 0);
	pc_observe_errno("errno", err);
	EXPECT_NE(0, err);
}

TEST(bad_pointer_is_efault)
{
	struct uprobe u;

	UPROBE_ON_PROBE(&u);
	u.attr.uprobe_path = 8;		/* the first page is never mapped */
	EXPECT_ERRNO(EFAULT, pc_open_errno(&u.attr, 0, -1, -1, 0));
}

TEST(longer_than_path_max_is_e2big)
{
	struct uprobe u;
	char *huge = malloc(PATH_MAX + 2);

	UPROBE_ON_PROBE(&u);
	ASSERT_NE(NULL, huge);
	memset(huge, 'a', PATH_MAX + 1);
	huge[0] = '/';
	huge[PATH_MAX + 1] = '\0';
	u.attr.uprobe_path = (uintptr_t)huge;
	EXPECT_ERRNO(E2BIG, pc_open_errno(&u.attr, 0, -1, -1, 0));
	free(huge);
}

/*
 * Without CAP_SYS_ADMIN no uprobe is created, even for one's own code in
 * user mode; the control is the same request by the same uid holding
 * CAP_SYS_ADMIN, which counts each call. (tests/privilege/uprobe_pmu has
 * every identity and level.)
 */
static void user_mode_uprobe_as(struct __test_metadata *_metadata, const char *identity, int want_errno)
{
	struct uprobe u;

	UPROBE_ON_PROBE(&u);
	BECOME_IDENTITY(pc_identity(identity));
	u.attr.exclude_kernel = 1;
	u.attr.exclude_hv = 1;
	REQUIRE_UPROBE_PATH_VISIBLE(&u.attr);
	if (want_errno) {
		EXPECT_ERRNO(want_errno, pc_open_errno(&u.attr, 0, -1, -1, 0));
	} else {
		EXPECT_EQ(N, calls_counted(&u.attr)) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
	}
}

TEST(unprivileged_is_eacces)
{
	user_mode_uprobe_as(_metadata, "unprivileged", EACCES);
}

TEST(sys_admin_counts_each_call)
{
	REQUIRE_UPROBES_ON_TASK();
	user_mode_uprobe_as(_metadata, "sys_admin", 0);
}

TEST_HARNESS_MAIN
