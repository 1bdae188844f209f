// SPDX-License-Identifier: GPL-2.0
/*
 * struct perf_event_attr: "The perf_event_attr structure provides detailed
 * configuration information for the event being created." Every field sits
 * where the ABI table says, in the system header's struct and in ours, and
 * the kernel accepts each published size (PERF_ATTR_SIZE_VERn) up to its
 * own. The bitfields are checked by lib/tests/abi_tables.
 */
#include <stddef.h>

#include "perfconf.h"

#define MEMBER_SIZE(type, m)	sizeof(((type *)0)->m)

/* Table entry `name` is at `off` and `size` bytes in the struct `what`. */
static void expect_field(struct __test_metadata *_metadata, const char *what,
			 const char *name, size_t off, size_t size)
{
	const struct pc_abi_field *f = pc_abi_find(&pc_abi_attr, name);

	ASSERT_NE(NULL, f) TH_LOG("%s is not in the table", name);
	EXPECT_EQ(off, f->offset) TH_LOG("%s.%s: offset", what, name);
	EXPECT_EQ(size, f->size) TH_LOG("%s.%s: size", what, name);
}

/* A member both structs have, and one only struct perfconf_attr has (newer than 6.1). */
#define BOTH(m) do { \
	expect_field(_metadata, "perf_event_attr", #m, offsetof(struct perf_event_attr, m), \
		     MEMBER_SIZE(struct perf_event_attr, m)); \
	expect_field(_metadata, "perfconf_attr", #m, offsetof(struct perfconf_attr, m), \
		     MEMBER_SIZE(struct perfconf_attr, m)); \
} while (0)
#define OURS(m) \
	expect_field(_metadata, "perfconf_attr", #m, offsetof(struct perfconf_attr, m), \
		     MEMBER_SIZE(struct perfconf_attr, m))

TEST(event_selection)
{
	BOTH(type);
	BOTH(size);
	BOTH(config);
	BOTH(config1);
	BOTH(config2);
	OURS(config3);
	OURS(config4);
}

TEST(sampling)
{
	BOTH(sample_period);
	BOTH(sample_freq);
	BOTH(sample_type);
	BOTH(read_format);
	BOTH(branch_sample_type);
	BOTH(sample_regs_user);
	BOTH(sample_stack_user);
	BOTH(clockid);
	BOTH(sample_regs_intr);
	BOTH(sample_max_stack);
	BOTH(sig_data);
}

TEST(wakeup_and_breakpoints)
{
	BOTH(wakeup_events);
	BOTH(wakeup_watermark);
	BOTH(bp_type);
	BOTH(bp_addr);
	BOTH(bp_len);
}

TEST(probes)
{
	BOTH(kprobe_func);
	BOTH(uprobe_path);
	BOTH(kprobe_addr);
	BOTH(probe_offset);
}

TEST(aux_area)
{
	BOTH(aux_watermark);
	BOTH(aux_sample_size);
	OURS(aux_action);
}

/* Reserved fields must be zero; they are where the table says. */
TEST(reserved)
{
	BOTH(__reserved_2);
	/* 6.1 still has the plain __u32 __reserved_3 where aux_action is now. */
	expect_field(_metadata, "perf_event_attr", "aux_action",
		     offsetof(struct perf_event_attr, __reserved_3),
		     MEMBER_SIZE(struct perf_event_attr, __reserved_3));
}

TEST(struct_size)
{
	EXPECT_EQ(sizeof(struct perfconf_attr), pc_abi_attr.size);
	EXPECT_EQ(PC_ATTR_SIZE_NEWEST, pc_abi_attr.size);
	/* The system header's struct is its newest published size. */
	EXPECT_LE(0, pc_abi_size_ver_of(sizeof(struct perf_event_attr)));
}

/*
 * "The size of the perf_event_attr structure for forward/backward
 * compatibility": every published size up to the kernel's own is accepted.
 */
TEST(kernel_accepts_published_sizes)
{
	uint32_t kernel_size = pc_attr_kernel_size();
	unsigned int accepted = 0;

	ASSERT_NE(0, kernel_size) TH_LOG("the kernel's attr size could not be probed");
	for (size_t i = 0; i < pc_abi_size_vers_count; i++) {
		struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
		const struct pc_abi_size_ver *v = &pc_abi_size_vers[i];

		if (v->size > kernel_size)
			break;
		attr.exclude_kernel = 1;	/* opens at any perf_event_paranoid up to 2 */
		attr.size = v->size;
		EXPECT_ERRNO(0, pc_open_errno(&attr, 0, -1, -1, 0))
			TH_LOG("attr.size = %u (VER%u)", v->size, v->ver);
		accepted = v->ver;
	}
	pc_observe("newest_accepted_ver", "%u", accepted);
}

TEST_HARNESS_MAIN
