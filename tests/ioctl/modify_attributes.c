// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES (since 4.17; the argument points to a
 * struct perf_event_attr): changes the attributes of an open event
 * without closing it. Only breakpoint events can be changed, and of their
 * attributes only the address, the type and the length of the breakpoint
 * (bp_addr, bp_type, bp_len) and whether it is disabled; since 5.17 (and
 * the stable kernels the fix went to) also sig_data, the value a sigtrap
 * event's SIGTRAP carries. Every other byte of the new attr, its size
 * included, must equal the attr the event was opened with.
 *
 * The kernel (kernel/events/core.c: perf_event_modify_attr,
 * perf_event_modify_breakpoint; kernel/events/hw_breakpoint.c:
 * modify_user_hw_breakpoint_check; the same in 5.10 and 6.x) reads the
 * attr as perf_event_open() does (perf_copy_attr: EFAULT for memory it
 * cannot read, E2BIG for a size beyond a page or below the first
 * version's, the kernel's own size written back then), then refuses an
 * attr of another type with EINVAL and any event that is not a breakpoint
 * with EOPNOTSUPP. It disables the breakpoint, compares the rest of the
 * attr (EINVAL when a byte differs), moves it, and enables it again unless
 * the new attr says disabled: the disabled bit of the new attr decides
 * whether the event runs afterwards. Since 5.13 the change reaches the
 * copies of an inherited event too: a breakpoint moves, and a new sig_data
 * arrives with the next SIGTRAP, in the children and threads that had
 * their copy before the change.
 *
 * The effect is measured with the breakpoint's own count, so those cases
 * need breakpoints that fire and are blocked where they do not
 * (lib/work/instrument.h); whether the event runs is read from its
 * time_enabled, which runs everywhere.
 */
#include "perfconf.h"

#include <linux/hw_breakpoint.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "work/measure.h"
#include "work/sigtrap.h"
#include "work/clock.h"
#include "work/child.h"
#include "work/family.h"

/* Two data words, each on a cache line of its own. */
static volatile uint64_t word_a __attribute__((aligned(64)));
static volatile uint64_t word_b __attribute__((aligned(64)));

/* PERF_EVENT_IOC_MODIFY_ATTRIBUTES with *attr: 0, or the errno. */
static int modify_errno(int fd, const void *attr)
{
	return ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, attr) ? errno : 0;
}

/* A write breakpoint on word_a, of this task, disabled. */
static struct perfconf_attr write_bp(void)
{
	return pc_attr_breakpoint(HW_BREAKPOINT_W, &word_a, HW_BREAKPOINT_LEN_8);
}

/* Open attr on this task; SKIP where there is no breakpoint PMU or slot. */
#define OPEN_BP(fd, attr) do { \
	fd = pc_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC); \
	if (fd < 0) \
		SKIP_IF_UNSUPPORTED(errno, "a breakpoint"); \
	ASSERT_OPEN(fd); \
} while (0)

static void touch_n(volatile uint64_t *p, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		pc_work_touch(p);
}

static void peek_n(const volatile uint64_t *p, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		pc_work_peek(p);
}

/* The breakpoint moves: hits at the new address count, none at the old one. */
TEST(new_address_counts_there_only)
{
	struct perfconf_attr attr = write_bp();
	int fd;

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	OPEN_BP(fd, &attr);
	ASSERT_EQ(0, pc_enable(fd));
	touch_n(&word_a, 3);
	touch_n(&word_b, 4);
	EXPECT_EQ(3, pc_count_of(fd)) TH_LOG("before the move");
	attr.bp_addr = (uintptr_t)&word_b;
	attr.disabled = 0;
	ASSERT_ERRNO(0, modify_errno(fd, &attr));
	touch_n(&word_a, 5);
	touch_n(&word_b, 7);
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_EQ(3 + 7, pc_count_of(fd)) TH_LOG("after the move: 7 hits on the new word, none on the old");
	close(fd);
}

