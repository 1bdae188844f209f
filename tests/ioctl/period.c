// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_PERIOD (since 2.6.31; the argument points to a u64):
 * sets a new overflow period for a sampling event. For an
 * event in frequency mode the value is the new frequency, which may not be
 * above perf_event_max_sample_rate. Since 3.7 (arm) and 3.14 (other
 * arches) the new period takes effect at once instead of after the next
 * overflow. A period of 0, a period with bit 63 set and a counting event
 * are EINVAL; a pointer the kernel cannot read is EFAULT.
 *
 * The kernel (kernel/events/core.c, _perf_event_period and
 * __perf_event_period, the same in 5.10 and 6.x) stores the new period and
 * sets period_left to 0. A software event that is off, or scheduled out
 * and in, starts a full new period at its next start
 * (perf_swevent_add); one that runs on takes its next sample at the next
 * event, the rest of the old period left to run, and the new period after
 * that. With the old period twice the new one both ways give the same
 * number of samples over a multiple of the new period, one more than the
 * pre-3.14 behaviour, so the count is exact on a busy machine too.
 *
 * Measured with software page faults in user mode, one sample each
 * (PERF_SAMPLE_TID; PERF_SAMPLE_PERIOD would make a software event sample
 * every event).
 */
#include "perfconf.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

#include "work/faults.h"
#include "work/measure.h"

PERFCONF_META("reads=perf_event_max_sample_rate");

#define FAULTS 24	/* a multiple of every period below */

static struct perfconf_attr fault_sampler(uint64_t period)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, period, PERF_SAMPLE_TID);

	attr.exclude_kernel = 1;
	return attr;
}

/* ioctl(PERF_EVENT_IOC_PERIOD, &value): 0, or the errno. */
static int period_errno(int fd, uint64_t value)
{
	return ioctl(fd, PERF_EVENT_IOC_PERIOD, &value) ? errno : 0;
}

/* Samples in the ring since the last call. */
static size_t new_samples(struct __test_metadata *_metadata, struct pc_capture *cap, size_t *seen)
{
	size_t all, n;

	if (pc_capture_read(cap) < 0) {
		TH_LOG("%s", cap->error);
		return SIZE_MAX;
	}
	all = pc_capture_count(cap, PERF_RECORD_SAMPLE);
	n = all - *seen;
	*seen = all;
	return n;
}

/* A sampler of `before`, and FAULTS faults with it enabled: FAULTS / before samples. */
struct sampled {
	struct pc_capture cap;
	struct pc_faults f;
	size_t seen;
};

static void sampled_open(struct __test_metadata *_metadata, struct sampled *s, uint64_t before)
{
	struct perfconf_attr attr = fault_sampler(before);

	s->cap.fd = -1;
	s->seen = 0;
	ASSERT_EQ(0, pc_faults_map(&s->f, 1 + 3 * FAULTS));
	ASSERT_ERRNO(0, -pc_capture_open(&s->cap, &attr, 0, -1));
	ASSERT_EQ(0, pc_faults_enabled(&s->f, s->cap.fd, FAULTS));
	ASSERT_EQ(FAULTS / before, new_samples(_metadata, &s->cap, &s->seen)) TH_LOG("the first period");
}

static void sampled_close(struct sampled *s)
{
	if (s->cap.fd >= 0)
		pc_capture_close(&s->cap);
	pc_faults_unmap(&s->f);
}

/*
 * A fixture whose variants change a sampler's period: each case starts
 * with sampled_open() of `before`, and sets `after`.
 */
#define SAMPLED_FIXTURE(name) \
	FIXTURE(name) { \
		struct sampled s; \
	}; \
	FIXTURE_VARIANT(name) { \
		uint64_t before, after; \
	}; \
	FIXTURE_SETUP(name) \
	{ \
		sampled_open(_metadata, &self->s, variant->before); \
	} \
	FIXTURE_TEARDOWN(name) \
	{ \
		sampled_close(&self->s); \
	}

SAMPLED_FIXTURE(period)
FIXTURE_VARIANT_ADD(period, four_to_two) { .before = 4, .after = 2 };
FIXTURE_VARIANT_ADD(period, two_to_six) { .before = 2, .after = 6 };
FIXTURE_VARIANT_ADD(period, one_to_three) { .before = 1, .after = 3 };
FIXTURE_VARIANT_ADD(period, eight_to_three) { .before = 8, .after = 3 };
FIXTURE_VARIANT_ADD(period, six_to_one) { .before = 6, .after = 1 };

/* Set while the event is off, the new period counts from the enable. */
TEST_F(period, new_period_applies_from_enable)
{
	ASSERT_ERRNO(0, period_errno(self->s.cap.fd, variant->after));
	ASSERT_EQ(0, pc_enable(self->s.cap.fd));
	pc_faults_next(&self->s.f, FAULTS);
	ASSERT_EQ(0, pc_disable(self->s.cap.fd));
	EXPECT_EQ(FAULTS / variant->after, new_samples(_metadata, &self->s.cap, &self->s.seen));
	EXPECT_EQ(2 * FAULTS, pc_count_of(self->s.cap.fd));
}

/*
 * Set while the event runs, the old period twice the new one (see above):
 * FAULTS / after samples over the FAULTS faults after it, whether or not
 * the task was scheduled out in between.
 */
SAMPLED_FIXTURE(running)
FIXTURE_VARIANT_ADD(running, two_to_one) { .before = 2, .after = 1 };
FIXTURE_VARIANT_ADD(running, four_to_two) { .before = 4, .after = 2 };
FIXTURE_VARIANT_ADD(running, six_to_three) { .before = 6, .after = 3 };
FIXTURE_VARIANT_ADD(running, eight_to_four) { .before = 8, .after = 4 };

