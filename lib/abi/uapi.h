/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The newest perf_event ABI as perfconf knows it.
 *
 * Debian 12's <linux/perf_event.h> stops at PERF_ATTR_SIZE_VER7 (Linux 6.1),
 * so the lib declares its own struct perfconf_attr with every field through
 * PERF_ATTR_SIZE_VER9. Constants the system header has are used from it;
 * newer ones are declared here under a PC_ prefix so that a newer system
 * header never collides with them. lib/abi/abi_check.c checks this struct
 * against the system header at compile time.
 */
#ifndef PERFCONF_UAPI_H
#define PERFCONF_UAPI_H

#include <linux/perf_event.h>
#include <stdint.h>

#define PC_ATTR_SIZE_VER0 64	/* 2.6.31 */
#define PC_ATTR_SIZE_VER1 72	/* 2.6.33: config2 */
#define PC_ATTR_SIZE_VER2 80	/* 3.4:  branch_sample_type */
#define PC_ATTR_SIZE_VER3 96	/* 3.7:  sample_regs_user, sample_stack_user */
#define PC_ATTR_SIZE_VER4 104	/* 3.19: sample_regs_intr */
#define PC_ATTR_SIZE_VER5 112	/* 4.1:  aux_watermark */
#define PC_ATTR_SIZE_VER6 120	/* 5.5:  aux_sample_size */
#define PC_ATTR_SIZE_VER7 128	/* 5.13: sig_data */
#define PC_ATTR_SIZE_VER8 136	/* 6.3:  config3 */
#define PC_ATTR_SIZE_VER9 144	/* 6.19: config4 */
#define PC_ATTR_SIZE_NEWEST PC_ATTR_SIZE_VER9

/* Record types and flags newer than the system header. */
#define PC_RECORD_AUX_OUTPUT_HW_ID	21
#define PC_RECORD_CALLCHAIN_DEFERRED	22
#define PC_RECORD_TYPE_MAX		22
#define PC_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#define PC_SAMPLE_TYPE_MAX_BIT		24	/* PERF_SAMPLE_WEIGHT_STRUCT */
#define PC_CONTEXT_USER_DEFERRED	((uint64_t)-640)

/*
 * struct perf_event_attr through PERF_ATTR_SIZE_VER9, with the kernel's own
 * field names so that a test reads like the man page.
 */
struct perfconf_attr {
	uint32_t type;
	uint32_t size;
	uint64_t config;
	union {
		uint64_t sample_period;
		uint64_t sample_freq;
	};
	uint64_t sample_type;
	uint64_t read_format;

	uint64_t disabled		: 1,
		 inherit		: 1,
		 pinned			: 1,
		 exclusive		: 1,
		 exclude_user		: 1,
		 exclude_kernel		: 1,
		 exclude_hv		: 1,
		 exclude_idle		: 1,
		 mmap			: 1,
		 comm			: 1,
		 freq			: 1,
		 inherit_stat		: 1,
		 enable_on_exec		: 1,
		 task			: 1,
		 watermark		: 1,
		 precise_ip		: 2,
		 mmap_data		: 1,
		 sample_id_all		: 1,
		 exclude_host		: 1,
		 exclude_guest		: 1,
		 exclude_callchain_kernel : 1,
		 exclude_callchain_user	: 1,
		 mmap2			: 1,
		 comm_exec		: 1,
		 use_clockid		: 1,
		 context_switch		: 1,
		 write_backward		: 1,
		 namespaces		: 1,
		 ksymbol		: 1,
		 bpf_event		: 1,
		 aux_output		: 1,
		 cgroup			: 1,
		 text_poke		: 1,
		 build_id		: 1,
		 inherit_thread		: 1,
		 remove_on_exec		: 1,
		 sigtrap		: 1,
		 defer_callchain	: 1,
		 defer_output		: 1,
		 __reserved_1		: 24;

	union {
		uint32_t wakeup_events;
		uint32_t wakeup_watermark;
	};
	uint32_t bp_type;
	union {
		uint64_t bp_addr;
		uint64_t kprobe_func;
		uint64_t uprobe_path;
		uint64_t config1;
	};
	union {
		uint64_t bp_len;
		uint64_t kprobe_addr;
		uint64_t probe_offset;
		uint64_t config2;
	};
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t __reserved_2;
	uint32_t aux_sample_size;
	union {
		uint32_t aux_action;
		struct {
			uint32_t aux_start_paused : 1,
				 aux_pause	  : 1,
				 aux_resume	  : 1,
				 __reserved_3	  : 29;
		};
	};
	uint64_t sig_data;
	uint64_t config3;
	uint64_t config4;
};

#endif
