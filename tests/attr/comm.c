// SPDX-License-Identifier: GPL-2.0
/*
 * comm: "The comm bit enables tracking of process command name as modified
 * by the execve(2) and prctl(PR_SET_NAME) system calls as well as writing
 * to /proc/self/comm." Each change is a PERF_RECORD_COMM with the pid and
 * tid of the renamed task and its new name, at most TASK_COMM_LEN - 1 = 15
 * characters. A rename that is not an exec has misc 0.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>

#define FIELD comm
#include "record_bit.h"

TEST(prctl_set_name)
{
	struct pc_capture cap;

	ASSERT_EQ(0, record_around(_metadata, &cap, 0, pc_work_set_comm, "pc-renamed"));
	const struct pc_record *r = only_record(_metadata, &cap, PERF_RECORD_COMM, gettid());

	EXPECT_EQ(getpid(), r->comm.pid);
	EXPECT_STREQ("pc-renamed", r->comm.comm);
	EXPECT_EQ(0, r->misc);
	pc_capture_close(&cap);
}

/* Writes name to /proc/thread-self/comm: the bytes written, or -errno. */
static int write_proc_comm(const char *name)
{
	int fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, name, strlen(name));
	int err = n < 0 ? -errno : (int)n;

	close(fd);
	return err;
}

TEST(write_to_proc_comm)
{
	static const char name[] = "pc-proc-comm";
	struct pc_capture cap;

	int n = record_around(_metadata, &cap, 0, write_proc_comm, name);
	ASSERT_EQ(sizeof(name) - 1, n) TH_LOG("%s", n < 0 ? pc_errno_name(-n) : "short write");
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
	struct pc_capture cap;

	ASSERT_EQ(0, record_around(_metadata, &cap, 0, pc_work_set_comm, "perfconf-0123456789abcdef"));
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
	struct pc_capture cap;

	pid_t tid = record_around(_metadata, &cap, 1, pc_work_in_thread, "comm pc-thread");
	ASSERT_LT(0, tid) TH_LOG("thread: %s", pc_errno_name(-tid));
	const struct pc_record *r = pc_find_tid(&cap, PERF_RECORD_COMM, tid, 0);

	ASSERT_NE(NULL, r) TH_LOG("no COMM record from thread %d", tid);
	EXPECT_EQ(getpid(), r->comm.pid);
	EXPECT_STREQ("pc-thread", r->comm.comm);
	EXPECT_EQ(0, r->misc);
	EXPECT_EQ(0, pc_tid_count(&cap, PERF_RECORD_COMM, gettid()))
		TH_LOG("the main thread was not renamed");
	pc_capture_close(&cap);
}

/*
 * execve(2) names the process after the file it ran: the last component
 * of the path it was given, "/proc/self/exe" for the lib's exec helper.
 */
TEST(exec_renames)
{
	struct pc_capture cap;

	pid_t child = record_around(_metadata, &cap, 1, pc_work_exec, "exit");
	ASSERT_LT(0, child) TH_LOG("exec helper: %s", pc_errno_name(-child));
	const struct pc_record *r = only_record(_metadata, &cap, PERF_RECORD_COMM, child);

	EXPECT_EQ(child, r->comm.pid);
	EXPECT_STREQ("exe", r->comm.comm);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