/* A write breakpoint made read-write: reads count from then on. */
TEST(write_to_read_write_counts_reads)
{
	struct perfconf_attr attr = write_bp();
	int fd;

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	OPEN_BP(fd, &attr);
	ASSERT_EQ(0, pc_enable(fd));
	peek_n(&word_a, 4);
	EXPECT_EQ(0, pc_count_of(fd)) TH_LOG("a write breakpoint counted reads");
	attr.bp_type = HW_BREAKPOINT_RW;
	attr.disabled = 0;
	ASSERT_ERRNO(0, modify_errno(fd, &attr));
	peek_n(&word_a, 4);
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_EQ(4, pc_count_of(fd));
	close(fd);
}

/*
 * A data breakpoint made an execute breakpoint on code (type, address and
 * length at once; on arm64 it changes to the other kind of slot): calls
 * count, writes no longer do.
 */
TEST(write_to_execute_counts_calls)
{
	struct perfconf_attr attr = write_bp();
	struct perfconf_attr x = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);
	int fd;

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	OPEN_BP(fd, &attr);
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_calls(5);
	touch_n(&word_a, 2);
	EXPECT_EQ(2, pc_count_of(fd)) TH_LOG("before: the writes only");
	attr.bp_type = x.bp_type;
	attr.bp_addr = x.bp_addr;
	attr.bp_len = x.bp_len;
	attr.disabled = 0;
	ASSERT_ERRNO(0, modify_errno(fd, &attr));
	pc_work_calls(5);
	touch_n(&word_a, 2);
	ASSERT_EQ(0, pc_disable(fd));
	EXPECT_EQ(2 + 5, pc_count_of(fd)) TH_LOG("after: the calls only");
	close(fd);
}

/*
 * MODIFY_ATTRIBUTES of fd to attr with sig_data v (observed: `modify`);
 * SKIP where the kernel refuses it before 5.17 (EINVAL). Jumps to the
 * case's `out:` label to skip.
 */
#define MODIFY_SIG_DATA(fd, attr, v) do { \
	int err_; \
	(attr)->sig_data = (v); \
	(attr)->disabled = 0; \
	err_ = modify_errno(fd, attr); \
	pc_observe_errno("modify", err_); \
	if (pc_kernel()->kver < PC_KVER(5, 17) && err_ == EINVAL) \
		SKIP(goto out, "sig_data cannot be modified before 5.17 (EINVAL here)"); \
	ASSERT_ERRNO(0, err_); \
} while (0)

/*
 * sig_data of a sigtrap write breakpoint changed between two hits: each
 * SIGTRAP carries the value of its time. The change must not count as a
 * change of another field (before 5.17 it did, EINVAL: observed).
 */
TEST(sig_data_reaches_later_signals)
{
	struct perfconf_attr attr = pc_sigtrap_breakpoint(HW_BREAKPOINT_W, &word_a, HW_BREAKPOINT_LEN_8, 1);
	int fd;

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	attr.sig_data = 0xa;
	ASSERT_EQ(0, pc_sigtrap_catch());
	OPEN_SIGTRAP(fd, &attr);
	ASSERT_EQ(0, pc_enable(fd));
	pc_work_touch(&word_a);
	ASSERT_EQ(0, pc_sigtrap_rearm());
	MODIFY_SIG_DATA(fd, &attr, 0xb);
	pc_work_touch(&word_a);
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(2, pc_sigtrap_count());
	EXPECT_EQ(0xa, pc_sigtrap_get(0)->perf_data);
	EXPECT_EQ(0xb, pc_sigtrap_get(1)->perf_data);
out:
	close(fd);
	pc_sigtrap_release();
}

/* time_enabled of fd (read_format PERF_FORMAT_TOTAL_TIME_ENABLED), or UINT64_MAX. */
static uint64_t time_enabled(int fd)
{
	uint64_t v[2];

	return read(fd, v, sizeof(v)) == (ssize_t)sizeof(v) ? v[1] : UINT64_MAX;
}

/*
 * Does the event run? Its time_enabled moves across some work that lasts
 * until perf's clock has moved (work/clock.h): 1 or 0, -1 when the clock
 * could not be read or stood still.
 */
