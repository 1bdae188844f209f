// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_AUX (since 4.1): "new data is available in the separate AUX
 * buffer region": aux_offset and aux_size say where in the AUX area the new
 * data lies, flags whether it was TRUNCATED, OVERWRITE (snapshot mode),
 * PARTIAL or COLLISION. Only a PMU driver writes it, from
 * perf_aux_output_end() (kernel/events/ring_buffer.c), into the ring of an
 * event whose AUX area (the mapping at aux_offset/aux_size of the control
 * page) it fills: intel_pt, intel_bts, arm_spe, cs_etm, hisi_ptt... An
 * event of any other PMU cannot have an AUX area: perf_mmap() checks the
 * geometry (EINVAL: no data ring yet, an offset inside the data ring, a
 * size that is not the mapping's or not a power of two), then
 * rb_alloc_aux() refuses with EOPNOTSUPP when the PMU has no setup_aux
 * (has_aux(); 6.12 kernel/events/core.c:6642 perf_mmap,
 * ring_buffer.c:697; the same since 4.1).
 *
 * No PMU of our machines (software, tracepoint, breakpoint, msr, uprobe;
 * x86 TCG guests; arm64 qemu virt, whose PMUv3 has no SPE or ETM) has an
 * AUX area: the refusal is pinned on a software event. The records, the
 * flags the core computes, the disable of a full area and the geometry
 * on a PMU that takes an area come from the suite's own perfconf_aux
 * (ring/synth.h), where the runner loaded it.
 */
#include <poll.h>
#include <sys/mman.h>

#include "perfconf.h"
#include "work/affinity.h"
#include "work/attr_probe.h"
#include "ring/synth.h"

/* Its cases create and destroy probe events: one such binary at a time (runners/README, serial=). */
PERFCONF_META("serial=probes");

#define FAULTS 16

/*
 * Every PMU here whose event opens answers the AUX mapping: an area, or
 * EOPNOTSUPP and nothing else. The by-name list of the lib (pc_aux_pmu)
 * finds one exactly when the probe does.
 */
TEST(aux_area_only_on_aux_pmus)
{
	char names[512];
	size_t aux, other;
	size_t tried = pc_ring_probe_aux_pmus(&aux, &other, names, sizeof(names));

	pc_observe("aux_pmus", "%s", aux ? names : "none");
	EXPECT_LE(1, tried) TH_LOG("no PMU's event opened with config 0");
	EXPECT_EQ(0, other) TH_LOG("refused with another errno than EOPNOTSUPP: %s", names);
	EXPECT_EQ(aux != 0, pc_aux_pmu() != NULL) TH_LOG("probe: %s; by name: %s",
		aux ? names : "none", pc_aux_pmu() ? pc_aux_pmu() : "none");
}

static int map_at(int fd, struct perf_event_mmap_page *pg, uint64_t off, uint64_t size, size_t len)
{
	pg->aux_offset = off;
	pg->aux_size = size;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
	if (p == MAP_FAILED)
		return errno;
	munmap(p, len);
	return 0;
}

/*
 * A page-fault sampler: its AUX mapping with a geometry that perf_mmap
 * accepts is EOPNOTSUPP; the controls, each a geometry it does not
 * accept, are EINVAL, so the refusal is the PMU's. The data ring then
 * works as before: a sample per fault, no AUX record.
 */
TEST(aux_area_of_a_software_event_is_eopnotsupp)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_TID);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct pc_capture cap;

	attr.exclude_kernel = 1;
	/* No data ring yet: EINVAL. */
	int fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)(2 * page));
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_ERRNO(EINVAL, p == MAP_FAILED ? errno : 0) TH_LOG("an AUX area without a data ring");
	if (p != MAP_FAILED)
		munmap(p, page);
	close(fd);

	ASSERT_ERRNO(0, -pc_capture_open_pages(&cap, &attr, 0, -1, 0));	/* 1 + 1 pages */
	struct perf_event_mmap_page *pg = cap.ring.page;
	EXPECT_ERRNO(EINVAL, map_at(cap.fd, pg, page, page, page)) TH_LOG("an offset inside the data ring");
	EXPECT_ERRNO(EINVAL, map_at(cap.fd, pg, 2 * page, 2 * page, page)) TH_LOG("aux_size is not the mapping's");
	EXPECT_ERRNO(EINVAL, map_at(cap.fd, pg, 2 * page, 3 * page, 3 * page)) TH_LOG("3 pages");
	int err = map_at(cap.fd, pg, 2 * page, 2 * page, 2 * page);
	pc_observe_errno("errno.mmap_aux", err);
	EXPECT_ERRNO(EOPNOTSUPP, err) TH_LOG("the AUX area of a software event");
	/* Once more: the refusal left nothing half set up. */
	EXPECT_ERRNO(EOPNOTSUPP, map_at(cap.fd, pg, 2 * page, page, page));

	pc_work_page_faults(1);		/* the workload's own first faults */
	ASSERT_EQ(0, pc_enable(cap.fd));
	ASSERT_EQ(0, pc_work_page_faults(FAULTS));
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(FAULTS, pc_capture_count(&cap, PERF_RECORD_SAMPLE));
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_AUX));
	EXPECT_EQ(0, pg->aux_head);
	pc_capture_close(&cap);
}

