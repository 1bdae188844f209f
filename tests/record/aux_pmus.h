/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For aux_output_hw_id.c: whether a PMU here takes an AUX area (found by
 * trying: pc_ring_probe_aux_pmus), so that some PMU may take aux_output.
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

#endif
