// SPDX-License-Identifier: GPL-2.0
/*
 * A data breakpoint (HW_BREAKPOINT_W) on a variable counts each write to it,
 * and no access to another variable. The type says which accesses hit:
 * a write watch counts no reads, a read+write watch (HW_BREAKPOINT_RW)
 * counts both. A read-only watch (HW_BREAKPOINT_R) counts reads where the
 * hardware has one: arm64 does (ARM_BREAKPOINT_LOAD,
 * arch/arm64/kernel/hw_breakpoint.c arch_build_bp_info(), 6.12:421); x86
 * debug registers have no read-only condition, and its arch_build_bp_info()
 * (arch/x86/kernel/hw_breakpoint.c, 6.12:346) refuses the type with
 * EINVAL; elsewhere the outcome is pinned.
 */
#include <linux/hw_breakpoint.h>

#include "perfconf.h"

static volatile uint64_t watched;

/* n writes to *target with a write breakpoint on `watched` enabled: its count, or UINT64_MAX. */
static uint64_t watched_writes_counted(volatile uint64_t *target, int n)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_W, &watched, sizeof(watched));
	uint64_t count = UINT64_MAX;
	int fd = pc_open(&attr, 0, -1, -1, 0);

	if (fd < 0)
		return UINT64_MAX;
	if (pc_enable(fd) == 0) {
		for (int i = 0; i < n; i++)
			pc_work_touch(target);
		if (pc_disable(fd) == 0)
			pc_read_count(fd, &count);
	}
	close(fd);
	return count;
}

/* One plain store to *p, of its first long (a 32-bit ABI moves a u64 in two). */
static __attribute__((__noinline__, __noipa__)) void store_to(volatile uint64_t *p, uint64_t v)
{
	*(volatile unsigned long *)p = (unsigned long)v;
}

/*
 * With a breakpoint of type bp_type on `watched` enabled: `reads` loads
 * then `writes` stores of it. Its count, or UINT64_MAX with *err the errno
 * of the open (or of the enabling or reading).
 */
static uint64_t watched_accesses_counted(int bp_type, int reads, int writes, int *err)
{
	struct perfconf_attr attr = pc_attr_breakpoint(bp_type, &watched, sizeof(watched));
	uint64_t count = UINT64_MAX, sum = 0;
	int fd = pc_open(&attr, 0, -1, -1, 0);

	*err = fd < 0 ? -fd : 0;
	if (fd < 0)
		return UINT64_MAX;
	pc_work_peek(&watched);	/* the path once, unmeasured */
	store_to(&watched, 0);
	if (pc_enable(fd) == 0) {
		for (int i = 0; i < reads; i++)
			sum += pc_work_peek(&watched);
		for (int i = 0; i < writes; i++)
			store_to(&watched, sum + (uint64_t)i);
		if (pc_disable(fd) == 0 && pc_read_count(fd, &count))
			count = UINT64_MAX;
	}
	close(fd);
	return count;
}

/* Every case needs a write breakpoint on the watched variable. */
FIXTURE(global) {};

FIXTURE_SETUP(global)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_W, &watched, sizeof(watched));

	SKIP_IF_UNSUPPORTED(pc_open_errno(&attr, 0, -1, -1, 0), "a write breakpoint");
}

FIXTURE_TEARDOWN(global)
{
}

TEST_F(global, counts_each_write)
{
	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	EXPECT_EQ(500, watched_writes_counted(&watched, 500))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
	EXPECT_EQ(500, watched);
}

TEST_F(global, other_variable_not_counted)
{
	static volatile uint64_t other;

	EXPECT_EQ(0, watched_writes_counted(&other, 50))
		TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

/* A write watch is not a read watch: 40 reads and 25 writes count 25. */
TEST_F(global, write_watch_counts_no_reads)
{
	int err;

	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	EXPECT_EQ(25, watched_accesses_counted(HW_BREAKPOINT_W, 40, 25, &err)) TH_LOG("%s", pc_errno_name(err));
}

/* A read+write watch counts both: 40 reads and 25 writes count 65. */
TEST_F(global, read_write_watch_counts_reads_and_writes)
{
	int err;

	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	uint64_t count = watched_accesses_counted(HW_BREAKPOINT_RW, 40, 25, &err);
	pc_observe_errno("open", err);
	SKIP_IF_UNSUPPORTED(err, "a read+write breakpoint");
	EXPECT_EQ(65, count) TH_LOG("%s", pc_errno_name(err));
}

/*
 * A read-only watch: on x86, EINVAL (no read-only debug register
 * condition); on arm64, 40 reads and 25 writes count 40; pinned elsewhere.
 */
TEST_F(global, read_watch_counts_reads_only)
{
	int err;

	uint64_t count = watched_accesses_counted(HW_BREAKPOINT_R, 40, 25, &err);
	pc_observe_errno("open", err);
#if defined(__x86_64__) || defined(__i386__)
	EXPECT_ERRNO(EINVAL, err) TH_LOG("x86 has no read-only breakpoints");
	(void)count;
#else
	SKIP_IF_UNSUPPORTED(err, "a read breakpoint");
#if defined(__aarch64__)
	EXPECT_ERRNO(0, err);
#endif
	if (!err) {
		pc_instrument_note(PC_INSTR_BREAKPOINTS);
		EXPECT_EQ(40, count);
	}
#endif
}

TEST_HARNESS_MAIN
