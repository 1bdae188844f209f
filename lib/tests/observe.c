// SPDX-License-Identifier: GPL-2.0
/* The observation line format and the errno-name table. */
#include "perfconf.h"

/* Run pc_observe(key, value) with stdout redirected; return what it wrote. */
static void capture(const char *key, const char *value, char *out, size_t len)
{
	int pipefd[2], saved = dup(STDOUT_FILENO);

	if (pipe(pipefd) || saved < 0)
		abort();
	dup2(pipefd[1], STDOUT_FILENO);
	pc_observe(key, "%s", value);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(pipefd[1]);
	ssize_t n = read(pipefd[0], out, len - 1);
	out[n < 0 ? 0 : n] = '\0';
	close(pipefd[0]);
}

TEST(observation_line)
{
	char line[600];

	capture("max_attr_size", "136", line, sizeof(line));
	EXPECT_STREQ("# OBS max_attr_size=136\n", line);
}

TEST(observation_is_one_token)
{
	char line[600];

	capture("Key With Space", "a b=c#d\te", line, sizeof(line));
	EXPECT_STREQ("# OBS _ey__ith__pace=a_b_c_d_e\n", line);
	capture("empty", "", line, sizeof(line));
	EXPECT_STREQ("# OBS empty=_\n", line);
}

TEST(observation_keeps_errno)
{
	char line[600];

	errno = EBUSY;
	capture("k", "v", line, sizeof(line));
	EXPECT_EQ(EBUSY, errno);
}

TEST(errno_names)
{
	EXPECT_STREQ("OK", pc_errno_name(0));
	EXPECT_STREQ("EINVAL", pc_errno_name(EINVAL));
	EXPECT_STREQ("E2BIG", pc_errno_name(E2BIG));
	EXPECT_STREQ("EOPNOTSUPP", pc_errno_name(EOPNOTSUPP));
	EXPECT_STREQ("EOVERFLOW", pc_errno_name(EOVERFLOW));
	EXPECT_STREQ("E9999", pc_errno_name(9999));
	EXPECT_STREQ("E-1", pc_errno_name(-1));
}

TEST(errno_name_round_trip)
{
	for (int e = 0; e < 134; e++) {
		const char *name = pc_errno_name(e);

		if (name[0] == 'E' && name[1] >= '0' && name[1] <= '9')
			continue;	/* a number with no name here */
		EXPECT_EQ(e, pc_errno_from_name(name)) TH_LOG("%d -> %s", e, name);
	}
	EXPECT_EQ(-ENOENT, pc_errno_from_name("ENOTANERRNO"));
}

TEST(unsupported_errnos)
{
	EXPECT_TRUE(pc_errno_is_unsupported(ENOENT));
	EXPECT_TRUE(pc_errno_is_unsupported(EOPNOTSUPP));
	EXPECT_TRUE(pc_errno_is_unsupported(ENODEV));
	EXPECT_FALSE(pc_errno_is_unsupported(EINVAL));
	EXPECT_FALSE(pc_errno_is_unsupported(EACCES));
	EXPECT_FALSE(pc_errno_is_unsupported(0));
}

TEST_HARNESS_MAIN
