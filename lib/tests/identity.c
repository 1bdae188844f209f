// SPDX-License-Identifier: GPL-2.0
/*
 * host/privilege.h: each identity, once become, verifies as itself and as
 * no other (nor as the stranger, another user); a wrong uid or an extra
 * capability is named in the reason.
 * Needs root (every case runs in its own child, so each may drop it).
 */
#include "perfconf.h"

FIXTURE(identity) {};

FIXTURE_VARIANT(identity) {
	const char *name;
};

#define IDENTITY(n) FIXTURE_VARIANT_ADD(identity, n) { .name = #n }
IDENTITY(root);
IDENTITY(unprivileged);
IDENTITY(perfmon);
IDENTITY(sys_admin);
IDENTITY(sys_ptrace);
IDENTITY(ipc_lock);
IDENTITY(bpf);
IDENTITY(bpf_perfmon);
IDENTITY(syslog);

FIXTURE_SETUP(identity)
{
	if (geteuid())
		SKIP(return, "needs root");
}

FIXTURE_TEARDOWN(identity)
{
}

TEST_F(identity, verifies_as_itself_and_no_other)
{
	const struct pc_identity *id = pc_identity(variant->name);
	char why[256];

	ASSERT_NE(NULL, id);
	BECOME_IDENTITY(id);
	for (size_t i = 0; i < pc_identities_count; i++) {
		const struct pc_identity *other = &pc_identities[i];
		int err = pc_identity_verify(other, why, sizeof(why));

		if (other == id) {
			EXPECT_EQ(0, err) TH_LOG("%s", why);
		} else {
			EXPECT_EQ(-EPERM, err) TH_LOG("%s verified as %s", id->name, other->name);
		}
	}
	EXPECT_EQ(-EPERM, pc_identity_verify(&pc_stranger, why, sizeof(why)))
		TH_LOG("%s verified as the stranger", id->name);
}

TEST(the_table_names_each_identity_once)
{
	ASSERT_EQ(9, pc_identities_count);
	for (size_t i = 0; i < pc_identities_count; i++)
		EXPECT_EQ(&pc_identities[i], pc_identity(pc_identities[i].name));
	EXPECT_EQ(NULL, pc_identity("nobody at all"));
}

/* A process with one capability too many is not the unprivileged identity, and says why. */
TEST(an_extra_capability_is_named)
{
	char why[256];

	if (geteuid())
		SKIP(return, "needs root");
	BECOME_IDENTITY(pc_identity("perfmon"));
	ASSERT_EQ(-EPERM, pc_identity_verify(pc_identity("unprivileged"), why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "effective")) TH_LOG("%s", why);
	EXPECT_NE(NULL, strstr(why, "cap_perfmon")) TH_LOG("%s", why);
}

/*
 * The stranger is another user, outside the table: it verifies as itself and
 * as no identity of the matrix, and the uid that differs is named.
 */
TEST(the_stranger_is_another_user)
{
	char why[256];

	if (geteuid())
		SKIP(return, "needs root");
	EXPECT_EQ(NULL, pc_identity(pc_stranger.name));
	BECOME_IDENTITY(&pc_stranger);
	for (size_t i = 0; i < pc_identities_count; i++) {
		EXPECT_EQ(-EPERM, pc_identity_verify(&pc_identities[i], why, sizeof(why)))
			TH_LOG("the stranger verified as %s", pc_identities[i].name);
	}
	ASSERT_EQ(-EPERM, pc_identity_verify(pc_identity("unprivileged"), why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "65533")) TH_LOG("%s", why);
}

TEST_HARNESS_MAIN
