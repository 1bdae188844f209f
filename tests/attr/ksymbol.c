// SPDX-License-Identifier: GPL-2.0
/*
 * ksymbol (since Linux 5.0): "This enables the generation of
 * PERF_RECORD_KSYMBOL records when new kernel symbols are registered or
 * unregistered. This is analyzing dynamic kernel functions like eBPF."
 *
 * Loading a JITed BPF program registers a symbol of ksym_type
 * PERF_RECORD_KSYMBOL_TYPE_BPF: its address and length are the JITed
 * image's (BPF_OBJ_GET_INFO_BY_FD: jited_ksyms, jited_prog_len), its name
 * is the kallsyms one, "bpf_prog_<tag>_<name>". Unloading it unregisters
 * the same symbol, with PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER.
 */
#include "perfconf.h"
#include "work/attr_probe.h"
#include "work/bpf.h"
#include "ring/sideband.h"

#define FIELD "ksymbol"

static struct perfconf_attr ksym_attr(int ksymbol, int bpf_event)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);

	attr.ksymbol = ksymbol;
	attr.bpf_event = bpf_event;
	return attr;
}

/*
 * Open cap on attr, load a trivial program while the event is enabled (and
 * with `unload`, close it again), then read the records.
 */
#define CAPTURE_A_LOAD(cap, attr, prog, unload) do { \
	struct perfconf_attr attr_ = (attr); \
	PC_CAPTURE_OPEN_SINCE(cap, &attr_, 0, -1, FIELD); \
	LOAD_BPF_OR_SKIP((cap)->fd, prog, "perfconf_ksym", unload); \
	pc_depends("bpf_jit"); \
	if (!(prog)->jited_len) \
		SKIP(return, "the BPF JIT is off: an interpreted program has no symbol"); \
	ASSERT_CAPTURE_READ(cap); \
} while (0)

TEST(accepted)
{
	struct perfconf_attr attr = ksym_attr(1, 0);

	EXPECT_ERRNO_SINCE(FIELD, 0, EINVAL, pc_open_observe_errno("errno", &attr, 0, -1));
}

TEST(load_registers_the_program)
{
	struct pc_bpf_prog prog;
	struct pc_capture cap;

	CAPTURE_A_LOAD(&cap, ksym_attr(1, 0), &prog, 0);
	const struct pc_record *r = pc_find_ksymbol(&cap, prog.ksym, 0);

	ASSERT_NE(NULL, r) TH_LOG("no KSYMBOL record named %s", prog.ksym);
	EXPECT_EQ(PERF_RECORD_KSYMBOL_TYPE_BPF, r->ksymbol.ksym_type);
	EXPECT_EQ(prog.jited_len, r->ksymbol.len);
	if (prog.jited_addr) {
		EXPECT_EQ(prog.jited_addr, r->ksymbol.addr);
	} else {
		EXPECT_NE(0, r->ksymbol.addr);
		TH_LOG("the kernel hides BPF addresses from this user: address not compared");
	}
	EXPECT_EQ(0, r->misc);
	pc_bpf_close(&prog);
	pc_capture_close(&cap);
}

TEST(unload_unregisters_it)
{
	struct pc_bpf_prog prog;
	struct pc_capture cap;

	CAPTURE_A_LOAD(&cap, ksym_attr(1, 0), &prog, 1);
	const struct pc_record *reg = pc_find_ksymbol(&cap, prog.ksym, 0);
	const struct pc_record *unreg = pc_find_ksymbol(&cap, prog.ksym,
							PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);

	ASSERT_NE(NULL, reg) TH_LOG("no KSYMBOL record named %s", prog.ksym);
	ASSERT_NE(NULL, unreg) TH_LOG("closing the program did not unregister %s", prog.ksym);
	EXPECT_EQ(reg->ksymbol.addr, unreg->ksymbol.addr);
	EXPECT_EQ(reg->ksymbol.len, unreg->ksymbol.len);
	EXPECT_EQ(PERF_RECORD_KSYMBOL_TYPE_BPF, unreg->ksymbol.ksym_type);
	EXPECT_LT(pc_capture_index(&cap, reg), pc_capture_index(&cap, unreg));
	pc_capture_close(&cap);
}

/* bpf_event alone reports the program, but registers no symbol. */
TEST(off_gives_no_symbols)
{
	struct pc_bpf_prog prog;
	struct pc_capture cap;

	CAPTURE_A_LOAD(&cap, ksym_attr(0, 1), &prog, 1);
	EXPECT_NE(0, pc_capture_count(&cap, PERF_RECORD_BPF_EVENT));
	EXPECT_EQ(0, pc_capture_count(&cap, PERF_RECORD_KSYMBOL));
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
