// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU sysfs ABI (Documentation/ABI/testing/sysfs-bus-event_source-*):
 * every PMU under /sys/bus/event_source/devices has a decimal "type"; each
 * format/<term> file is "configN:bits" naming config..config4 and bit ranges
 * below 64; each events/<name> file is a list of terms that the PMU's
 * format/ describes, and the event it describes can be opened.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>

#include "perfconf.h"
#include "work/affinity.h"
#include "work/clock.h"

/* Calls fn for each entry of one PMU's sysfs subdirectory; the count of entries. */
static int for_each_entry(const char *pmu, const char *sub,
			  void (*fn)(struct __test_metadata *, const char *, const char *),
			  struct __test_metadata *_metadata)
{
	char path[512];
	struct dirent *e;
	int n = 0;

	snprintf(path, sizeof(path), PC_PMU_SYSFS "/%s/%s", pmu, sub);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strchr(e->d_name, '.'))
			continue;	/* ".scale"/".unit" companions of events */
		fn(_metadata, pmu, e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

/* Calls fn for each entry of every PMU's sysfs subdirectory; the count of entries. */
static int for_every_pmu(struct __test_metadata *_metadata, const char *sub,
			 void (*fn)(struct __test_metadata *, const char *, const char *))
{
	char **pmus = pc_pmu_list();
	int n = 0;

	pc_depends("pmus");	/* what every PMU here has (msr's events go with the TSC: clearcpuid=tsc) */
	ASSERT_NE(NULL, pmus);
	for (char **p = pmus; *p; p++)
		n += for_each_entry(*p, sub, fn, _metadata);
	pc_strv_free(pmus);
	return n;
}

static void check_format(struct __test_metadata *_metadata, const char *pmu, const char *term)
{
	struct pc_pmu_format f;

	EXPECT_EQ(0, pc_pmu_format(pmu, term, &f)) TH_LOG("%s/format/%s does not parse", pmu, term);
	EXPECT_NE(0, f.mask) TH_LOG("%s/format/%s has no bits", pmu, term);
}

/*
 * Where to open an event of this PMU: a PMU with a cpumask file counts per
 * CPU only (uncore-like; pid -1 on the first CPU it lists), any other for
 * this task on any CPU.
 */
static void open_target(const char *pmu, pid_t *pid, int *cpu)
{
	char mask[256];

	*pid = 0;
	*cpu = -1;
	if (pc_pmu_cpumask(pmu, mask, sizeof(mask)) == 0 && mask[0] >= '0' && mask[0] <= '9') {
		*pid = -1;
		*cpu = atoi(mask);
	}
}

/* "pmu.event" in lower case, an observation key. */
static void event_key(char *key, size_t len, const char *pmu, const char *event)
{
	snprintf(key, len, "%s.%s", pmu, event);
	for (char *c = key; *c; c++)
		*c = (char)tolower((unsigned char)*c);
}

/*
 * The event an events/ file describes, its terms put into the config words
 * by the PMU's format/, opens as a counter and counts: enabled for a while,
 * it reports time enabled and running: perf time moves while it is
 * enabled (work/clock.h: perf's clock may stand still between ticks; it is
 * per CPU, so for a PMU that counts on one CPU this task runs there too).
 * A PMU that lists an event this
 * machine cannot count (ENOENT, EOPNOTSUPP, ENODEV: "not supported by the
 * hardware") has the errno pinned as an observation; any other refusal
 * fails.
 */
static void check_event(struct __test_metadata *_metadata, const char *pmu, const char *event)
{
	struct perfconf_attr attr;
	uint64_t v[3] = { 0, 0, 0 };
	struct pc_perf_clock clk;
	char key[128];
	pid_t pid;
	int cpu;

	EXPECT_EQ(0, pc_attr_pmu_event(&attr, pmu, event))
		TH_LOG("%s/events/%s uses a term its format/ lacks", pmu, event);
	if (_metadata->exit_code == KSFT_FAIL)
		return;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	open_target(pmu, &pid, &cpu);
	if (cpu >= 0 && pc_pin_to(cpu))
		BLOCKED("%s counts on CPU %d, where this task cannot run", pmu, cpu);
	int fd = pc_open(&attr, pid, cpu, -1, 0);
	if (fd < 0) {
		int err = pc_last_open_errno();

		event_key(key, sizeof(key), pmu, event);
		pc_observe_errno(key, err);
		EXPECT_TRUE(pc_errno_is_unsupported(err))
			TH_LOG("%s/events/%s (type %u config %#llx config1 %#llx config2 %#llx) does not open: %s",
			       pmu, event, attr.type, (unsigned long long)attr.config,
			       (unsigned long long)attr.config1, (unsigned long long)attr.config2,
			       pc_errno_name(err));
		return;
	}
	EXPECT_EQ(0, pc_perf_clock_open(&clk));
	EXPECT_EQ(0, pc_enable(fd)) TH_LOG("%s/events/%s", pmu, event);
	pc_work_loop(100000);
	usleep(1000);
	EXPECT_EQ(0, pc_perf_clock_wait(&clk)) TH_LOG("perf's clock stood still");
	EXPECT_EQ(0, pc_disable(fd)) TH_LOG("%s/events/%s", pmu, event);
	pc_perf_clock_close(&clk);
	EXPECT_EQ((ssize_t)sizeof(v), read(fd, v, sizeof(v))) TH_LOG("%s/events/%s", pmu, event);
	EXPECT_LT(0, v[1]) TH_LOG("%s/events/%s was never enabled", pmu, event);
	EXPECT_LT(0, v[2]) TH_LOG("%s/events/%s never ran: it cannot be scheduled alone", pmu, event);
	EXPECT_GE(v[1], v[2]) TH_LOG("%s/events/%s ran longer than it was enabled", pmu, event);
	close(fd);
}

TEST(every_type_is_a_number)
{
	char **pmus = pc_pmu_list();

	ASSERT_NE(NULL, pmus);
	ASSERT_NE(NULL, pmus[0]) TH_LOG("no PMU at all in " PC_PMU_SYSFS);
	for (char **p = pmus; *p; p++) {
		EXPECT_LE(0, pc_pmu_type(*p)) TH_LOG("%s/type", *p);
	}
	pc_strv_free(pmus);
}

TEST(types_are_unique)
{
	char **pmus = pc_pmu_list();

	ASSERT_NE(NULL, pmus);
	for (char **a = pmus; *a; a++) {
		for (char **b = a + 1; *b; b++) {
			EXPECT_NE(pc_pmu_type(*a), pc_pmu_type(*b)) TH_LOG("%s and %s", *a, *b);
		}
	}
	pc_strv_free(pmus);
}

TEST(every_format_parses)
{
	if (!for_every_pmu(_metadata, "format", check_format))
		SKIP(return, "no PMU here has format/ entries");
}

TEST(every_event_uses_known_terms)
{
	if (!for_every_pmu(_metadata, "events", check_event))
		SKIP(return, "no PMU here has events/ entries");
}

/* The uprobe PMU's retprobe format bit, where the PMU exists. */
TEST(uprobe_retprobe_format)
{
	struct pc_pmu_format f;

	REQUIRE_PMU("uprobe");
	ASSERT_EQ(0, pc_pmu_format("uprobe", "retprobe", &f));
	EXPECT_EQ(0, f.word);
	EXPECT_EQ(1, __builtin_popcountll(f.mask)) TH_LOG("retprobe is one bit");
}

TEST_HARNESS_MAIN
