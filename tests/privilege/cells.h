/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cells of the privilege matrix: one fixture per identity
 * (host/privilege.h), one variant per perf_event_paranoid level, so that
 * a case id names its cell: perfmon.paranoid_2.with_kernel.
 *
 * The fixture's setup sets the level (pc_sysctl_set, restored by the
 * parent's teardown, by the runner at the end, and after a SIGKILL at its
 * next start); a level the kernel refuses (3, upstream-only builds may)
 * is a SKIP. The case then becomes the identity, verified (an identity
 * that is not what it claims is an ERROR), and runs the operation:
 *
 *	CELL_CASE(with_kernel)
 *	{
 *		...
 *		if (CELL_ALLOWS(err, PC_GATE_KERNEL))
 *			EXPECT_EQ(N, count);	(allowed: the event works)
 *	}
 *
 * CELL_ALLOWS names the checks the request passes, in the kernel's order
 * (host/paranoid.h); the first that refuses gives the errno.
 *
 * A binary that must look something up as root before the case gives up
 * its privilege (a tracepoint id, a kernel symbol) defines
 * CELL_PREPARE(_metadata) before including this; it may SKIP.
 *
 * A binary that includes this changes perf_event_paranoid, one level a
 * variant: the runner runs it in phases (runners/README.md), a level at a
 * time, setting the level once for every such binary's cells of that
 * level, which run side by side; SET_PARANOID then only checks it. Their
 * identities are then one user's processes side by side: a binary whose
 * cells count what that user holds (privilege/mlock: the ring pages it has
 * locked) runs apart instead:
 *	#define CELL_PHASES "" One that reads
 * another perf sysctl names it, before including this, as one that
 * changes other global state does:
 *	#define CELL_READS " reads=perf_event_mlock_kb"
 *	#define CELL_WRITES ",bpf.sys_enter_sched_getscheduler"
 * and one whose cells create and destroy probe events:
 *	#define CELL_SERIAL " serial=probes"
 */
#include <limits.h>

#include "perfconf.h"
#include "host/paranoid.h"
#include "host/sysctl.h"

#ifndef CELL_READS
#define CELL_READS ""
#endif
#ifndef CELL_WRITES
#define CELL_WRITES ""
#endif
#ifndef CELL_SERIAL
#define CELL_SERIAL ""
#endif
#ifndef CELL_PHASES
#define CELL_PHASES " phases=" PC_PARANOID_SYSCTL ":paranoid_m1=-1,paranoid_0=0,paranoid_1=1,paranoid_2=2,paranoid_3=3"
#endif
PERFCONF_META("writes=perf_event_paranoid" CELL_WRITES CELL_READS CELL_SERIAL CELL_PHASES);

#ifndef CELL_PREPARE
#define CELL_PREPARE(_metadata) do { } while (0)
#endif

struct cell {
	const struct pc_identity *id;
	int level;
};

/* One variant per level. */
#define CELL_LEVELS(fixture) \
	FIXTURE_VARIANT(fixture) { int level; }; \
	FIXTURE_VARIANT_ADD(fixture, paranoid_m1) { .level = -1 }; \
	FIXTURE_VARIANT_ADD(fixture, paranoid_0) { .level = 0 }; \
	FIXTURE_VARIANT_ADD(fixture, paranoid_1) { .level = 1 }; \
	FIXTURE_VARIANT_ADD(fixture, paranoid_2) { .level = 2 }; \
	FIXTURE_VARIANT_ADD(fixture, paranoid_3) { .level = 3 }

#define CELL_FIXTURE(identity) \
	FIXTURE(identity) {}; \
	CELL_LEVELS(identity); \
	FIXTURE_SETUP(identity) { SET_PARANOID(variant->level); } \
	FIXTURE_TEARDOWN_PARENT(identity) { pc_sysctl_restore(PC_PARANOID_SYSCTL); }

CELL_FIXTURE(root);
CELL_FIXTURE(unprivileged);
CELL_FIXTURE(perfmon);
CELL_FIXTURE(sys_admin);
CELL_FIXTURE(sys_ptrace);
CELL_FIXTURE(ipc_lock);
CELL_FIXTURE(bpf);
CELL_FIXTURE(bpf_perfmon);
CELL_FIXTURE(syslog);

/* The case of one cell: become its identity, verified, then the operation. */
#define CELL_CASE_OF(identity, op) \
	TEST_F(identity, op) \
	{ \
		struct cell c_ = { pc_identity(#identity), variant->level }; \
		CELL_PREPARE(_metadata); \
		if (_metadata->exit_code != KSFT_PASS) \
			return; \
		BECOME_IDENTITY(c_.id); \
		op##_cell(_metadata, &c_); \
	}

/* An operation, in every cell. */
#define CELL_CASE(op) \
	static void op##_cell(struct __test_metadata *_metadata, const struct cell *cell); \
	CELL_CASE_OF(root, op) \
	CELL_CASE_OF(unprivileged, op) \
	CELL_CASE_OF(perfmon, op) \
	CELL_CASE_OF(sys_admin, op) \
	CELL_CASE_OF(sys_ptrace, op) \
	CELL_CASE_OF(ipc_lock, op) \
	CELL_CASE_OF(bpf, op) \
	CELL_CASE_OF(bpf_perfmon, op) \
	CELL_CASE_OF(syslog, op) \
	static void op##_cell(struct __test_metadata *_metadata, const struct cell *cell)

/*
 * Whether the operation's outcome err (0 or an errno) is what the rules say
 * for this cell, for a request that passes the checks gates[0..n) in that
 * order; observed as "errno" (kernels differ at level 3). True when it was
 * allowed and done: the caller then checks that it works.
 */
static bool cell_allows(struct __test_metadata *_metadata, const struct cell *cell, int err,
			const enum pc_gate *gates, size_t n)
{
	int kver = pc_kernel()->kver;
	int want = pc_paranoid_errno(gates, n, cell->level, cell->id, kver);
	char checks[256] = "";

	pc_observe("errno", "%s", err ? pc_errno_name(err) : "OK");
	for (size_t i = 0, at = 0; i < n && at < sizeof(checks); i++)
		at += snprintf(checks + at, sizeof(checks) - at, "%s%s", i ? ", then " : "",
			       pc_gate_rules[gates[i]].check);
	EXPECT_TRUE(pc_paranoid_errno_ok(gates, n, cell->level, cell->id, kver, err))
		TH_LOG("%s at perf_event_paranoid %d, checked by %s: expected %s, got %s", cell->id->name,
		       cell->level, checks, want ? pc_errno_name(want) : "success",
		       err ? pc_errno_name(err) : "success");
	return err == 0;
}
#define CELL_ALLOWS(err, ...) \
	cell_allows(_metadata, cell, err, (const enum pc_gate[]){ __VA_ARGS__ }, \
		    sizeof((const enum pc_gate[]){ __VA_ARGS__ }) / sizeof(enum pc_gate))
