// SPDX-License-Identifier: GPL-2.0
/*
 * sig_data (since Linux 5.13): "This data will be copied to user's signal
 * handler (through si_perf in the siginfo_t) to disambiguate which event
 * triggered the signal." Every SIGTRAP of a sigtrap event carries its own
 * event's sig_data in si_perf_data, all 64 bits of it, 0 included; two
 * events are told apart by it; PERF_EVENT_IOC_MODIFY_ATTRIBUTES on a
 * breakpoint changes it. Without sigtrap the field is accepted and unused,
 * on a kernel whose attr reaches it (a kernel older than the field sees
 * a non-zero byte past its size: E2BIG).
 *
 * Measured with uprobes on noinline functions (lib/work/sigtrap.h), which trap
 * on every call on every machine. PERF_EVENT_IOC_MODIFY_ATTRIBUTES only
 * exists for breakpoint events: that case needs breakpoints that fire and
 * is blocked where they do not (lib/work/instrument.h); on arm64 it rearms its
 * breakpoint after each trap (lib/work/sigtrap.h).
 */
#include <linux/hw_breakpoint.h>
#include <stddef.h>
#include <sys/ioctl.h>

#include "perfconf.h"
#include "work/sigtrap.h"

PERFCONF_KEEP_CALLS(pc_work_target)
PERFCONF_KEEP_CALLS(pc_work_touch)

static void call_target(void)
{
	pc_work_calls(1);
}

static void call_touch(void)
{
	static volatile uint64_t word;

	pc_work_touch(&word);
}

/* The si_perf_data of 3 SIGTRAPs, one per call of a uprobed function. */
static void expect_data(struct __test_metadata *_metadata, uint64_t data)
{
	struct perfconf_attr u;
	int fd;

	SIGTRAP_UPROBE(&u, pc_work_target, 1);
	u.sig_data = data;
	ASSERT_EQ(0, pc_sigtrap_catch());
	OPEN_SIGTRAP(fd, &u);
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_calls(3);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(3, pc_sigtrap_count());
	for (unsigned int i = 0; i < 3; i++) {
		EXPECT_EQ(PC_TRAP_PERF, pc_sigtrap_get(i)->code);
		EXPECT_EQ((unsigned long)data, pc_sigtrap_get(i)->perf_data);
	}
	close(fd);
	pc_sigtrap_release();
}

TEST(arrives_in_si_perf_data)
{
	expect_data(_metadata, 0x0123456789abcdefULL);
}

TEST(zero_arrives_as_zero)
{
	expect_data(_metadata, 0);
}

TEST(all_ones)
{
	expect_data(_metadata, UINT64_MAX);
}

/* Two events, two sig_data: each signal names the event that overflowed. */
TEST(tells_events_apart)
{
	struct perfconf_attr a, b;
	static const char order[] = "abba";
	int fa, fb;

	SIGTRAP_UPROBE(&a, pc_work_target, 1);
	SIGTRAP_UPROBE(&b, pc_work_touch, 1);
	a.sig_data = 0xa;
	b.sig_data = 0xb;
	ASSERT_EQ(0, pc_sigtrap_catch());
	OPEN_SIGTRAP(fa, &a);
	OPEN_SIGTRAP(fb, &b);
	ASSERT_EQ(0, pc_enable(fa));
	ASSERT_EQ(0, pc_enable(fb));
	for (const char *c = order; *c; c++) {
		if (*c == 'a')
			call_target();
		else
			call_touch();
	}
	ASSERT_EQ(0, pc_disable(fa));
	ASSERT_EQ(0, pc_disable(fb));
	ASSERT_EQ(4, pc_sigtrap_count());
	for (unsigned int i = 0; i < 4; i++) {
		EXPECT_EQ(order[i] == 'a' ? 0xaU : 0xbU, pc_sigtrap_get(i)->perf_data)
			TH_LOG("signal %u", i);
	}
	close(fa);
	close(fb);
	pc_sigtrap_release();
}

/*
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES with a new sig_data: later signals carry
 * it. The ioctl exists for breakpoint events only: an execute breakpoint
 * on pc_work_target, which must fire.
 */
TEST(modify_attributes_changes_it)
{
	struct perfconf_attr attr = pc_sigtrap_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0, 1);
	int fd;

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	attr.sig_data = 1;
	ASSERT_EQ(0, pc_sigtrap_catch());
	OPEN_SIGTRAP(fd, &attr);
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_calls(1);
	ASSERT_EQ(0, pc_sigtrap_rearm());
	attr.sig_data = 2;
	attr.disabled = 0;
	int err = ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr) ? errno : 0;
	pc_observe_errno("modify", err);
	ASSERT_ERRNO(0, err);
	pc_work_calls(1);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(2, pc_sigtrap_count());
	EXPECT_EQ(1, pc_sigtrap_get(0)->perf_data);
	EXPECT_EQ(2, pc_sigtrap_get(1)->perf_data);
	close(fd);
	pc_sigtrap_release();
}

/*
 * Without sigtrap: accepted where the kernel's attr reaches sig_data, else
 * E2BIG (a non-zero byte past the kernel's size).
 */
TEST(without_sigtrap)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	uint32_t kernel_size = pc_attr_kernel_size();

	ASSERT_NE(0, kernel_size) TH_LOG("the kernel's attr size could not be probed");
	attr.sig_data = 0x5a;
	int err = pc_open_observe_errno("errno", &attr, 0, -1);
	if (kernel_size > offsetof(struct perfconf_attr, sig_data)) {
		EXPECT_ERRNO(0, err);
	} else {
		EXPECT_ERRNO(E2BIG, err);
	}
}

TEST_HARNESS_MAIN
