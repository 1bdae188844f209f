/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keeping a test on one CPU.
 *
 * The kernel refuses to mmap a ring for an inherited per-task event
 * (cpu == -1 with inherit: EINVAL), so a test that wants the records of its
 * children pins itself to one CPU first (children, threads and exec'd
 * helpers inherit the affinity) and opens the event on that CPU only
 * (ring/capture.h: pc_capture_open_inherited).
 */
#ifndef PERFCONF_AFFINITY_H
#define PERFCONF_AFFINITY_H

/*
 * Pin the calling thread to one CPU it may run on (the one it is on now)
 * and return that CPU, or -errno. Threads and children created afterwards
 * inherit the pinning.
 */
int pc_pin_self(void);

/*
 * Pin the calling thread to cpu, and be on it when this returns: 0, or
 * -errno (-EAGAIN if the kernel left it elsewhere).
 */
int pc_pin_to(int cpu);

#endif
