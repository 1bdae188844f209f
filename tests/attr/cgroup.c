// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup (since Linux 5.7): "This enables the generation of
 * PERF_RECORD_CGROUP records when a new cgroup is created (and
 * activated)." The record's id "is the cgroup identifier. This can be also
 * retrieved by name_to_handle_at(2) on the cgroup path (as a file
 * handle)" -- on 64-bit kernels it is also the directory's inode number --
 * and path "is the path of the cgroup from the root" of its hierarchy.
 *
 * The cgroups are made in the hierarchy that hosts perf_event (found in
 * mountinfo, see lib/host/cgroup.h) and removed again before any verdict.
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "host/cgroup.h"
#include "ring/sideband.h"

/* A cgroup as the test made it: its ids, taken while it existed. */
struct made {
	char rel[64];			/* under the mount */
	char path[PATH_MAX];		/* in the file system */
	char kernel_path[PATH_MAX];	/* as the record names it */
	uint64_t ino;
	uint64_t handle_id;
	int handle_err;			/* 0 when name_to_handle_at gave an id */
};

/* mkdir the cgroups in order, note their ids, rmdir them in reverse. 0 or errno. */
static int make_and_remove(const struct pc_cgroup_mount *m, struct made *cg, int n)
{
	int made = 0, err = 0;

	for (; made < n && !err; made++) {
		struct made *c = &cg[made];
		struct stat st;

		err = -pc_cgroup_create(m, c->rel, c->path, sizeof(c->path));
		if (err)
			break;
		pc_cgroup_kernel_path(m, c->rel, c->kernel_path, sizeof(c->kernel_path));
		err = stat(c->path, &st) ? errno : 0;
		c->ino = st.st_ino;
		c->handle_err = -pc_cgroup_id(c->path, &c->handle_id);
	}
	while (made-- > 0)
		pc_cgroup_remove(cg[made].path);
	return err;
}

static void expect_made(struct __test_metadata *_metadata, const struct pc_capture *cap,
			const struct made *cg)
{
	const struct pc_record *r = pc_find_cgroup(cap, cg->kernel_path);

	ASSERT_NE(NULL, r) TH_LOG("no CGROUP record with path %s", cg->kernel_path);
	if (cg->handle_err == 0) {
		EXPECT_EQ(cg->handle_id, r->cgroup.id) TH_LOG("id is not the file handle's");
	} else {
		TH_LOG("no file handle for cgroups here (%s)", pc_errno_name(cg->handle_err));
	}
	if (sizeof(long) == 8) {
		EXPECT_EQ(cg->ino, r->cgroup.id) TH_LOG("id is not the inode number");
	}
	EXPECT_EQ(0, r->misc);
}

/* A dummy event with only the bit set. */
static struct perfconf_attr cgroup_attr(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.cgroup = 1;
	return attr;
}

#define REQUIRE_CGROUPS(m) do { \
	REQUIRE_CONFIG("CGROUP_PERF"); \
	if (pc_cgroup_perf_mount(m)) \
		SKIP(return, "no cgroup hierarchy is mounted"); \
} while (0)

/* Before 5.7 the bit is reserved: EINVAL there means "not supported". */
#define OPEN_OR_SKIP(cap) do { \
	struct perfconf_attr attr_ = cgroup_attr(); \
	PC_CAPTURE_OPEN_SINCE(cap, &attr_, 0, -1, "cgroup"); \
} while (0)

/* Cannot make cgroups here (read-only, delegated away): not a failure of perf. */
#define MADE_OR_SKIP(err) do { \
	if ((err) == EACCES || (err) == EPERM || (err) == EROFS) \
		SKIP(return, "cannot create a cgroup here (%s)", pc_errno_name(err)); \
	ASSERT_ERRNO(0, err); \
} while (0)

/* Capture the making (and removal) of the n cgroups cg[] names in m. */
#define CAPTURE_MAKING(cap, m, cg, n) do { \
	OPEN_OR_SKIP(cap); \
	ASSERT_EQ(0, pc_enable((cap)->fd)); \
	int err_ = make_and_remove(m, cg, n); \
	ASSERT_EQ(0, pc_disable((cap)->fd)); \
	MADE_OR_SKIP(err_); \
	ASSERT_CAPTURE_READ(cap); \
} while (0)

TEST(accepted)
{
	struct perfconf_attr attr = cgroup_attr();

	EXPECT_ERRNO_SINCE("cgroup", 0, EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST(mkdir_reports_the_new_cgroup)
{
	struct pc_cgroup_mount m;
	struct pc_capture cap;
	struct made cg[1];

	REQUIRE_CGROUPS(&m);
	pc_cgroup_unique_name(cg[0].rel, sizeof(cg[0].rel));
	CAPTURE_MAKING(&cap, &m, cg, 1);
	EXPECT_EQ(1, pc_capture_count(&cap, PERF_RECORD_CGROUP));
	expect_made(_metadata, &cap, &cg[0]);
	pc_capture_close(&cap);
}

/* A cgroup inside a new one: two records, the inner path below the outer. */
TEST(nested_cgroups)
{
	struct pc_cgroup_mount m;
	struct pc_capture cap;
	struct made cg[2];
	char name[48];

	REQUIRE_CGROUPS(&m);
	pc_cgroup_unique_name(name, sizeof(name));
	snprintf(cg[0].rel, sizeof(cg[0].rel), "%s", name);
	snprintf(cg[1].rel, sizeof(cg[1].rel), "%s/inner", name);
	CAPTURE_MAKING(&cap, &m, cg, 2);
	EXPECT_EQ(2, pc_capture_count(&cap, PERF_RECORD_CGROUP));
	expect_made(_metadata, &cap, &cg[0]);
	expect_made(_metadata, &cap, &cg[1]);
	EXPECT_NE(cg[0].ino, cg[1].ino);
	EXPECT_LT(pc_capture_index(&cap, pc_find_cgroup(&cap, cg[0].kernel_path)),
		  pc_capture_index(&cap, pc_find_cgroup(&cap, cg[1].kernel_path)));
	pc_capture_close(&cap);
}

/* Only creation is reported: removing a cgroup writes no record. */
TEST(rmdir_reports_nothing)
{
	struct pc_cgroup_mount m;
	struct pc_capture cap;
	char rel[64], path[PATH_MAX];

	REQUIRE_CGROUPS(&m);
	OPEN_OR_SKIP(&cap);
	int err = -pc_cgroup_create(&m, pc_cgroup_unique_name(rel, sizeof(rel)), path, sizeof(path));
	MADE_OR_SKIP(err);
	int enabled = pc_enable(cap.fd);
	err = -pc_cgroup_remove(path);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_EQ(0, enabled);
	ASSERT_ERRNO(0, err);
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_CGROUP));
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
