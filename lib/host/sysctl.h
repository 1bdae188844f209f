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
 *	<name> <original value> <session>
 * (session: the session id of the binary that saved it; the runner gives
 * a binary's back as soon as it ends; a line without one is still read)
 * where name is the path under /proc/sys, e.g. "kernel/perf_event_paranoid",
 * or the one other global switch a test may flip, a CPU's hotplug state:
 * "/sys/devices/system/cpu/cpu<N>/online" (pc_sysctl_cpu_online()), or the
 * runner's PC_RCU_EXPEDITED, or a module the runner loaded,
 * "/sys/module/<name>" (PC_MODULE_ENTRY: value 0, it was not loaded).
 *
 * A binary declares the global state it changes and reads in PERFCONF_META
 * (perfconf.h): "writes=perf_event_paranoid reads=perf_event_mlock_kb", a
 * state's key being a sysctl's last path component or "cpu_online" (any
 * CPU's hotplug state). The runner runs side by side only binaries whose
 * declarations do not conflict (a writer beside no other reader or writer
 * of its state), and fails a binary that reads or changes a state it did
 * not declare: pc_sysctl_get() and pc_sysctl_set() tell it, as "# READS
 * <key>" and "# WRITES <key>" lines (pc_sysctl_note), once per process.
 * "exclusive" still means: beside nothing.
 */
#ifndef PERFCONF_SYSCTL_H
#define PERFCONF_SYSCTL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The runner's one switch that is no perf sysctl: 1 makes every
 * synchronize_rcu() and synchronize_srcu() expedited (kernel/ksysfs.c).
 */
#define PC_RCU_EXPEDITED "/sys/kernel/rcu_expedited"

/* The perf sysctls the suite reads (and record/throttle changes). */
#define PC_MAX_SAMPLE_RATE_SYSCTL "kernel/perf_event_max_sample_rate"
#define PC_MAX_STACK_SYSCTL "kernel/perf_event_max_stack"
#define PC_MLOCK_KB_SYSCTL "kernel/perf_event_mlock_kb"

/*
 * The state file's name for a kernel module the runner loaded for its run
 * (it was not loaded before): "/sys/module/<module>". Not a sysctl: no
 * pc_sysctl_set() or _get() takes it, pc_sysctl_restore_all() and
 * _owned() leave it, and pc_sysctl_restore() on it unloads the module
 * (delete_module, O_NONBLOCK, tried again while it is in use for up to
 * PC_MODULE_UNLOAD_WAIT_MS: then -EBUSY or -EAGAIN, and the entry stays).
 * The runner restores it at the end of its run, on a signal, at its next
 * start after a SIGKILL, and in `perfconf restore`.
 */
#define PC_MODULE_ENTRY(module) "/sys/module/" module
#define PC_MODULE_UNLOAD_WAIT_MS 3000
/*
 * Note in the state file, before loading it, that the runner loads the
 * module of that name (PC_MODULE_ENTRY): 0, or -errno (then it must not
 * load it: nothing would unload it after a crash).
 */
int pc_sysctl_save_module(const char *name);
/* Drop name's entry from the state file without restoring it. 0, -ENOENT, or -errno. */
int pc_sysctl_forget(const char *name);

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
/*
 * Save the original (if not yet saved), then write value. 0 or -errno.
 * Where the runner holds the sysctl for this binary (PC_HELD_ENV: a part
 * of a binary run in phases), it only checks that the value is the one
 * asked for: 0, -EBUSY when another value is asked, -ESTALE when the
 * machine's is not the one held; pc_sysctl_restore() leaves it.
 */
int pc_sysctl_set(const char *name, long value);
/*
 * "<name>=<value>": the sysctl the runner set for this binary, and holds
 * while it runs (runners/README.md: phases=).
 */
#define PC_HELD_ENV "PERFCONF_HELD"
/* The name under which pc_sysctl_set() takes cpu's online state (0 or 1). */
const char *pc_sysctl_cpu_online(int cpu, char *buf, size_t len);
/* The key of a sysctl or CPU online name in declarations, into buf. */
const char *pc_sysctl_key(const char *name, char *buf, size_t len);
/*
 * Tell the runner this binary reads (or writes) the state of name: a line
 * "# READS <key>" on stdout, once per process, only in a binary the runner
 * started (PC_RUNNER_PID_ENV). pc_sysctl_get() and pc_sysctl_set() call it;
 * so does whatever reads the state another way.
 */
void pc_sysctl_note(bool writes, const char *name);
/* The environment variable the runner gives every binary it starts (its pid). */
#define PC_RUNNER_PID_ENV "PERFCONF_RUNNER_PID"
/*
 * Restore one sysctl from the state file (or unload a module the runner
 * loaded: PC_MODULE_ENTRY) and drop its entry. 0, or -errno (-ENOENT: no
 * such entry).
 */
int pc_sysctl_restore(const char *name);
/*
 * Restore every saved sysctl and remove the state file (once no module's
 * entry is left: those are the runner's to restore by name). Returns the
 * number restored, or -errno; a malformed state file is an error with a
 * message on stderr, and the file is kept for a human to look at.
 */
int pc_sysctl_restore_all(void);
/*
 * Restore the entries a binary saved (its session: the runner's job pid)
 * and leave the others, those of binaries still running. The number
 * restored, or -errno (an entry it cannot restore is kept).
 */
int pc_sysctl_restore_owned(long session);

#endif
