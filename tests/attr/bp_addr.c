// SPDX-License-Identifier: GPL-2.0
/*
 * bp_addr (since 2.6.33) "is the address of the breakpoint. For execution
 * breakpoints, this is the memory address of the instruction of interest;
 * for read and write breakpoints, it is the memory address of the memory
 * location of interest." A watchpoint counts accesses to the address it
 * names and to no other.
 *
 * A breakpoint on a kernel address is refused with EINVAL when the event
 * excludes the kernel, and needs privilege otherwise ("EPERM ... setting a
 * breakpoint on a kernel address"; at perf_event_paranoid >= 2 the kernel
 * check comes first and says EACCES): pinned. Any user may watch its own
 * memory. The kernel address here is a real one, learned at run time from
 * a sample's IP: never a constant (KASLR).
 */
#include <linux/hw_breakpoint.h>

#include "perfconf.h"
#include "ring/sample_site.h"

PERFCONF_META("reads=perf_event_paranoid");

#define N 12

static volatile uint64_t first, second;

static uint64_t writes_counted(int fd, unsigned int to_first, unsigned int to_second)
{
	uint64_t count = UINT64_MAX;

	if (pc_enable(fd))
		return UINT64_MAX;
	for (unsigned int i = 0; i < to_first; i++)
		pc_work_touch(&first);
	for (unsigned int i = 0; i < to_second; i++)
		pc_work_touch(&second);
	pc_disable(fd);
	pc_read_count(fd, &count);
	return count;
}

static int watch(uint64_t addr, bool exclude_kernel)
{
	struct perfconf_attr attr = pc_attr_breakpoint_at(HW_BREAKPOINT_W, addr, 8);

	attr.exclude_kernel = exclude_kernel;
	attr.exclude_hv = exclude_kernel;
	return pc_open(&attr, 0, -1, -1, 0);
}

/* A kernel text address, or SKIP. Aligned down to 8 for a u64 watchpoint. */
#define KERNEL_ADDRESS(addr) do { \
	int e_ = pc_addr_kernel_text(addr); \
	if (e_) \
		SKIP(return, "no kernel address from a sample (%s)", pc_errno_name(-e_)); \
	*(addr) &= ~7ULL; \
} while (0)

/* Every case needs a breakpoint PMU. */
FIXTURE(global) {};

FIXTURE_SETUP(global)
{
	REQUIRE_PMU("breakpoint");
}

FIXTURE_TEARDOWN(global)
{
}

/* Of two neighbouring variables, only the watched one's writes count. */
TEST_F(global, the_address_selects_the_variable)
{
	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	int fd = watch((uintptr_t)&second, false);
	ASSERT_OPEN(fd);
	EXPECT_EQ(N, writes_counted(fd, 2 * N, N));
	close(fd);
}

TEST_F(global, kernel_address_excluding_the_kernel_is_einval)
{
	uint64_t kaddr;

	KERNEL_ADDRESS(&kaddr);
	int fd = watch(kaddr, true);
	EXPECT_GT(0, fd);
	EXPECT_ERRNO(EINVAL, pc_last_open_errno());
	if (fd >= 0)
		close(fd);
}

/*
 * With the privilege, a per-task breakpoint on kernel text may be opened:
 * pinned per arch (arm64 refuses per-task kernel breakpoints, x86 refuses
 * execute ones where kprobes are off). A write watchpoint on kernel text,
 * if accepted, sees no write from this task's work. The execute one is
 * never enabled.
 */
TEST_F(global, kernel_address_as_root)
{
	struct perfconf_attr x;
	uint64_t kaddr;

	DEPENDS_ON("config.KPROBES");	/* x86 takes execute ones only with kprobes */
	KERNEL_ADDRESS(&kaddr);
	int fd = watch(kaddr, false);
	pc_observe_errno("write", fd < 0 ? errno : 0);
	if (fd >= 0) {
		EXPECT_EQ(0, writes_counted(fd, N, N));
		close(fd);
	}
	x = pc_attr_breakpoint_at(HW_BREAKPOINT_X, kaddr, 0);
	pc_open_observe_errno("execute", &x, 0, -1);
}

/*
 * Without privilege: EINVAL when excluding the kernel; refused otherwise,
 * with EACCES (paranoid >= 2), EPERM (no CAP_SYS_ADMIN) or EINVAL (arm64
 * takes no per-task kernel breakpoint): pinned.
 */
TEST_F(global, kernel_address_unprivileged)
{
	int paranoid = pc_paranoid();
	uint64_t kaddr;

	if (paranoid > 2)
		SKIP(return, "perf_event_paranoid %d refuses every unprivileged open", paranoid);
	KERNEL_ADDRESS(&kaddr);
	BECOME_NOBODY();

	int fd = watch(kaddr, true);
	EXPECT_GT(0, fd);
	EXPECT_ERRNO(EINVAL, pc_last_open_errno()) TH_LOG("exclude_kernel = 1");
	if (fd >= 0)
		close(fd);

	fd = watch(kaddr, false);
	int err = fd < 0 ? errno : 0;
	pc_observe("paranoid", "%d", paranoid);
	pc_observe_errno("with_kernel", err);
	EXPECT_NE(0, err);
	if (fd >= 0)
		close(fd);
}

/* Any user may watch its own memory, user mode only. */
TEST_F(global, own_memory_unprivileged)
{
	int paranoid = pc_paranoid();

	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	if (paranoid > 2)
		SKIP(return, "perf_event_paranoid %d refuses every unprivileged open", paranoid);
	BECOME_NOBODY();
	int fd = watch((uintptr_t)&first, true);
	ASSERT_OPEN(fd);
	EXPECT_EQ(N, writes_counted(fd, N, 3 * N));
	close(fd);
}

TEST_HARNESS_MAIN
