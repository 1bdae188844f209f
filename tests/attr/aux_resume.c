// SPDX-License-Identifier: GPL-2.0
/*
 * aux_resume (since Linux 6.13, bit 2 of aux_action): "on overflow, resume AUX
 * area tracing" (UAPI). The event that overflows resumes the tracing of its
 * group leader, which must be an AUX area event whose PMU can pause:
 * without such a leader the event is refused with EINVAL. It is not for
 * aux_output events (EOPNOTSUPP), nor together with aux_pause (see
 * aux_action). Before 6.13 the bit was __reserved_3: EINVAL.
 */
#define FIELD		aux_resume
#define ON_OVERFLOW	"resumed"
#include "aux_action_bit.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

TEST_HARNESS_MAIN
