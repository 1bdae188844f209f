// SPDX-License-Identifier: GPL-2.0
/*
 * EINTR from perf_event_open(): one uprobe event cannot be handled by ftrace
 * and by perf at once. A uprobe defined in tracefs (uprobe_events) is a
 * tracepoint both can use; while ftrace has it enabled, opening it for perf
 * fails with EINTR, and while perf has it open, enabling it in ftrace
 * fails the same way.
 *
 * In kernel/trace/trace_uprobe.c (6.12) probe_event_enable() (lines 1153-1165)
 * refuses a perf registration of a probe flagged TP_FLAG_TRACE, and an
 * ftrace one of a probe flagged TP_FLAG_PROFILE, with -EINTR. Each refusal
 * has its control: with the other user gone, the same request succeeds.
 *
 * The probe is on a noinline function of this binary, under a name unique
 * to this process, and is removed by the parent's teardown, which runs
 * even when the case crashes.
 */

#include "perfconf.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

FIXTURE(global) {
	char dir[256];		/* tracefs */
	char group[64], event[64];
	int defined;
};

/* Enable (1) or disable (0) the probe in ftrace: 0 or -errno. */
static int ftrace_enable(FIXTURE_DATA(global) *self, int on)
{
	char path[512];

	snprintf(path, sizeof(path), "events/%s/%s/enable", self->group, self->event);
	return pc_tracefs_write(path, on ? "1" : "0");
}

FIXTURE_SETUP(global)
{
	struct perfconf_attr uprobe;
	char path[512], def[1024];
	const char *tracefs;
	int err;

	self->defined = 0;
	REQUIRE_CONFIG("CONFIG_UPROBE_EVENTS");
	tracefs = pc_tracefs();
	if (!tracefs)
		SKIP(return, "no tracefs on this machine");
	snprintf(self->dir, sizeof(self->dir), "%s", tracefs);
	snprintf(path, sizeof(path), "%s/uprobe_events", self->dir);
	if (access(path, W_OK))
		SKIP(return, "no %s (CONFIG_UPROBE_EVENTS not set)", path);
	/* the file and offset of pc_work_target, as the uprobe PMU would take them */
	UPROBE_ATTR(&uprobe, pc_work_target);
	snprintf(self->group, sizeof(self->group), "perfconf_eintr_%d", (int)getpid());
	snprintf(self->event, sizeof(self->event), "target");
	snprintf(def, sizeof(def), "p:%s/%s %s:0x%llx", self->group, self->event,
		 (const char *)(uintptr_t)uprobe.uprobe_path, (unsigned long long)uprobe.probe_offset);
	err = pc_tracefs_write("uprobe_events", def);
	ASSERT_EQ(0, err) TH_LOG("defining %s: %s", def, pc_errno_name(-err));
	self->defined = 1;
}

FIXTURE_TEARDOWN_PARENT(global)
{
	char undef[160];

	if (!self->defined)
		return;
	/* the child's tracefs may be a mount of its own namespace: find it here */
	const char *tracefs = pc_tracefs();

	ASSERT_NE(NULL, tracefs);
	snprintf(self->dir, sizeof(self->dir), "%s", tracefs);
	ftrace_enable(self, 0);
	snprintf(undef, sizeof(undef), "-:%s/%s", self->group, self->event);
	EXPECT_EQ(0, pc_tracefs_write("uprobe_events", undef)) TH_LOG("removing the probe %s", undef);
}

/* The probe as a perf tracepoint, counting this task. */
static int tracepoint(FIXTURE_DATA(global) *self, struct perfconf_attr *attr)
{
	return pc_attr_tracepoint(attr, self->group, self->event);
}

TEST_F(global, perf_open_while_ftrace_uses_the_probe_is_eintr)
{
	struct perfconf_attr attr;

	ASSERT_EQ(0, tracepoint(self, &attr));
	ASSERT_EQ(0, ftrace_enable(self, 1));
	EXPECT_ERRNO(EINTR, pc_open_errno(&attr, 0, -1, -1, 0));

	/* the control: ftrace lets go, and perf opens it and counts with it */
	ASSERT_EQ(0, ftrace_enable(self, 0));
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	uint64_t count = 0;

	ASSERT_OPEN(fd);
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_calls(100);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(0, pc_read_count(fd, &count));
	EXPECT_EQ(100, count);
	close(fd);
}

TEST_F(global, ftrace_enable_while_perf_uses_the_probe_is_eintr)
{
	struct perfconf_attr attr;

	ASSERT_EQ(0, tracepoint(self, &attr));
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINTR, -ftrace_enable(self, 1));
	close(fd);
	/* the control: perf lets go, and ftrace enables it */
	EXPECT_ERRNO(0, -ftrace_enable(self, 1));
	EXPECT_ERRNO(0, -ftrace_enable(self, 0));
}

TEST_HARNESS_MAIN