static int runs(int fd)
{
	struct pc_perf_clock clk;
	uint64_t before;
	int err = pc_perf_clock_open(&clk);

	if (err)
		return -1;
	before = time_enabled(fd);
	pc_work_loop(100000);
	err = pc_perf_clock_wait(&clk);
	pc_perf_clock_close(&clk);
	if (err || before == UINT64_MAX)
		return -1;
	return time_enabled(fd) != before;
}

/*
 * The disabled bit of the new attr decides whether the event runs after
 * the change: 0 enables an event that was off, 1 stops one that ran.
 */
TEST(disabled_0_enables_the_event)
{
	struct perfconf_attr attr = write_bp();
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	OPEN_BP(fd, &attr);
	EXPECT_EQ(0, runs(fd)) TH_LOG("opened disabled, it runs");
	attr.bp_addr = (uintptr_t)&word_b;
	attr.disabled = 0;
	ASSERT_ERRNO(0, modify_errno(fd, &attr));
	EXPECT_EQ(1, runs(fd)) TH_LOG("modified with disabled = 0, it does not run");
	close(fd);
}

TEST(disabled_1_stops_the_event)
{
	struct perfconf_attr attr = write_bp();
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	OPEN_BP(fd, &attr);
	ASSERT_EQ(0, pc_enable(fd));
	EXPECT_EQ(1, runs(fd)) TH_LOG("enabled, it does not run");
	attr.bp_addr = (uintptr_t)&word_b;
	attr.disabled = 1;
	ASSERT_ERRNO(0, modify_errno(fd, &attr));
	EXPECT_EQ(0, runs(fd)) TH_LOG("modified with disabled = 1, it runs");
	close(fd);
}

/*
 * The fields a breakpoint may change are accepted, alone or together; sig_data
 * too on a sigtrap breakpoint, since 5.17.
 */
TEST(breakpoint_fields_are_accepted)
{
	struct perfconf_attr attr = write_bp();
	struct perfconf_attr x = pc_attr_breakpoint(HW_BREAKPOINT_X, pc_work_target, 0);
	int fd;

	OPEN_BP(fd, &attr);
	attr.bp_addr = (uintptr_t)&word_b;
	EXPECT_ERRNO(0, modify_errno(fd, &attr)) TH_LOG("bp_addr");
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	EXPECT_ERRNO(0, modify_errno(fd, &attr)) TH_LOG("bp_len");
	attr.bp_type = HW_BREAKPOINT_RW;
	EXPECT_ERRNO(0, modify_errno(fd, &attr)) TH_LOG("bp_type");
	attr.bp_type = x.bp_type;
	attr.bp_addr = x.bp_addr;
	attr.bp_len = x.bp_len;
	EXPECT_ERRNO(0, modify_errno(fd, &attr)) TH_LOG("to an execute breakpoint");
	close(fd);
}

TEST(sig_data_is_accepted)
{
	struct perfconf_attr attr = pc_sigtrap_breakpoint(HW_BREAKPOINT_W, &word_a, HW_BREAKPOINT_LEN_8, 1);
	int fd;

	OPEN_SIGTRAP(fd, &attr);
	attr.sig_data = 0x5a5a;
	int err = modify_errno(fd, &attr);
	pc_observe_errno("errno", err);
	if (pc_kernel()->kver >= PC_KVER(5, 17)) {
		EXPECT_ERRNO(0, err);
	} else {
		EXPECT_TRUE(err == 0 || err == EINVAL) TH_LOG("got %s", pc_errno_name(err));
	}
	/* sig_data is no licence for other fields */
	attr.exclude_kernel = 1;
	EXPECT_ERRNO(EINVAL, modify_errno(fd, &attr));
	close(fd);
}

/*
 * An attr of another type than the event's (checked before anything
 * else), a breakpoint with no type (HW_BREAKPOINT_EMPTY), or any field but
 * the breakpoint's own that differs from the open's: EINVAL.
 */
