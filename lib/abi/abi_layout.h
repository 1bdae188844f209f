/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ABI layouts as X-macro lists: the single source of the offsets, sizes,
 * bits and releases in lib/abi/abi.c's tables. Internal to the ABI tables, not
 * part of the lib's API: lib/abi/abi.c expands the lists into the tables,
 * lib/abi/abi_check.c into _Static_asserts against <linux/perf_event.h> and
 * struct perfconf_attr, lib/tests/abi_tables.c into bitfield probes.
 *
 * Releases. PC_KVER(major, minor) has no room for the third number of the
 * 2.6.x series, so everything from 2.6.31 to 2.6.39 is PC_KVER(2, 6); the
 * exact 2.6 release is in the comment beside it. A 2.6 kernel is never a
 * target, so nothing compares finer than that.
 *
 * Where a release comes from: the perf_event_open(2) man page's "since"
 * notes and the commits its comments name, the old UAPI headers in
 * /work/shared/spec (3.7, 3.10, a 4.18 distribution header) and the kernel
 * history. Where the man page and the history disagree, the lists follow
 * the release that first shipped the commit (the comments marked
 * "man page:").
 */
#ifndef PERFCONF_ABI_LAYOUT_H
#define PERFCONF_ABI_LAYOUT_H

#include "abi/abi.h"

#define PC_KV(ma, mi)	PC_KVER(ma, mi)
#define PC_KV26		PC_KVER(2, 6)	/* some 2.6.x; the comment says which */

/*
 * The published attr sizes: V(n, PERF_ATTR_SIZE_VERn, since, what it added).
 * Each VERn is introduced by the fields the attr list gives size_ver n.
 */
#define PC_ATTR_SIZE_VERS(V) \
	V(0,  64, PC_KV26,      "type .. bp_addr/config1 (the first published struct, 2.6.31)") \
	V(1,  72, PC_KV26,      "bp_len/config2 (2.6.33)") \
	V(2,  80, PC_KV(3, 4),  "branch_sample_type") \
	V(3,  96, PC_KV(3, 7),  "sample_regs_user, sample_stack_user") \
	V(4, 104, PC_KV(3, 19), "sample_regs_intr") \
	V(5, 112, PC_KV(4, 1),  "aux_watermark") \
	V(6, 120, PC_KV(5, 5),  "aux_sample_size") \
	V(7, 128, PC_KV(5, 13), "sig_data") \
	V(8, 136, PC_KV(6, 3),  "config3") \
	V(9, 144, PC_KV(6, 19), "config4")

/*
 * struct perf_event_attr, newest layout (PERF_ATTR_SIZE_VER9, 144 bytes).
 *
 *   F(name, offset, size, kind, union_with, size_ver, since, in_sys)
 *	a whole field; kind SCALAR or RESERVED.
 *   B(name, offset, word_size, bit, nbits, kind, union_with, size_ver, since, in_sys)
 *	a bitfield in the word at `offset`; kind BITS or RESERVED.
 *
 * union_with names the first member of the union the entry shares (a
 * string literal) or is NULL. in_sys is 1 when Debian 12's
 * <linux/perf_event.h> (Linux 6.1) has the member with this layout, so
 * that abi_check.c can assert it against the system header.
 */
