// SPDX-License-Identifier: GPL-2.0
/*
 * comm: "The comm bit enables tracking of process command name as modified
 * by the execve(2) and prctl(PR_SET_NAME) system calls as well as writing
 * to /proc/self/comm." Each change is a PERF_RECORD_COMM with the pid and
 * tid of the renamed task and its new name, at most TASK_COMM_LEN - 1 = 15
 * characters. A rename that is not an exec has misc 0.
 */
#include <fcntl.h>
#include <sys/prctl.h>

#include "perfconf.h"
#include "work/affinity.h"
#include "ring/sideband.h"

static struct perfconf_attr comm_attr(int inherit)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.comm = 1;
	attr.inherit = inherit;
	return attr;
}

TEST(prctl_set_name)
{
	struct perfconf_attr attr = comm_attr(0);
	struct pc_capture cap;

	ASSERT_ERRNO(0, pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	ASSERT_EQ(0, pc_work_set_comm("pc-renamed"));
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LE(0, pc_capture_read(&cap)) TH_LOG("%s", cap.error);
	ASSERT_EQ(1, pc_count_tid(&cap, PERF_RECORD_COMM, gettid()));
	const struct pc_record *r = pc_find_tid(&cap, PERF_RECORD_COMM, gettid(), 0);

	EXPECT_EQ(getpid(), r->comm.pid);
	EXPECT_STREQ("pc-renamed", r->comm.comm);
	EXPECT_EQ(0, r->misc);
	pc_capture_close(&cap);
}

TEST(write_to_proc_comm)
{
	struct perfconf_attr attr = comm_attr(0);
	static const char name[] = "pc-proc-comm";
	struct pc_capture cap;

	ASSERT_ERRNO(0, pc_capture_open(&cap, &attr, 0, -1));
	int fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pc_enable(cap.fd));
	ssize_t n = write(fd, name, sizeof(name) - 1);
	ASSERT_EQ(0, pc_disable(cap.fd));
	close(fd);
	ASSERT_EQ(sizeof(name) - 1, n);
	ASSERT_LE(0, pc_capture_read(&cap)) TH_LOG("%s", cap.error);
	const struct pc_record *r = pc_find_tid(&cap, PERF_RECORD_COMM, gettid(), 0);

	ASSERT_NE(NULL, r) TH_LOG("no COMM record after writing /proc/thread-self/comm");
	EXPECT_EQ(getpid(), r->comm.pid);
	EXPECT_STREQ(name, r->comm.comm);
	EXPECT_EQ(0, r->misc);
	pc_capture_close(&cap);
}

/* A name longer than 15 characters is cut to 15, and so is the record's. */
TEST(long_name_is_truncated)
{
	struct perfconf_attr attr = comm_attr(0);
	struct pc_capture cap;

	ASSERT_ERRNO(0, pc_capture_open(&cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_enable(cap.fd));
	ASSERT_EQ(0, pc_work_set_comm("perfconf-0123456789abcdef"));
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LE(0, pc_capture_read(&cap)) TH_LOG("%s", cap.error);
	const struct pc_record *r = pc_find_tid(&cap, PERF_RECORD_COMM, gettid(), 0);

	ASSERT_NE(NULL, r);
	EXPECT_STREQ("perfconf-012345", r->comm.comm);
	pc_capture_close(&cap);
}

/*
 * A thread renaming itself: the process's pid, the thread's tid (inherit
 * carries the event into the thread).
 */
TEST(thread_rename)
{
	struct perfconf_attr attr = comm_attr(1);
	struct pc_capture cap;

	/* Inherited, to follow the new task: one CPU (lib/affinity.h). */
	ASSERT_ERRNO(0, pc_capture_open_inherited(&cap, &attr));
	ASSERT_EQ(0, pc_enable(cap.fd));
	pid_t tid = pc_work_in_thread("comm pc-thread");
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LT(0, tid) TH_LOG("thread: %s", pc_errno_name(-tid));
	ASSERT_LE(0, pc_capture_read(&cap)) TH_LOG("%s", cap.error);
	const struct pc_record *r = pc_find_tid(&cap, PERF_RECORD_COMM, tid, 0);

	ASSERT_NE(NULL, r) TH_LOG("no COMM record from thread %d", tid);
	EXPECT_EQ(getpid(), r->comm.pid);
	EXPECT_STREQ("pc-thread", r->comm.comm);
	EXPECT_EQ(0, r->misc);
	EXPECT_EQ(0, pc_count_tid(&cap, PERF_RECORD_COMM, gettid()))
		TH_LOG("the main thread was not renamed");
	pc_capture_close(&cap);
}

/*
 * execve(2) names the process after the file it ran: the last component
 * of the path it was given, "/proc/self/exe" for the lib's exec helper.
 */
TEST(exec_renames)
{
	struct perfconf_attr attr = comm_attr(1);
	struct pc_capture cap;

	/* Inherited, to follow the new task: one CPU (lib/affinity.h). */
	ASSERT_ERRNO(0, pc_capture_open_inherited(&cap, &attr));
	ASSERT_EQ(0, pc_enable(cap.fd));
	pid_t child = pc_work_exec("exit");
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_LT(0, child) TH_LOG("exec helper: %s", pc_errno_name(-child));
	ASSERT_LE(0, pc_capture_read(&cap)) TH_LOG("%s", cap.error);
	ASSERT_EQ(1, pc_count_tid(&cap, PERF_RECORD_COMM, child));
	const struct pc_record *r = pc_find_tid(&cap, PERF_RECORD_COMM, child, 0);

	EXPECT_EQ(child, r->comm.pid);
	EXPECT_STREQ("exe", r->comm.comm);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
