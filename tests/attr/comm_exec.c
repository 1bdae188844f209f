// SPDX-License-Identifier: GPL-2.0
/*
 * comm_exec (since Linux 3.16): "This is purely a feature-detection flag,
 * it does not change kernel behavior. If this flag can successfully be
 * set, then, when comm is enabled, the PERF_RECORD_MISC_COMM_EXEC flag
 * will be set in the misc field of a comm record header if the rename
 * event being reported was caused by a call to execve(2)."
 *
 * So: an exec's COMM record has the flag, a prctl rename's has not, and
 * the flag is the same whether comm_exec was set or not; comm_exec alone
 * asks for no records.
 */
#include "perfconf.h"
#include "work/attr_probe.h"
#include "work/affinity.h"
#include "ring/sideband.h"
#include "sampling_child.h"

/* comm records of this task and its children (one CPU: see lib/work/affinity.h). */
static int open_comm(struct pc_capture *cap, int comm, int comm_exec)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.comm = comm;
	attr.comm_exec = comm_exec;
	return pc_capture_open_inherited(cap, &attr);
}

/* The misc of the COMM record an exec of the helper produced, or -1. */
static int exec_comm_misc(struct __test_metadata *_metadata, int comm_exec)
{
	struct pc_capture cap;
	int misc = -1;

	ASSERT_ERRNO(0, -open_comm(&cap, 1, comm_exec));
	pid_t child = child_recorded(_metadata, &cap, pc_work_exec, "exit");
	const struct pc_record *r = pc_find_tid(&cap, PERF_RECORD_COMM, child, 0);

	EXPECT_NE(NULL, r) TH_LOG("no COMM record from the exec'd child %d", child);
	if (r) {
		EXPECT_EQ(child, r->comm.pid);
		misc = r->misc;
	}
	pc_capture_close(&cap);
	return misc;
}

TEST(accepted)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.comm = 1;
	attr.comm_exec = 1;
	EXPECT_ERRNO_SINCE("comm_exec", 0, EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST(exec_sets_misc_comm_exec)
{
	EXPECT_EQ(PERF_RECORD_MISC_COMM_EXEC, exec_comm_misc(_metadata, 1));
}

/* "it does not change kernel behavior": the flag is there without comm_exec too. */
TEST(flag_does_not_depend_on_comm_exec)
{
	EXPECT_EQ(PERF_RECORD_MISC_COMM_EXEC, exec_comm_misc(_metadata, 0));
}

TEST(rename_is_not_an_exec)
{
	struct pc_capture cap;

	ASSERT_ERRNO(0, -open_comm(&cap, 1, 1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	ASSERT_EQ(0, pc_work_set_comm("pc-not-exec"));
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	const struct pc_record *r = pc_find_tid(&cap, PERF_RECORD_COMM, gettid(), 0);

	ASSERT_NE(NULL, r);
	EXPECT_STREQ("pc-not-exec", r->comm.comm);
	EXPECT_EQ(0, r->misc & PERF_RECORD_MISC_COMM_EXEC);
	pc_capture_close(&cap);
}

/* Without comm, comm_exec produces nothing: no COMM record for a rename or an exec. */
TEST(alone_asks_for_nothing)
{
	struct pc_capture cap;

	ASSERT_ERRNO(0, -open_comm(&cap, 0, 1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	ASSERT_EQ(0, pc_work_set_comm("pc-silent"));
	pid_t child = pc_work_exec("exit");
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LT(0, child);
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_COMM));
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
