/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suite's own AUX PMUs, registered by module/perfconf_pmu.c (the
 * runner loads it for a run: runners/README.md), for the core's AUX,
 * exclusive and itrace paths on machines without a tracing PMU:
 *
 *	perfconf_aux	an AUX PMU (ITRACE, EXCLUSIVE, AUX_PAUSE where the
 *			kernel has it) that writes attr.config bytes into
 *			the AUX area each time the event starts (the
 *			enable, a schedule-in, a resume) and commits them
 *			with one PERF_RECORD_AUX when it stops; the byte at
 *			AUX position p is p % 251 (pc_synth_byte)
 *	perfconf_out	a PMU whose events may be aux_output members of a
 *			perfconf_aux group whose leader's config1 bit 0 is
 *			clear (its aux_output_match()); such a member
 *			reports attr.config1 as its AUX_OUTPUT_HW_ID
 *			where the kernel exports perf_report_aux_output_id
 *
 * What the cases check is the core's work around that driver: the AUX
 * area, aux_head, PERF_RECORD_AUX and its flags, the disable, ITRACE_START,
 * EBUSY, aux_output, aux_pause; never the PMU's own bytes for themselves.
 */
#ifndef PERFCONF_SYNTH_H
#define PERFCONF_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/uapi.h"
#include "event/pmu.h"
#include "host/observe.h"
#include "ring/capture.h"

/* Why the module's PMUs are not here, in one line (the runner's reason when it gave one). */
const char *pc_synth_absent(void);
/*
 * A yes/no parameter of the module, as this kernel let it be built:
 * "aux_output_id" (perfconf_out reports AUX_OUTPUT_HW_ID: the kernel
 * exports perf_report_aux_output_id()), "aux_pause" (perfconf_aux has
 * PERF_PMU_CAP_AUX_PAUSE). false when it is not loaded.
 */
bool pc_synth_param(const char *name);

/*
 * A case on the module's PMUs: its verdict depends on the module being
 * loaded (the runner's fact module.perfconf_pmu); SKIP with the reason
 * where it is not.
 */
#define REQUIRE_SYNTH_PMU() do { \
	pc_depends("module.perfconf_pmu"); \
	if (!pc_pmu_exists(PC_SYNTH_AUX) || !pc_pmu_exists(PC_SYNTH_OUT)) \
		SKIP(return, "%s", pc_synth_absent()); \
} while (0)

/* REQUIRE_SYNTH_PMU(), and SKIP where perfconf_aux cannot pause (no PERF_PMU_CAP_AUX_PAUSE: 6.13). */
#define REQUIRE_SYNTH_PAUSE() do { \
	REQUIRE_SYNTH_PMU(); \
	if (!pc_synth_param("aux_pause")) \
		SKIP(return, "perfconf_aux cannot pause here: the kernel has no PERF_PMU_CAP_AUX_PAUSE (6.13)"); \
} while (0)

/* The events themselves: pc_attr_synth_aux() and pc_attr_synth_out() (event/event.h). */

/*
 * pc_capture_open() of attr on this task with an AUX area of 2^aux_log2
 * pages mapped in mode (PC_RING_OVERWRITE: the read-only, overwrite
 * area). 0 or -errno (c->fd == -1 when it did not open).
 */
int pc_synth_capture(struct pc_capture *c, struct perfconf_attr *attr, unsigned int aux_log2,
		     enum pc_ring_mode mode);

/* The byte perfconf_aux writes at AUX position pos. */
static inline uint8_t pc_synth_byte(uint64_t pos)
{
	return (uint8_t)(pos % 251);
}
/*
 * The first position in [from, to) whose byte in the mapped AUX area
 * (position p at p % aux_size) is not pc_synth_byte(p); `to` when all are.
 */
uint64_t pc_synth_mismatch(const struct pc_ring *r, uint64_t from, uint64_t to);

#endif