#define PC_ATTR_LAYOUT(F, B) \
	F(type,                        0,   4, SCALAR,    NULL,             0, PC_KV26,       1) /* 2.6.31 */ \
	F(size,                        4,   4, SCALAR,    NULL,             0, PC_KV26,       1) /* 2.6.31 */ \
	F(config,                      8,   8, SCALAR,    NULL,             0, PC_KV26,       1) /* 2.6.31 */ \
	F(sample_period,              16,   8, SCALAR,    NULL,             0, PC_KV26,       1) /* 2.6.31 */ \
	F(sample_freq,                16,   8, SCALAR,    "sample_period",  0, PC_KV26,       1) /* 2.6.31 */ \
	F(sample_type,                24,   8, SCALAR,    NULL,             0, PC_KV26,       1) /* 2.6.31 */ \
	F(read_format,                32,   8, SCALAR,    NULL,             0, PC_KV26,       1) /* 2.6.31 */ \
	B(disabled,                   40, 8,  0,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(inherit,                    40, 8,  1,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(pinned,                     40, 8,  2,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(exclusive,                  40, 8,  3,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(exclude_user,               40, 8,  4,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(exclude_kernel,             40, 8,  5,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(exclude_hv,                 40, 8,  6,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(exclude_idle,               40, 8,  7,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(mmap,                       40, 8,  8,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(comm,                       40, 8,  9,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(freq,                       40, 8, 10,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(inherit_stat,               40, 8, 11,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(enable_on_exec,             40, 8, 12,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(task,                       40, 8, 13,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(watermark,                  40, 8, 14,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.31 */ \
	B(precise_ip,                 40, 8, 15,  2, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.35 */ \
	B(mmap_data,                  40, 8, 17,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.36 */ \
	B(sample_id_all,              40, 8, 18,  1, BITS,      NULL,          0, PC_KV26,       1) /* 2.6.38 */ \
	B(exclude_host,               40, 8, 19,  1, BITS,      NULL,          0, PC_KV(3, 2),   1) \
	B(exclude_guest,              40, 8, 20,  1, BITS,      NULL,          0, PC_KV(3, 2),   1) \
	B(exclude_callchain_kernel,   40, 8, 21,  1, BITS,      NULL,          0, PC_KV(3, 7),   1) \
	B(exclude_callchain_user,     40, 8, 22,  1, BITS,      NULL,          0, PC_KV(3, 7),   1) \
	/* mmap2: in the 3.12 header, disabled before 3.12 shipped, working from \
	 * 3.16 (commit a5a5ba72843d); the man page says 3.16 too. */ \
	B(mmap2,                      40, 8, 23,  1, BITS,      NULL,          0, PC_KV(3, 16),  1) \
	B(comm_exec,                  40, 8, 24,  1, BITS,      NULL,          0, PC_KV(3, 16),  1) \
	B(use_clockid,                40, 8, 25,  1, BITS,      NULL,          0, PC_KV(4, 1),   1) \
	B(context_switch,             40, 8, 26,  1, BITS,      NULL,          0, PC_KV(4, 3),   1) \
	/* man page: 4.6; commit 9ecda41acb97 shipped in 4.7 with		\
	 * PERF_EVENT_IOC_PAUSE_OUTPUT, which the man page itself puts in 4.7 */ \
	B(write_backward,             40, 8, 27,  1, BITS,      NULL,          0, PC_KV(4, 7),   1) \
	B(namespaces,                 40, 8, 28,  1, BITS,      NULL,          0, PC_KV(4, 12),  1) /* man page: 4.11 */ \
	B(ksymbol,                    40, 8, 29,  1, BITS,      NULL,          0, PC_KV(5, 1),   1) /* man page: 5.0 */ \
	B(bpf_event,                  40, 8, 30,  1, BITS,      NULL,          0, PC_KV(5, 1),   1) /* man page: 5.0 */ \
	B(aux_output,                 40, 8, 31,  1, BITS,      NULL,          0, PC_KV(5, 4),   1) \
	B(cgroup,                     40, 8, 32,  1, BITS,      NULL,          0, PC_KV(5, 7),   1) \
	B(text_poke,                  40, 8, 33,  1, BITS,      NULL,          0, PC_KV(5, 9),   1) /* man page: 5.8 */ \
	B(build_id,                   40, 8, 34,  1, BITS,      NULL,          0, PC_KV(5, 12),  1) \
	B(inherit_thread,             40, 8, 35,  1, BITS,      NULL,          0, PC_KV(5, 13),  1) \
	B(remove_on_exec,             40, 8, 36,  1, BITS,      NULL,          0, PC_KV(5, 13),  1) \
	B(sigtrap,                    40, 8, 37,  1, BITS,      NULL,          0, PC_KV(5, 13),  1) \
	B(defer_callchain,            40, 8, 38,  1, BITS,      NULL,          0, PC_KV(6, 19),  0) \
	B(defer_output,               40, 8, 39,  1, BITS,      NULL,          0, PC_KV(6, 19),  0) \
	/* 6.1 has __reserved_1:26 at bit 38; it shrinks as bits are added */ \
	B(__reserved_1,               40, 8, 40, 24, RESERVED,  NULL,          0, PC_KV26,       0) /* 2.6.31 */ \
	F(wakeup_events,              48,   4, SCALAR,    NULL,             0, PC_KV26,       1) /* 2.6.31 */ \
	F(wakeup_watermark,           48,   4, SCALAR,    "wakeup_events",  0, PC_KV26,       1) /* 2.6.31 */ \
	F(bp_type,                    52,   4, SCALAR,    NULL,             0, PC_KV26,       1) /* 2.6.33 */ \
	F(bp_addr,                    56,   8, SCALAR,    NULL,             0, PC_KV26,       1) /* 2.6.33 */ \
	F(kprobe_func,                56,   8, SCALAR,    "bp_addr",        0, PC_KV(4, 17),  1) \
	F(uprobe_path,                56,   8, SCALAR,    "bp_addr",        0, PC_KV(4, 17),  1) \
	F(config1,                    56,   8, SCALAR,    "bp_addr",        0, PC_KV26,       1) /* 2.6.39 */ \
	F(bp_len,                     64,   8, SCALAR,    NULL,             1, PC_KV26,       1) /* 2.6.33 */ \
	F(kprobe_addr,                64,   8, SCALAR,    "bp_len",         1, PC_KV(4, 17),  1) \
	F(probe_offset,               64,   8, SCALAR,    "bp_len",         1, PC_KV(4, 17),  1) \
	F(config2,                    64,   8, SCALAR,    "bp_len",         1, PC_KV26,       1) /* 2.6.39 */ \
	F(branch_sample_type,         72,   8, SCALAR,    NULL,             2, PC_KV(3, 4),   1) \
	F(sample_regs_user,           80,   8, SCALAR,    NULL,             3, PC_KV(3, 7),   1) \
	F(sample_stack_user,          88,   4, SCALAR,    NULL,             3, PC_KV(3, 7),   1) \
	/* clockid took the 3.7 padding word (__reserved_2) */ \
	F(clockid,                    92,   4, SCALAR,    NULL,             3, PC_KV(4, 1),   1) \
	F(sample_regs_intr,           96,   8, SCALAR,    NULL,             4, PC_KV(3, 19),  1) \
	F(aux_watermark,             104,   4, SCALAR,    NULL,             5, PC_KV(4, 1),   1) \
	/* 4.1 had __u32 __reserved_2 here; 4.8 split it */ \
	F(sample_max_stack,          108,   2, SCALAR,    NULL,             5, PC_KV(4, 8),   1) \
	F(__reserved_2,              110,   2, RESERVED,  NULL,             5, PC_KV(4, 1),   1) \
	F(aux_sample_size,           112,   4, SCALAR,    NULL,             6, PC_KV(5, 5),   1) \
	/* 5.5 had __u32 __reserved_3 here; 6.13 made it the aux_action union */ \
	F(aux_action,                116,   4, SCALAR,    NULL,             6, PC_KV(6, 13),  0) \
	B(aux_start_paused,          116, 4,  0,  1, BITS,      "aux_action",  6, PC_KV(6, 13),  0) \
	B(aux_pause,                 116, 4,  1,  1, BITS,      "aux_action",  6, PC_KV(6, 13),  0) \
	B(aux_resume,                116, 4,  2,  1, BITS,      "aux_action",  6, PC_KV(6, 13),  0) \
	B(__reserved_3,              116, 4,  3, 29, RESERVED,  "aux_action",  6, PC_KV(5, 5),   0) \
	F(sig_data,                  120,   8, SCALAR,    NULL,             7, PC_KV(5, 13),  1) \
	F(config3,                   128,   8, SCALAR,    NULL,             8, PC_KV(6, 3),   0) \
	F(config4,                   136,   8, SCALAR,    NULL,             9, PC_KV(6, 19),  0)

/*
 * struct perf_event_mmap_page (1088 bytes: the 1 KiB control part, then the
 * data and AUX ring positions). Same F/B shape, without size_ver.
 *   F(name, offset, size, kind, union_with, since)
 *   B(name, offset, word_size, bit, nbits, kind, union_with, since)
 * Every entry is in the 6.1 system header.
 */
#define PC_MMAP_PAGE_LAYOUT(F, B) \
	F(version,                     0,   4, SCALAR,    NULL,            PC_KV26) /* 2.6.31 */ \
	F(compat_version,              4,   4, SCALAR,    NULL,            PC_KV26) /* 2.6.31 */ \
	F(lock,                        8,   4, SCALAR,    NULL,            PC_KV26) /* 2.6.31 */ \
	F(index,                      12,   4, SCALAR,    NULL,            PC_KV26) /* 2.6.31 */ \
	F(offset,                     16,   8, SCALAR,    NULL,            PC_KV26) /* 2.6.31 */ \
	F(time_enabled,               24,   8, SCALAR,    NULL,            PC_KV26) /* 2.6.31 */ \
	F(time_running,               32,   8, SCALAR,    NULL,            PC_KV26) /* 2.6.31 */ \
	F(capabilities,               40,   8, SCALAR,    NULL,            PC_KV(3, 4)) \
	/* bit 0 was cap_usr_time and cap_usr_rdpmc at once in 3.4..3.11 */ \
	B(cap_bit0,                   40, 8,  0,  1, BITS,      "capabilities",  PC_KV(3, 4)) \
	B(cap_bit0_is_deprecated,     40, 8,  1,  1, BITS,      "capabilities",  PC_KV(3, 12)) \
	B(cap_user_rdpmc,             40, 8,  2,  1, BITS,      "capabilities",  PC_KV(3, 12)) \
	B(cap_user_time,              40, 8,  3,  1, BITS,      "capabilities",  PC_KV(3, 12)) \
	B(cap_user_time_zero,         40, 8,  4,  1, BITS,      "capabilities",  PC_KV(3, 12)) \
	B(cap_user_time_short,        40, 8,  5,  1, BITS,      "capabilities",  PC_KV(5, 9)) \
	B(cap_____res,                40, 8,  6, 58, RESERVED,  "capabilities",  PC_KV(3, 4)) \
	F(pmc_width,                  48,   2, SCALAR,    NULL,            PC_KV(3, 4)) \
	F(time_shift,                 50,   2, SCALAR,    NULL,            PC_KV(3, 4)) \
	F(time_mult,                  52,   4, SCALAR,    NULL,            PC_KV(3, 4)) \
	F(time_offset,                56,   8, SCALAR,    NULL,            PC_KV(3, 4)) \
	F(time_zero,                  64,   8, SCALAR,    NULL,            PC_KV(3, 12)) \
	F(size,                       72,   4, SCALAR,    NULL,            PC_KV(3, 12)) \
	F(__reserved_1,               76,   4, RESERVED,  NULL,            PC_KV(5, 9)) \
	F(time_cycles,                80,   8, SCALAR,    NULL,            PC_KV(5, 9)) \
	F(time_mask,                  88,   8, SCALAR,    NULL,            PC_KV(5, 9)) \
	F(__reserved,                 96, 928, RESERVED,  NULL,            PC_KV26) /* 2.6.31, shrinking since */ \
	F(data_head,                1024,   8, SCALAR,    NULL,            PC_KV26) /* 2.6.31 */ \
	F(data_tail,                1032,   8, SCALAR,    NULL,            PC_KV26) /* 2.6.31 */ \
	F(data_offset,              1040,   8, SCALAR,    NULL,            PC_KV(4, 1)) \
	F(data_size,                1048,   8, SCALAR,    NULL,            PC_KV(4, 1)) \
	F(aux_head,                 1056,   8, SCALAR,    NULL,            PC_KV(4, 1)) \
	F(aux_tail,                 1064,   8, SCALAR,    NULL,            PC_KV(4, 1)) \
	F(aux_offset,               1072,   8, SCALAR,    NULL,            PC_KV(4, 1)) \
	F(aux_size,                 1080,   8, SCALAR,    NULL,            PC_KV(4, 1))

/* struct perf_event_header: F(name, offset, size) */
#define PC_HEADER_LAYOUT(F) \
	F(type,                     0, 4) \
	F(misc,                     4, 2) \
	F(size,                     6, 2)

#define PC_ABI_ATTR_SIZE	144	/* PC_ATTR_SIZE_VER9 */
#define PC_ABI_MMAP_PAGE_SIZE	1088
#define PC_ABI_HEADER_SIZE	8

#endif
