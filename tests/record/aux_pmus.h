/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For aux.c, itrace_start.c and aux_output_hw_id.c: the records only an
 * AUX PMU's driver writes, whose contents need a PMU here that takes an
 * AUX area (found by trying: pc_ring_probe_aux_pmus).
 */
#ifndef AUX_PMUS_H
#define AUX_PMUS_H

#include "perfconf.h"

/*
 * How many PMUs here took an AUX area; names[] lists them (and those
 * refused with another errno than EOPNOTSUPP) as "pmu=aux" or "pmu=ERRNO".
 */
static inline size_t aux_pmus(char *names, size_t len)
{
	size_t aux, other;

	pc_ring_probe_aux_pmus(&aux, &other, names, len);
	return aux;
}

/*
 * A case about the contents of `record`: SKIP, with `why_none` where no PMU
 * here takes an AUX area, and otherwise naming those that do (their
 * records are not checked yet).
 */
#define SKIP_AUX_RECORD_CONTENTS(record, why_none) do { \
	char names_[512]; \
	if (!aux_pmus(names_, sizeof(names_))) \
		SKIP(return, "no PMU here takes an AUX area: %s", why_none); \
	SKIP(return, "AUX PMUs here (%s), but %s is not checked yet", names_, record); \
} while (0)

#endif
