/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For sample_id_all, sample_type and comm_exec: what an inherited event
 * samples or records of a child's work (work/workload.h: a forked child,
 * pc_work_in_child, or an exec'd helper, pc_work_exec).
 */
#ifndef PERFCONF_TESTS_ATTR_SAMPLING_CHILD_H
#define PERFCONF_TESTS_ATTR_SAMPLING_CHILD_H

#include "perfconf.h"

/* With the capture's event enabled, a child does the work; read the records. The child's pid. */
static pid_t child_recorded(struct __test_metadata *_metadata, struct pc_capture *cap,
			    pid_t (*spawn)(const char *work), const char *work)
{
	ASSERT_EQ(0, pc_enable(cap->fd));
	pid_t child = spawn(work);
	ASSERT_EQ(0, pc_disable(cap->fd));
	ASSERT_LT(0, child);
	ASSERT_CAPTURE_READ(cap);
	return child;
}

#endif
