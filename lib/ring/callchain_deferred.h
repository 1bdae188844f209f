/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Deferred user callchains (Linux 6.19: attr.defer_callchain and
 * attr.defer_output). A sample whose user stack is to be unwound later ends
 * its callchain with PERF_CONTEXT_USER_DEFERRED and a cookie; the user
 * stack comes afterwards in a PERF_RECORD_CALLCHAIN_DEFERRED record with
 * the same cookie, written to the events that have defer_output.
 *
 * The REQUIRE_ macros end a case (SKIP): they expand in a test, where
 * perfconf.h brings the harness.
 */
#ifndef PERFCONF_CALLCHAIN_DEFERRED_H
#define PERFCONF_CALLCHAIN_DEFERRED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ring/capture.h"
#include "ring/record.h"
#include "host/observe.h"
#include "host/kernel.h"

/*
 * True when the sample's callchain ends with PERF_CONTEXT_USER_DEFERRED
 * and a cookie; *cookie receives it (may be NULL).
 */
bool pc_deferred_cookie(const struct pc_sample *s, uint64_t *cookie);
/* The number of PERF_RECORD_SAMPLEs of the capture that were deferred. */
size_t pc_deferred_samples(const struct pc_capture *c);
/*
 * The CALLCHAIN_DEFERRED record with this cookie, or NULL; *index (may be
 * NULL) receives its position among the capture's records, to compare with
 * the sample's.
 */
const struct pc_record *pc_deferred_record(const struct pc_capture *c, uint64_t cookie,
					    size_t *index);

/*
 * n user page faults with the events of the captures a and b (b may be
 * NULL) enabled around them, then both captures read. 0, or -errno with
 * the reason in a capture's error.
 */
int pc_deferred_faults(unsigned long n, struct pc_capture *a, struct pc_capture *b);

/*
 * The errno of opening pc_attr_defer_sampler() with defer_output: 0 on a
 * kernel that knows the bits, EINVAL where they are still __reserved_1.
 */
int pc_defer_errno(void);

/* SKIP when this kernel refuses defer_callchain. */
#define REQUIRE_DEFER() do { \
	int e_ = pc_defer_errno(); \
	if (e_) \
		SKIP(return, "defer_callchain refused by this kernel (%s): before 6.19 it is __reserved_1", \
		     pc_errno_name(e_)); \
} while (0)

/*
 * SKIP when the kernel took defer_callchain but deferred none of the
 * capture's samples: it has no user unwinder (CONFIG_UNWIND_USER; 6.19 has
 * one for x86 only). Where the config says it is there, go on and fail.
 */
#define REQUIRE_DEFERRED_SAMPLES(cap) do { \
	if (pc_deferred_samples(cap) == 0 && pc_kernel_config("UNWIND_USER") != 'y') \
		SKIP(return, "no sample was deferred and CONFIG_UNWIND_USER is not known to be set"); \
} while (0)

#endif