/*
 * perfconf_aux (ring/synth.h) writes CHUNK bytes at each start and
 * commits them at each stop: an ENABLE/DISABLE pair is one running
 * interval (a schedule-out inside it splits it in two). Each commit is one
 * PERF_RECORD_AUX: aux_offset is where the bytes begin, aux_size how many,
 * flags 0; the records tile the area from 0 to aux_head, and the bytes
 * read back there are the ones written.
 */
#define CHUNK 256
#define INTERVALS 8

/* INTERVALS running intervals (ENABLE, DISABLE), then the ring read. */
static void run_intervals(struct __test_metadata *_metadata, struct pc_capture *cap)
{
	for (int i = 0; i < INTERVALS; i++) {
		ASSERT_EQ(0, pc_enable(cap->fd));
		ASSERT_EQ(0, pc_disable(cap->fd));
	}
	ASSERT_CAPTURE_READ(cap);
}

/*
 * The first n PERF_RECORD_AUX of cap each commit chunk bytes with flags:
 * record i at aux_offset i * chunk, or, in overwrite mode (aux_offset is
 * the head after the write), (i + 1) * chunk.
 */
static void expect_chunks(struct __test_metadata *_metadata, const struct pc_capture *cap, size_t n,
			  uint64_t chunk, uint64_t flags)
{
	uint64_t at_end = flags & PERF_AUX_FLAG_OVERWRITE ? 1 : 0;

	for (size_t i = 0; i < n; i++) {
		const struct pc_record *r = pc_capture_find(cap, PERF_RECORD_AUX, i);

		ASSERT_NE(NULL, r) TH_LOG("record %zu", i);
		EXPECT_EQ((i + at_end) * chunk, r->aux.aux_offset) TH_LOG("record %zu", i);
		EXPECT_EQ(chunk, r->aux.aux_size) TH_LOG("record %zu", i);
		EXPECT_EQ(flags, r->aux.flags) TH_LOG("record %zu", i);
	}
}

TEST(aux_record_contents)
{
	struct pc_capture cap;

	REQUIRE_SYNTH_PMU();
	struct perfconf_attr attr = pc_attr_synth_aux(CHUNK);
	ASSERT_ERRNO(0, -pc_synth_capture(&cap, &attr, 4, PC_RING_READWRITE));
	run_intervals(_metadata, &cap);
	size_t n = pc_capture_count(&cap, PERF_RECORD_AUX);
	EXPECT_LE(INTERVALS, n) TH_LOG("one record per running interval");
	expect_chunks(_metadata, &cap, n, CHUNK, 0);
	EXPECT_EQ(n * CHUNK, cap.ring.page->aux_head);
	EXPECT_EQ(cap.ring.page->aux_head, pc_synth_mismatch(&cap.ring, 0, cap.ring.page->aux_head));
	pc_capture_close(&cap);
}

/*
 * Whether the event (read_format PERF_FORMAT_TOTAL_TIME_ENABLED) is
 * enabled: 1 when its time_enabled moves over a 20 ms sleep, 0 when not,
 * -1 when a read fails.
 */
