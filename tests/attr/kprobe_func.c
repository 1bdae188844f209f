// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe_func (since 4.17): for the kprobe PMU, "use kprobe_func and
 * probe_offset, or use kprobe_addr and leave kprobe_func as NULL": a
 * pointer to the name of the kernel function to probe. The kprobe lives as
 * long as the fd; with the retprobe format bit ("config:0") it is a
 * kretprobe. A kprobe on the function every getppid() enters counts each
 * call of this task exactly (where the entry is an ftrace call site that
 * kprobes cannot share, the first instruction past it: a kretprobe, which
 * must be at the entry, SKIPs there).
 *
 * The kernel copies the name as a string of at most KSYM_NAME_LEN: a bad
 * pointer is EFAULT and a string without its end in time E2BIG. Only a
 * CAP_PERFMON (or CAP_SYS_ADMIN) task may create a kprobe (EACCES).
 *
 * The kprobe PMU exists when the kernel has CONFIG_KPROBE_EVENTS; without
 * it each effect SKIPs with that reason. Other PMUs read the field as
 * config1 and ignore it.
 */
#include <stdlib.h>

#include "perfconf.h"
#include "event/kprobe.h"
#include "work/measure.h"

/* Its cases create and destroy probe events: one such binary at a time (serial=). */
PERFCONF_META("reads=perf_event_paranoid serial=probes");

#define N 13

/* A kprobe attr on `func`, or SKIP when there is no kprobe PMU. */
#define KPROBE_ATTR(attr, func) do { \
	REQUIRE_KPROBE_PMU(); \
	ASSERT_EQ(0, pc_attr_kprobe(attr, func, 0, 0)); \
} while (0)

/* Where the kernel config can be read: a kprobe PMU exactly when KPROBE_EVENTS=y. */
TEST(kprobe_pmu_follows_the_config)
{
	DEPENDS_ON("config.KPROBE_EVENTS");
	if (!pc_kernel_config_available())
		BLOCKED("no kernel config to compare with (this kernel build ships neither "
			"/proc/config.gz nor /boot/config-<release>)");
	bool configured = pc_kernel_config("KPROBE_EVENTS") == 'y';
	pc_observe("kprobe_pmu", "%s", pc_pmu_exists("kprobe") ? "yes" : "no");
	EXPECT_EQ(configured, pc_pmu_exists("kprobe"));
}

TEST(counts_each_call)
{
	struct perfconf_attr attr;

	REQUIRE_GETPPID_SYMBOL();
	KPROBE_ATTR(&attr, pc_kprobe_getppid_symbol());
	attr.probe_offset = pc_kprobe_entry_offset();
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_getppid_work, PC_N(N))) TH_LOG("kprobe on %s: %s", pc_kprobe_getppid_symbol(),
						     pc_errno_name(pc_last_open_errno()));
}

TEST(retprobe_counts_each_return)
{
	struct pc_pmu_format retprobe;
	struct perfconf_attr attr;

	REQUIRE_GETPPID_SYMBOL();
	REQUIRE_KPROBE_AT_ENTRY();
	KPROBE_ATTR(&attr, pc_kprobe_getppid_symbol());
	ASSERT_EQ(0, pc_pmu_format("kprobe", "retprobe", &retprobe));
	ASSERT_EQ(0, retprobe.word) TH_LOG("retprobe is documented in config");
	attr.config |= retprobe.mask;
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_getppid_work, PC_N(N))) TH_LOG("kretprobe on %s: %s", pc_kprobe_getppid_symbol(),
						     pc_errno_name(pc_last_open_errno()));
}

/* A name no kernel function has; the errno is pinned (ENOENT where the name is checked first). */
TEST(unknown_function_is_refused)
{
	struct perfconf_attr attr;

	KPROBE_ATTR(&attr, "perfconf_no_such_function");
	int err = pc_open_errno(&attr, 0, -1, -1, 0);
	pc_observe_errno("errno", err);
	EXPECT_NE(0, err);
}

TEST(bad_pointer_is_efault)
{
	struct perfconf_attr attr;

	KPROBE_ATTR(&attr, "unused");
	attr.kprobe_func = 8;		/* the first page is never mapped */
	EXPECT_ERRNO(EFAULT, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST(name_longer_than_ksym_name_len_is_e2big)
{
	struct perfconf_attr attr;
	char *huge = malloc(8192);

	ASSERT_NE(NULL, huge);
	memset(huge, 'a', 8191);
	huge[8191] = '\0';
	KPROBE_ATTR(&attr, huge);
	EXPECT_ERRNO(E2BIG, pc_open_errno(&attr, 0, -1, -1, 0));
	free(huge);
}

/*
 * Without CAP_PERFMON no kprobe is created. The request excludes the
 * kernel, so that perf_event_paranoid's kernel rule is not what refuses it;
 * the control is the same request by the same uid holding CAP_SYS_ADMIN
 * (perfmon_capable() on every kernel): it opens, and counts none of the
 * calls, all of which the kernel makes in kernel mode.
 * (tests/privilege/kprobe_pmu has every identity and level.)
 */
static void user_mode_kprobe_as(struct __test_metadata *_metadata, const char *identity, int want_errno)
{
	struct perfconf_attr attr;

	REQUIRE_GETPPID_SYMBOL();
	KPROBE_ATTR(&attr, pc_kprobe_getppid_symbol());
	attr.probe_offset = pc_kprobe_entry_offset();
	BECOME_IDENTITY(pc_identity(identity));
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	if (want_errno) {
		EXPECT_ERRNO(want_errno, pc_open_errno(&attr, 0, -1, -1, 0));
	} else {
		EXPECT_EQ(0, pc_count_of_work(&attr, pc_getppid_work, PC_N(N)))
			TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
	}
}

TEST(unprivileged_is_eacces)
{
	user_mode_kprobe_as(_metadata, "unprivileged", EACCES);
}

TEST(sys_admin_opens_it_and_counts_no_user_hit)
{
	user_mode_kprobe_as(_metadata, "sys_admin", 0);
}

/* On a tracepoint the same bytes are config1: ignored, the count exact. */
TEST(other_pmus_ignore_it)
{
	struct perfconf_attr attr;

	GETPPID_TRACEPOINT(&attr);
	attr.kprobe_func = (uintptr_t)"perfconf_no_such_function";
	EXPECT_EQ(N, pc_count_of_work(&attr, pc_getppid_work, PC_N(N))) TH_LOG("%s", pc_errno_name(pc_last_open_errno()));
}

TEST_HARNESS_MAIN