FIXTURE(changed) {};
FIXTURE_VARIANT(changed) {
	void (*change)(struct perfconf_attr *a);
};
FIXTURE_SETUP(changed) {}
FIXTURE_TEARDOWN(changed) {}

static void set_type(struct perfconf_attr *a) { a->type = PERF_TYPE_SOFTWARE; }
static void set_empty_bp_type(struct perfconf_attr *a) { a->bp_type = HW_BREAKPOINT_EMPTY; }
static void set_config(struct perfconf_attr *a) { a->config = 1; }
static void set_exclude_kernel(struct perfconf_attr *a) { a->exclude_kernel = 1; }
static void set_exclude_user(struct perfconf_attr *a) { a->exclude_user = 1; }
static void set_inherit(struct perfconf_attr *a) { a->inherit = 1; }
static void set_sample_period(struct perfconf_attr *a) { a->sample_period = 1; }
static void set_read_format(struct perfconf_attr *a) { a->read_format = PERF_FORMAT_ID; }
static void set_wakeup_events(struct perfconf_attr *a) { a->wakeup_events = 1; }

FIXTURE_VARIANT_ADD(changed, type) { .change = set_type };
FIXTURE_VARIANT_ADD(changed, empty_bp_type) { .change = set_empty_bp_type };
FIXTURE_VARIANT_ADD(changed, config) { .change = set_config };
FIXTURE_VARIANT_ADD(changed, exclude_kernel) { .change = set_exclude_kernel };
FIXTURE_VARIANT_ADD(changed, exclude_user) { .change = set_exclude_user };
FIXTURE_VARIANT_ADD(changed, inherit) { .change = set_inherit };
FIXTURE_VARIANT_ADD(changed, sample_period) { .change = set_sample_period };
FIXTURE_VARIANT_ADD(changed, read_format) { .change = set_read_format };
FIXTURE_VARIANT_ADD(changed, wakeup_events) { .change = set_wakeup_events };

TEST_F(changed, is_einval)
{
	struct perfconf_attr attr = write_bp();
	struct perfconf_attr other;
	int fd;

	OPEN_BP(fd, &attr);
	attr.bp_addr = (uintptr_t)&word_b;
	other = attr;
	variant->change(&other);
	EXPECT_ERRNO(EINVAL, modify_errno(fd, &other));
	EXPECT_ERRNO(0, modify_errno(fd, &attr)) TH_LOG("the control: the same move alone");
	close(fd);
}

/*
 * An event that is not a breakpoint cannot be modified: EOPNOTSUPP for its
 * own attr, unchanged; an attr of another type is EINVAL first.
 */
TEST(software_event_is_eopnotsupp)
{
	struct perfconf_attr sw = pc_attr_sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct perfconf_attr bp = write_bp();
	int fd, bfd;

	fd = pc_open(&sw, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OPEN(fd);
	EXPECT_ERRNO(EOPNOTSUPP, modify_errno(fd, &sw));
	EXPECT_ERRNO(EINVAL, modify_errno(fd, &bp)) TH_LOG("a breakpoint attr on a software event");
	close(fd);
	OPEN_BP(bfd, &bp);
	EXPECT_ERRNO(0, modify_errno(bfd, &bp)) TH_LOG("the control: a breakpoint, unchanged");
	close(bfd);
}

/*
 * The attr is read as perf_event_open() reads it: EFAULT where it is not
 * readable, all of it or only its tail. A page with no access stays mapped
 * while the case runs, so that nothing else lands there.
 */
TEST(unreadable_attr_is_efault)
{
	struct perfconf_attr attr = write_bp();
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *two;
	int fd;

	two = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, two);
	ASSERT_EQ(0, mprotect(two + page, page, PROT_NONE));
	OPEN_BP(fd, &attr);
	attr.bp_addr = (uintptr_t)&word_b;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, NULL));
	EXPECT_ERRNO(EFAULT, errno) TH_LOG("NULL");
	EXPECT_ERRNO(EFAULT, modify_errno(fd, two + page)) TH_LOG("an attr in a page with no access");
	/* type and size readable, the rest in the page with no access */
	memcpy(two + page - 8, &attr, 8);
	EXPECT_ERRNO(EFAULT, modify_errno(fd, two + page - 8)) TH_LOG("an attr that runs into it");
	memcpy(two, &attr, sizeof(attr));
	EXPECT_ERRNO(0, modify_errno(fd, two)) TH_LOG("the control: the same attr, readable");
	close(fd);
	munmap(two, 2 * page);
}