static int runs(int fd)
{
	struct pc_read_values a, b;
	const uint64_t fmt = PERF_FORMAT_TOTAL_TIME_ENABLED;

	if (pc_read_values_read(fd, fmt, &a) || usleep(20000) || pc_read_values_read(fd, fmt, &b))
		return -1;
	return a.time_enabled != b.time_enabled;
}

/*
 * The area fills: 8 intervals of 1000 bytes fit a 2-page area of 4 KiB
 * pages, the 9th has room for 191 (CIRC_SPACE() keeps one byte free, so
 * aux_head never catches up with aux_tail + size), and its record is
 * flagged TRUNCATED; the core then
 * disables the event (perf_aux_output_end(): pending_disable) and wakes
 * the reader. The commit comes at the schedule-out of a sleep, so the
 * disable is the core's, not ours. An ENABLE with no room at all is
 * disabled again (perf_aux_output_begin()). The control: once the reader
 * frees the area (aux_tail), ENABLE writes on at aux_head.
 *
 * The case runs on CPU 0: kernels that store the CPU's number as the
 * boolean pending_disable lose the disable there only (fixed by
 * 1476b218327b, v6.16; expected/fixes.txt).
 */
#define FULL_CHUNK 1000

TEST(full_area_truncates_and_disables)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct pollfd pfd;
	struct pc_capture cap;

	REQUIRE_SYNTH_PMU();
	int err = pc_pin_to(0);
	if (err)
		SKIP(return, "cannot run on CPU 0: %s", strerror(-err));
	struct perfconf_attr attr = pc_attr_synth_aux(FULL_CHUNK);
	attr.watermark = 1;
	attr.wakeup_watermark = 1 << 30;	/* only the full AUX area wakes: */
	attr.aux_watermark = 2 * (uint32_t)page;	/* no wakeup before it */
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	ASSERT_ERRNO(0, -pc_synth_capture(&cap, &attr, 1, PC_RING_READWRITE));
	uint64_t full = 2 * page - 1;
	struct perf_event_mmap_page *pg = cap.ring.page;

	/* Whole intervals while a chunk fits (a schedule-out inside one makes two). */
	while (full - pg->aux_head >= FULL_CHUNK) {
		ASSERT_EQ(0, pc_enable(cap.fd));
		ASSERT_EQ(0, pc_disable(cap.fd));
	}
	pfd = (struct pollfd){ .fd = cap.fd, .events = POLLIN };
	if (pg->aux_head < full)
		EXPECT_EQ(0, poll(&pfd, 1, 0)) TH_LOG("woken before the area filled");

	ASSERT_EQ(0, pc_enable(cap.fd));
	for (int i = 0; i < 1000 && !poll(&pfd, 1, 0); i++)
		usleep(1000);
	EXPECT_EQ(POLLIN, pfd.revents & POLLIN) TH_LOG("no wakeup when the area filled");
	EXPECT_EQ(0, runs(cap.fd)) TH_LOG("still enabled after a TRUNCATED record");
	EXPECT_EQ(full, pg->aux_head);

	ASSERT_EQ(0, pc_enable(cap.fd));	/* no room: disabled again */
	EXPECT_EQ(0, runs(cap.fd)) TH_LOG("enabled with a full area");
	ASSERT_EQ(0, pc_disable(cap.fd));

	ASSERT_CAPTURE_READ(&cap);
	size_t n = pc_capture_count(&cap, PERF_RECORD_AUX);
	ASSERT_LE(full / FULL_CHUNK + 1, n);
	expect_chunks(_metadata, &cap, n - 1, FULL_CHUNK, 0);
	const struct pc_record *last = pc_capture_find(&cap, PERF_RECORD_AUX, n - 1);
	EXPECT_EQ((n - 1) * FULL_CHUNK, last->aux.aux_offset);
	EXPECT_EQ(full - (n - 1) * FULL_CHUNK, last->aux.aux_size);
	EXPECT_EQ(PERF_AUX_FLAG_TRUNCATED, last->aux.flags);
	EXPECT_EQ(full, pc_synth_mismatch(&cap.ring, 0, full));

	/* The control: room again. */
	__atomic_store_n(&pg->aux_tail, full, __ATOMIC_RELEASE);
	ASSERT_EQ(0, pc_enable(cap.fd));
	EXPECT_EQ(1, runs(cap.fd)) TH_LOG("the area has room again");
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	const struct pc_record *again = pc_capture_find(&cap, PERF_RECORD_AUX, n);
	ASSERT_NE(NULL, again);
	EXPECT_EQ(full, again->aux.aux_offset);
	EXPECT_EQ(0, again->aux.flags);
	EXPECT_EQ(pg->aux_head, pc_synth_mismatch(&cap.ring, full, pg->aux_head));
	pc_capture_close(&cap);
}

