// SPDX-License-Identifier: GPL-2.0
/*
 * Raw events through sysfs: a PMU's format/<term> files say where each
 * term of an event goes in config..config4 ("config:0-15"), its
 * events/<name> files name events by terms ("event=0x08"). Both lists are
 * pinned for the core PMU (they follow the kernel and, on arm64, the
 * events the CPU says it implements), and every listed event opens.
 *
 * An event built from the files counts what the generalized event counts:
 * in one group with PERF_COUNT_HW_INSTRUCTIONS, the PMU's own instructions
 * event (arm64 inst_retired, x86 instructions) and the same config under
 * PERF_TYPE_RAW count the same exact loop, and likewise for cycles. What
 * the PMU makes of an event number it does not list and of config bits no
 * format names is pinned. arm64's "long" term (config1:0, a 64-bit
 * chained counter) counts the same loop where the PMU has it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "perfconf.h"
#include "event/hw.h"
#include "hw_refusals.h"

#define N 10000

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted file names of the core PMU's sysfs subdirectory; returns how many (at most max). */
static int list_dir(const char *sub, char names[][64], int max)
{
	char path[8192];
	char *ptrs[128];
	char tmp[128][64];
	struct dirent *e;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s/%s", PC_PMU_SYSFS, pc_hw_pmu(), sub);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max && n < 128) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= 64)
			continue;
		snprintf(tmp[n], 64, "%s", e->d_name);
		ptrs[n] = tmp[n];
		n++;
	}
	closedir(d);
	qsort(ptrs, (size_t)n, sizeof(*ptrs), cmp_str);
	for (int i = 0; i < n; i++)
		snprintf(names[i], 64, "%s", ptrs[i]);
	return n;
}