/*
 * The size: read as perf_event_open() reads it, then compared as any
 * other field. Another valid size than the open's is EINVAL (the same
 * size is the control); one above a page or below the first version's
 * is E2BIG, with the kernel's own size written into attr.size.
 */
FIXTURE(size) {};
FIXTURE_VARIANT(size) {
	uint32_t open_size;	/* 0: the newest */
	uint32_t modify_size;	/* 0: the newest; UINT32_MAX: a page and a byte */
	int err;
};
FIXTURE_SETUP(size) {}
FIXTURE_TEARDOWN(size) {}

FIXTURE_VARIANT_ADD(size, same_newest) { .err = 0 };
FIXTURE_VARIANT_ADD(size, same_ver5) { .open_size = PC_ATTR_SIZE_VER5, .modify_size = PC_ATTR_SIZE_VER5 };
FIXTURE_VARIANT_ADD(size, smaller_than_open_is_einval) { .modify_size = PC_ATTR_SIZE_VER5, .err = EINVAL };
FIXTURE_VARIANT_ADD(size, larger_than_open_is_einval) { .open_size = PC_ATTR_SIZE_VER5, .err = EINVAL };
FIXTURE_VARIANT_ADD(size, above_a_page_is_e2big) { .modify_size = UINT32_MAX, .err = E2BIG };
FIXTURE_VARIANT_ADD(size, below_ver0_is_e2big) { .modify_size = PC_ATTR_SIZE_VER0 - 1, .err = E2BIG };

TEST_F(size, modify)
{
	struct perfconf_attr attr = write_bp();
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE);
	uint32_t kernel_size = pc_attr_kernel_size();
	int fd;

	ASSERT_NE(0, kernel_size) TH_LOG("the kernel's attr size could not be probed");
	if (variant->open_size)
		attr.size = variant->open_size;
	OPEN_BP(fd, &attr);
	attr.bp_addr = (uintptr_t)&word_b;
	attr.size = variant->modify_size == UINT32_MAX ? page + 1 :
		    variant->modify_size ? variant->modify_size : sizeof(attr);
	EXPECT_ERRNO(variant->err, modify_errno(fd, &attr));
	if (variant->err == E2BIG) {
		EXPECT_EQ(kernel_size, attr.size) TH_LOG("the kernel's size written back");
		attr.size = variant->open_size ? variant->open_size : sizeof(attr);
		EXPECT_ERRNO(0, modify_errno(fd, &attr)) TH_LOG("the control: the open's size");
	}
	close(fd);
}

/* The release whose kernel applies the change to an inherited event's copies. */
#define COPIES_SINCE PC_KVER(5, 13)
#define REQUIRE_COPIES_MODIFIED() do { \
	if (pc_kernel()->kver < COPIES_SINCE) \
		SKIP(return, "the change reaches inherited copies since Linux 5.13"); \
} while (0)

/*
 * An inherited write breakpoint on pc_work_word(0), a child or a thread
 * made with its copy, then the move to pc_work_word(1): the task's writes
 * count where the breakpoint is at the time.
 */
FIXTURE(inherited) {
	struct pc_family_task task;
	int fd, anchor;
};
FIXTURE_VARIANT(inherited) {
	int thread;	/* the task is a thread, else a child process */
};
FIXTURE_VARIANT_ADD(inherited, child) { .thread = 0 };
FIXTURE_VARIANT_ADD(inherited, thread) { .thread = 1 };

FIXTURE_SETUP(inherited)
{
	self->task = (struct pc_family_task){ 0 };
	self->fd = self->anchor = -1;
}

