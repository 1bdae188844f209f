/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the hw/ tests: opening an event the core PMU may not have. A PMU
 * refuses one it does not have with an errno perf_event_open(2) documents
 * for that (pc_hw_refusal_documented); which errno is pinned.
 */
#ifndef HW_REFUSALS_H
#define HW_REFUSALS_H

#include <stdbool.h>

#include "perfconf.h"
#include "event/hw.h"

/*
 * Open attr on this task, its errno pinned under `key`: whether it opened.
 * A refusal must be a documented one.
 */
static inline bool hw_opens(struct __test_metadata *_metadata, const char *key,
			    struct perfconf_attr *attr)
{
	int err = pc_open_observe_errno(key, attr, 0, -1);

	if (err) {
		EXPECT_TRUE(pc_hw_refusal_documented(err)) TH_LOG("%s: %s", key, pc_errno_name(err));
	}
	return !err;
}

/* A config that names no event, and the key its refusal is pinned under. */
struct hw_no_event {
	const char *key;
	uint64_t config;
};

/* Each config of `type`, counting user mode only, is refused. */
static inline void hw_expect_no_events(struct __test_metadata *_metadata, uint32_t type,
				       const struct hw_no_event *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct perfconf_attr attr = pc_attr(type, cases[i].config);

		attr.exclude_kernel = 1;
		EXPECT_FALSE(hw_opens(_metadata, cases[i].key, &attr))
			TH_LOG("%s (config %#llx) opened", cases[i].key, (unsigned long long)cases[i].config);
	}
}

#endif
