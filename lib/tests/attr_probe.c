// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/work/attr_probe.c without a kernel: setting a field by its
 * ABI-table name touches exactly the bytes the compiler gives the struct
 * member of that name, and nothing else.
 */
#include "perfconf.h"
#include "abi/abi_layout.h"
#include "work/attr_probe.h"

/* Each member's mask (every bit it has), set through the member itself. */
typedef void (*set_fn)(struct perfconf_attr *a, uint64_t v);

#define SET_F(n, off, sz, k, uw, ver, kv, sys) \
	static void set_##n(struct perfconf_attr *a, uint64_t v) { a->n = v; }
#define SET_B(n, off, wsz, b, nb, k, uw, ver, kv, sys) SET_F(n, off, wsz, k, uw, ver, kv, sys)
#define ENTRY_F(n, ...)	{ #n, set_##n },
#define ENTRY_B(n, ...)	{ #n, set_##n },

PC_ATTR_LAYOUT(SET_F, SET_B)
static const struct {
	const char *name;
	set_fn set;
} members[] = {
	PC_ATTR_LAYOUT(ENTRY_F, ENTRY_B)
};

static uint64_t mask_of(const char *name)
{
	unsigned int bits = pc_field_bits(name);

	return bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
}

TEST(set_matches_the_member)
{
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		struct perfconf_attr by_name, by_member;
		const char *name = members[i].name;

		memset(&by_name, 0, sizeof(by_name));
		memset(&by_member, 0, sizeof(by_member));
		ASSERT_NE(0, pc_field_bits(name)) TH_LOG("%s", name);
		ASSERT_EQ(0, pc_field_set(&by_name, name, mask_of(name))) TH_LOG("%s", name);
		members[i].set(&by_member, UINT64_MAX);
		EXPECT_EQ(0, memcmp(&by_name, &by_member, sizeof(by_name))) TH_LOG("%s", name);
		EXPECT_EQ(mask_of(name), pc_field_get(&by_member, name)) TH_LOG("%s", name);
	}
}

TEST(clearing_leaves_the_rest)
{
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		struct perfconf_attr by_name, by_member;
		const char *name = members[i].name;

		memset(&by_name, 0xa5, sizeof(by_name));
		memset(&by_member, 0xa5, sizeof(by_member));
		ASSERT_EQ(0, pc_field_set(&by_name, name, 0)) TH_LOG("%s", name);
		members[i].set(&by_member, 0);
		EXPECT_EQ(0, memcmp(&by_name, &by_member, sizeof(by_name))) TH_LOG("%s", name);
	}
}

TEST(bad_requests_are_refused)
{
	struct perfconf_attr attr, before;

	memset(&attr, 0, sizeof(attr));
	before = attr;
	EXPECT_EQ(-EINVAL, pc_field_set(&attr, "no_such_field", 1));
	EXPECT_EQ(-EINVAL, pc_field_set(&attr, "aux_pause", 2));
	EXPECT_EQ(-EINVAL, pc_field_set(&attr, "__reserved_2", 0x10000));
	EXPECT_EQ(0, memcmp(&attr, &before, sizeof(attr)));
	EXPECT_EQ(EDOM, pc_field_probe(&attr, "aux_pause", 2).err);
	EXPECT_EQ(0, pc_field_bits("no_such_field"));
}

TEST_HARNESS_MAIN
