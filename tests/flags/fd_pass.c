// SPDX-License-Identifier: GPL-2.0
/*
 * A perf event file descriptor is a file like any other: passed to another
 * process over a UNIX socket (SCM_RIGHTS, unix(7)), the descriptor that
 * process receives names the same event, on the same task. Through it the
 * receiver reads the event's count and enables and disables it
 * (PERF_EVENT_IOC_ENABLE/DISABLE), and the sender sees the effect through
 * its own descriptor; PERF_EVENT_IOC_ID gives the same id through both.
 * The receiver is no owner (prctl(PR_TASK_PERF_EVENTS_*) is the opener's:
 * tests/ioctl/prctl_task_events.c), only a holder of the file.
 *
 * Counted with page faults of the sender: touching n fresh pages is
 * exactly n faults. The receiver is a child forked before the event was
 * opened, so the only way it has the event is the message.
 */
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "perfconf.h"
#include "work/measure.h"

#define FAULTS 32

/* The receiver's commands: one byte each, a u64 back (a value, or -errno). */
enum { CMD_ENABLE = 'e', CMD_DISABLE = 'd', CMD_READ = 'r', CMD_ID = 'i' };

static int send_fd(int sock, int fd)
{
	char byte = 0, buf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = buf, .msg_controllen = sizeof(buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -errno;
}

/* The descriptor received, or -errno (-EBADMSG: a message without one). */
static int recv_fd(int sock)
{
	char byte, buf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = buf, .msg_controllen = sizeof(buf),
	};
	int fd;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -errno;
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
		return -EBADMSG;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* The receiver: takes the fd, then does each command on it until EOF. */
static void receiver(int sock)
{
	int fd = recv_fd(sock);
	char cmd;

	while (read(sock, &cmd, 1) == 1) {
		uint64_t v = 0;
		int err = 0;

		if (fd < 0)
			err = fd;
		else if (cmd == CMD_ENABLE)
			err = pc_enable(fd);
		else if (cmd == CMD_DISABLE)
			err = pc_disable(fd);
		else if (cmd == CMD_READ)
			err = pc_read_count(fd, &v);
		else if (cmd == CMD_ID)
			v = pc_event_id(fd);
		if (err)
			v = (uint64_t)(int64_t)err;
		if (write(sock, &v, sizeof(v)) != sizeof(v))
			break;
	}
	_exit(0);
}

/* The receiver does cmd on its descriptor: what it answered. */
static uint64_t ask(int sock, char cmd)
{
	uint64_t v = (uint64_t)-EIO;

	if (write(sock, &cmd, 1) != 1 || read(sock, &v, sizeof(v)) != sizeof(v))
		return (uint64_t)-EIO;
	return v;
}

/*
 * Each case: a receiver forked, this task's page-fault counter (fd,
 * disabled) opened after it and passed to it.
 */
FIXTURE(pass) {
	pid_t pid;
	int sock;
	int fd;
};
FIXTURE_SETUP(pass)
{
	int sv[2];

	self->pid = 0;
	self->sock = -1;
	self->fd = -1;
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	self->pid = fork();
	ASSERT_LE(0, self->pid);
	if (self->pid == 0) {
		close(sv[0]);
		receiver(sv[1]);
	}
	close(sv[1]);
	self->sock = sv[0];
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	self->fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(self->fd);
	ASSERT_EQ(0, send_fd(self->sock, self->fd));
	pc_work_page_faults(FAULTS);	/* warm */
	ASSERT_NE(0, ask(self->sock, CMD_ID)) TH_LOG("the receiver has no event");	/* warm */
}
FIXTURE_TEARDOWN(pass)
{
	if (self->sock >= 0)
		close(self->sock);	/* the receiver reads EOF and exits */
	if (self->pid > 0)
		waitpid(self->pid, NULL, 0);
	if (self->fd >= 0)
		close(self->fd);
}

/* The same event through both: one id, and the count the sender reads. */
TEST_F(pass, receiver_reads_the_senders_event)
{
	ASSERT_NE(0, pc_event_id(self->fd));
	EXPECT_EQ(pc_event_id(self->fd), ask(self->sock, CMD_ID));
	ASSERT_EQ(0, pc_enable(self->fd));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, pc_disable(self->fd));
	EXPECT_EQ(FAULTS, pc_count_of(self->fd));
	EXPECT_EQ(FAULTS, ask(self->sock, CMD_READ)) TH_LOG("the receiver reads another count");
}

/*
 * The receiver's ENABLE starts the sender's event and its DISABLE stops
 * it: the sender counts its faults between the two, not after. The
 * control: before the ENABLE the disabled event counted nothing.
 */
TEST_F(pass, receiver_enables_and_disables_it)
{
	pc_work_page_faults(FAULTS);
	EXPECT_EQ(0, pc_count_of(self->fd)) TH_LOG("counted while disabled");
	ASSERT_EQ(0, ask(self->sock, CMD_ENABLE));
	pc_work_page_faults(FAULTS);
	ASSERT_EQ(0, ask(self->sock, CMD_DISABLE));
	pc_work_page_faults(FAULTS);
	EXPECT_EQ(FAULTS, pc_count_of(self->fd)) TH_LOG("the receiver's ENABLE/DISABLE did not act on it");
	EXPECT_EQ(FAULTS, ask(self->sock, CMD_READ));
}

TEST_HARNESS_MAIN
