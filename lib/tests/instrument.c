// SPDX-License-Identifier: GPL-2.0
/* Instrument probes: PERFCONF_BROKEN forces them broken, and the cause line. */
#include <stdlib.h>

#include "perfconf.h"

static bool forced(enum pc_instrument i)
{
	const struct pc_instrument_probe *p = pc_instrument(i);

	return p->state == PC_INSTR_BROKEN && strstr(p->why, "forced broken by " PC_BROKEN_ENV);
}

TEST(broken_by_name)
{
	ASSERT_EQ(0, setenv(PC_BROKEN_ENV, "sched_fifo,breakpoints", 1));
	EXPECT_TRUE(forced(PC_INSTR_BREAKPOINTS));
	EXPECT_TRUE(forced(PC_INSTR_SCHED_FIFO));
	ASSERT_EQ(0, setenv(PC_BROKEN_ENV, "breakpoints", 1));
	EXPECT_TRUE(forced(PC_INSTR_BREAKPOINTS));
	EXPECT_FALSE(forced(PC_INSTR_SCHED_FIFO));
}

TEST(all_breaks_every_instrument)
{
	ASSERT_EQ(0, setenv(PC_BROKEN_ENV, "all", 1));
	for (int i = 0; i < PC_INSTR_COUNT; i++) {
		EXPECT_TRUE(forced(i)) TH_LOG("%s", pc_instrument_name(i));
	}
}

TEST(other_words_break_nothing)
{
	static const char *const lists[] = { "", "breakpoint", "xbreakpoints", "breakpoints_", ",,", "al" };

	for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
		ASSERT_EQ(0, setenv(PC_BROKEN_ENV, lists[k], 1));
		for (int i = 0; i < PC_INSTR_COUNT; i++) {
			EXPECT_FALSE(forced(i)) TH_LOG("%s=\"%s\"", PC_BROKEN_ENV, lists[k]);
		}
	}
}

/* Without the variable the real probe runs once and its answer is kept. */
TEST(probe_runs_once)
{
	ASSERT_EQ(0, unsetenv(PC_BROKEN_ENV));
	for (int i = 0; i < PC_INSTR_COUNT; i++) {
		const struct pc_instrument_probe *p = pc_instrument(i);

		EXPECT_NE(0, strlen(p->why));
		EXPECT_EQ(p, pc_instrument(i));
		EXPECT_FALSE(forced(i));
	}
}

TEST(cause_line_names_the_instrument)
{
	int pipefd[2], saved = dup(STDOUT_FILENO);
	char line[600];

	ASSERT_EQ(0, setenv(PC_BROKEN_ENV, "breakpoints", 1));
	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_LE(0, saved);
	dup2(pipefd[1], STDOUT_FILENO);
	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	pc_instrument_note(PC_INSTR_SCHED_FIFO);	/* not forced: only its fact, if it works */
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(pipefd[1]);
	ssize_t n = read(pipefd[0], line, sizeof(line) - 1);
	line[n < 0 ? 0 : n] = '\0';
	close(pipefd[0]);
	/* each declares the fact the case now depends on; the broken one names itself as the cause */
	EXPECT_STREQ("# DEPENDS instrument.breakpoints\n"
		     "# CAUSE breakpoints: forced broken by " PC_BROKEN_ENV "=breakpoints\n"
		     "# DEPENDS instrument.sched_fifo\n", line);
}

TEST_HARNESS_MAIN
