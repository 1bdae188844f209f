/* SPDX-License-Identifier: GPL-2.0 */
/* PMU discovery from /sys/bus/event_source/devices. Type numbers are never hard-coded. */
#ifndef PERFCONF_PMU_H
#define PERFCONF_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PC_PMU_SYSFS "/sys/bus/event_source/devices"

/* The suite's own AUX PMUs, from module/perfconf_pmu.c (ring/synth.h). */
#define PC_SYNTH_AUX "perfconf_aux"
#define PC_SYNTH_OUT "perfconf_out"

/*
 * The PMU's type number from sysfs, or -ENOENT when no PMU of that name is
 * here. Dynamic PMUs (uprobe, kprobe, msr, armv8_pmuv3...) must be looked up
 * this way. The generic types (PERF_TYPE_SOFTWARE, _TRACEPOINT, _BREAKPOINT)
 * are fixed by the ABI; tests/abi checks that sysfs agrees with them.
 */
int pc_pmu_type(const char *pmu);
bool pc_pmu_exists(const char *pmu);

/* Names of all PMUs, sorted, NULL-terminated; free with pc_strv_free(). */
char **pc_pmu_list(void);
void pc_strv_free(char **v);

/*
 * A format/ entry: "config:0-7" parsed into the attr word it lives in
 * (0 = config, 1 = config1, ... 4 = config4) and its bit mask.
 * Returns 0, or -ENOENT / -EINVAL.
 */
struct pc_pmu_format {
	int word;
	uint64_t mask;
};
int pc_pmu_format(const char *pmu, const char *name, struct pc_pmu_format *out);

/*
 * The raw text of events/<name>, caps/<name>, cpumask (trailing newline
 * removed). 0 or -errno (-ENOENT when the file is not there).
 */
int pc_pmu_event(const char *pmu, const char *event, char *buf, size_t len);
int pc_pmu_cap(const char *pmu, const char *cap, char *buf, size_t len);
int pc_pmu_cpumask(const char *pmu, char *buf, size_t len);
/*
 * The PMU's perf_event_mux_interval_ms: how often its flexible events
 * rotate when they do not all fit. The interval, or -errno.
 */
long pc_pmu_mux_interval_ms(const char *pmu);

/*
 * The tracefs mount point ("/sys/kernel/tracing" or the debugfs one), or
 * NULL. When tracefs is not mounted, it is mounted in a private mount
 * namespace of the calling process (root only), so nothing global changes.
 */
const char *pc_tracefs(void);
/*
 * Write text to the file of tracefs (pc_tracefs) named by a path relative
 * to it ("uprobe_events"), appending (uprobe_events keeps the others'
 * probes). 0 or -errno (-ENOENT without tracefs).
 */
int pc_tracefs_write(const char *file, const char *text);
/* A tracepoint's id from tracefs events/<sys>/<name>/id, or -errno. */
long pc_tracepoint_id(const char *sys, const char *name);
/*
 * Keep tracepoint `id` registered with perf for the rest of this process:
 * a disabled counter on it, on this task, never closed (close-on-exec).
 * Closing a tracepoint's last perf event unregisters its probe and waits
 * for RCU (tracepoint_synchronize_unregister(): 10-20 ms each); a binary
 * that opens and closes one per case pays that every time. The kept event
 * counts nothing and no permission check depends on it. 0 or -errno.
 */
int pc_tracepoint_keep(long id);

/*
 * Which PMU formats use which attr word. A PMU describes its event
 * encoding in sysfs format/ entries ("config1:0-15"); config1..config4
 * are read only by PMUs that name them there (or by the probe and
 * breakpoint PMUs, whose fields share the unions).
 *
 * Every format/ entry of every PMU here that lives in attr word `word`
 * (0 = config, 1 = config1 ... 4 = config4), as "pmu:name" joined by ','
 * in sorted order into buf, or "none". Returns how many, or -EINVAL when
 * an entry cannot be parsed (buf then holds "pmu:name" of that entry).
 */
int pc_pmu_formats_in_word(int word, char *buf, size_t len);
/*
 * That list, pinned as the observation "formats" (the entry that cannot be
 * parsed, when one cannot). Returns pc_pmu_formats_in_word()'s count.
 */
int pc_pmu_observe_formats_in_word(int word);

#endif
