// SPDX-License-Identifier: GPL-2.0
/* A tiny BPF loader on the raw bpf(2) syscall. */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "work/bpf.h"
#include "host/kernel.h"

/*
 * Before 5.11 programs and maps are charged to RLIMIT_MEMLOCK, and a load
 * over it is EPERM even for root: lift this process's limit once (to
 * unlimited where allowed, else to the hard limit).
 */
static void lift_memlock(void)
{
	static bool done;
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };

	if (done)
		return;
	done = true;
	if (setrlimit(RLIMIT_MEMLOCK, &r) && !getrlimit(RLIMIT_MEMLOCK, &r)) {
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_MEMLOCK, &r);
	}
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	if (cmd == BPF_PROG_LOAD || cmd == BPF_MAP_CREATE)
		lift_memlock();
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV64_IMM(d, i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64_REG(d, s)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define EXIT()		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define CALL(f)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
/* A 64-bit load of a map by fd takes two instructions. */
#define LD_MAP_FD(d, fd) \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), INSN(0, 0, 0, 0, 0)

static int read_info(struct pc_bpf_prog *p)
{
	struct bpf_prog_info info;
	union bpf_attr attr;
	uint64_t ksym = 0;

	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = 1;
	info.jited_ksyms = (uint64_t)(uintptr_t)&ksym;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)p->fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		return -errno;
	p->id = info.id;
	memcpy(p->tag, info.tag, sizeof(p->tag));
	p->jited_len = info.jited_prog_len;
	/* The kernel clears the pointer when it hides addresses from us. */
	p->jited_addr = info.jited_ksyms ? ksym : 0;
	char *s = p->ksym + snprintf(p->ksym, sizeof(p->ksym), "bpf_prog_");
	for (size_t i = 0; i < sizeof(p->tag); i++)
		s += sprintf(s, "%02x", p->tag[i]);
	snprintf(s, sizeof(p->ksym) - (size_t)(s - p->ksym), "_%s", p->name);
	return 0;
}

static int load(struct pc_bpf_prog *p, enum bpf_prog_type type, const char *name,
		const struct bpf_insn *insns, size_t n)
{
	union bpf_attr attr;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	snprintf(p->name, sizeof(p->name), "%s", name);
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = (uint32_t)n;
	attr.license = (uint64_t)(uintptr_t)"GPL";
	memcpy(attr.prog_name, p->name, strlen(p->name));
	long fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		return -errno;
	p->fd = (int)fd;
	int err = read_info(p);
	if (err)
		pc_bpf_close(p);
	return err;
}

/* "r0 = 0; exit" */
static const struct bpf_insn trivial[] = { MOV64_IMM(BPF_REG_0, 0), EXIT() };

int pc_bpf_load_trivial(struct pc_bpf_prog *p, const char *name)
{
	return load(p, BPF_PROG_TYPE_SOCKET_FILTER, name, trivial, sizeof(trivial) / sizeof(trivial[0]));
}

int pc_bpf_load_trivial_tracepoint(struct pc_bpf_prog *p, const char *name)
{
	return load(p, BPF_PROG_TYPE_TRACEPOINT, name, trivial, sizeof(trivial) / sizeof(trivial[0]));
}

int pc_bpf_load_tracepoint_returning(struct pc_bpf_prog *p, const char *name, int ret)
{
	const struct bpf_insn insns[] = { MOV64_IMM(BPF_REG_0, ret), EXIT() };

	return load(p, BPF_PROG_TYPE_TRACEPOINT, name, insns, sizeof(insns) / sizeof(insns[0]));
}

int pc_bpf_load_perf_event_returning(struct pc_bpf_prog *p, const char *name, int ret)
{
	const struct bpf_insn insns[] = { MOV64_IMM(BPF_REG_0, ret), EXIT() };

	return load(p, BPF_PROG_TYPE_PERF_EVENT, name, insns, sizeof(insns) / sizeof(insns[0]));
}

int pc_bpf_load_tail_caller(struct pc_bpf_prog *p, const char *name, int map_fd)
{
	/* r1 still holds the context, as bpf_tail_call() wants it. */
	const struct bpf_insn insns[] = {
		LD_MAP_FD(BPF_REG_2, map_fd),
		MOV64_IMM(BPF_REG_3, 0),
		CALL(BPF_FUNC_tail_call),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};

	return load(p, BPF_PROG_TYPE_SOCKET_FILTER, name, insns, sizeof(insns) / sizeof(insns[0]));
}

