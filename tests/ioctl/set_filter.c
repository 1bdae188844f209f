// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_SET_FILTER (since 2.6.33): the argument points to a
 * NUL-terminated filter expression in the ftrace filter language, which a
 * tracepoint event (or a kprobe or uprobe event) then applies to each hit:
 * only the hits whose fields match are counted or sampled. The filter is
 * the event's own; other events on the same tracepoint are not affected.
 *
 * What kernel/events/core.c and kernel/trace/trace_events_filter.c add
 * (6.12: perf_event_set_filter(), ftrace_profile_set_filter()):
 *  - the string is copied with strndup_user(arg, PAGE_SIZE): a pointer
 *    the kernel cannot read is EFAULT, a string longer than a page less
 *    its NUL is EINVAL;
 *  - an event that is neither a tracing event nor one with address
 *    filters (a software counter) is EINVAL;
 *  - an event has at most one filter for its whole life: a second
 *    SET_FILTER is EEXIST, and there is no way to clear it ("0", which
 *    clears a filter written to tracefs, is no filter expression here:
 *    EINVAL on an event without one, EEXIST on one with);
 *  - an expression the parser rejects, or a field the tracepoint does not
 *    have, is EINVAL, and leaves the event without a filter. A few
 *    malformed expressions (unbalanced parentheses, an unterminated
 *    string, a leading operator) return the parser's internal codes
 *    instead (-1, -2, -3 read as EPERM, ENOENT, ESRCH since the 4.17
 *    rewrite of the parser): those are observed, not asserted.
 *
 * Measured on task:task_rename, which prctl(PR_SET_NAME) fires once per
 * call in this task with the new name in its newcomm field, so the
 * expected count of every filter is known exactly. Filters are per event,
 * so other binaries counting this tracepoint at the same time do not
 * disturb these counts.
 */
#include "perfconf.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "work/measure.h"

PERFCONF_KEEP_TRACEPOINT(task, task_rename)

#define KEEP 3		/* renames to "pc-keep" */
#define DROP 5		/* renames to "pc-drop" */

/* PERF_EVENT_IOC_SET_FILTER: 0, or the errno. */
static int filter_errno(int fd, const char *filter)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) ? errno : 0;
}

/* Count KEEP renames to "pc-keep" interleaved with DROP renames to "pc-drop". */
static uint64_t count_renames(int fd)
{
	if (pc_reset(fd) || pc_enable(fd))
		return UINT64_MAX;
	for (int i = 0; i < KEEP || i < DROP; i++) {
		if (i < KEEP)
			pc_work_set_comm("pc-keep");
		if (i < DROP)
			pc_work_set_comm("pc-drop");
	}
	if (pc_disable(fd))
		return UINT64_MAX;
	return pc_count_of(fd);
}

/*
 * A counter of task:task_rename on this task into *fd, checked unfiltered
 * (the control of every case: each rename counts); SKIP where the
 * tracepoint is not here.
 */
static void open_renames(struct __test_metadata *_metadata, int *fd)
{
	struct perfconf_attr attr;
	int err = pc_attr_tracepoint(&attr, "task", "task_rename");

	if (err == -ENOENT)
		SKIP(return, "no task:task_rename tracepoint (no tracefs here)");
	ASSERT_EQ(0, err) TH_LOG("%s", pc_errno_name(-err));
	*fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(*fd);
	ASSERT_EQ(KEEP + DROP, count_renames(*fd));
}

FIXTURE(global) {
	int fd;
};

FIXTURE_SETUP(global)
{
	self->fd = -1;
	open_renames(_metadata, &self->fd);
}

FIXTURE_TEARDOWN(global)
{
	if (self->fd >= 0)
		close(self->fd);
}

FIXTURE(filter) {
	int fd;
};

/* A filter and the renames it keeps; "%d" is this task's pid. */
FIXTURE_VARIANT(filter) {
	const char *filter;
	uint64_t kept;
};

FIXTURE_VARIANT_ADD(filter, equal) { .filter = "newcomm == \"pc-keep\"", .kept = KEEP };
FIXTURE_VARIANT_ADD(filter, not_equal) { .filter = "newcomm != \"pc-keep\"", .kept = DROP };
FIXTURE_VARIANT_ADD(filter, glob) { .filter = "newcomm ~ \"pc-k*\"", .kept = KEEP };
FIXTURE_VARIANT_ADD(filter, either) {
	.filter = "newcomm == \"pc-keep\" || newcomm == \"pc-drop\"", .kept = KEEP + DROP
};
FIXTURE_VARIANT_ADD(filter, both) {
	.filter = "newcomm == \"pc-keep\" && common_pid == %d", .kept = KEEP
};
FIXTURE_VARIANT_ADD(filter, other_pid) { .filter = "common_pid != %d", .kept = 0 };
FIXTURE_VARIANT_ADD(filter, no_match) { .filter = "newcomm == \"pc-none\"", .kept = 0 };

FIXTURE_SETUP(filter)
{
	self->fd = -1;
	open_renames(_metadata, &self->fd);
}

FIXTURE_TEARDOWN(filter)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The filter keeps exactly the hits whose fields match it. */
TEST_F(filter, keeps_matching_hits)
{
	char filter[128];

	snprintf(filter, sizeof(filter), variant->filter, (int)getpid());
	ASSERT_ERRNO(0, filter_errno(self->fd, filter)) TH_LOG("%s", filter);
	EXPECT_EQ(variant->kept, count_renames(self->fd)) TH_LOG("%s", filter);
}