static void read_line(const char *sub, const char *name, char *buf, size_t len)
{
	char path[8192];

	snprintf(path, sizeof(path), "%s/%s/%s/%s", PC_PMU_SYSFS, pc_hw_pmu(), sub, name);
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* An observation key from an event name: [a-z0-9_.-] only. */
static void key_of(const char *prefix, const char *name, char *key, size_t len)
{
	size_t off = (size_t)snprintf(key, len, "%s", prefix);

	for (const char *c = name; *c && off + 1 < len; c++) {
		char ch = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;

		key[off++] = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' ? ch : '_';
	}
	key[off] = '\0';
}

TEST(formats)
{
	char names[64][64], spec[128], list[4096] = "";
	size_t off = 0;

	REQUIRE_HW_PMU();
	int n = list_dir("format", names, 64);
	ASSERT_LT(0, n) TH_LOG("%s has no format/ entries", pc_hw_pmu());
	for (int i = 0; i < n; i++) {
		read_line("format", names[i], spec, sizeof(spec));
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s:%s", i ? "," : "", names[i], spec);
	}
	pc_observe("formats", "%s", list);
	struct pc_pmu_format f;
	EXPECT_EQ(0, pc_pmu_format(pc_hw_pmu(), "event", &f)) TH_LOG("no event term");
}

TEST(events_open)
{
	char names[128][64], list[8192] = "", key[96];
	size_t off = 0;

	REQUIRE_HW_PMU();
	int n = list_dir("events", names, 128);
	for (int i = 0; i < n; i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s", i ? "," : "", names[i]);
	pc_observe("events", "%s", n ? list : "none");
	for (int i = 0; i < n; i++) {
		struct perfconf_attr attr;
		int err = pc_attr_pmu_event(&attr, pc_hw_pmu(), names[i]);

		EXPECT_EQ(0, err) TH_LOG("%s: %s", names[i], pc_errno_name(-err));
		if (err)
			continue;
		attr.exclude_kernel = 1;
		key_of("open.", names[i], key, sizeof(key));
		err = pc_open_observe_errno(key, &attr, 0, -1);
		EXPECT_ERRNO(0, err) TH_LOG("%s", names[i]);
	}
}

/* The first of `names` that the core PMU lists in events/, or NULL. */
static const char *pmu_event(const char *const *names)
{
	char spec[256];

	for (; *names; names++)
		if (pc_pmu_event(pc_hw_pmu(), *names, spec, sizeof(spec)) == 0)
			return *names;
	return NULL;
}

/*
 * Generalized `config` leading, the sysfs event and PERF_TYPE_RAW with its
 * config following: three equal counts.
 */
static void same_as_generalized(struct __test_metadata *_metadata, uint64_t config,
				const char *const *names)
{
	struct perfconf_attr gen = pc_attr_hw(config), sys, raw;
	uint64_t g, s, r;

	REQUIRE_HW_PMU();
	REQUIRE_HW_EVENT(config);
	REQUIRE_HW_LOOP();
	const char *name = pmu_event(names);
	if (!name)
		SKIP(return, "%s lists no %s event", pc_hw_pmu(), names[0]);
	ASSERT_EQ(0, pc_attr_pmu_event(&sys, pc_hw_pmu(), name));
	raw = pc_attr(PERF_TYPE_RAW, sys.config);
	gen.exclude_kernel = sys.exclude_kernel = raw.exclude_kernel = 1;
	sys.disabled = raw.disabled = 0;

	int leader = pc_open(&gen, 0, -1, -1, 0);
	ASSERT_OPEN(leader);
	int fs = pc_open(&sys, 0, -1, leader, 0);
	ASSERT_OPEN(fs);
	int fr = pc_open(&raw, 0, -1, leader, 0);
	pc_observe_errno("raw_type", fr < 0 ? errno : 0);
	ASSERT_EQ(0, pc_hw_loop_fd(leader, 0, N));
	ASSERT_EQ(0, pc_read_count(leader, &g));
	ASSERT_EQ(0, pc_read_count(fs, &s));
	EXPECT_EQ(g, s) TH_LOG("%s counted %llu, the generalized event %llu", name,
			       (unsigned long long)s, (unsigned long long)g);
	if (fr >= 0) {
		ASSERT_EQ(0, pc_read_count(fr, &r));
		EXPECT_EQ(g, r) TH_LOG("raw %#llx", (unsigned long long)raw.config);
		close(fr);
	}
	if (config == PERF_COUNT_HW_INSTRUCTIONS) {
		EXPECT_LE(pc_hw_loop_insns(N), g);
		EXPECT_GE(pc_hw_loop_insns(N) + 1, g);
	}
	close(fs);
	close(leader);
}

TEST(instructions_event_is_instructions)
{
	static const char *const names[] = { "inst_retired", "instructions", NULL };

	same_as_generalized(_metadata, PERF_COUNT_HW_INSTRUCTIONS, names);
}

TEST(cycles_event_is_cycles)
{
	static const char *const names[] = { "cpu_cycles", "cpu-cycles", "cycles", NULL };

	same_as_generalized(_metadata, PERF_COUNT_HW_CPU_CYCLES, names);
}

/*
 * The exact loop counted by attr in user mode only into *count: whether it
 * opens is pinned (`open`); false where it is refused.
 */
static bool user_count(struct __test_metadata *_metadata, struct perfconf_attr *attr, uint64_t *count)
{
	attr->exclude_kernel = 1;
	if (!hw_opens(_metadata, "open", attr))
		return false;
	REQUIRE_HW_LOOP_OR(return false);
	ASSERT_EQ(0, pc_hw_count_loop(attr, N, count));
	return true;
}

/* The event term at its largest value: no event the PMU lists. */
/* Not asserted: the man page states nothing of what an event number events/ omits does. */
TEST(unlisted_event_number)
{
	struct pc_pmu_format f;
	uint64_t count = 0;

	REQUIRE_HW_PMU();
	ASSERT_EQ(0, pc_pmu_format(pc_hw_pmu(), "event", &f));
	struct perfconf_attr attr = pc_attr((uint32_t)pc_pmu_type(pc_hw_pmu()), 0);
	uint64_t largest = UINT64_MAX >> (64 - __builtin_popcountll(f.mask));
	ASSERT_EQ(0, pc_attr_set_format(&attr, pc_hw_pmu(), "event", largest));
	if (user_count(_metadata, &attr, &count))
		pc_observe("counts", "%s", count ? "yes" : "no");
}

/* The instructions event with config bit 63 set, which no format/ term of config names here. */
/* Not asserted: the man page states nothing of config bits that no format/ term names. */
TEST(config_bits_no_format_names)
{
	static const char *const names[] = { "inst_retired", "instructions", NULL };
	char fnames[64][64];
	struct perfconf_attr attr;
	uint64_t used = 0, count = 0;

	REQUIRE_HW_PMU();
	const char *name = pmu_event(names);
	if (!name)
		SKIP(return, "%s lists no instructions event", pc_hw_pmu());
	int n = list_dir("format", fnames, 64);
	for (int i = 0; i < n; i++) {
		struct pc_pmu_format f;

		if (pc_pmu_format(pc_hw_pmu(), fnames[i], &f) == 0 && f.word == 0)
			used |= f.mask;
	}
	if (used & (1ULL << 63))
		SKIP(return, "a format term of %s uses config bit 63", pc_hw_pmu());
	ASSERT_EQ(0, pc_attr_pmu_event(&attr, pc_hw_pmu(), name));
	attr.config |= 1ULL << 63;
	if (user_count(_metadata, &attr, &count))
		pc_observe("counts", "%s", count ? "yes" : "no");
}

/* arm64 "long": a 64-bit counter made of two chained ones; the same exact count. */
TEST(long_counter)
{
	static const char *const names[] = { "inst_retired", NULL };
	struct perfconf_attr attr;
	uint64_t count = 0;

	REQUIRE_HW_PMU();
	struct pc_pmu_format f;
	if (pc_pmu_format(pc_hw_pmu(), "long", &f))
		SKIP(return, "%s has no long format term", pc_hw_pmu());
	const char *name = pmu_event(names);
	if (!name)
		SKIP(return, "%s lists no inst_retired event", pc_hw_pmu());
	ASSERT_EQ(0, pc_attr_pmu_event(&attr, pc_hw_pmu(), name));
	ASSERT_EQ(0, pc_attr_set_format(&attr, pc_hw_pmu(), "long", 1));
	if (!user_count(_metadata, &attr, &count))
		return;
	EXPECT_LE(pc_hw_loop_insns(N), count);
	EXPECT_GE(pc_hw_loop_insns(N) + 1, count);
}

TEST_HARNESS_MAIN
