/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Changing global perf sysctls safely.
 *
 * pc_sysctl_set() first records the sysctl's original value in the state
 * file (once: the first saved value wins), then writes the new one. The
 * runner restores every entry at the end of a run, on SIGINT/SIGTERM, and
 * at its next start if a run died under SIGKILL; a test restores its own in
 * teardown as well. The state file lives in $PERFCONF_STATE_DIR, or else
 * /run/perfconf (tmpfs: it goes away with a reboot, as sysctl values do).
 *
 * State file format, one line per sysctl, under an flock:
 *	<name> <original value>
 * where name is the path under /proc/sys, e.g. "kernel/perf_event_paranoid",
 * or the one other global switch a test may flip, a CPU's hotplug state:
 * "/sys/devices/system/cpu/cpu<N>/online" (pc_sysctl_cpu_online()).
 *
 * A test binary that changes global state must declare
 * PERFCONF_META("exclusive") so the runner never runs it beside others.
 */
#ifndef PERFCONF_SYSCTL_H
#define PERFCONF_SYSCTL_H

#include <stdbool.h>
#include <stddef.h>

/* Path of the state file (the directory is created on first save). */
const char *pc_sysctl_state_path(void);
/*
 * One run at a time on this machine: the runner takes the run lock (an
 * flock on /run/perfconf/run.lock, the machine's whatever
 * PERFCONF_STATE_DIR says, held until the process exits) before it saves
 * or restores anything, so that no run saves another live run's changed
 * value as "original" or undoes its changes, and a state file it finds is
 * a dead run's. When a live process holds it, *holder gets that process's
 * pid; with wait, this blocks until it is free. 0 (also when the lock
 * cannot be made: not root, so nothing it runs can change a sysctl),
 * -EWOULDBLOCK (held, not waiting), or -errno.
 */
int pc_sysctl_lock_runs(bool wait, long *holder);
/* Read a sysctl ("kernel/perf_event_paranoid"). 0 or -errno. */
int pc_sysctl_get(const char *name, long *value);
/* Save the original (if not yet saved), then write value. 0 or -errno. */
int pc_sysctl_set(const char *name, long value);
/* The name under which pc_sysctl_set() takes cpu's online state (0 or 1). */
const char *pc_sysctl_cpu_online(int cpu, char *buf, size_t len);
/* Restore one sysctl from the state file and drop its entry. 0, or -errno. */
int pc_sysctl_restore(const char *name);
/*
 * Restore every saved sysctl and remove the state file. Returns the number
 * restored, or -errno; a malformed state file is an error with a message
 * on stderr, and the file is kept for a human to look at.
 */
int pc_sysctl_restore_all(void);

#endif
