// SPDX-License-Identifier: GPL-2.0
/* A task and the children that inherit its events: an anchor, threads waited out. */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "event.h"
#include "family.h"
#include "workload.h"

int pc_family_anchor(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	int fd = pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

pid_t pc_family_thread(const char *work)
{
	const struct timespec tick = { .tv_nsec = 100000 };	/* 0.1 ms */
	pid_t tid = pc_work_in_thread(work);
	char path[64];

	if (tid < 0)
		return tid;
	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	for (int i = 0; i < 50000; i++) {
		if (access(path, F_OK))
			return tid;
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}
