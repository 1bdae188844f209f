// SPDX-License-Identifier: GPL-2.0
/*
 * bp_type (since 2.6.33) "chooses the breakpoint type": HW_BREAKPOINT_R
 * counts reads of the memory location, _W writes, _RW both, _X the
 * execution of the instruction there; HW_BREAKPOINT_EMPTY is no
 * breakpoint, and "the combination of HW_BREAKPOINT_R or HW_BREAKPOINT_W
 * with HW_BREAKPOINT_X is not allowed." bp_len is 1, 2, 4 or 8 (sizeof(long)
 * for X).
 *
 * The table below tries each type with each length, once on an address
 * aligned to the length and once misaligned. What the arch accepts is
 * pinned (x86 has no read-only watchpoints and wants natural alignment;
 * arm64 watches any bytes within an 8-byte granule). A refusal is EINVAL. An
 * accepted watchpoint counts exactly the accesses its type names to the
 * watched byte, and none to the byte just past its range; an aligned
 * execute breakpoint counts each call of a noinline function. Whatever the
 * arch, aligned W and RW watchpoints of every length, and X with
 * sizeof(long), are accepted.
 */
#include <linux/hw_breakpoint.h>

#include "perfconf.h"

#define WRITES 5
#define READS 3
#define CALLS 7

static volatile uint8_t cells[32] __attribute__((aligned(64)));

static noinline __attribute__((noipa)) void store_byte(volatile uint8_t *p, uint8_t v)
{
	*p = v;
}

static noinline __attribute__((noipa)) uint8_t load_byte(const volatile uint8_t *p)
{
	return *p;
}

static noinline __attribute__((noipa)) void probe(void)
{
	__asm__ volatile("" ::: "memory");
}

/* WRITES stores and READS loads of the byte at p. */
static void access_byte(volatile uint8_t *p)
{
	for (int i = 0; i < WRITES; i++)
		store_byte(p, (uint8_t)i);
	for (int i = 0; i < READS; i++)
		load_byte(p);
}

static uint64_t expected_hits(unsigned int type)
{
	return (type & HW_BREAKPOINT_W ? WRITES : 0) + (type & HW_BREAKPOINT_R ? READS : 0);
}

FIXTURE(bp) {
};

FIXTURE_VARIANT(bp) {
	unsigned int type;
	uint64_t len;
};

#define BP_VARIANT(name, t, l) \
	FIXTURE_VARIANT_ADD(bp, name) { .type = (t), .len = (l) }
BP_VARIANT(r_len1, HW_BREAKPOINT_R, 1);
BP_VARIANT(r_len2, HW_BREAKPOINT_R, 2);
BP_VARIANT(r_len4, HW_BREAKPOINT_R, 4);
BP_VARIANT(r_len8, HW_BREAKPOINT_R, 8);
BP_VARIANT(w_len1, HW_BREAKPOINT_W, 1);
BP_VARIANT(w_len2, HW_BREAKPOINT_W, 2);
BP_VARIANT(w_len4, HW_BREAKPOINT_W, 4);
BP_VARIANT(w_len8, HW_BREAKPOINT_W, 8);
BP_VARIANT(rw_len1, HW_BREAKPOINT_RW, 1);
BP_VARIANT(rw_len2, HW_BREAKPOINT_RW, 2);
BP_VARIANT(rw_len4, HW_BREAKPOINT_RW, 4);
BP_VARIANT(rw_len8, HW_BREAKPOINT_RW, 8);
BP_VARIANT(x_len1, HW_BREAKPOINT_X, 1);
BP_VARIANT(x_len2, HW_BREAKPOINT_X, 2);
BP_VARIANT(x_len4, HW_BREAKPOINT_X, 4);
BP_VARIANT(x_len8, HW_BREAKPOINT_X, 8);

/* Most variants count hits: the shared cause when breakpoints do not fire here. */
FIXTURE_SETUP(bp)
{
	pc_instrument_note(PC_INSTR_BREAKPOINTS);
	REQUIRE_PMU("breakpoint");
	if (variant->type == HW_BREAKPOINT_X)
		REQUIRE_BREAKPOINTS(HW_BREAKPOINT_X);
}

FIXTURE_TEARDOWN(bp)
{
}

static int open_bp(unsigned int type, uint64_t addr, uint64_t len)
{
	struct perfconf_attr attr = pc_attr(PERF_TYPE_BREAKPOINT, 0);

	attr.bp_type = type;
	attr.bp_addr = addr;
	attr.bp_len = len;
	return pc_open(&attr, 0, -1, -1, 0);
}

/* The hits of an accepted breakpoint while the work runs. */
static uint64_t hits(int fd, void (*work)(volatile uint8_t *), volatile uint8_t *arg)
{
	uint64_t count = UINT64_MAX;

	if (pc_reset(fd) == 0 && pc_enable(fd) == 0) {
		work(arg);
		pc_disable(fd);
		pc_read_count(fd, &count);
	}
	return count;
}

