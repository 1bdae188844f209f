// SPDX-License-Identifier: GPL-2.0
/*
 * EBUSY from perf_event_open() (since Linux 4.1): another event already has
 * exclusive use of the PMU. Some PMUs (instruction tracers: intel_pt,
 * intel_bts, arm_spe, cs_etm and the like) set PERF_PMU_CAP_EXCLUSIVE: one
 * event at a time may use them in a context.
 *
 * In kernel/events/core.c (6.12) exclusive_event_init() (line 5270) keeps
 * per-task and CPU-wide events of such a PMU apart (a per-task event while
 * a CPU-wide one exists, or the reverse: EBUSY), and
 * exclusive_event_installable() answers EBUSY at the open (lines 13121 and
 * 13314) when the context already holds an event of that PMU. Each refusal
 * has its control: once the first event is closed, the same open succeeds.
 *
 * sysfs does not say which PMUs are exclusive, so they are known by name;
 * the suite's own perfconf_aux (ring/synth.h) is one wherever the runner
 * loaded its module. A machine with none of them SKIPs with that reason.
 */
#include "perfconf.h"

/* A CPU-wide event of an exclusive PMU locks out every other user of it. */
PERFCONF_META("exclusive");

/* The PMUs that set PERF_PMU_CAP_EXCLUSIVE in 6.12, by sysfs name prefix. */
static const char *const exclusive_pmus[] = {
	"intel_pt", "intel_bts", "arm_spe_", "cs_etm", "hisi_ptt", PC_SYNTH_AUX,
};

FIXTURE(global) {
	char pmu[128];
	int type;
};

FIXTURE_SETUP(global)
{
	char **pmus = pc_pmu_list();

	self->type = -1;
	for (size_t i = 0; pmus && pmus[i] && self->type < 0; i++)
		for (size_t j = 0; j < sizeof(exclusive_pmus) / sizeof(exclusive_pmus[0]); j++)
			if (!strncmp(pmus[i], exclusive_pmus[j], strlen(exclusive_pmus[j]))) {
				snprintf(self->pmu, sizeof(self->pmu), "%s", pmus[i]);
				self->type = pc_pmu_type(pmus[i]);
				break;
			}
	pc_strv_free(pmus);
	if (self->type < 0 || !strcmp(self->pmu, PC_SYNTH_AUX))
		pc_depends("module.perfconf_pmu");
	if (self->type < 0)
		SKIP(return, "no exclusive PMU (intel_pt, intel_bts, arm_spe, cs_etm...) on this machine, "
		     "and %s", pc_synth_absent());
}

FIXTURE_TEARDOWN(global)
{
}

/* An event of the exclusive PMU with its default config, user mode only. */
static struct perfconf_attr exclusive_event(FIXTURE_DATA(global) *self)
{
	struct perfconf_attr attr = pc_attr((uint32_t)self->type, 0);

	attr.exclude_kernel = 1;
	return attr;
}

/*
 * The PMU's first event on (first_pid, first_cpu), or SKIP where even that
 * is refused here; beside it, a second one on (pid, cpu) is EBUSY, and
 * opens once the first is closed (the control).
 */
#define EXPECT_SECOND_EBUSY(first_pid, first_cpu, pid, cpu) do { \
	struct perfconf_attr attr_ = exclusive_event(self); \
	int first_ = pc_open(&attr_, first_pid, first_cpu, -1, PERF_FLAG_FD_CLOEXEC); \
	if (first_ < 0) \
		SKIP(return, "%s refuses even one event here (%s)", self->pmu, \
		     pc_errno_name(pc_last_open_errno())); \
	EXPECT_ERRNO(EBUSY, pc_open_errno(&attr_, pid, cpu, -1, 0)); \
	close(first_); \
	EXPECT_ERRNO(0, pc_open_errno(&attr_, pid, cpu, -1, 0)) TH_LOG("the control"); \
} while (0)

TEST_F(global, second_event_in_one_task_is_ebusy)
{
	EXPECT_SECOND_EBUSY(0, -1, 0, -1);
}

TEST_F(global, per_task_event_beside_a_cpu_wide_one_is_ebusy)
{
	EXPECT_SECOND_EBUSY(-1, 0, 0, -1);
}

TEST_F(global, cpu_wide_event_beside_a_per_task_one_is_ebusy)
{
	EXPECT_SECOND_EBUSY(0, -1, -1, 0);
}

TEST_HARNESS_MAIN