FIXTURE_TEARDOWN(inherited)
{
	pc_family_task_finish(&self->task);
	if (self->anchor >= 0)
		close(self->anchor);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(inherited, copies_move)
{
	struct perfconf_attr attr = pc_attr_breakpoint(HW_BREAKPOINT_W, pc_work_word(0), HW_BREAKPOINT_LEN_8);

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	REQUIRE_COPIES_MODIFIED();
	attr.inherit = 1;
	OPEN_BP(self->fd, &attr);
	self->anchor = pc_family_anchor();
	ASSERT_LE(0, self->anchor);
	ASSERT_EQ(0, pc_enable(self->fd));
	ASSERT_EQ(0, pc_family_task_start(&self->task, variant->thread));
	ASSERT_EQ(0, pc_family_task_do(&self->task, "touch_a 3"));
	ASSERT_EQ(0, pc_family_task_do(&self->task, "touch_b 4"));
	EXPECT_EQ(3, pc_count_of(self->fd)) TH_LOG("before the move");
	attr.bp_addr = (uintptr_t)pc_work_word(1);
	attr.disabled = 0;
	ASSERT_ERRNO(0, modify_errno(self->fd, &attr));
	ASSERT_EQ(0, pc_family_task_do(&self->task, "touch_a 5"));
	ASSERT_EQ(0, pc_family_task_do(&self->task, "touch_b 7"));
	EXPECT_EQ(3 + 7, pc_count_of(self->fd))
		TH_LOG("after the move: the %s's copy counts its 7 writes to the new word, none to the old",
		       variant->thread ? "thread" : "child");
	ASSERT_EQ(0, pc_family_task_finish(&self->task));
	EXPECT_EQ(3 + 7, pc_count_of(self->fd)) TH_LOG("once the task is gone");
}

/*
 * A sigtrap write breakpoint inherited by a thread (inherit_thread): the
 * thread's SIGTRAP after the change carries the new sig_data.
 */
TEST(sig_data_reaches_inherited_copies)
{
	struct perfconf_attr attr = pc_sigtrap_breakpoint(HW_BREAKPOINT_W, pc_work_word(0), HW_BREAKPOINT_LEN_8, 1);
	struct pc_family_thread t = { .tid = 0 };
	int fd, anchor = -1;

	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);
	attr.inherit = 1;
	attr.inherit_thread = 1;
	attr.sig_data = 0xa;
	ASSERT_EQ(0, pc_sigtrap_catch());
	OPEN_SIGTRAP(fd, &attr);
	REQUIRE_COPIES_MODIFIED();
	anchor = pc_family_anchor();
	ASSERT_LE(0, anchor);
	ASSERT_EQ(0, pc_enable(fd));
	ASSERT_EQ(0, pc_family_thread_start(&t));
	ASSERT_EQ(0, pc_family_thread_do(&t, "touch_a 1"));
	ASSERT_EQ(0, pc_sigtrap_rearm());
	MODIFY_SIG_DATA(fd, &attr, 0xb);
	ASSERT_EQ(0, pc_family_thread_do(&t, "touch_a 1"));
	ASSERT_EQ(0, pc_sigtrap_rearm());
	ASSERT_EQ(0, pc_disable(fd));
	ASSERT_EQ(2, pc_sigtrap_count());
	for (unsigned int i = 0; i < 2; i++) {
		EXPECT_EQ(PC_TRAP_PERF, pc_sigtrap_get(i)->code);
		EXPECT_EQ(t.tid, pc_sigtrap_get(i)->tid) TH_LOG("signal %u: not in the thread that wrote", i);
	}
	EXPECT_EQ(0xa, pc_sigtrap_get(0)->perf_data);
	EXPECT_EQ(0xb, pc_sigtrap_get(1)->perf_data) TH_LOG("the thread's copy kept its old sig_data");
out:
	pc_family_thread_stop(&t);
	if (anchor >= 0)
		close(anchor);
	close(fd);
	pc_sigtrap_release();
}

TEST_HARNESS_MAIN
