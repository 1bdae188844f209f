// SPDX-License-Identifier: GPL-2.0
/*
 * text_poke (since Linux 5.8): "This enables the generation of
 * PERF_RECORD_TEXT_POKE records when there's a change to the kernel text
 * (i.e., self-modifying code)." The record has the address of the change,
 * old_len, new_len, and "bytes contains old bytes immediately followed by
 * new bytes".
 *
 * A change this test can make and check: a BPF program with a direct tail
 * call (a constant slot of a prog array). When the slot is filled, the x86
 * JIT patches the call site in place into a jump to the target program;
 * the program's JITed code, read back after the change, shows the new
 * bytes the record must carry, at the record's address.
 */
#include <stdio.h>
#include <string.h>

#include "perfconf.h"
#include "work/attr_probe.h"
#include "work/bpf.h"
#include "ring/sideband.h"

PERFCONF_META("reads=perf_event_paranoid");

#define IMAGE_MAX 4096

struct poke {
	struct pc_bpf_prog target, caller;
	int map;
	uint8_t image[IMAGE_MAX];	/* the caller's code after the change */
	long image_len;
};

/*
 * Load a target and a caller that tail-calls slot 0, then fill the slot
 * with the event enabled. 0, or -errno of the step that failed.
 */
static int fill_slot(int event_fd, struct poke *p)
{
	int err;

	p->target.fd = p->caller.fd = -1;
	p->map = pc_bpf_prog_array();
	if (p->map < 0)
		return p->map;
	err = pc_bpf_load_trivial(&p->target, "perfconf_target");
	if (!err)
		err = pc_bpf_load_tail_caller(&p->caller, "perfconf_caller", p->map);
	if (!err) {
		pc_enable(event_fd);
		err = pc_bpf_prog_array_set(p->map, 0, p->target.fd);
		pc_disable(event_fd);
	}
	if (!err) {
		p->image_len = pc_bpf_jited_image(&p->caller, p->image, sizeof(p->image));
		err = p->image_len < 0 ? (int)p->image_len : 0;
	}
	return err;
}

static void release(struct poke *p)
{
	pc_bpf_close(&p->caller);
	pc_bpf_close(&p->target);
	if (p->map >= 0)
		close(p->map);
}

/* Does the code hold a 5-byte jmp rel32 into the target program? */
static bool jumps_into(const uint8_t *code, uint64_t at, const struct pc_bpf_prog *target)
{
	int32_t rel;

	if (code[0] != 0xe9)
		return false;
	memcpy(&rel, code + 1, sizeof(rel));
	uint64_t dest = at + 5 + (int64_t)rel;
	return dest >= target->jited_addr && dest < target->jited_addr + target->jited_len;
}

#define SKIP_UNLESS_PATCHABLE(err) do { \
	DEPENDS_ON("arch");	/* which JIT patches its tail calls */ \
	if ((err) == -EPERM || (err) == -ENOSYS) \
		SKIP(return, "loading a BPF program is not permitted here (%s)", pc_errno_name(-(err))); \
	if (strcmp(pc_kernel()->arch, "x86_64")) \
		SKIP(return, "direct tail calls are patched by the x86-64 JIT only (%s)", pc_kernel()->arch); \
	DEPENDS_ON("bpf_jit"); \
	if (!pc_bpf_jit_enabled()) \
		SKIP(return, "the BPF JIT is off (net.core.bpf_jit_enable): no code to patch"); \
	if (pc_bpf_jit_harden() >= 2) \
		SKIP(return, "bpf_jit_harden=2 turns direct tail calls off"); \
} while (0)