TEST_F(running, new_period_applies_at_once)
{
	ASSERT_EQ(0, pc_enable(self->s.cap.fd));
	ASSERT_ERRNO(0, period_errno(self->s.cap.fd, variant->after));
	pc_faults_next(&self->s.f, FAULTS);
	ASSERT_EQ(0, pc_disable(self->s.cap.fd));
	EXPECT_EQ(FAULTS / variant->after, new_samples(_metadata, &self->s.cap, &self->s.seen));
	EXPECT_EQ(2 * FAULTS, pc_count_of(self->s.cap.fd));
}

/*
 * Refused values: 0 and any value with bit 63 set are EINVAL, and the
 * event keeps its period; 2^62 is accepted (the control).
 */
FIXTURE(values) {
	struct pc_capture cap;
	struct pc_faults f;
};

FIXTURE_VARIANT(values) {
	uint64_t value;
	int err;
};

FIXTURE_VARIANT_ADD(values, zero_is_einval) { .value = 0, .err = EINVAL };
FIXTURE_VARIANT_ADD(values, bit63_is_einval) { .value = 1ULL << 63, .err = EINVAL };
FIXTURE_VARIANT_ADD(values, all_ones_is_einval) { .value = ~0ULL, .err = EINVAL };
FIXTURE_VARIANT_ADD(values, bit62_is_accepted) { .value = 1ULL << 62, .err = 0 };

FIXTURE_SETUP(values)
{
	struct perfconf_attr attr = fault_sampler(2);

	self->cap.fd = -1;
	ASSERT_EQ(0, pc_faults_map(&self->f, 1 + FAULTS));
	ASSERT_ERRNO(0, -pc_capture_open(&self->cap, &attr, 0, -1));
}

FIXTURE_TEARDOWN(values)
{
	if (self->cap.fd >= 0)
		pc_capture_close(&self->cap);
	pc_faults_unmap(&self->f);
}

TEST_F(values, period_value)
{
	size_t seen = 0;

	EXPECT_ERRNO(variant->err, period_errno(self->cap.fd, variant->value));
	ASSERT_EQ(0, pc_faults_enabled(&self->f, self->cap.fd, FAULTS));
	/* Refused: still every 2nd fault. Accepted: 2^62 faults never come. */
	EXPECT_EQ(variant->err ? FAULTS / 2 : 0, new_samples(_metadata, &self->cap, &seen));
	EXPECT_EQ(FAULTS, pc_count_of(self->cap.fd));
}

/* A counting event has no period: EINVAL (a sampling one is the control above). */
TEST(counting_event_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	int fd = pc_open(&attr, 0, -1, -1, 0);

	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, period_errno(fd, 4));
	close(fd);
}

/*
 * In frequency mode the value is a frequency: above
 * perf_event_max_sample_rate it is EINVAL, at the rate and at 1 Hz it is
 * accepted; a period-mode event takes the same number as a period.
 * (Page faults: cpu-clock and task-clock turn a frequency into a period
 * when they are opened, and are in period mode after.)
 */
TEST(frequency_above_max_sample_rate_is_einval)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	long max;
	int fd;

	ASSERT_EQ(0, pc_sysctl_get(PC_MAX_SAMPLE_RATE_SYSCTL, &max));
	ASSERT_LT(0, max);
	attr.freq = 1;
	attr.sample_freq = 1;
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EINVAL, period_errno(fd, (uint64_t)max + 1));
	EXPECT_ERRNO(EINVAL, period_errno(fd, 1ULL << 63));
	EXPECT_ERRNO(EINVAL, period_errno(fd, 0));
	EXPECT_ERRNO(0, period_errno(fd, 1));
	/* The kernel may only lower the rate by itself: read it again. */
	ASSERT_EQ(0, pc_sysctl_get(PC_MAX_SAMPLE_RATE_SYSCTL, &max));
	EXPECT_ERRNO(0, period_errno(fd, (uint64_t)max));
	close(fd);

	attr = fault_sampler(2);
	fd = pc_open(&attr, 0, -1, -1, 0);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(0, period_errno(fd, (uint64_t)max + 1)) TH_LOG("as a period it is fine");
	close(fd);
}

/* The argument is a pointer: NULL or a page with no access is EFAULT, and nothing changes. */
TEST(bad_pointer_is_efault)
{
	struct perfconf_attr attr = fault_sampler(2);
	long page = sysconf(_SC_PAGESIZE);
	struct pc_capture cap;
	struct pc_faults f;
	size_t seen = 0;
	void *gone;

	/* mapped without access, so that no later mapping lands there while the case runs */
	gone = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, gone);
	ASSERT_EQ(0, pc_faults_map(&f, 1 + FAULTS));
	ASSERT_ERRNO(0, -pc_capture_open(&cap, &attr, 0, -1));
	EXPECT_EQ(-1, ioctl(cap.fd, PERF_EVENT_IOC_PERIOD, NULL));
	EXPECT_ERRNO(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(cap.fd, PERF_EVENT_IOC_PERIOD, gone));
	EXPECT_ERRNO(EFAULT, errno);
	ASSERT_EQ(0, pc_faults_enabled(&f, cap.fd, FAULTS));
	EXPECT_EQ(FAULTS / 2, new_samples(_metadata, &cap, &seen)) TH_LOG("the period changed");
	EXPECT_ERRNO(0, period_errno(cap.fd, 3));	/* the control */
	pc_capture_close(&cap);
	pc_faults_unmap(&f);
	munmap(gone, page);
}

TEST_HARNESS_MAIN
