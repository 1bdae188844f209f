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
 * No PMU here (software, tracepoint, breakpoint, msr, uprobe; x86 TCG
 * guests; arm64 qemu virt, whose PMUv3 has no SPE or ETM) has an AUX area:
 * the refusal is pinned, and the record's contents are a SKIP.
 */
#include <sys/mman.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "aux_pmus.h"

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

/* The record's contents need an AUX PMU's event with its area mapped. */
TEST(aux_record_contents)
{
	SKIP_AUX_RECORD_CONTENTS("PERF_RECORD_AUX", "PERF_RECORD_AUX (aux_offset, aux_size, flags) "
				 "is written only by an AUX PMU's driver");
}

TEST_HARNESS_MAIN