static void calls(volatile uint8_t *unused)
{
	(void)unused;
	for (int i = 0; i < CALLS; i++)
		probe();
}

/* Where the breakpoint goes: the watched byte, or the function for X. */
static uint64_t target(unsigned int type, unsigned int offset)
{
	if (type == HW_BREAKPOINT_X)
		return (uintptr_t)probe + offset;
	return (uintptr_t)&cells[8 + offset];
}

TEST_F(bp, aligned)
{
	uint64_t addr = target(variant->type, 0);
	int fd = open_bp(variant->type, addr, variant->len);
	int err = fd < 0 ? errno : 0;

	pc_observe_errno("errno", err);
	if (variant->type == HW_BREAKPOINT_W || variant->type == HW_BREAKPOINT_RW ||
	    (variant->type == HW_BREAKPOINT_X && variant->len == sizeof(long)))
		ASSERT_ERRNO(0, err) TH_LOG("the ABI's own example is refused");
	if (err) {
		EXPECT_ERRNO(EINVAL, err);
		return;
	}
	if (variant->type == HW_BREAKPOINT_X) {
		EXPECT_EQ(CALLS, hits(fd, calls, NULL));
	} else {
		EXPECT_EQ(expected_hits(variant->type), hits(fd, access_byte, &cells[8]));
		EXPECT_EQ(0, hits(fd, access_byte, &cells[8 + variant->len]))
			TH_LOG("the byte past the %llu watched ones counted", (unsigned long long)variant->len);
	}
	close(fd);
}

/*
 * Misaligned by half the length (a single byte: at offset 3). A data
 * watchpoint that is accepted counts the accesses to its first byte and
 * none past its range. A misaligned execute breakpoint is only pinned: no
 * instruction starts there.
 */
TEST_F(bp, misaligned)
{
	unsigned int offset = variant->len == 1 ? 3 : (unsigned int)variant->len / 2;
	uint64_t addr = target(variant->type, offset);
	int fd = open_bp(variant->type, addr, variant->len);
	int err = fd < 0 ? errno : 0;

	pc_observe_errno("errno", err);
	if (variant->len == 1 && variant->type != HW_BREAKPOINT_X && variant->type != HW_BREAKPOINT_R)
		ASSERT_ERRNO(0, err) TH_LOG("a one-byte watchpoint is aligned anywhere");
	if (err) {
		EXPECT_ERRNO(EINVAL, err);
		return;
	}
	if (variant->type != HW_BREAKPOINT_X) {
		EXPECT_EQ(expected_hits(variant->type), hits(fd, access_byte, &cells[8 + offset]));
		EXPECT_EQ(0, hits(fd, access_byte, &cells[8 + offset + variant->len]))
			TH_LOG("the byte past the %llu watched ones counted", (unsigned long long)variant->len);
	}
	close(fd);
}

/* Types that are not a breakpoint: EMPTY, X combined with R or W, undefined bits. */
TEST(invalid_types_are_einval)
{
	const unsigned int types[] = {
		HW_BREAKPOINT_EMPTY, HW_BREAKPOINT_INVALID, HW_BREAKPOINT_R | HW_BREAKPOINT_X,
		HW_BREAKPOINT_W | HW_BREAKPOINT_X, 8, 16, 0x80000000u,
	};

	REQUIRE_PMU("breakpoint");
	for (unsigned int i = 0; i < ARRAY_SIZE(types); i++) {
		int fd = open_bp(types[i], (uintptr_t)&cells[8], types[i] & HW_BREAKPOINT_X ? sizeof(long) : 1);

		EXPECT_GT(0, fd) TH_LOG("bp_type %#x accepted", types[i]);
		if (fd >= 0)
			close(fd);
		else
			EXPECT_ERRNO(EINVAL, errno) TH_LOG("bp_type %#x", types[i]);
	}
}

/*
 * A task has as many breakpoints as the CPU has debug registers: the next
 * one is ENOSPC ("if you try to add more breakpoint events than supported
 * by the hardware"). How many data breakpoints fit is pinned.
 */
TEST(slots_run_out_with_enospc)
{
	int fds[32], n = 0, err = 0;

	REQUIRE_PMU("breakpoint");
	pc_depends("arch");	/* the number of slots is the arch's */
	while (n < 32) {
		fds[n] = open_bp(HW_BREAKPOINT_W, (uintptr_t)&cells[n % 4 * 8], 1);
		if (fds[n] < 0) {
			err = errno;
			break;
		}
		n++;
	}
	pc_observe("data_slots", "%d", n);
	EXPECT_ERRNO(ENOSPC, err);
	EXPECT_LE(1, n);
	EXPECT_GT(32, n);
	while (n > 0)
		close(fds[--n]);
}

TEST_HARNESS_MAIN
