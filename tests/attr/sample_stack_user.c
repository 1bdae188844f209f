// SPDX-License-Identifier: GPL-2.0
/*
 * sample_stack_user (since 3.7): "the size of the user stack to dump if
 * PERF_SAMPLE_STACK_USER is specified." The sample then holds size,
 * data[size] and dyn_size: "size is the size requested by the user in
 * sample_stack_user or else the maximum record size. data is the stack
 * data (a raw dump of the memory pointed to by the stack pointer at the
 * time of sampling). dyn_size is the amount of data actually dumped (can
 * be less than size). Note that dyn_size is omitted if size is 0."
 *
 * The kernel refuses a size that is not a multiple of 8 and one that does
 * not fit a u16 record size (>= 65535) with EINVAL; ENOSYS means the arch
 * cannot dump user stacks at all.
 *
 * The dumps here are taken by a uprobe on a noinline function, at its
 * entry in user mode: the stack pointer is the caller's at the call, just
 * below the caller's locals.
 */
#include "perfconf.h"
#include "event/regs.h"
#include "ring/sample_site.h"

static int open_with_size(uint32_t size, uint64_t sample_type)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, sample_type);

	attr.sample_stack_user = size;
	attr.exclude_kernel = 1;
	return pc_open_errno(&attr, 0, -1, -1, 0);
}

#define SKIP_IF_NO_STACK_DUMP(err) do { \
	if ((err) == ENOSYS) \
		SKIP(return, "this arch cannot dump user stacks (ENOSYS)"); \
} while (0)

TEST(not_a_multiple_of_8_is_einval)
{
	const uint32_t sizes[] = { 1, 4, 12, 4100, 65532 };

	SKIP_IF_NO_STACK_DUMP(open_with_size(8, PERF_SAMPLE_STACK_USER));
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		EXPECT_ERRNO(EINVAL, open_with_size(sizes[i], PERF_SAMPLE_STACK_USER)) TH_LOG("size %u", sizes[i]);
	}
}

/* A dump must fit the u16 record size: 65528 is the largest size accepted. */
TEST(limit_is_below_65535)
{
	const uint32_t too_big[] = { 65535, 65536, 1u << 20, 0xfffffff8u };

	SKIP_IF_NO_STACK_DUMP(open_with_size(8, PERF_SAMPLE_STACK_USER));
	EXPECT_ERRNO(0, open_with_size(65528, PERF_SAMPLE_STACK_USER));
	for (unsigned int i = 0; i < ARRAY_SIZE(too_big); i++) {
		EXPECT_ERRNO(EINVAL, open_with_size(too_big[i], PERF_SAMPLE_STACK_USER))
			TH_LOG("size %u", too_big[i]);
	}
}

/* Without PERF_SAMPLE_STACK_USER the field is not looked at. */
TEST(ignored_without_the_sample_bit)
{
	EXPECT_ERRNO(0, open_with_size(3, PERF_SAMPLE_IP));
	EXPECT_ERRNO(0, open_with_size(0xffffffffu, PERF_SAMPLE_IP));
}

#define MARKER_WORDS 8

static noinline __attribute__((noipa)) void probe_frame(volatile uint64_t *local)
{
	__asm__ volatile("" : : "r"(local) : "memory");
}

PERFCONF_KEEP_CALLS(probe_frame)

struct frame {
	uintptr_t local;
	uint64_t marker[MARKER_WORDS];
};

/* The caller puts a marker in a local array; the dump must hold it where it lies. */
static void call_with_marker(void *arg)
{
	struct frame *f = arg;
	volatile uint64_t local[MARKER_WORDS];

	for (int i = 0; i < MARKER_WORDS; i++)
		local[i] = f->marker[i];
	f->local = (uintptr_t)local;
	probe_frame(local);
}

/* The sample_type of a dump at probe_frame: the stack and, with a regs table, SP. */
#define DUMP_SAMPLE_TYPE (PERF_SAMPLE_STACK_USER | (pc_regs_arch() ? PERF_SAMPLE_REGS_USER : 0))

/* attr: FUNCTION_SAMPLING() of probe_frame, DUMP_SAMPLE_TYPE. */
static int capture_dump(struct pc_capture *cap, struct perfconf_attr *attr, uint32_t size, struct frame *f,
			unsigned int pages_log2)
{
	const struct pc_regs_arch *a = pc_regs_arch();

	if (a)
		attr->sample_regs_user = PC_REG(a->sp);
	attr->sample_stack_user = size;
	for (int i = 0; i < MARKER_WORDS; i++)
		f->marker[i] = 0x5354414b00000000ULL | (uint64_t)getpid() << 8 | (uint64_t)i;
	return pc_capture_run_pages(cap, attr, pages_log2, call_with_marker, f);
}

