// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_event (since Linux 5.0): "This enables the generation of
 * PERF_RECORD_BPF_EVENT records when an eBPF program is loaded or
 * unloaded." The record's type is PERF_BPF_EVENT_PROG_LOAD or
 * PERF_BPF_EVENT_PROG_UNLOAD, id "is the ID of the BPF program" and tag
 * "is the tag of the BPF program": both what BPF_OBJ_GET_INFO_BY_FD says.
 */
#include "perfconf.h"
#include "work/attr_probe.h"
#include "work/bpf.h"
#include "ring/sideband.h"

#define FIELD "bpf_event"

static struct perfconf_attr bpf_attr(int ksymbol)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.bpf_event = 1;
	attr.ksymbol = ksymbol;
	return attr;
}

/* Load (and with `unload`, close again) a trivial program while the event is enabled. */
#define LOAD_OR_SKIP(cap, prog, unload) LOAD_BPF_OR_SKIP((cap)->fd, prog, "perfconf_bpfev", unload)

/* Open cap on attr, load (and unload) as above, then read the records. */
#define CAPTURE_A_LOAD(cap, attr, prog, unload) do { \
	struct perfconf_attr attr_ = (attr); \
	PC_CAPTURE_OPEN_SINCE(cap, &attr_, 0, -1, FIELD); \
	LOAD_OR_SKIP(cap, prog, unload); \
	ASSERT_CAPTURE_READ(cap); \
} while (0)

static void expect_prog(struct __test_metadata *_metadata, const struct pc_record *r,
			const struct pc_bpf_prog *prog)
{
	EXPECT_EQ(prog->id, r->bpf_event.id);
	EXPECT_EQ(0, memcmp(prog->tag, r->bpf_event.tag, PC_BPF_TAG_SIZE)) TH_LOG("tags differ");
	EXPECT_EQ(0, r->bpf_event.flags);
	EXPECT_EQ(0, r->misc);
}

TEST(accepted)
{
	struct perfconf_attr attr = bpf_attr(0);

	EXPECT_ERRNO_SINCE(FIELD, 0, EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST(load)
{
	struct pc_bpf_prog prog;
	struct pc_capture cap;

	CAPTURE_A_LOAD(&cap, bpf_attr(0), &prog, 0);
	const struct pc_record *r = pc_find_bpf_event(&cap, PERF_BPF_EVENT_PROG_LOAD, prog.id);

	ASSERT_NE(NULL, r) TH_LOG("no PROG_LOAD record for program %u", prog.id);
	expect_prog(_metadata, r, &prog);
	EXPECT_EQ(NULL, pc_find_bpf_event(&cap, PERF_BPF_EVENT_PROG_UNLOAD, prog.id))
		TH_LOG("unloaded while its fd is open");
	pc_bpf_close(&prog);
	pc_capture_close(&cap);
}

TEST(unload)
{
	struct pc_bpf_prog prog;
	struct pc_capture cap;

	CAPTURE_A_LOAD(&cap, bpf_attr(0), &prog, 1);
	const struct pc_record *load = pc_find_bpf_event(&cap, PERF_BPF_EVENT_PROG_LOAD, prog.id);
	const struct pc_record *unload = pc_find_bpf_event(&cap, PERF_BPF_EVENT_PROG_UNLOAD, prog.id);

	ASSERT_NE(NULL, load);
	ASSERT_NE(NULL, unload) TH_LOG("closing program %u's only fd did not unload it", prog.id);
	expect_prog(_metadata, unload, &prog);
	EXPECT_LT(pc_capture_index(&cap, load), pc_capture_index(&cap, unload));
	pc_capture_close(&cap);
}

/* Two programs, two ids, each record with its own program's id and tag. */
TEST(each_program_its_own_id)
{
	struct perfconf_attr attr = bpf_attr(0);
	struct pc_bpf_prog a, b;
	struct pc_capture cap;

	PC_CAPTURE_OPEN_SINCE(&cap, &attr, 0, -1, FIELD);
	LOAD_OR_SKIP(&cap, &a, 0);
	LOAD_OR_SKIP(&cap, &b, 0);
	ASSERT_NE(a.id, b.id);
	ASSERT_CAPTURE_READ(&cap);
	const struct pc_record *ra = pc_find_bpf_event(&cap, PERF_BPF_EVENT_PROG_LOAD, a.id);
	const struct pc_record *rb = pc_find_bpf_event(&cap, PERF_BPF_EVENT_PROG_LOAD, b.id);

	ASSERT_NE(NULL, ra);
	ASSERT_NE(NULL, rb);
	expect_prog(_metadata, ra, &a);
	expect_prog(_metadata, rb, &b);
	pc_bpf_close(&a);
	pc_bpf_close(&b);
	pc_capture_close(&cap);
}

/*
 * With ksymbol too, one event reports both: the program's load and unload
 * (BPF_EVENT, its id and tag) and its symbol's register and unregister
 * (KSYMBOL of type BPF, the JITed length, one address). The man page
 * states no order between a KSYMBOL and a BPF_EVENT record: the order the
 * kernel writes them in is pinned (`order`; perf relies on the symbol
 * coming first, perf_event_bpf_event(), kernel/events/core.c:9538 in 6.12).
 */
TEST(with_ksymbol)
{
	struct pc_bpf_prog prog;
	struct pc_capture cap;
	char types[128];

	CAPTURE_A_LOAD(&cap, bpf_attr(1), &prog, 1);
	const struct pc_record *load = pc_find_bpf_event(&cap, PERF_BPF_EVENT_PROG_LOAD, prog.id);
	const struct pc_record *unload = pc_find_bpf_event(&cap, PERF_BPF_EVENT_PROG_UNLOAD, prog.id);

	ASSERT_NE(NULL, load) TH_LOG("no PROG_LOAD record for program %u", prog.id);
	ASSERT_NE(NULL, unload) TH_LOG("no PROG_UNLOAD record for program %u", prog.id);
	expect_prog(_metadata, load, &prog);
	expect_prog(_metadata, unload, &prog);
	EXPECT_LT(pc_capture_index(&cap, load), pc_capture_index(&cap, unload));
	pc_depends("bpf_jit");
	if (!prog.jited_len)
		SKIP(return, "the BPF JIT is off: an interpreted program has no symbol");
	const struct pc_record *sym = pc_find_ksymbol(&cap, prog.ksym, 0);
	const struct pc_record *unsym = pc_find_ksymbol(&cap, prog.ksym,
							PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);

	ASSERT_NE(NULL, sym) TH_LOG("no KSYMBOL record named %s", prog.ksym);
	ASSERT_NE(NULL, unsym) TH_LOG("no unregistering KSYMBOL record named %s", prog.ksym);
	EXPECT_EQ(PERF_RECORD_KSYMBOL_TYPE_BPF, sym->ksymbol.ksym_type);
	EXPECT_EQ(PERF_RECORD_KSYMBOL_TYPE_BPF, unsym->ksymbol.ksym_type);
	EXPECT_EQ(prog.jited_len, sym->ksymbol.len);
	EXPECT_EQ(prog.jited_len, unsym->ksymbol.len);
	EXPECT_NE(0, sym->ksymbol.addr);
	EXPECT_EQ(sym->ksymbol.addr, unsym->ksymbol.addr);
	if (prog.jited_addr) {
		EXPECT_EQ(prog.jited_addr, sym->ksymbol.addr);
	}
	EXPECT_LT(pc_capture_index(&cap, sym), pc_capture_index(&cap, unsym));
	pc_capture_types(&cap, types, sizeof(types));
	pc_observe("order", "%s", types);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
