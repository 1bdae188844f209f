// SPDX-License-Identifier: GPL-2.0
/* The kprobe PMU and kernel symbol addresses (see kprobe.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <unistd.h>

#include "event/event.h"
#include "host/kernel.h"
#include "host/observe.h"
#include "event/kprobe.h"
#include "event/pmu.h"

int pc_attr_kprobe(struct perfconf_attr *out, const char *func, uint64_t addr, uint64_t offset)
{
	int type = pc_pmu_type("kprobe");

	pc_depends("pmu.kprobe");
	if (type < 0)
		return type;
	*out = pc_attr((uint32_t)type, 0);
	if (func) {
		out->kprobe_func = (uint64_t)(uintptr_t)func;
		out->probe_offset = offset;
	} else {
		out->kprobe_addr = addr;
	}
	return 0;
}

const char *pc_kprobe_events_config(void)
{
	pc_depends("config.KPROBE_EVENTS");
	if (!pc_kernel_config_available())
		return "unknown";
	return pc_kernel_config("KPROBE_EVENTS") == 'y' ? "set" : "not set";
}

/*
 * The addresses root looked up, kept for the binary's life in memory that
 * its forks share: the harness forks every case, and reading /proc/kallsyms
 * takes about 0.1 s under qemu's TCG. Only a caller that sees what root
 * sees (uid 0 with CAP_SYSLOG) is answered from it, so that what kallsyms
 * shows any other identity is still read from the file.
 */
#define KALLSYMS_KEPT 16

static struct kallsyms_kept {
	unsigned int n;
	struct {
		char name[64];
		uint64_t addr;
	} sym[KALLSYMS_KEPT];
} *kept;

static void __attribute__((constructor)) kallsyms_keep_map(void)
{
	void *p = mmap(NULL, sizeof(*kept), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	kept = p == MAP_FAILED ? NULL : p;
}

static bool sees_as_root(void)
{
	cap_t c;
	cap_flag_value_t v = CAP_CLEAR;

	if (!kept || geteuid() != 0 || !(c = cap_get_proc()))
		return false;
	cap_get_flag(c, CAP_SYSLOG, CAP_EFFECTIVE, &v);
	cap_free(c);
	return v == CAP_SET;
}

static int kallsyms_read(const char *name, uint64_t *addr)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], kind;
	unsigned long long value;
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &value, &kind, sym) != 3 || strcmp(sym, name))
			continue;
		if (kind != 'T' && kind != 't')
			continue;
		if (!value) {
			err = -EPERM;
			break;
		}
		*addr = value;
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

int pc_kallsyms_lookup(const char *name, uint64_t *addr)
{
	bool root = sees_as_root();
	int err;

	for (unsigned int i = 0; root && i < kept->n; i++) {
		if (!strcmp(kept->sym[i].name, name)) {
			*addr = kept->sym[i].addr;
			return 0;
		}
	}
	err = kallsyms_read(name, addr);
	if (!err && root && kept->n < KALLSYMS_KEPT && strlen(name) < sizeof(kept->sym[0].name)) {
		snprintf(kept->sym[kept->n].name, sizeof(kept->sym[0].name), "%s", name);
		kept->sym[kept->n].addr = *addr;
		__atomic_store_n(&kept->n, kept->n + 1, __ATOMIC_RELEASE);
	}
	return err;
}

const char *pc_kprobe_getppid_symbol(void)
{
#if defined(__x86_64__)
	return "__x64_sys_getppid";
#elif defined(__i386__)
	return "__ia32_sys_getppid";	/* the compat entry of an x86_64 kernel too */
#elif defined(__aarch64__)
	return "__arm64_sys_getppid";
#elif defined(__arm__)
	/* an arm64 kernel's AArch32 table calls the native one for getppid */
	return pc_kernel()->long_bytes == 8 ? "__arm64_sys_getppid" : NULL;
#elif defined(__riscv) && __riscv_xlen == 64
	return "__riscv_sys_getppid";	/* its syscall wrappers, since 6.6 (sys_getppid before) */
#elif defined(__s390x__)
	return "__s390x_sys_getppid";
#elif defined(__powerpc64__)
	return "sys_getppid";	/* powerpc's syscall wrappers (6.1) keep the plain name */
#else
	return NULL;
#endif
}

const char *pc_kprobe_entry_refused(void)
{
#if defined(__riscv) && __riscv_xlen == 64
	bool dynamic;

	pc_depends("arch");	/* where a function's entry can be probed is this arch's */
	pc_depends("config.FUNCTION_TRACER");
	if (pc_kernel_config("KPROBES_ON_FTRACE") == 'y')
		return NULL;
	if (pc_kernel_config_available())
		dynamic = pc_kernel_config("DYNAMIC_FTRACE") == 'y';
	else	/* the file exists only with DYNAMIC_FTRACE */
		dynamic = !access("/sys/kernel/tracing/available_filter_functions", F_OK) ||
			  !access("/sys/kernel/debug/tracing/available_filter_functions", F_OK);
	if (dynamic)
		return "a function's entry is its ftrace call site (riscv64, DYNAMIC_FTRACE) and "
		       "this kernel has no KPROBES_ON_FTRACE: a kprobe there is EINVAL";
#endif
	return NULL;
}

uint64_t pc_kprobe_entry_offset(void)
{
	return pc_kprobe_entry_refused() ? 8 : 0;
}
