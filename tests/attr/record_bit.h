/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For comm and task, the bits that add records about this task and the
 * tasks it makes: the capture around one piece of work, written once. The
 * field file defines FIELD (the bit, comm), then includes this.
 */
#include "perfconf.h"
#include "work/affinity.h"
#include "ring/sideband.h"

/* A dummy software event with only the bit (and inherit) set. */
static struct perfconf_attr bit_attr(int inherit)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.FIELD = 1;
	attr.inherit = inherit;
	return attr;
}

/*
 * Opens cap on bit_attr(inherit), runs work(arg) with it enabled, then
 * reads the records into cap. Inherited, to follow the tasks the work
 * makes, the capture is on one CPU (lib/work/affinity.h). Returns what
 * work returned.
 */
static int record_around(struct __test_metadata *_metadata, struct pc_capture *cap, int inherit,
			 int (*work)(const char *arg), const char *arg)
{
	struct perfconf_attr attr = bit_attr(inherit);
	int err = inherit ? pc_capture_open_inherited(cap, &attr) : pc_capture_open(cap, &attr, 0, -1);

	ASSERT_ERRNO(0, -err);
	ASSERT_EQ(0, pc_enable(cap->fd));
	int ret = work(arg);
	ASSERT_EQ(0, pc_disable(cap->fd));
	ASSERT_CAPTURE_READ(cap);
	return ret;
}

/* The one record of `type` that tid has in cap: there must be exactly one. */
static const struct pc_record *only_record(struct __test_metadata *_metadata,
					   const struct pc_capture *cap, uint32_t type, pid_t tid)
{
	ASSERT_EQ(1, pc_tid_count(cap, type, tid));
	return pc_find_tid(cap, type, tid, 0);
}
