// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_SAMPLE_CGROUP (since Linux 5.7): the sample carries the id of the
 * cgroup (in the hierarchy of the perf_event controller) of the task that
 * was running when the sample was taken: the same identifier that
 * name_to_handle_at() returns as the file handle of the cgroup's
 * directory, and that PERF_RECORD_CGROUP records carry.
 *
 * The kernel (6.12 kernel/events/core.c: perf_prepare_sample, lines
 * 8022-8031, cgroup_id() of task_css_check(current, perf_event_cgrp_id);
 * without CONFIG_CGROUP_PERF the bit is EINVAL, perf_copy_attr, lines
 * 12628-12631; the same since 5.7) takes the id at the moment of the
 * sample: a task moved into another cgroup has that one's id in its later
 * samples.
 *
 * The hierarchy is the one lib/host/cgroup.h finds (a cgroup v1 mount with
 * perf_event, else cgroup2; cgroup2 mounted in a private mount namespace
 * where none is mounted). The fresh cgroup is a new one there, removed
 * after every case, also a failed one, with the child that was moved in.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "perfconf.h"
#include "host/cgroup.h"
#include "work/child.h"
#include "work/faults.h"

#define N 4	/* the child's faults per step */
#define STR_(x) #x
#define STR(x) STR_(x)

FIXTURE(global) {
	struct pc_cgroup_fresh cg;
	char own[PATH_MAX];	/* the test's own cgroup */
	uint64_t own_id, fresh_id;
	struct pc_child child;
};

static void undo(FIXTURE_DATA(global) *self)
{
	pc_child_kill(&self->child);
	pc_cgroup_fresh_remove(&self->cg);
}

FIXTURE_SETUP(global)
{
	int err;

	self->cg.path[0] = '\0';
	self->cg.private_mount = false;
	self->child.pid = 0;
	if (pc_kernel()->kver < PC_KVER(5, 7))
		SKIP(return, "PERF_SAMPLE_CGROUP is new in 5.7 (kernel %s)", pc_kernel()->release);
	REQUIRE_CONFIG("CGROUP_PERF");
	err = pc_cgroup_fresh_make(&self->cg);
	if (err)
		BLOCKED("cannot make a cgroup (%s)", pc_errno_name(-err));
	err = pc_cgroup_self(&self->cg.m, self->own, sizeof(self->own));
	if (!err)
		err = pc_cgroup_id(self->own, &self->own_id);
	if (err) {
		undo(self);
		BLOCKED("the test's own cgroup under %.200s, or its file handle (%s)", self->cg.m.dir,
			pc_errno_name(-err));
	}
	err = pc_cgroup_id(self->cg.path, &self->fresh_id);
	if (!err)
		err = pc_child_start(&self->child, 0);
	if (err) {
		undo(self);
		ASSERT_ERRNO(0, -err) TH_LOG("the fresh cgroup's file handle, a child");
	}
	pc_work_page_faults(1);
}

FIXTURE_TEARDOWN(global)
{
	undo(self);
}

static struct perfconf_attr cgroup_attr(void)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
		PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_CGROUP);

	attr.exclude_kernel = 1;
	return attr;
}

/*
 * The test's own faults: each sample's CGROUP is the id of the test's own
 * cgroup (its file handle; on a 64-bit kernel also its inode number).
 */
TEST_F(global, own_cgroup)
{
	struct perfconf_attr attr = cgroup_attr();
	struct pc_capture cap;
	struct pc_faults f;
	struct stat st;

	ASSERT_EQ(0, stat(self->own, &st));
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	CAPTURE_FAULT_SAMPLES(&cap, &f, 3);
	for (size_t k = 0; k < 3; k++) {
		const struct pc_sample *s = pc_capture_sample(&cap, k);

		EXPECT_EQ(pc_faults_addr(&f, 1 + k), s->addr);
		EXPECT_EQ(getpid(), s->pid);
		EXPECT_EQ(self->own_id, s->cgroup) TH_LOG("sample %zu: the id of %s", k, self->own);
		if (sizeof(long) == 8) {
			EXPECT_EQ(st.st_ino, s->cgroup) TH_LOG("sample %zu: the inode of %s", k, self->own);
		}
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* The child does N faults sampled by cap: the samples of the child, all with cgroup id want. */
static void child_faults_in(struct __test_metadata *_metadata, FIXTURE_DATA(global) *self,
			    struct pc_capture *cap, uint64_t want, const char *where)
{
	size_t before = pc_capture_count(cap, PERF_RECORD_SAMPLE);

	ASSERT_EQ(0, pc_child_do(&self->child, "faults " STR(N)));	/* warm, unmeasured */
	ASSERT_EQ(0, pc_enable(cap->fd));
	ASSERT_EQ(0, pc_child_do(&self->child, "faults " STR(N)));
	ASSERT_EQ(0, pc_disable(cap->fd));
	ASSERT_CAPTURE_READ(cap);
	size_t n = pc_capture_count(cap, PERF_RECORD_SAMPLE) - before;
	EXPECT_EQ(N, n) TH_LOG("the child's faults %s", where);
	for (size_t k = before; k < before + n; k++) {
		const struct pc_sample *s = pc_capture_sample(cap, k);

		EXPECT_EQ(self->child.pid, s->pid);
		EXPECT_EQ(want, s->cgroup) TH_LOG("sample %zu, %s", k, where);
	}
}

/*
 * A child moved into the fresh cgroup: its samples carry the fresh
 * cgroup's id; moved back, the test's own (the control, in one capture).
 */
TEST_F(global, child_moved_into_fresh_cgroup)
{
	struct perfconf_attr attr = cgroup_attr();
	struct pc_capture cap;

	ASSERT_NE(self->own_id, self->fresh_id);
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, self->child.pid, -1));
	child_faults_in(_metadata, self, &cap, self->own_id, "in the test's own cgroup");
	ASSERT_EQ(0, pc_cgroup_attach(self->cg.path, self->child.pid));
	child_faults_in(_metadata, self, &cap, self->fresh_id, "in the fresh cgroup");
	ASSERT_EQ(0, pc_cgroup_attach(self->own, self->child.pid));
	child_faults_in(_metadata, self, &cap, self->own_id, "moved back");
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
