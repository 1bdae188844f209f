/* SPDX-License-Identifier: GPL-2.0 */
/* Facts about the running kernel: release, arch, config, sysctls, limits. */
#ifndef PERFCONF_KERNEL_H
#define PERFCONF_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

struct pc_kernel {
	char release[128];	/* uname -r */
	char arch[65];		/* uname -m */
	int major, minor, patch;
	int kver;		/* PC_KVER(major, minor) */
	/*
	 * The kernel's sizeof(long), which is 8 on a 64-bit kernel also for a
	 * 32-bit task on its compat ABI (pc_bp_exec_len() on x86).
	 */
	unsigned int long_bytes;
};

/* Cached after the first call; never fails (unknown fields stay 0/""). */
const struct pc_kernel *pc_kernel(void);
/* This is a 32-bit build on a 64-bit kernel: its compat ABI. */
bool pc_kernel_compat(void);
/*
 * Whether the kernel can put a uprobe on this task's code: not where this
 * is an AArch32 task on arm64, whose code arch_uprobe_analyze_insn()
 * refuses (EOPNOTSUPP at the open; arm's own 32-bit kernel probes it).
 */
bool pc_kernel_uprobes_task(void);

/*
 * Kernel config lookup in /proc/config.gz (or /boot/config-$(uname -r)).
 * Returns 'y', 'm', 'n' (explicitly not set), or 0 when no config could be
 * read or the option is absent. Name with or without the CONFIG_ prefix.
 */
char pc_kernel_config(const char *option);
bool pc_kernel_config_available(void);

/* CPUs online now (sysconf), at least 1 (fact cpus_online). */
int pc_cpus_online(void);

/*
 * Read an integer from a file such as /proc/sys/kernel/perf_event_paranoid.
 * 0, or -errno (-EINVAL when the file does not start with one).
 */
int pc_kernel_read_long(const char *path, long *value);

/*
 * Let this process hold n file descriptors: its soft RLIMIT_NOFILE raised
 * to the hard one where it is below n (a case's child: the change ends
 * with it). 0, -EMFILE when the hard limit is below n, or -errno.
 */
int pc_nofile_raise(unsigned long n);
/* The hard RLIMIT_NOFILE (RLIM_INFINITY as ULONG_MAX), 0 when unknown. */
unsigned long pc_nofile_hard(void);

#endif