int pc_bpf_prog_array(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_PROG_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	long fd = sys_bpf(BPF_MAP_CREATE, &attr);
	return fd < 0 ? -errno : (int)fd;
}

int pc_bpf_prog_array_set(int map_fd, uint32_t key, int prog_fd)
{
	uint32_t value = (uint32_t)prog_fd;
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map_fd;
	attr.key = (uint64_t)(uintptr_t)&key;
	attr.value = (uint64_t)(uintptr_t)&value;
	attr.flags = BPF_ANY;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) ? -errno : 0;
}

int pc_bpf_perf_event_array(uint32_t entries)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = entries;
	long fd = sys_bpf(BPF_MAP_CREATE, &attr);
	return fd < 0 ? -errno : (int)fd;
}

int pc_bpf_perf_event_array_set(int map_fd, uint32_t key, int perf_fd)
{
	/* The same update as a prog array's: a u32 fd for a u32 key. */
	return pc_bpf_prog_array_set(map_fd, key, perf_fd);
}

int pc_bpf_load_output_tracepoint(struct pc_bpf_prog *p, const char *name, int map_fd,
				  uint64_t pid_tgid, const uint32_t *words, unsigned int n)
{
	struct bpf_insn insns[32];
	unsigned int k = 0, jump;

	if (n < 1 || n > 8)
		return -EINVAL;
	insns[k++] = MOV64_REG(BPF_REG_6, BPF_REG_1);		/* r6 = ctx */
	insns[k++] = CALL(BPF_FUNC_get_current_pid_tgid);
	insns[k++] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2, 0, 0, (int32_t)(uint32_t)pid_tgid);
	insns[k++] = INSN(0, 0, 0, 0, (int32_t)(uint32_t)(pid_tgid >> 32));
	jump = k++;						/* if r0 != r2 goto out */
	for (unsigned int i = 0; i < n; i++)			/* *(u32 *)(r10 - 4n + 4i) = words[i] */
		insns[k++] = INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, (int16_t)(4 * i - 4 * n),
				  (int32_t)words[i]);
	insns[k++] = MOV64_REG(BPF_REG_1, BPF_REG_6);
	insns[k++] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2, BPF_PSEUDO_MAP_FD, 0, map_fd);
	insns[k++] = INSN(0, 0, 0, 0, 0);
	/* BPF_F_CURRENT_CPU in a 32-bit move: zero-extended, the upper flags 0. */
	insns[k++] = INSN(BPF_ALU | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, (int32_t)0xffffffff);
	insns[k++] = MOV64_REG(BPF_REG_4, BPF_REG_10);
	insns[k++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_4, 0, 0, -(int32_t)(4 * n));
	insns[k++] = MOV64_IMM(BPF_REG_5, (int32_t)(4 * n));
	insns[k++] = CALL(BPF_FUNC_perf_event_output);
	insns[jump] = INSN(BPF_JMP | BPF_JNE | BPF_X, BPF_REG_0, BPF_REG_2, (int16_t)(k - jump - 1), 0);
	insns[k++] = MOV64_IMM(BPF_REG_0, 1);			/* out: */
	insns[k++] = EXIT();
	return load(p, BPF_PROG_TYPE_TRACEPOINT, name, insns, k);
}

long pc_bpf_jited_image(const struct pc_bpf_prog *p, void *buf, uint32_t len)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	pc_depends("bpf_jit");	/* no JIT, no image */

	memset(&info, 0, sizeof(info));
	info.jited_prog_len = len;
	info.jited_prog_insns = (uint64_t)(uintptr_t)buf;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)p->fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		return -errno;
	/* The kernel clears the pointer when it hides the code. */
	return info.jited_prog_insns ? (long)info.jited_prog_len : 0;
}

void pc_bpf_close(struct pc_bpf_prog *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

int pc_bpf_jit_harden(void)
{
	long v;

	return pc_kernel_read_long("/proc/sys/net/core/bpf_jit_harden", &v) ? 0 : (int)v;
}

int pc_bpf_jit_enabled(void)
{
	long v;

	return pc_kernel_read_long("/proc/sys/net/core/bpf_jit_enable", &v) ? 0 : v != 0;
}
