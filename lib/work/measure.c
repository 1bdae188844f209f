// SPDX-License-Identifier: GPL-2.0
/* Counting what one piece of work does. */
#include <errno.h>
#include <unistd.h>

#include "event/event.h"
#include "work/measure.h"

int pc_count_work(struct perfconf_attr *attr, pc_work_fn work, void *arg, uint64_t *count)
{
	int fd = pc_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return errno;
	work(arg);
	if (pc_reset(fd) || pc_enable(fd))
		err = -1;
	else
		work(arg);
	if (pc_disable(fd) || pc_read_count(fd, count))
		err = -1;
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