/*
 * In a test: sample probe_frame once with a dump of `size` bytes into cap,
 * a ring of 1 + 2^pages_log2 pages, f the frame it dumps; r the sample's
 * record. SKIP where the arch cannot dump user stacks or there is no uprobe.
 */
#define CAPTURE_DUMP(r, cap, f, size, pages_log2) do { \
	struct perfconf_attr attr_; \
	FUNCTION_SAMPLING(&attr_, probe_frame, DUMP_SAMPLE_TYPE); \
	int err_ = capture_dump(cap, &attr_, size, f, pages_log2); \
	SKIP_IF_NO_STACK_DUMP(-err_); \
	SKIP_IF_UNSUPPORTED(-err_, "a uprobe"); \
	ASSERT_EQ(0, err_) TH_LOG("%s %s", pc_errno_name(-err_), (cap)->error); \
	r = pc_capture_find(cap, PERF_RECORD_SAMPLE, 0); \
	ASSERT_NE(NULL, r); \
} while (0)

/*
 * size is the request; dyn_size is no more than that and not zero; the
 * data starts at the user stack pointer, so the caller's marker is found
 * at its distance from SP.
 */
TEST(dump_starts_at_the_stack_pointer)
{
	const struct pc_regs_arch *a = pc_regs_arch();
	const struct pc_record *r;
	struct pc_capture cap;
	struct frame f;

	if (!a)
		SKIP(return, "no perf register table for this arch in lib/event/regs.c");
	CAPTURE_DUMP(r, &cap, &f, 4096, PC_CAPTURE_PAGES_LOG2);

	const struct pc_sample *s = &r->sample;
	ASSERT_EQ(1, s->regs_user_nr);
	uint64_t sp = s->regs_user[0];
	EXPECT_EQ(4096, s->stack_user_size);
	EXPECT_LT(0, s->stack_user_dyn_size);
	EXPECT_GE(s->stack_user_size, s->stack_user_dyn_size);
	ASSERT_LE(sp, f.local);
	uint64_t offset = f.local - sp;
	ASSERT_GE(s->stack_user_dyn_size, offset + sizeof(f.marker))
		TH_LOG("the marker at sp+%llu is beyond the %llu bytes dumped", (unsigned long long)offset,
		       (unsigned long long)s->stack_user_dyn_size);
	EXPECT_EQ(0, memcmp((const unsigned char *)s->stack_user + offset, f.marker, sizeof(f.marker)))
		TH_LOG("the marker is not at sp+%llu in the dump", (unsigned long long)offset);
	pc_capture_close(&cap);
}

/* size 0: accepted, and the sample holds size = 0 with no data and no dyn_size. */
TEST(zero_size_dumps_nothing)
{
	const struct pc_record *r;
	struct pc_capture cap;
	struct frame f;

	CAPTURE_DUMP(r, &cap, &f, 0, PC_CAPTURE_PAGES_LOG2);
	EXPECT_EQ(0, r->sample.stack_user_size);
	EXPECT_EQ(0, r->sample.stack_user_dyn_size);
	EXPECT_EQ(NULL, r->sample.stack_user);
	pc_capture_close(&cap);
}

/*
 * The largest request (65528) cannot fit beside the rest of the sample in
 * a u16 record: the kernel dumps "the maximum record size" instead, a
 * multiple of 8 that keeps the record within 65535 bytes. The size it
 * chose for this sample layout is pinned.
 */
TEST(largest_request_fits_the_record)
{
	const struct pc_record *r;
	struct pc_capture cap;
	struct frame f;

	CAPTURE_DUMP(r, &cap, &f, 65528, 5);
	pc_observe("size", "%llu", (unsigned long long)r->sample.stack_user_size);
	EXPECT_LT(0, r->sample.stack_user_size);
	EXPECT_GE(65528, r->sample.stack_user_size);
	EXPECT_EQ(0, r->sample.stack_user_size % 8);
	EXPECT_GE(r->sample.stack_user_size, r->sample.stack_user_dyn_size);
	EXPECT_LT(0, r->sample.stack_user_dyn_size);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
