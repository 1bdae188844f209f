// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_LOST_SAMPLES (since 4.2): { header, u64 lost, sample_id }, the
 * number of samples the hardware itself failed to deliver, as opposed to
 * PERF_RECORD_LOST, samples the kernel had no ring space for. It is
 * written only by a PMU that can tell it dropped samples.
 *
 * In the kernel: perf_log_lost_samples() (6.12 kernel/events/core.c line
 * 9220) writes it with misc 0 and the event's id sample. Its only caller,
 * in 6.12 as in 5.10, 6.1 and later, is Intel PEBS
 * (arch/x86/events/intel/ds.c line 2416, intel_pmu_drain_pebs_nhm: PEBS
 * records whose status matched several events), for an event with
 * precise_ip. No other PMU calls it: not the software, tracepoint,
 * breakpoint or uprobe PMUs, not the arm64 PMUv3 (drivers/perf/arm_pmuv3.c)
 * nor any AUX PMU. Neither this host (no hardware PMU) nor the qemu guests
 * (x86 TCG: no PMU; arm64: PMUv3) can produce it, and even PEBS gives no
 * way to make it drop on demand. So this file pins what can be checked:
 * the record's layout in the ABI table and parser, that an opened precise
 * hardware sampler is or is not accepted here (an observation), and that a
 * software sampler writes no LOST_SAMPLES, losing nothing or losing ring
 * space (LOST records).
 */
#include "perfconf.h"

#include <string.h>
#include <sys/syscall.h>

#include "ring/capture.h"
#include "work/faults.h"
#include "work/mapping.h"
#include "work/measure.h"

#define FAULTS 50
#define OVERFLOW_FAULTS pc_scaled_to_page(400)	/* more than a one-page ring holds */

/* The ABI table and the parser agree with the kernel's struct. */
TEST(layout_is_header_lost_and_sample_id)
{
	const struct pc_abi_record *r = pc_abi_record(PERF_RECORD_LOST_SAMPLES);
	const struct pc_abi_field *lost;
	struct perfconf_attr attr = pc_attr_fault_sampler(PERF_COUNT_SW_PAGE_FAULTS);
	struct pc_sample_format fmt = pc_sample_format(&attr);
	uint64_t buf[4] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)buf;
	struct pc_record rec;

	ASSERT_EQ(13, PERF_RECORD_LOST_SAMPLES);
	ASSERT_NE(NULL, r);
	EXPECT_STREQ("LOST_SAMPLES", pc_abi_record_name(PERF_RECORD_LOST_SAMPLES));
	EXPECT_EQ(PC_KVER(4, 2), r->since);
	EXPECT_TRUE(r->has_sample_id);
	EXPECT_FALSE(r->variable_tail);
	ASSERT_EQ(1, r->nfields);
	lost = &r->fields[0];
	EXPECT_STREQ("lost", lost->name);
	EXPECT_EQ(8, lost->offset);
	EXPECT_EQ(8, lost->size);

	/* header, lost, then the trailer {pid, tid}, {identifier} of TID | IDENTIFIER */
	ASSERT_EQ(16, pc_sample_id_size(&fmt));
	h->type = PERF_RECORD_LOST_SAMPLES;
	h->size = sizeof(buf);
	buf[1] = 12345;
	memcpy(&buf[2], (const uint32_t[2]){ 7, 8 }, 8);	/* two u32s, not one u64: byte order */
	buf[3] = 0xabcdef;
	ASSERT_EQ(0, pc_record_parse(&fmt, buf, sizeof(buf), &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(12345, rec.lost_samples.lost);
	EXPECT_TRUE(rec.sample_id.present);
	EXPECT_EQ(7, rec.sample_id.pid);
	EXPECT_EQ(8, rec.sample_id.tid);
	EXPECT_EQ(0xabcdef, rec.sample_id.id);
	/* a byte too many for the layout is refused (the control for the fit above) */
	h->size = sizeof(buf) - 8;
	EXPECT_EQ(-EBADMSG, pc_record_parse(&fmt, buf, sizeof(buf), &rec));
}

/*
 * A sampler of this task's page faults (pc_attr_fault_sampler) on a ring
 * of 1 + 2^pages_log2 pages, and `pages` fresh pages for it to sample:
 * the event's id.
 */
static uint64_t open_sampler(struct __test_metadata *_metadata, struct pc_capture *cap,
			     struct pc_faults *f, size_t pages, unsigned int pages_log2)
{
	struct perfconf_attr attr = pc_attr_fault_sampler(PERF_COUNT_SW_PAGE_FAULTS);

	ASSERT_EQ(0, pc_faults_map(f, pages));
	ASSERT_ERRNO(0, -pc_capture_open_pages(cap, &attr, 0, -1, pages_log2));
	return pc_event_id(cap->fd);
}

/*
 * A software sampler that loses nothing writes every sample and no
 * LOST_SAMPLES (nor LOST) record.
 */
TEST(software_sampler_writes_none)
{
	struct pc_capture cap;
	struct pc_faults f;
	uint64_t id = open_sampler(_metadata, &cap, &f, FAULTS + 1, PC_CAPTURE_PAGES_LOG2);

	ASSERT_EQ(0, pc_faults_enabled(&f, cap.fd, FAULTS));
	pc_faults_unmap(&f);
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(FAULTS, pc_count_of(cap.fd));
	EXPECT_EQ(FAULTS, pc_capture_samples_of(&cap, id, 0));
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_LOST_SAMPLES));
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_LOST));
	pc_capture_close(&cap);
}

/*
 * Samples lost for want of ring space are LOST, never LOST_SAMPLES: a
 * one-page ring overflowed, drained, and written again.
 */
TEST(ring_overflow_is_lost_not_lost_samples)
{
	struct pc_capture cap;
	struct pc_faults f;
	uint64_t id = open_sampler(_metadata, &cap, &f, OVERFLOW_FAULTS + 3, 0);	/* a one-page ring */

	ASSERT_EQ(0, pc_faults_enabled(&f, cap.fd, OVERFLOW_FAULTS));
	ASSERT_CAPTURE_READ(&cap);
	ASSERT_EQ(0, pc_faults_enabled(&f, cap.fd, 1));
	pc_faults_unmap(&f);
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(OVERFLOW_FAULTS + 1, pc_count_of(cap.fd));
	ASSERT_EQ(1, pc_capture_count(&cap, PERF_RECORD_LOST)) TH_LOG("the ring did not overflow");
	EXPECT_EQ(OVERFLOW_FAULTS + 1, pc_capture_samples_of(&cap, id, 0) + pc_capture_lost_total(&cap));
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_LOST_SAMPLES));
	pc_capture_close(&cap);
}

/*
 * The producer: a precise (PEBS) hardware sampler. Its acceptance here is
 * observed; its drops cannot be provoked, so the record's contents are a
 * SKIP on every machine this suite runs on.
 */
TEST(hardware_drops_cannot_be_provoked_here)
{
	struct perfconf_attr attr = pc_attr_hw(PERF_COUNT_HW_CPU_CYCLES);

	attr.sample_period = 100000;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.precise_ip = 2;
	pc_open_observe_errno("lost_samples.precise_cycles_open", &attr, 0, -1);
	SKIP(return, "only Intel PEBS writes LOST_SAMPLES (arch/x86/events/intel/ds.c, "
	     "intel_pmu_drain_pebs_nhm) and nothing makes it drop samples on demand");
}

TEST_HARNESS_MAIN
