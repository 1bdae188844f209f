/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two cases every AUX area field ends with (aux_action, aux_sample_size,
 * aux_start_paused, aux_watermark, and aux_pause and aux_resume through
 * aux_action_bit.h): its effect on an AUX PMU, which none here has (a
 * SKIP, with the errno observed where there is one: PROBE_ON_AUX_PMU), and
 * the attr size rule on attr_of_field, an event that takes the field.
 */
#ifndef AUX_FIELD_CASES_H
#define AUX_FIELD_CASES_H

#include "perfconf.h"
#include "work/attr_probe.h"

#define AUX_FIELD_CASES(field, attr_of_field, value, in_group, effect) \
TEST(on_an_aux_pmu) \
{ \
	PROBE_ON_AUX_PMU(field, value, in_group, effect); \
} \
\
TEST(attr_size_rule) \
{ \
	struct perfconf_attr attr = attr_of_field; \
\
	EXPECT_ATTR_SIZE_RULE(&attr, field, 1); \
}

#endif
