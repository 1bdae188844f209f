// SPDX-License-Identifier: GPL-2.0
/*
 * aux_action (since Linux 6.13): the u32 after aux_sample_size, a union of
 * three AUX area tracing flags, aux_start_paused ("start AUX area tracing
 * paused"), aux_pause and aux_resume ("on overflow, pause/resume AUX area
 * tracing"), and the reserved rest (__reserved_3). Before 6.13 the whole
 * word was __reserved_3. The flags act on an AUX area event (the event
 * itself, or the AUX group leader of the event that overflows), so without
 * one each is refused; pausing and resuming at once is EINVAL.
 */
#include "perfconf.h"
#include "work/attr_probe.h"
#include "aux_field_cases.h"

#define FIELD "aux_action"

static struct perfconf_attr page_faults(void)
{
	return pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
}

/*
 * Whether this kernel knows the word: aux_start_paused on a software event
 * is EOPNOTSUPP where it does (no AUX pause on that PMU), EINVAL where the
 * bit is still __reserved_3.
 */
TEST(known_to_this_kernel)
{
	struct perfconf_attr attr = page_faults();

	REQUIRE_ATTR_FIELD(FIELD);
	int err = pc_field_probe(&attr, "aux_start_paused", 1).err;
	pc_observe(FIELD, "%s", err == EOPNOTSUPP ? "known" : err == EINVAL ? "reserved" : pc_errno_name(err));
	EXPECT_ERRNO_SINCE(FIELD, EOPNOTSUPP, EINVAL, err);
}

/* Each flag the ABI table puts in the union, set alone on an event with no AUX area, is refused. */
TEST(each_flag_refused_without_an_aux_event)
{
	struct perfconf_attr attr = page_faults();
	size_t flags = 0;

	REQUIRE_ATTR_FIELD(FIELD);
	for (size_t i = 0; i < pc_abi_attr.nfields; i++) {
		const struct pc_abi_field *f = &pc_abi_attr.fields[i];
		char key[64];

		if (f->kind != PC_FIELD_BITS || !f->union_with || strcmp(f->union_with, FIELD))
			continue;
		int err = pc_field_probe(&attr, f->name, 1).err;
		snprintf(key, sizeof(key), "errno.%s", f->name);
		pc_observe_errno(key, err);
		EXPECT_NE(0, err) TH_LOG("%s opened on a software event", f->name);
		flags++;
	}
	EXPECT_EQ(3, flags);
}

TEST(pause_and_resume_together_is_einval)
{
	struct perfconf_attr attr = page_faults();
	struct perfconf_attr dummy = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	REQUIRE_ATTR_FIELD(FIELD);
	attr.aux_pause = 1;
	attr.aux_resume = 1;
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, -1, 0));
	/* In a group as well, where the leader decides the rest. */
	int leader = pc_open(&dummy, 0, -1, -1, 0);
	ASSERT_OPEN(leader);
	EXPECT_ERRNO(EINVAL, pc_open_errno(&attr, 0, -1, leader, 0));
	close(leader);
}

/* All 32 bits: the reserved ones among them make it EINVAL. */
TEST(all_bits_is_einval)
{
	struct perfconf_attr attr = page_faults();

	REQUIRE_ATTR_FIELD(FIELD);
	EXPECT_ERRNO(pc_field_reserved_errno("__reserved_3"), pc_field_probe(&attr, FIELD, UINT32_MAX).err);
}

AUX_FIELD_CASES(FIELD, page_faults(), 1, false,
		"AUX tracing that starts paused and follows pause/resume events")

TEST_HARNESS_MAIN
