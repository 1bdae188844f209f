/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For wakeup_events.c and watermark.c: whether a record that is no sample
 * wakes the reader, with the wakeup fields under test.
 */
#ifndef WAKEUP_COMM_H
#define WAKEUP_COMM_H

#include "perfconf.h"
#include "ring/wakeup.h"

/* A dummy event sampling TID: its ring gets no samples, only the COMM record. */
static inline struct perfconf_attr comm_reader(void)
{
	return pc_attr_sw_sampling(PERF_COUNT_SW_DUMMY, 1, PERF_SAMPLE_TID);
}

/* Whether the one COMM record of a rename woke attr's reader (pc_comm_wakes). */
static inline bool comm_wakes(struct __test_metadata *_metadata, struct perfconf_attr *attr)
{
	size_t comms = 0;
	int woken = pc_comm_wakes(attr, &comms);

	ASSERT_LE(0, woken) TH_LOG("%s", pc_errno_name(-woken));
	ASSERT_EQ(1, comms);
	return woken;
}

#endif
