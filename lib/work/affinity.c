// SPDX-License-Identifier: GPL-2.0
/* Keeping a test on one CPU. */
#include <errno.h>
#include <sched.h>

#include "work/affinity.h"

int pc_pin_self(void)
{
	cpu_set_t allowed, one;
	int cpu = sched_getcpu();

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -errno;
	if (cpu < 0 || !CPU_ISSET(cpu, &allowed)) {
		for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &allowed); cpu++)
			;
		if (cpu == CPU_SETSIZE)
			return -ESRCH;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -errno;
	return cpu;
}


int pc_pin_to(int cpu)
{
	cpu_set_t one;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -errno;
	/* sched_setaffinity() returns with the task on an allowed CPU. */
	return sched_getcpu() == cpu ? 0 : -EAGAIN;
}