TEST(accepted)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.text_poke = 1;
	EXPECT_ERRNO_SINCE("text_poke", 0, EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

/*
 * Without CAP_PERFMON: kernel text is kernel information, so kernels up to
 * 6.12 at least ask for the privilege kernel profiling needs even on an
 * event that excludes the kernel (EACCES at perf_event_paranoid > 1). The
 * man page promises nothing here: the outcome at this paranoid level is
 * pinned.
 */
TEST(unprivileged)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	int paranoid = pc_paranoid();
	char key[32];

	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	BECOME_NOBODY();
	int control = pc_open_errno(&attr, 0, -1, -1, 0);
	if (control)
		SKIP(return, "no perf_event_open at all for an unprivileged user here (%s, paranoid %d)",
		     pc_errno_name(control), paranoid);
	attr.text_poke = 1;
	snprintf(key, sizeof(key), "errno.paranoid%d", paranoid);
	pc_observe_errno(key, pc_open_errno(&attr, 0, -1, -1, 0));
}

TEST(patched_tail_call_is_reported)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	struct pc_capture cap;
	struct poke p;
	size_t in_caller = 0, jumps = 0;

	attr.text_poke = 1;
	PC_CAPTURE_OPEN_SINCE(&cap, &attr, 0, -1, "text_poke");
	int err = fill_slot(cap.fd, &p);
	SKIP_UNLESS_PATCHABLE(err);
	ASSERT_ERRNO(0, -err);
	if (!p.caller.jited_addr || !p.target.jited_addr || !p.image_len)
		SKIP(return, "the kernel hides BPF code and addresses from this user");
	ASSERT_CAPTURE_READ(&cap);

	/* Was the call site patched at all? Look for the jump in the code. */
	bool patched = false;
	for (long i = 0; i + 5 <= p.image_len && !patched; i++)
		patched = jumps_into(p.image + i, p.caller.jited_addr + i, &p.target);
	if (!patched)
		SKIP(return, "this JIT made an indirect tail call: no code was patched");

	for (size_t i = 0; pc_capture_find(&cap, PERF_RECORD_TEXT_POKE, i); i++) {
		const struct pc_record *r = pc_capture_find(&cap, PERF_RECORD_TEXT_POKE, i);
		uint64_t off = r->text_poke.addr - p.caller.jited_addr;

		if (r->text_poke.addr < p.caller.jited_addr || off >= (uint64_t)p.image_len)
			continue;
		in_caller++;
		const uint8_t *old = r->text_poke.bytes, *new = old + r->text_poke.old_len;
		EXPECT_EQ(r->text_poke.old_len, r->text_poke.new_len);
		ASSERT_GE((uint64_t)p.image_len, off + r->text_poke.new_len);
		EXPECT_EQ(0, memcmp(new, p.image + off, r->text_poke.new_len))
			TH_LOG("the new bytes at +%llu are not what the code holds now",
			       (unsigned long long)off);
		EXPECT_NE(0, memcmp(old, new, r->text_poke.new_len)) TH_LOG("a change that changed nothing");
		if (r->text_poke.new_len == 5 && jumps_into(new, r->text_poke.addr, &p.target))
			jumps++;
	}
	EXPECT_LT(0, in_caller)
		TH_LOG("the code at %#llx was patched, but none of the %zu TEXT_POKE records says so",
		       (unsigned long long)p.caller.jited_addr,
		       pc_capture_count(&cap, PERF_RECORD_TEXT_POKE));
	EXPECT_EQ(1, jumps) TH_LOG("one record must patch in the jump to the target");
	release(&p);
	pc_capture_close(&cap);
}

/* The same change without the bit: no TEXT_POKE record. */
TEST(off_reports_nothing)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	struct pc_capture cap;
	struct poke p;

	attr.ksymbol = 1;	/* something to report, just not text pokes */
	PC_CAPTURE_OPEN_SINCE(&cap, &attr, 0, -1, "ksymbol");
	int err = fill_slot(cap.fd, &p);
	SKIP_UNLESS_PATCHABLE(err);
	ASSERT_ERRNO(0, -err);
	ASSERT_CAPTURE_READ(&cap);
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_TEXT_POKE));
	release(&p);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
