/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny BPF program loader on the raw bpf(2) syscall (no libbpf): enough
 * to make the kernel register and unregister a JITed BPF program, whose
 * KSYMBOL, BPF_EVENT and TEXT_POKE records a test then checks against what
 * BPF_OBJ_GET_INFO_BY_FD says about the program, or that a test attaches
 * to a tracepoint event.
 *
 *	struct pc_bpf_prog prog;
 *	int err = pc_bpf_load_trivial(&prog, "perfconf");
 *	if (err == -EPERM) SKIP(...);
 *	... prog.id, prog.tag, prog.ksym ...
 *	pc_bpf_close(&prog);
 */
#ifndef PERFCONF_BPF_H
#define PERFCONF_BPF_H

#include <stdint.h>
#include "host/observe.h"
#include "event/event.h"

#define PC_BPF_TAG_SIZE 8

struct pc_bpf_prog {
	int fd;				/* -1 when not loaded */
	uint32_t id;			/* bpf_prog_info.id */
	uint8_t tag[PC_BPF_TAG_SIZE];	/* bpf_prog_info.tag */
	uint32_t jited_len;		/* 0: the program is not JITed */
	uint64_t jited_addr;		/* 0 when the kernel does not show addresses */
	char name[16];
	char ksym[64];			/* the kallsyms name: bpf_prog_<tag in hex>_<name> */
};

/*
 * Load "r0 = 0; exit" as a socket filter called `name` (at most 15
 * characters) and read its info. 0, or -errno from bpf(2): -EPERM when
 * this user may not load programs, -ENOSYS without the syscall.
 */
int pc_bpf_load_trivial(struct pc_bpf_prog *p, const char *name);
/*
 * The same program as a tracepoint program (BPF_PROG_TYPE_TRACEPOINT), to
 * attach to a tracepoint event with PERF_EVENT_IOC_SET_BPF: it returns 0
 * for every hit, which tells the kernel to drop the event. 0, or -errno:
 * -EPERM when this user may not load tracing programs (bpf_capable() and
 * perfmon_capable()), -EINVAL where the kernel has no tracepoint programs
 * (CONFIG_BPF_EVENTS).
 */
int pc_bpf_load_trivial_tracepoint(struct pc_bpf_prog *p, const char *name);
/*
 * "r0 = ret; exit" as a tracepoint program: 0 drops every hit of the
 * tracepoint it is attached to, 1 keeps them (trace_call_bpf() ANDs the
 * results of the attached programs: bit 0 decides). 0, or -errno as above.
 */
int pc_bpf_load_tracepoint_returning(struct pc_bpf_prog *p, const char *name, int ret);
/*
 * "r0 = ret; exit" as a perf event program (BPF_PROG_TYPE_PERF_EVENT), for
 * PERF_EVENT_IOC_SET_BPF on an event that is not a tracepoint or probe: it
 * runs at each overflow, and 0 drops the sample (bpf_overflow_handler()).
 * 0, or -errno as above (-EINVAL where the kernel has no such programs).
 */
int pc_bpf_load_perf_event_returning(struct pc_bpf_prog *p, const char *name, int ret);
/*
 * A socket filter that tail-calls slot 0 of the prog array map_fd with a
 * constant key (a direct tail call that the x86 JIT patches in place when
 * the slot is filled), then returns 0. 0 or -errno, as above.
 */
int pc_bpf_load_tail_caller(struct pc_bpf_prog *p, const char *name, int map_fd);
/* A BPF_MAP_TYPE_PROG_ARRAY of one slot: its fd, or -errno. */
int pc_bpf_prog_array(void);
/* Put prog_fd into slot `key` of a prog array. 0 or -errno. */
int pc_bpf_prog_array_set(int map_fd, uint32_t key, int prog_fd);
/*
 * The program's JITed machine code as it is now (text patching included):
 * copies up to len bytes, returns the image's size, or -errno; 0 when the
 * kernel does not show it to this user.
 */
long pc_bpf_jited_image(const struct pc_bpf_prog *p, void *buf, uint32_t len);
/*
 * A BPF_MAP_TYPE_PERF_EVENT_ARRAY of `entries` slots, for
 * bpf_perf_event_output(): its fd, or -errno.
 */
int pc_bpf_perf_event_array(uint32_t entries);
/* Put the perf event perf_fd into slot `key` of such an array. 0 or -errno. */
int pc_bpf_perf_event_array_set(int map_fd, uint32_t key, int perf_fd);
/*
 * A tracepoint program that, when the task whose bpf_get_current_pid_tgid()
 * is pid_tgid (tgid << 32 | tid) hits the tracepoint, writes the n 32-bit
 * words (1 to 8) with bpf_perf_event_output() to the slot of the current
 * CPU of the perf event array map_fd (BPF_F_CURRENT_CPU); it returns 1 for
 * every hit, keeping the hit for the tracepoint's perf events. 0, or
 * -errno as pc_bpf_load_trivial_tracepoint().
 */
int pc_bpf_load_output_tracepoint(struct pc_bpf_prog *p, const char *name, int map_fd,
				  uint64_t pid_tgid, const uint32_t *words, unsigned int n);
/* Close the program's fd (the kernel unloads it when nothing else holds it). */
void pc_bpf_close(struct pc_bpf_prog *p);
/* /proc/sys/net/core/bpf_jit_harden, or 0 when unreadable. */
int pc_bpf_jit_harden(void);
/* Whether programs are JIT-compiled (net.core.bpf_jit_enable; 0 when unreadable). */
int pc_bpf_jit_enabled(void);

/*
 * In a test (perfconf.h brings the harness): load a trivial
 * program called `name` (and with `unload`, close it again) while the
 * event fd is enabled; SKIP where this user may not load BPF programs.
 */
#define LOAD_BPF_OR_SKIP(fd, prog, name, unload) do { \
	ASSERT_EQ(0, pc_enable(fd)); \
	int err_ = pc_bpf_load_trivial(prog, name); \
	if (!err_ && (unload)) \
		pc_bpf_close(prog); \
	ASSERT_EQ(0, pc_disable(fd)); \
	if (err_ == -EPERM || err_ == -ENOSYS) \
		SKIP(return, "loading a BPF program is not permitted here (%s)", pc_errno_name(-err_)); \
	ASSERT_ERRNO(0, -err_); \
} while (0)

/*
 * In a test: ASSERT that `load` (a pc_bpf_load_*() call of a tracing
 * program) worked; SKIP where this user may not load it (EPERM, ENOSYS)
 * or the kernel has no tracing programs (EINVAL: CONFIG_BPF_EVENTS).
 */
#define LOAD_TRACING_BPF_OR_SKIP(load) do { \
	int e_ = -(load); \
	if (e_ == EPERM || e_ == ENOSYS) \
		SKIP(return, "loading a BPF tracing program is not permitted here (%s)", pc_errno_name(e_)); \
	if (e_ == EINVAL) \
		SKIP(return, "no BPF tracing programs on this kernel (BPF_EVENTS?): %s", pc_errno_name(e_)); \
	ASSERT_ERRNO(0, e_); \
} while (0)

#endif
