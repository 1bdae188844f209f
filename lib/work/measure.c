// SPDX-License-Identifier: GPL-2.0
/* Counting what one piece of work does. */
#include <errno.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "event/event.h"
#include "work/clock.h"
#include "work/measure.h"

int pc_count_fd_work(int fd, pc_work_fn work, void *arg, uint64_t *count)
{
	int err = pc_reset(fd), later;

	if (!err)
		err = pc_enable(fd);
	if (!err)
		work(arg);
	later = pc_disable(fd);
	if (!later)
		later = pc_read_count(fd, count);
	return err ? err : later;
}

int pc_count_work(struct perfconf_attr *attr, pc_work_fn work, void *arg, uint64_t *count)
{
	int fd = pc_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int err;

	if (fd < 0)
		return fd;
	/* once unmeasured, through the same calls: code and stack pages are there */
	err = pc_count_fd_work(fd, work, arg, count);
	if (!err)
		err = pc_count_fd_work(fd, work, arg, count);
	close(fd);
	return err;
}

uint64_t pc_count_of_work(struct perfconf_attr *attr, pc_work_fn work, void *arg)
{
	uint64_t count;

	return pc_count_work(attr, work, arg, &count) ? UINT64_MAX : count;
}

uint64_t pc_count_of(int fd)
{
	uint64_t count;

	return pc_read_count(fd, &count) ? UINT64_MAX : count;
}

int pc_count_faults_with_task_events(unsigned long n)
{
	struct pc_perf_clock clk;
	int err;

	pc_work_page_faults(1);
	err = pc_perf_clock_open(&clk);
	if (err)
		return err;
	if (prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0))
		err = -errno;
	if (!err)
		pc_work_page_faults(n);
	err = err ?: pc_perf_clock_wait(&clk);
	if (prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0))
		err = err ?: -errno;
	pc_perf_clock_close(&clk);
	return err;
}