/*
 * A read-only AUX area is the overwrite (snapshot) mode: the PMU writes
 * on past the area's size, wrapping, and nothing disables the event;
 * each PERF_RECORD_AUX is flagged OVERWRITE and, as the driver passes
 * the new head (perf_aux_output_end()), its aux_offset is aux_head after
 * the write. The area holds the newest bytes.
 */
TEST(overwrite_area_wraps_and_flags_overwrite)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct pc_capture cap;

	REQUIRE_SYNTH_PMU();
	struct perfconf_attr attr = pc_attr_synth_aux(FULL_CHUNK);
	ASSERT_ERRNO(0, -pc_synth_capture(&cap, &attr, 0, PC_RING_OVERWRITE));
	run_intervals(_metadata, &cap);
	size_t n = pc_capture_count(&cap, PERF_RECORD_AUX);
	uint64_t head = cap.ring.page->aux_head;

	EXPECT_LE(INTERVALS, n);
	EXPECT_EQ(n * FULL_CHUNK, head);
	expect_chunks(_metadata, &cap, n, FULL_CHUNK, PERF_AUX_FLAG_OVERWRITE);
	EXPECT_EQ(head, pc_synth_mismatch(&cap.ring, head - page, head));
	pc_capture_close(&cap);
}

/*
 * perf_mmap()'s AUX geometry on a PMU that takes an area: a power of two
 * of pages after the data ring maps; the refusals (EINVAL) are each one
 * step from it. A second mapping of the area must have its size.
 */
TEST(aux_area_geometry_on_an_aux_pmu)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct pc_capture cap;

	REQUIRE_SYNTH_PMU();
	struct perfconf_attr attr = pc_attr_synth_aux(CHUNK);
	ASSERT_ERRNO(0, -pc_capture_open_pages(&cap, &attr, 0, -1, 0));	/* 1 + 1 pages */
	struct perf_event_mmap_page *pg = cap.ring.page;
	/* One page, writable: EINVAL before d68e6799a5c8 (5.13; expected/fixes.txt). */
	pc_observe_errno("errno.one_writable_page", map_at(cap.fd, pg, 2 * page, page, page));
	EXPECT_ERRNO(EINVAL, map_at(cap.fd, pg, page, page, page)) TH_LOG("an offset inside the data ring");
	EXPECT_ERRNO(EINVAL, map_at(cap.fd, pg, 2 * page, 3 * page, 3 * page)) TH_LOG("3 pages");
	EXPECT_ERRNO(EINVAL, map_at(cap.fd, pg, 2 * page, 4 * page, 2 * page)) TH_LOG("aux_size is not the mapping's");
	pg->aux_offset = 2 * page;
	pg->aux_size = 4 * page;
	void *aux = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_SHARED, cap.fd, (off_t)(2 * page));
	ASSERT_NE(MAP_FAILED, aux) TH_LOG("4 pages after the data ring: %s", strerror(errno));
	void *again = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, cap.fd, (off_t)(2 * page));
	EXPECT_EQ(MAP_FAILED, again) TH_LOG("a second mapping of another size");
	if (again != MAP_FAILED)
		munmap(again, 2 * page);
	again = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_SHARED, cap.fd, (off_t)(2 * page));
	EXPECT_NE(MAP_FAILED, again) TH_LOG("a second mapping of the same size: %s", strerror(errno));
	if (again != MAP_FAILED)
		munmap(again, 4 * page);
	munmap(aux, 4 * page);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