/* A second filter is EEXIST, and the first one stays in force. */
TEST_F(global, second_filter_is_eexist)
{
	ASSERT_ERRNO(0, filter_errno(self->fd, "newcomm == \"pc-keep\""));
	EXPECT_ERRNO(EEXIST, filter_errno(self->fd, "newcomm == \"pc-drop\""));
	EXPECT_ERRNO(EEXIST, filter_errno(self->fd, "newcomm == \"pc-keep\""));
	EXPECT_EQ(KEEP, count_renames(self->fd));
}

/* "0" is no expression: EINVAL without a filter, EEXIST with one, which stays. */
TEST_F(global, zero_does_not_clear_a_filter)
{
	EXPECT_ERRNO(EINVAL, filter_errno(self->fd, "0"));
	EXPECT_EQ(KEEP + DROP, count_renames(self->fd));
	ASSERT_ERRNO(0, filter_errno(self->fd, "newcomm == \"pc-keep\""));
	EXPECT_ERRNO(EEXIST, filter_errno(self->fd, "0"));
	EXPECT_EQ(KEEP, count_renames(self->fd));
}

/*
 * Expressions the parser rejects are EINVAL and install nothing: the
 * event still counts every hit, and still takes a valid filter.
 */
TEST_F(global, syntax_error_is_einval)
{
	static const char *const bad[] = {
		"",				/* no expression */
		"newcomm",			/* a field without operator */
		"newcomm ==",			/* an operator without value */
		"newcomm == pc-keep",		/* a string without quotes */
		"newcomm > \"pc-keep\"",	/* no ordering of strings */
		"1",				/* no predicate */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_ERRNO(EINVAL, filter_errno(self->fd, bad[i])) TH_LOG("'%s'", bad[i]);
	}
	EXPECT_EQ(KEEP + DROP, count_renames(self->fd));
	ASSERT_ERRNO(0, filter_errno(self->fd, "newcomm == \"pc-drop\""));	/* the control */
	EXPECT_EQ(DROP, count_renames(self->fd));
}

/*
 * Malformed expressions whose errno is the parser's internal code: each
 * is observed, and none installs a filter.
 */
TEST_F(global, malformed_expression_errnos)
{
	static const struct {
		const char *key, *filter;
	} bad[] = {
		{ "errno.open_paren", "(newcomm == \"pc-keep\"" },
		{ "errno.close_paren", "newcomm == \"pc-keep\")" },
		{ "errno.open_quote", "newcomm == \"pc-keep" },
		{ "errno.leading_and", "&& newcomm == \"pc-keep\"" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = filter_errno(self->fd, bad[i].filter);

		pc_observe_errno(bad[i].key, err);
		EXPECT_NE(0, err) TH_LOG("'%s' was accepted", bad[i].filter);
	}
	EXPECT_EQ(KEEP + DROP, count_renames(self->fd));
}

/* A field the tracepoint does not have is EINVAL; one it has works (the control). */
TEST_F(global, unknown_field_is_einval)
{
	EXPECT_ERRNO(EINVAL, filter_errno(self->fd, "perfconf_no_such_field == 1"));
	EXPECT_ERRNO(EINVAL, filter_errno(self->fd, "newcomm == \"pc-keep\" && no_such_field == 1"));
	EXPECT_EQ(KEEP + DROP, count_renames(self->fd));
	ASSERT_ERRNO(0, filter_errno(self->fd, "newcomm == \"pc-keep\""));
	EXPECT_EQ(KEEP, count_renames(self->fd));
}

/* A software counter takes no filter: EINVAL for what a tracepoint takes. */
TEST_F(global, software_event_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	int fd = pc_open(&attr, 0, -1, -1, 0);

	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, filter_errno(fd, "common_pid != 0"));
	EXPECT_ERRNO(0, filter_errno(self->fd, "common_pid != 0"));	/* the control */
	EXPECT_EQ(KEEP + DROP, count_renames(self->fd));
	close(fd);
}

/* A pointer the kernel cannot read is EFAULT, on a tracepoint as on a counter. */
TEST_F(global, bad_pointer_is_efault)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	long page = sysconf(_SC_PAGESIZE);
	void *gone;
	int fd;

	/* mapped without access, so that no later mapping lands there while the case runs */
	gone = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, gone);
	EXPECT_ERRNO(EFAULT, filter_errno(self->fd, NULL));
	EXPECT_ERRNO(EFAULT, filter_errno(self->fd, gone));
	/* the string is copied before the event's kind is looked at */
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EFAULT, filter_errno(fd, gone));
	close(fd);
	EXPECT_ERRNO(0, filter_errno(self->fd, "newcomm == \"pc-keep\""));	/* the control */
	EXPECT_EQ(KEEP, count_renames(self->fd));
	munmap(gone, page);
}

/*
 * The expression is copied up to a page: one that fills the page with
 * its NUL works (padded with blanks), one byte more is EINVAL.
 */
TEST_F(global, longer_than_a_page_is_einval)
{
	static const char expr[] = "newcomm == \"pc-keep\"";
	long page = sysconf(_SC_PAGESIZE);
	char *s = malloc(page + 1);

	ASSERT_NE(NULL, s);
	memset(s, ' ', page);
	memcpy(s, expr, sizeof(expr) - 1);
	s[page] = 0;
	EXPECT_ERRNO(EINVAL, filter_errno(self->fd, s)) TH_LOG("%ld characters", page);
	EXPECT_EQ(KEEP + DROP, count_renames(self->fd));
	s[page - 1] = 0;
	EXPECT_ERRNO(0, filter_errno(self->fd, s)) TH_LOG("%ld characters", page - 1);
	EXPECT_EQ(KEEP, count_renames(self->fd));
	free(s);
}

TEST_HARNESS_MAIN
