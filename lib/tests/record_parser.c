// SPDX-License-Identifier: GPL-2.0
/*
 * The record parser on crafted records: every record type, the sample_id
 * trailer, a SAMPLE with every PERF_SAMPLE_* bit, and malformed input
 * (every truncation of a full SAMPLE must fail with a reason, never read
 * outside the buffer: run this under valgrind to check the latter).
 */
#include <stdlib.h>

#include "perfconf.h"
#include "ring/record_build.h"

#define TRAILER_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static const struct pc_sample_id IDS = {
	.present = true, .pid = 4001, .tid = 4002, .time = 0x1122334455667788ULL,
	.id = 0xabcdef01ULL, .stream_id = 0x5eed5eedULL, .cpu = 3, .res = 0,
};

/* The trailer variants: off, on with nothing in it, IDENTIFIER only, everything. */
static const struct pc_sample_format FMTS[] = {
	{ .sample_type = TRAILER_BITS, .sample_id_all = false },
	{ .sample_type = 0, .sample_id_all = true },
	{ .sample_type = PERF_SAMPLE_IDENTIFIER, .sample_id_all = true },
	{ .sample_type = TRAILER_BITS | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN,
	  .sample_id_all = true },
};
#define NFMTS (sizeof(FMTS) / sizeof(FMTS[0]))

static uint64_t mem[8192];	/* 64 KiB, u64 aligned */

/*
 * Parse a copy in a heap block of exactly the record's size, so that
 * valgrind sees any overread. The copy lives until the next call (the
 * decoded record points into it).
 */
static int parse_exact(const struct pc_sample_format *fmt, const void *buf, size_t len,
		       struct pc_record *rec)
{
	static void *copy;

	free(copy);
	copy = malloc(len ? len : 1);
	memcpy(copy, buf, len);
	return pc_record_parse(fmt, copy, len, rec);
}

/* Write a header at p (the buffers are u64 arrays: no type punning). */
static void put_header(void *p, uint32_t type, uint16_t misc, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = size };

	memcpy(p, &h, sizeof(h));
}

static void check_trailer(struct __test_metadata *_metadata,
			  const struct pc_sample_format *fmt, const struct pc_record *rec)
{
	uint64_t t = fmt->sample_type;

	if (!fmt->sample_id_all) {
		EXPECT_FALSE(rec->sample_id.present);
		return;
	}
	EXPECT_TRUE(rec->sample_id.present);
	EXPECT_EQ(t & PERF_SAMPLE_TID ? IDS.pid : 0U, rec->sample_id.pid);
	EXPECT_EQ(t & PERF_SAMPLE_TID ? IDS.tid : 0U, rec->sample_id.tid);
	EXPECT_EQ(t & PERF_SAMPLE_TIME ? IDS.time : 0ULL, rec->sample_id.time);
	EXPECT_EQ(t & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER) ? IDS.id : 0ULL,
		  rec->sample_id.id);
	EXPECT_EQ(t & PERF_SAMPLE_STREAM_ID ? IDS.stream_id : 0ULL, rec->sample_id.stream_id);
	EXPECT_EQ(t & PERF_SAMPLE_CPU ? IDS.cpu : 0U, rec->sample_id.cpu);
}

/*
 * Build the record with `body` under every trailer format, parse it, check
 * the header and trailer, then hand it to `check`.
 */
typedef void (*body_fn)(struct pc_rb *b);
typedef void (*check_fn)(struct __test_metadata *_metadata, const struct pc_record *rec);

static void each_format(struct __test_metadata *_metadata, uint32_t type, uint16_t misc,
			uint64_t read_format, body_fn body, check_fn check)
{
	static struct pc_record rec;
	unsigned int i;

	for (i = 0; i < NFMTS; i++) {
		struct pc_sample_format fmt = FMTS[i];
		struct pc_rb b;
		size_t size;

		fmt.read_format = read_format;
		pc_rb_init(&b, mem, sizeof(mem));
		pc_rb_begin(&b, type, misc);
		body(&b);
		pc_rb_sample_id(&b, &fmt, &IDS);
		size = pc_rb_end(&b);
		ASSERT_NE(0U, size);
		ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec))
			TH_LOG("format %u: %s", i, rec.error);
		EXPECT_EQ(type, rec.type);
		EXPECT_EQ(misc, rec.misc);
		EXPECT_EQ(size, rec.size);
		EXPECT_FALSE(rec.unknown);
		check_trailer(_metadata, &fmt, &rec);
		check(_metadata, &rec);
	}
}

/* ------------------------------------------------------------------ */
/* One case per record type                                             */

static void mmap_body(struct pc_rb *b)
{
	pc_rb_u32(b, 11); pc_rb_u32(b, 12);
	pc_rb_u64(b, 0x7f0000001000ULL); pc_rb_u64(b, 0x3000); pc_rb_u64(b, 0x2000);
	pc_rb_string(b, "/usr/lib/x86_64-linux-gnu/libperfconf.so");
}
static void mmap_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(11U, r->mmap.pid);
	EXPECT_EQ(12U, r->mmap.tid);
	EXPECT_EQ(0x7f0000001000ULL, r->mmap.addr);
	EXPECT_EQ(0x3000ULL, r->mmap.len);
	EXPECT_EQ(0x2000ULL, r->mmap.pgoff);
	ASSERT_NE(NULL, r->mmap.filename);
	EXPECT_STREQ("/usr/lib/x86_64-linux-gnu/libperfconf.so", r->mmap.filename);
}
TEST(type_01_mmap)
{
	each_format(_metadata, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER, 0, mmap_body, mmap_check);
}

static void lost_body(struct pc_rb *b)
{
	pc_rb_u64(b, 77); pc_rb_u64(b, 123456);
}
static void lost_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(77ULL, r->lost.id);
	EXPECT_EQ(123456ULL, r->lost.lost);
}
TEST(type_02_lost)
{
	each_format(_metadata, PERF_RECORD_LOST, 0, 0, lost_body, lost_check);
}

static void comm_body(struct pc_rb *b)
{
	pc_rb_u32(b, 21); pc_rb_u32(b, 22);
	pc_rb_string(b, "perfconf-comm");	/* 14 bytes with the NUL: padded to 16 */
}
static void comm_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(21U, r->comm.pid);
	EXPECT_EQ(22U, r->comm.tid);
	ASSERT_NE(NULL, r->comm.comm);
	EXPECT_STREQ("perfconf-comm", r->comm.comm);
}
TEST(type_03_comm)
{
	each_format(_metadata, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, 0, comm_body, comm_check);
}

static void task_body(struct pc_rb *b)
{
	pc_rb_u32(b, 31); pc_rb_u32(b, 32); pc_rb_u32(b, 33); pc_rb_u32(b, 34);
	pc_rb_u64(b, 999999999ULL);
}
static void task_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(31U, r->task.pid);
	EXPECT_EQ(32U, r->task.ppid);
	EXPECT_EQ(33U, r->task.tid);
	EXPECT_EQ(34U, r->task.ptid);
	EXPECT_EQ(999999999ULL, r->task.time);
}
TEST(type_04_exit)
{
	each_format(_metadata, PERF_RECORD_EXIT, 0, 0, task_body, task_check);
}

static void throttle_body(struct pc_rb *b)
{
	pc_rb_u64(b, 5000); pc_rb_u64(b, 41); pc_rb_u64(b, 42);
}
static void throttle_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(5000ULL, r->throttle.time);
	EXPECT_EQ(41ULL, r->throttle.id);
	EXPECT_EQ(42ULL, r->throttle.stream_id);
}
TEST(type_05_throttle)
{
	each_format(_metadata, PERF_RECORD_THROTTLE, 0, 0, throttle_body, throttle_check);
}

TEST(type_06_unthrottle)
{
	each_format(_metadata, PERF_RECORD_UNTHROTTLE, 0, 0, throttle_body, throttle_check);
}

TEST(type_07_fork)
{
	each_format(_metadata, PERF_RECORD_FORK, 0, 0, task_body, task_check);
}

#define RF_ALL (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
		PERF_FORMAT_ID | PERF_FORMAT_LOST)

static void read_body(struct pc_rb *b)
{
	pc_rb_u32(b, 51); pc_rb_u32(b, 52);
	/* read_format order for one event: value, enabled, running, id, lost */
	pc_rb_u64(b, 1000); pc_rb_u64(b, 2000); pc_rb_u64(b, 1500);
	pc_rb_u64(b, 53); pc_rb_u64(b, 4);
}
static void read_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(51U, r->read.pid);
	EXPECT_EQ(52U, r->read.tid);
	EXPECT_EQ(1ULL, r->read.values.nr);
	EXPECT_EQ(1000ULL, r->read.values.values[0].value);
	EXPECT_EQ(2000ULL, r->read.values.time_enabled);
	EXPECT_EQ(1500ULL, r->read.values.time_running);
	EXPECT_EQ(53ULL, r->read.values.values[0].id);
	EXPECT_EQ(4ULL, r->read.values.values[0].lost);
}
TEST(type_08_read)
{
	each_format(_metadata, PERF_RECORD_READ, 0, RF_ALL, read_body, read_check);
}

static void read_group_body(struct pc_rb *b)
{
	pc_rb_u32(b, 51); pc_rb_u32(b, 52);
	/* GROUP: nr, enabled, running, then per event value, id */
	pc_rb_u64(b, 2); pc_rb_u64(b, 2000); pc_rb_u64(b, 1500);
	pc_rb_u64(b, 10); pc_rb_u64(b, 100);
	pc_rb_u64(b, 20); pc_rb_u64(b, 200);
}
static void read_group_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(2ULL, r->read.values.nr);
	EXPECT_EQ(2000ULL, r->read.values.time_enabled);
	EXPECT_EQ(1500ULL, r->read.values.time_running);
	EXPECT_EQ(10ULL, r->read.values.values[0].value);
	EXPECT_EQ(100ULL, r->read.values.values[0].id);
	EXPECT_EQ(20ULL, r->read.values.values[1].value);
	EXPECT_EQ(200ULL, r->read.values.values[1].id);
	EXPECT_EQ(0ULL, r->read.values.values[1].lost);
}
TEST(type_08_read_group)
{
	each_format(_metadata, PERF_RECORD_READ, 0,
		    PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
		    PERF_FORMAT_TOTAL_TIME_RUNNING, read_group_body, read_group_check);
}

/* Type 9, SAMPLE, has its own cases below. */

static void mmap2_body(struct pc_rb *b)
{
	pc_rb_u32(b, 61); pc_rb_u32(b, 62);
	pc_rb_u64(b, 0x400000); pc_rb_u64(b, 0x1000); pc_rb_u64(b, 0);
	pc_rb_u32(b, 8); pc_rb_u32(b, 1);		/* maj, min */
	pc_rb_u64(b, 1234567); pc_rb_u64(b, 89);	/* ino, ino_generation */
	pc_rb_u32(b, 5); pc_rb_u32(b, 2);		/* prot, flags */
	pc_rb_string(b, "/bin/true");
}
static void mmap2_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(61U, r->mmap2.pid);
	EXPECT_EQ(62U, r->mmap2.tid);
	EXPECT_EQ(0x400000ULL, r->mmap2.addr);
	EXPECT_EQ(0x1000ULL, r->mmap2.len);
	EXPECT_EQ(0ULL, r->mmap2.pgoff);
	EXPECT_EQ(8U, r->mmap2.maj);
	EXPECT_EQ(1U, r->mmap2.min);
	EXPECT_EQ(1234567ULL, r->mmap2.ino);
	EXPECT_EQ(89ULL, r->mmap2.ino_generation);
	EXPECT_EQ(0, r->mmap2.build_id_size);
	EXPECT_EQ(5U, r->mmap2.prot);
	EXPECT_EQ(2U, r->mmap2.flags);
	ASSERT_NE(NULL, r->mmap2.filename);
	EXPECT_STREQ("/bin/true", r->mmap2.filename);
}
TEST(type_10_mmap2)
{
	each_format(_metadata, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 0, mmap2_body, mmap2_check);
}

static const uint8_t BUILD_ID[20] = {
	0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
};
static void mmap2_bid_body(struct pc_rb *b)
{
	pc_rb_u32(b, 61); pc_rb_u32(b, 62);
	pc_rb_u64(b, 0x400000); pc_rb_u64(b, 0x1000); pc_rb_u64(b, 0);
	pc_rb_u8(b, 20); pc_rb_u8(b, 0); pc_rb_u16(b, 0);	/* size, reserved */
	pc_rb_bytes(b, BUILD_ID, 20);
	pc_rb_u32(b, 5); pc_rb_u32(b, 2);
	pc_rb_string(b, "/bin/true");
}
static void mmap2_bid_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(20, r->mmap2.build_id_size);
	EXPECT_EQ(0, memcmp(BUILD_ID, r->mmap2.build_id, 20));
	EXPECT_EQ(0U, r->mmap2.maj);
	EXPECT_EQ(0ULL, r->mmap2.ino);
	EXPECT_EQ(5U, r->mmap2.prot);
	EXPECT_EQ(2U, r->mmap2.flags);
	ASSERT_NE(NULL, r->mmap2.filename);
	EXPECT_STREQ("/bin/true", r->mmap2.filename);
}
TEST(type_10_mmap2_build_id)
{
	each_format(_metadata, PERF_RECORD_MMAP2,
		    PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID, 0,
		    mmap2_bid_body, mmap2_bid_check);
}

static void aux_body(struct pc_rb *b)
{
	pc_rb_u64(b, 0x10000); pc_rb_u64(b, 0x800);
	pc_rb_u64(b, PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL);
}
static void aux_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(0x10000ULL, r->aux.aux_offset);
	EXPECT_EQ(0x800ULL, r->aux.aux_size);
	EXPECT_EQ((uint64_t)(PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL), r->aux.flags);
}
TEST(type_11_aux)
{
	each_format(_metadata, PERF_RECORD_AUX, 0, 0, aux_body, aux_check);
}

static void itrace_body(struct pc_rb *b)
{
	pc_rb_u32(b, 71); pc_rb_u32(b, 72);
}
static void itrace_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(71U, r->itrace_start.pid);
	EXPECT_EQ(72U, r->itrace_start.tid);
}
TEST(type_12_itrace_start)
{
	each_format(_metadata, PERF_RECORD_ITRACE_START, 0, 0, itrace_body, itrace_check);
}

static void lost_samples_body(struct pc_rb *b)
{
	pc_rb_u64(b, 31337);
}
static void lost_samples_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(31337ULL, r->lost_samples.lost);
}
TEST(type_13_lost_samples)
{
	each_format(_metadata, PERF_RECORD_LOST_SAMPLES, 0, 0, lost_samples_body, lost_samples_check);
}

static void empty_body(struct pc_rb *b)
{
	(void)b;
}
static void switch_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(PERF_RECORD_MISC_SWITCH_OUT, r->misc & PERF_RECORD_MISC_SWITCH_OUT);
}
TEST(type_14_switch)
{
	each_format(_metadata, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT, 0,
		    empty_body, switch_check);
}

static void switch_cpu_body(struct pc_rb *b)
{
	pc_rb_u32(b, 81); pc_rb_u32(b, 82);
}
static void switch_cpu_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(81U, r->switch_cpu_wide.next_prev_pid);
	EXPECT_EQ(82U, r->switch_cpu_wide.next_prev_tid);
}
TEST(type_15_switch_cpu_wide)
{
	each_format(_metadata, PERF_RECORD_SWITCH_CPU_WIDE, 0, 0, switch_cpu_body, switch_cpu_check);
}

static void ns_body(struct pc_rb *b)
{
	uint64_t i;

	pc_rb_u32(b, 91); pc_rb_u32(b, 92);
	pc_rb_u64(b, 7);
	for (i = 0; i < 7; i++) {
		pc_rb_u64(b, 0x100 + i);	/* dev */
		pc_rb_u64(b, 0xf0000000 + i);	/* inode */
	}
}
static void ns_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	uint64_t i;

	EXPECT_EQ(91U, r->namespaces.pid);
	EXPECT_EQ(92U, r->namespaces.tid);
	ASSERT_EQ(7ULL, r->namespaces.nr_namespaces);
	ASSERT_NE(NULL, r->namespaces.link_info);
	for (i = 0; i < 7; i++) {
		EXPECT_EQ(0x100 + i, r->namespaces.link_info[2 * i]);
		EXPECT_EQ(0xf0000000 + i, r->namespaces.link_info[2 * i + 1]);
	}
}
TEST(type_16_namespaces)
{
	each_format(_metadata, PERF_RECORD_NAMESPACES, 0, 0, ns_body, ns_check);
}

static void ksym_body(struct pc_rb *b)
{
	pc_rb_u64(b, 0xffffffffc0001000ULL);
	pc_rb_u32(b, 0x1a0);
	pc_rb_u16(b, PERF_RECORD_KSYMBOL_TYPE_BPF);
	pc_rb_u16(b, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
	pc_rb_string(b, "bpf_prog_6deef7357e7b4530_sd_fw_ingress");
}
static void ksym_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(0xffffffffc0001000ULL, r->ksymbol.addr);
	EXPECT_EQ(0x1a0U, r->ksymbol.len);
	EXPECT_EQ(PERF_RECORD_KSYMBOL_TYPE_BPF, r->ksymbol.ksym_type);
	EXPECT_EQ(PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, r->ksymbol.flags);
	ASSERT_NE(NULL, r->ksymbol.name);
	EXPECT_STREQ("bpf_prog_6deef7357e7b4530_sd_fw_ingress", r->ksymbol.name);
}
TEST(type_17_ksymbol)
{
	each_format(_metadata, PERF_RECORD_KSYMBOL, PERF_RECORD_MISC_KERNEL, 0, ksym_body, ksym_check);
}

static const uint8_t TAG[8] = { 0x6d, 0xee, 0xf7, 0x35, 0x7e, 0x7b, 0x45, 0x30 };
static void bpf_body(struct pc_rb *b)
{
	pc_rb_u16(b, PERF_BPF_EVENT_PROG_LOAD);
	pc_rb_u16(b, 0);
	pc_rb_u32(b, 4242);
	pc_rb_bytes(b, TAG, 8);
}
static void bpf_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(PERF_BPF_EVENT_PROG_LOAD, r->bpf_event.type);
	EXPECT_EQ(0, r->bpf_event.flags);
	EXPECT_EQ(4242U, r->bpf_event.id);
	EXPECT_EQ(0, memcmp(TAG, r->bpf_event.tag, 8));
}
TEST(type_18_bpf_event)
{
	each_format(_metadata, PERF_RECORD_BPF_EVENT, 0, 0, bpf_body, bpf_check);
}

static void cgroup_body(struct pc_rb *b)
{
	pc_rb_u64(b, 0x2a);
	pc_rb_string(b, "/system.slice/perfconf.service");
}
static void cgroup_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(0x2aULL, r->cgroup.id);
	ASSERT_NE(NULL, r->cgroup.path);
	EXPECT_STREQ("/system.slice/perfconf.service", r->cgroup.path);
}
TEST(type_19_cgroup)
{
	each_format(_metadata, PERF_RECORD_CGROUP, 0, 0, cgroup_body, cgroup_check);
}

static const uint8_t POKE[10] = { 0x0f, 0x1f, 0x44, 0x00, 0x00, 0xe9, 0x11, 0x22, 0x33, 0x44 };
static void poke_body(struct pc_rb *b)
{
	pc_rb_u64(b, 0xffffffff81000000ULL);
	pc_rb_u16(b, 5); pc_rb_u16(b, 5);
	pc_rb_bytes(b, POKE, 10);
	pc_rb_pad8(b);		/* 4 + 10 = 14: 2 bytes of padding */
}
static void poke_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(0xffffffff81000000ULL, r->text_poke.addr);
	EXPECT_EQ(5, r->text_poke.old_len);
	EXPECT_EQ(5, r->text_poke.new_len);
	ASSERT_NE(NULL, r->text_poke.bytes);
	EXPECT_EQ(0, memcmp(POKE, r->text_poke.bytes, 10));
}
TEST(type_20_text_poke)
{
	each_format(_metadata, PERF_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL, 0, poke_body, poke_check);
}

static void poke4_body(struct pc_rb *b)
{
	pc_rb_u64(b, 0xffffffff81000000ULL);
	pc_rb_u16(b, 2); pc_rb_u16(b, 2);
	pc_rb_bytes(b, POKE, 4);	/* 4 + 4 = 8: no padding */
}
static void poke4_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(2, r->text_poke.old_len);
	EXPECT_EQ(2, r->text_poke.new_len);
	EXPECT_EQ(0, memcmp(POKE, r->text_poke.bytes, 4));
}
TEST(type_20_text_poke_unpadded)
{
	each_format(_metadata, PERF_RECORD_TEXT_POKE, 0, 0, poke4_body, poke4_check);
}

static void hwid_body(struct pc_rb *b)
{
	pc_rb_u64(b, 0x8badf00dULL);
}
static void hwid_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(0x8badf00dULL, r->aux_output_hw_id.hw_id);
}
TEST(type_21_aux_output_hw_id)
{
	each_format(_metadata, PC_RECORD_AUX_OUTPUT_HW_ID, 0, 0, hwid_body, hwid_check);
}

static void deferred_body(struct pc_rb *b)
{
	pc_rb_u64(b, 0xc00c1e);
	pc_rb_u64(b, 4);
	pc_rb_u64(b, PC_CONTEXT_USER_DEFERRED);
	pc_rb_u64(b, 0x401000); pc_rb_u64(b, 0x401100); pc_rb_u64(b, 0x401200);
}
static void deferred_check(struct __test_metadata *_metadata, const struct pc_record *r)
{
	EXPECT_EQ(0xc00c1eULL, r->callchain_deferred.cookie);
	ASSERT_EQ(4ULL, r->callchain_deferred.nr);
	ASSERT_NE(NULL, r->callchain_deferred.ips);
	EXPECT_EQ(PC_CONTEXT_USER_DEFERRED, r->callchain_deferred.ips[0]);
	EXPECT_EQ(0x401000ULL, r->callchain_deferred.ips[1]);
	EXPECT_EQ(0x401200ULL, r->callchain_deferred.ips[3]);
}
TEST(type_22_callchain_deferred)
{
	each_format(_metadata, PC_RECORD_CALLCHAIN_DEFERRED, 0, 0, deferred_body, deferred_check);
}

TEST(unknown_types_are_marked_not_errors)
{
	static const uint32_t types[] = { 0, 23, 63, 64, 68, 0x7fffffff };
	struct pc_sample_format fmt = FMTS[3];
	struct pc_record rec;
	unsigned int i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct pc_rb b;
		size_t size;

		pc_rb_init(&b, mem, sizeof(mem));
		pc_rb_begin(&b, types[i], 0x1234);
		pc_rb_u64(&b, 1); pc_rb_u64(&b, 2);
		size = pc_rb_end(&b);
		ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
		EXPECT_TRUE(rec.unknown) TH_LOG("type %u", types[i]);
		EXPECT_EQ(types[i], rec.type);
		EXPECT_EQ(0x1234, rec.misc);
		EXPECT_EQ(size, rec.size);
	}
	/* An unknown type's header is still checked. */
	memset(mem, 0, 16);
	put_header(mem, 99, 0, 12);
	EXPECT_EQ(-EBADMSG, pc_record_parse(&fmt, mem, 16, &rec));
}

/* ------------------------------------------------------------------ */
/* The sample_id trailer                                                */

TEST(sample_id_trailer_order)
{
	/* Every trailer bit, distinct values, written by hand in the documented order. */
	struct pc_sample_format fmt = { .sample_type = TRAILER_BITS, .sample_id_all = true };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	EXPECT_EQ(48U, pc_sample_id_size(&fmt));
	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_LOST_SAMPLES, 0);
	pc_rb_u64(&b, 5);			/* lost */
	pc_rb_u32(&b, 100); pc_rb_u32(&b, 101);	/* TID */
	pc_rb_u64(&b, 102);			/* TIME */
	pc_rb_u64(&b, 103);			/* ID */
	pc_rb_u64(&b, 104);			/* STREAM_ID */
	pc_rb_u32(&b, 105); pc_rb_u32(&b, 106);	/* CPU, res */
	pc_rb_u64(&b, 103);			/* IDENTIFIER: last */
	size = pc_rb_end(&b);
	ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(5ULL, rec.lost_samples.lost);
	EXPECT_EQ(100U, rec.sample_id.pid);
	EXPECT_EQ(101U, rec.sample_id.tid);
	EXPECT_EQ(102ULL, rec.sample_id.time);
	EXPECT_EQ(103ULL, rec.sample_id.id);
	EXPECT_EQ(104ULL, rec.sample_id.stream_id);
	EXPECT_EQ(105U, rec.sample_id.cpu);
	EXPECT_EQ(106U, rec.sample_id.res);
}

TEST(sample_id_identifier_is_last)
{
	/* TIME | IDENTIFIER: time first, the id last, whatever the bit order says. */
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER,
					.sample_id_all = true };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_ITRACE_START, 0);
	pc_rb_u32(&b, 1); pc_rb_u32(&b, 2);
	pc_rb_u64(&b, 777);	/* time */
	pc_rb_u64(&b, 888);	/* identifier */
	size = pc_rb_end(&b);
	ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(777ULL, rec.sample_id.time);
	EXPECT_EQ(888ULL, rec.sample_id.id);
}

TEST(sample_id_sizes)
{
	struct pc_sample_format f = { .sample_type = ~0ULL, .sample_id_all = false };

	EXPECT_EQ(0U, pc_sample_id_size(&f));
	f.sample_id_all = true;
	EXPECT_EQ(48U, pc_sample_id_size(&f));
	f.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN;
	EXPECT_EQ(0U, pc_sample_id_size(&f));
	f.sample_type = PERF_SAMPLE_IDENTIFIER;
	EXPECT_EQ(8U, pc_sample_id_size(&f));
}

TEST(sample_id_no_room)
{
	/* sample_id_all with 48 bytes of trailer, but only 16 bytes after the header. */
	struct pc_sample_format fmt = { .sample_type = TRAILER_BITS, .sample_id_all = true };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_LOST, 0);
	pc_rb_u64(&b, 1); pc_rb_u64(&b, 2);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "sample_id")) TH_LOG("%s", rec.error);
}

/* ------------------------------------------------------------------ */
/* PERF_RECORD_SAMPLE                                                   */

#define ALL_SAMPLE_BITS (((1ULL << (PC_SAMPLE_TYPE_MAX_BIT + 1)) - 1) & ~(uint64_t)PERF_SAMPLE_WEIGHT)
#define REGS_USER_MASK 0xff0fULL	/* 12 registers */
#define REGS_INTR_MASK 0x3ULL		/* 2 registers */

static const struct pc_sample_format FULL_FMT = {
	.sample_type = ALL_SAMPLE_BITS,
	.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
		       PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST,
	.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX |
			      PC_SAMPLE_BRANCH_COUNTERS,
	.sample_regs_user = REGS_USER_MASK,
	.sample_regs_intr = REGS_INTR_MASK,
	.sample_id_all = true,
};

static const uint64_t CHAIN[] = {
	PERF_CONTEXT_KERNEL, 0xffffffff81001234ULL, 0xffffffff81005678ULL,
	PERF_CONTEXT_USER, 0x401000, 0x402000, 0x403000,
};
static const char RAW[12] = "raw-payload";	/* 11 + NUL: 4 + 12 = 16, no padding */

/* A SAMPLE with every bit, written field by field in the kernel's order. */
static size_t build_full_sample(void)
{
	struct pc_rb b;
	unsigned int i;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP);
	pc_rb_u64(&b, 0x1d);				/* IDENTIFIER */
	pc_rb_u64(&b, 0x401234);			/* IP */
	pc_rb_u32(&b, 300); pc_rb_u32(&b, 301);		/* TID */
	pc_rb_u64(&b, 123456789);			/* TIME */
	pc_rb_u64(&b, 0xdead0000);			/* ADDR */
	pc_rb_u64(&b, 0x1d);				/* ID */
	pc_rb_u64(&b, 0x5d);				/* STREAM_ID */
	pc_rb_u32(&b, 1); pc_rb_u32(&b, 0);		/* CPU, res */
	pc_rb_u64(&b, 4000);				/* PERIOD */
	/* READ, GROUP of 3 with ID and LOST */
	pc_rb_u64(&b, 3); pc_rb_u64(&b, 5000); pc_rb_u64(&b, 4500);
	for (i = 0; i < 3; i++) {
		pc_rb_u64(&b, 10 * (i + 1));
		pc_rb_u64(&b, 0x1d + i);
		pc_rb_u64(&b, i);
	}
	/* CALLCHAIN */
	pc_rb_u64(&b, 7);
	pc_rb_bytes(&b, CHAIN, sizeof(CHAIN));
	/* RAW */
	pc_rb_u32(&b, sizeof(RAW));
	pc_rb_bytes(&b, RAW, sizeof(RAW));
	/* BRANCH_STACK: nr, hw_idx, entries, counters */
	pc_rb_u64(&b, 2); pc_rb_u64(&b, 5);
	pc_rb_u64(&b, 0xa1); pc_rb_u64(&b, 0xa2); pc_rb_u64(&b, 0xa3);
	pc_rb_u64(&b, 0xb1); pc_rb_u64(&b, 0xb2); pc_rb_u64(&b, 0xb3);
	pc_rb_u64(&b, 0xc1); pc_rb_u64(&b, 0xc2);
	/* REGS_USER: abi + 12 */
	pc_rb_u64(&b, PERF_SAMPLE_REGS_ABI_64);
	for (i = 0; i < 12; i++)
		pc_rb_u64(&b, 0x1000 + i);
	/* STACK_USER: size, data, dyn_size */
	pc_rb_u64(&b, 32);
	for (i = 0; i < 4; i++)
		pc_rb_u64(&b, 0x57ac0000 + i);
	pc_rb_u64(&b, 24);
	/* WEIGHT_STRUCT */
	pc_rb_u64(&b, 0x11223344ULL | 0x5566ULL << 32 | 0x7788ULL << 48);
	pc_rb_u64(&b, 0xda7a5);				/* DATA_SRC */
	pc_rb_u64(&b, 0x7a);				/* TRANSACTION */
	/* REGS_INTR: abi + 2 */
	pc_rb_u64(&b, PERF_SAMPLE_REGS_ABI_64);
	pc_rb_u64(&b, 0x2000); pc_rb_u64(&b, 0x2001);
	pc_rb_u64(&b, 0x12345000);			/* PHYS_ADDR */
	pc_rb_u64(&b, 0xc6);				/* CGROUP */
	pc_rb_u64(&b, 4096);				/* DATA_PAGE_SIZE */
	pc_rb_u64(&b, 2 << 20);				/* CODE_PAGE_SIZE */
	/* AUX: size + data */
	pc_rb_u64(&b, 16);
	pc_rb_u64(&b, 0xa0a0a0a0); pc_rb_u64(&b, 0xb0b0b0b0);
	return pc_rb_end(&b);
}

TEST(sample_every_bit)
{
	static struct pc_record rec;
	const struct pc_sample *s = &rec.sample;
	size_t size = build_full_sample();
	unsigned int i;

	ASSERT_NE(0U, size);
	ASSERT_EQ(0, parse_exact(&FULL_FMT, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ((uint32_t)PERF_RECORD_SAMPLE, rec.type);
	EXPECT_FALSE(rec.sample_id.present);	/* samples have no trailer */
	EXPECT_EQ(0x1dULL, s->identifier);
	EXPECT_EQ(0x401234ULL, s->ip);
	EXPECT_EQ(300U, s->pid);
	EXPECT_EQ(301U, s->tid);
	EXPECT_EQ(123456789ULL, s->time);
	EXPECT_EQ(0xdead0000ULL, s->addr);
	EXPECT_EQ(0x1dULL, s->id);
	EXPECT_EQ(0x5dULL, s->stream_id);
	EXPECT_EQ(1U, s->cpu);
	EXPECT_EQ(4000ULL, s->period);

	EXPECT_EQ(3ULL, s->read.nr);
	EXPECT_EQ(5000ULL, s->read.time_enabled);
	EXPECT_EQ(4500ULL, s->read.time_running);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(10ULL * (i + 1), s->read.values[i].value);
		EXPECT_EQ(0x1dULL + i, s->read.values[i].id);
		EXPECT_EQ((uint64_t)i, s->read.values[i].lost);
	}

	ASSERT_EQ(7ULL, s->callchain_nr);
	ASSERT_NE(NULL, s->callchain);
	EXPECT_EQ(0, memcmp(CHAIN, s->callchain, sizeof(CHAIN)));
	EXPECT_EQ((uint64_t)PERF_CONTEXT_KERNEL, s->callchain[0]);
	EXPECT_EQ((uint64_t)PERF_CONTEXT_USER, s->callchain[3]);

	EXPECT_EQ(12U, s->raw_size);
	ASSERT_NE(NULL, s->raw);
	EXPECT_STREQ("raw-payload", (const char *)s->raw);

	ASSERT_EQ(2ULL, s->branch_nr);
	EXPECT_EQ(5ULL, s->branch_hw_idx);
	ASSERT_NE(NULL, s->branches);
	EXPECT_EQ(0xa1ULL, s->branches[0].from);
	EXPECT_EQ(0xa2ULL, s->branches[0].to);
	EXPECT_EQ(0xa3ULL, s->branches[0].flags);
	EXPECT_EQ(0xb1ULL, s->branches[1].from);
	EXPECT_EQ(0xb3ULL, s->branches[1].flags);
	ASSERT_NE(NULL, s->branch_counters);
	EXPECT_EQ(0xc1ULL, s->branch_counters[0]);
	EXPECT_EQ(0xc2ULL, s->branch_counters[1]);

	EXPECT_EQ((uint64_t)PERF_SAMPLE_REGS_ABI_64, s->regs_user_abi);
	ASSERT_EQ(12U, s->regs_user_nr);
	ASSERT_NE(NULL, s->regs_user);
	for (i = 0; i < 12; i++)
		EXPECT_EQ(0x1000ULL + i, s->regs_user[i]);

	EXPECT_EQ(32ULL, s->stack_user_size);
	ASSERT_NE(NULL, s->stack_user);
	EXPECT_EQ(0x57ac0003ULL, ((const uint64_t *)s->stack_user)[3]);
	EXPECT_EQ(24ULL, s->stack_user_dyn_size);

	EXPECT_EQ(0x11223344ULL | 0x5566ULL << 32 | 0x7788ULL << 48, s->weight);
	EXPECT_EQ(0x11223344U, s->weight_var1_dw);
	EXPECT_EQ(0x5566, s->weight_var2_w);
	EXPECT_EQ(0x7788, s->weight_var3_w);
	EXPECT_EQ(0xda7a5ULL, s->data_src);
	EXPECT_EQ(0x7aULL, s->transaction);

	EXPECT_EQ((uint64_t)PERF_SAMPLE_REGS_ABI_64, s->regs_intr_abi);
	ASSERT_EQ(2U, s->regs_intr_nr);
	EXPECT_EQ(0x2000ULL, s->regs_intr[0]);
	EXPECT_EQ(0x2001ULL, s->regs_intr[1]);

	EXPECT_EQ(0x12345000ULL, s->phys_addr);
	EXPECT_EQ(0xc6ULL, s->cgroup);
	EXPECT_EQ(4096ULL, s->data_page_size);
	EXPECT_EQ(2ULL << 20, s->code_page_size);
	EXPECT_EQ(16ULL, s->aux_size);
	ASSERT_NE(NULL, s->aux);
	EXPECT_EQ(0xb0b0b0b0ULL, ((const uint64_t *)s->aux)[1]);
}

TEST(sample_every_truncation_fails)
{
	static struct pc_record rec;
	static unsigned char orig[4096];
	size_t size = build_full_sample(), len;
	unsigned int truncated_at = 0;

	ASSERT_NE(0U, size);
	ASSERT_LE(size, sizeof(orig));
	memcpy(orig, mem, size);
	for (len = 0; len < size; len++) {
		unsigned char *buf = malloc(len ? len : 1);

		memcpy(buf, orig, len);
		/* The header still claims the full size: larger than the buffer. */
		rec.error[0] = 0;
		EXPECT_EQ(-EBADMSG, pc_record_parse(&FULL_FMT, buf, len, &rec))
			TH_LOG("len %zu", len);
		EXPECT_NE(0, rec.error[0]) TH_LOG("len %zu: no reason", len);
		/* The header shrunk to the buffer: the body runs out somewhere. */
		if (len >= 8) {
			uint16_t s16 = (uint16_t)len;

			memcpy(buf + 6, &s16, 2);
			rec.error[0] = 0;
			EXPECT_EQ(-EBADMSG, pc_record_parse(&FULL_FMT, buf, len, &rec))
				TH_LOG("size %zu", len);
			EXPECT_NE(0, rec.error[0]) TH_LOG("size %zu: no reason", len);
			if (len % 8 == 0) {
				EXPECT_NE(NULL, strstr(rec.error, "truncated at"))
					TH_LOG("size %zu: %s", len, rec.error);
				truncated_at++;
			}
		}
		free(buf);
	}
	EXPECT_EQ(size / 8 - 1, truncated_at);
}

TEST(sample_trailing_bytes)
{
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 1); pc_rb_u64(&b, 2); pc_rb_u64(&b, 3);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "8 trailing bytes")) TH_LOG("%s", rec.error);
}

TEST(sample_stack_user_size_zero_has_no_dyn_size)
{
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER |
						       PERF_SAMPLE_DATA_SRC };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 0x1234);	/* ip */
	pc_rb_u64(&b, 0);	/* stack size 0: nothing more */
	pc_rb_u64(&b, 0x77);	/* data_src */
	size = pc_rb_end(&b);
	ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(0ULL, rec.sample.stack_user_size);
	EXPECT_EQ(NULL, rec.sample.stack_user);
	EXPECT_EQ(0ULL, rec.sample.stack_user_dyn_size);
	EXPECT_EQ(0x77ULL, rec.sample.data_src);
}

TEST(sample_stack_user_size_not_multiple_of_8)
{
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_STACK_USER };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 4);
	pc_rb_u32(&b, 0xaaaa);
	pc_rb_u32(&b, 0);	/* would-be dyn_size, misaligned */
	pc_rb_u64(&b, 0);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "stack_user.size")) TH_LOG("%s", rec.error);
}

TEST(sample_regs_abi_none_has_no_regs)
{
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR |
						       PERF_SAMPLE_PHYS_ADDR,
					.sample_regs_user = 0xffff, .sample_regs_intr = 0x7 };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, PERF_SAMPLE_REGS_ABI_NONE);	/* user: none (a kernel thread) */
	pc_rb_u64(&b, PERF_SAMPLE_REGS_ABI_32);		/* intr: 3 regs */
	pc_rb_u64(&b, 1); pc_rb_u64(&b, 2); pc_rb_u64(&b, 3);
	pc_rb_u64(&b, 0xfeed);				/* phys_addr */
	size = pc_rb_end(&b);
	ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(0ULL, rec.sample.regs_user_abi);
	EXPECT_EQ(0U, rec.sample.regs_user_nr);
	EXPECT_EQ(NULL, rec.sample.regs_user);
	EXPECT_EQ((uint64_t)PERF_SAMPLE_REGS_ABI_32, rec.sample.regs_intr_abi);
	ASSERT_EQ(3U, rec.sample.regs_intr_nr);
	EXPECT_EQ(3ULL, rec.sample.regs_intr[2]);
	EXPECT_EQ(0xfeedULL, rec.sample.phys_addr);
}

TEST(sample_raw_padding)
{
	/* size counts 9 data bytes; 4 + 9 = 13, so 3 bytes of padding follow. */
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_PERIOD |
						       PERF_SAMPLE_CGROUP };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 100);			/* period */
	pc_rb_u32(&b, 9);
	pc_rb_bytes(&b, "123456789", 9);
	pc_rb_pad8(&b);
	pc_rb_u64(&b, 0xc9);			/* cgroup */
	size = pc_rb_end(&b);
	EXPECT_EQ(40U, size);
	ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(9U, rec.sample.raw_size);
	EXPECT_EQ(0, memcmp("123456789", rec.sample.raw, 9));
	EXPECT_EQ(0xc9ULL, rec.sample.cgroup);

	/* The kernel's way, no raw data: size 4 and four zero bytes. */
	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 100);
	pc_rb_u32(&b, 4);
	pc_rb_u32(&b, 0);
	pc_rb_u64(&b, 0xc9);
	size = pc_rb_end(&b);
	ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(4U, rec.sample.raw_size);
	EXPECT_EQ(0xc9ULL, rec.sample.cgroup);
}

TEST(sample_weight_plain)
{
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 0x0102030405060708ULL);
	pc_rb_u64(&b, 0x99);
	size = pc_rb_end(&b);
	ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(0x0102030405060708ULL, rec.sample.weight);
	EXPECT_EQ(0U, rec.sample.weight_var1_dw);
	EXPECT_EQ(0x99ULL, rec.sample.data_src);
}

TEST(sample_branch_stack_plain)
{
	/* No HW_INDEX, no counters: nr then entries. */
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_PERIOD,
					.branch_sample_type = PERF_SAMPLE_BRANCH_ANY };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 1000);
	pc_rb_u64(&b, 1);
	pc_rb_u64(&b, 0xf1); pc_rb_u64(&b, 0xf2); pc_rb_u64(&b, 0xf3);
	size = pc_rb_end(&b);
	ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(1ULL, rec.sample.branch_nr);
	EXPECT_EQ(0xf2ULL, rec.sample.branches[0].to);
	EXPECT_EQ(NULL, rec.sample.branch_counters);

	/* nr = 0 with no HW_INDEX: just nr. */
	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 1000);
	pc_rb_u64(&b, 0);
	size = pc_rb_end(&b);
	ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(0ULL, rec.sample.branch_nr);
}

TEST(sample_read_single_order)
{
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_READ, .read_format = RF_ALL };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 1); pc_rb_u64(&b, 2); pc_rb_u64(&b, 3); pc_rb_u64(&b, 4); pc_rb_u64(&b, 5);
	size = pc_rb_end(&b);
	ASSERT_EQ(0, parse_exact(&fmt, mem, size, &rec)) TH_LOG("%s", rec.error);
	EXPECT_EQ(1ULL, rec.sample.read.nr);
	EXPECT_EQ(1ULL, rec.sample.read.values[0].value);
	EXPECT_EQ(2ULL, rec.sample.read.time_enabled);
	EXPECT_EQ(3ULL, rec.sample.read.time_running);
	EXPECT_EQ(4ULL, rec.sample.read.values[0].id);
	EXPECT_EQ(5ULL, rec.sample.read.values[0].lost);
}

TEST(sample_huge_counts_fail_cleanly)
{
	static const struct {
		uint64_t sample_type;
		uint64_t branch_sample_type;
		const char *field;
	} cases[] = {
		{ PERF_SAMPLE_CALLCHAIN, 0, "callchain.ips" },
		{ PERF_SAMPLE_BRANCH_STACK, PC_SAMPLE_BRANCH_COUNTERS, "branch_stack.entries" },
		{ PERF_SAMPLE_STACK_USER, 0, "stack_user.data" },
		{ PERF_SAMPLE_AUX, 0, "aux.data" },
		{ PERF_SAMPLE_READ, 0, "read." },
	};
	struct pc_record rec;
	unsigned int i, j;
	static const uint64_t huge[] = { 1ULL << 61, (uint64_t)-8, 1ULL << 32, 64 };

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (j = 0; j < sizeof(huge) / sizeof(huge[0]); j++) {
			struct pc_sample_format fmt = {
				.sample_type = cases[i].sample_type,
				.branch_sample_type = cases[i].branch_sample_type,
				.read_format = PERF_FORMAT_GROUP,
			};
			struct pc_rb b;
			size_t size;

			pc_rb_init(&b, mem, sizeof(mem));
			pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
			pc_rb_u64(&b, huge[j]);
			pc_rb_u64(&b, 0);
			size = pc_rb_end(&b);
			EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec))
				TH_LOG("%s nr %llu", cases[i].field, (unsigned long long)huge[j]);
			EXPECT_NE(NULL, strstr(rec.error, cases[i].field)) TH_LOG("%s", rec.error);
		}
	}
}

TEST(sample_unknown_bits)
{
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_IP | (1ULL << 25) };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 1); pc_rb_u64(&b, 2);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "0x2000000")) TH_LOG("%s", rec.error);
}

/* ------------------------------------------------------------------ */
/* Malformed headers and bodies                                         */

TEST(header_check)
{
	struct perf_event_header h = { .type = PERF_RECORD_LOST, .size = 24 };
	const char *why;

	EXPECT_EQ(NULL, pc_header_check(&h, 24));
	EXPECT_EQ(NULL, pc_header_check(&h, 4096));
	why = pc_header_check(&h, 16);
	ASSERT_NE(NULL, why);
	EXPECT_NE(NULL, strstr(why, "larger")) TH_LOG("%s", why);
	why = pc_header_check(&h, 4);
	ASSERT_NE(NULL, why);
	h.size = 0;
	why = pc_header_check(&h, 4096);
	ASSERT_NE(NULL, why);
	EXPECT_NE(NULL, strstr(why, "smaller")) TH_LOG("%s", why);
	h.size = 4;
	EXPECT_NE(NULL, pc_header_check(&h, 4096));
	h.size = 12;
	why = pc_header_check(&h, 4096);
	ASSERT_NE(NULL, why);
	EXPECT_NE(NULL, strstr(why, "multiple of 8")) TH_LOG("%s", why);
	h.size = 8;
	EXPECT_EQ(NULL, pc_header_check(&h, 8));
}

TEST(malformed_headers)
{
	struct pc_sample_format fmt = { 0 };
	struct pc_record rec;

	memset(mem, 0, 64);
	put_header(mem, PERF_RECORD_LOST, 0, 0);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, 64, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "smaller")) TH_LOG("%s", rec.error);
	put_header(mem, PERF_RECORD_LOST, 0, 20);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, 64, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "multiple of 8")) TH_LOG("%s", rec.error);
	put_header(mem, PERF_RECORD_LOST, 0, 24);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, 16, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "larger")) TH_LOG("%s", rec.error);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, 7, &rec));
	EXPECT_NE(0, rec.error[0]);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, 0, &rec));
	/* A buffer with more after the record: only header.size is decoded. */
	EXPECT_EQ(0, parse_exact(&fmt, mem, 64, &rec)) TH_LOG("%s", rec.error);
}

TEST(string_without_nul)
{
	struct pc_sample_format fmt = { 0 };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_MMAP, 0);
	pc_rb_u32(&b, 1); pc_rb_u32(&b, 2);
	pc_rb_u64(&b, 3); pc_rb_u64(&b, 4); pc_rb_u64(&b, 5);
	pc_rb_bytes(&b, "/no/nul/", 8);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "mmap.filename")) TH_LOG("%s", rec.error);
	EXPECT_NE(NULL, strstr(rec.error, "NUL")) TH_LOG("%s", rec.error);

	/* No room for a string at all. */
	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_CGROUP, 0);
	pc_rb_u64(&b, 3);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "cgroup.path")) TH_LOG("%s", rec.error);
}

TEST(string_nul_only_in_trailer)
{
	/* The comm's NUL must be in the body: zeros in the trailer do not count. */
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_TID, .sample_id_all = true };
	struct pc_sample_id zero = { 0 };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_COMM, 0);
	pc_rb_u32(&b, 1); pc_rb_u32(&b, 2);
	pc_rb_bytes(&b, "perfconf", 8);
	pc_rb_sample_id(&b, &fmt, &zero);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "comm.comm")) TH_LOG("%s", rec.error);
}

TEST(fixed_records_with_extra_bytes)
{
	struct pc_sample_format fmt = { 0 };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_LOST, 0);
	pc_rb_u64(&b, 1); pc_rb_u64(&b, 2); pc_rb_u64(&b, 3);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "8 trailing bytes")) TH_LOG("%s", rec.error);

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_EXIT, 0);
	pc_rb_u64(&b, 1);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "truncated at task.tid")) TH_LOG("%s", rec.error);
}

TEST(malformed_counts_and_lengths)
{
	struct pc_sample_format fmt = { 0 };
	struct pc_record rec;
	struct pc_rb b;
	size_t size;

	/* NAMESPACES claiming more pairs than there are. */
	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_NAMESPACES, 0);
	pc_rb_u32(&b, 1); pc_rb_u32(&b, 2); pc_rb_u64(&b, 1ULL << 60);
	pc_rb_u64(&b, 0); pc_rb_u64(&b, 0);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "namespaces.link_info")) TH_LOG("%s", rec.error);

	/* TEXT_POKE with lengths past the end. */
	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_TEXT_POKE, 0);
	pc_rb_u64(&b, 0); pc_rb_u16(&b, 0xffff); pc_rb_u16(&b, 0xffff); pc_rb_u32(&b, 0);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "text_poke.bytes")) TH_LOG("%s", rec.error);

	/* TEXT_POKE with padding beyond the u64 boundary. */
	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_TEXT_POKE, 0);
	pc_rb_u64(&b, 0); pc_rb_u16(&b, 2); pc_rb_u16(&b, 2); pc_rb_u32(&b, 0);
	pc_rb_u64(&b, 0);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "trailing")) TH_LOG("%s", rec.error);

	/* CALLCHAIN_DEFERRED with a huge nr. */
	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PC_RECORD_CALLCHAIN_DEFERRED, 0);
	pc_rb_u64(&b, 1); pc_rb_u64(&b, (uint64_t)-1); pc_rb_u64(&b, 0);
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "callchain_deferred.ips")) TH_LOG("%s", rec.error);

	/* MMAP2 build_id_size over 20. */
	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID);
	pc_rb_u32(&b, 1); pc_rb_u32(&b, 2);
	pc_rb_u64(&b, 0); pc_rb_u64(&b, 0); pc_rb_u64(&b, 0);
	pc_rb_u8(&b, 21); pc_rb_zeros(&b, 3 + 20);
	pc_rb_u32(&b, 0); pc_rb_u32(&b, 0);
	pc_rb_string(&b, "x");
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "build_id_size")) TH_LOG("%s", rec.error);

	/* READ record, group larger than the parser keeps. */
	fmt.read_format = PERF_FORMAT_GROUP;
	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_READ, 0);
	pc_rb_u32(&b, 1); pc_rb_u32(&b, 2);
	pc_rb_u64(&b, PC_READ_MAX_VALUES + 1);
	pc_rb_zeros(&b, 8 * (PC_READ_MAX_VALUES + 1));
	size = pc_rb_end(&b);
	EXPECT_EQ(-EBADMSG, parse_exact(&fmt, mem, size, &rec));
	EXPECT_NE(NULL, strstr(rec.error, "read.nr")) TH_LOG("%s", rec.error);
}

/* ------------------------------------------------------------------ */
/* read_format, pc_sample_format, pc_records_walk                       */

TEST(read_values_size_and_decode)
{
	struct pc_read_values v;
	const char *err;
	uint64_t buf[32];
	unsigned int i;

	EXPECT_EQ(8U, pc_read_values_size(0, 1));
	EXPECT_EQ(40U, pc_read_values_size(RF_ALL, 1));
	EXPECT_EQ(8U + 8 + 3 * 16, pc_read_values_size(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
						       PERF_FORMAT_ID, 3));
	EXPECT_EQ(8U + 16 + 2 * 24, pc_read_values_size(PERF_FORMAT_GROUP | RF_ALL, 2));

	/* The 16 KiB bound: the largest group within it, for each layout. */
	EXPECT_EQ(2047U, pc_read_values_max_nr(PERF_FORMAT_GROUP));
	EXPECT_EQ(1023U, pc_read_values_max_nr(PERF_FORMAT_GROUP | PERF_FORMAT_ID));
	EXPECT_EQ(1022U, pc_read_values_max_nr(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
					       PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID));
	EXPECT_EQ(681U, pc_read_values_max_nr(PERF_FORMAT_GROUP | RF_ALL));
	EXPECT_EQ(UINT_MAX, pc_read_values_max_nr(RF_ALL));
	for (uint64_t rf = PERF_FORMAT_GROUP; rf < 2 * PERF_FORMAT_GROUP + 16; rf++) {
		if (!(rf & PERF_FORMAT_GROUP) || (rf & ~(PERF_FORMAT_GROUP | RF_ALL)))
			continue;
		unsigned int max = pc_read_values_max_nr(rf);

		EXPECT_GE((size_t)PC_READ_SIZE_MAX, pc_read_values_size(rf, max));
		EXPECT_LT((size_t)PC_READ_SIZE_MAX, pc_read_values_size(rf, max + 1));
	}

	/* group of 2, enabled+running+id+lost */
	buf[0] = 2; buf[1] = 100; buf[2] = 90;
	for (i = 0; i < 2; i++) {
		buf[3 + 3 * i] = 1000 + i;
		buf[4 + 3 * i] = 50 + i;
		buf[5 + 3 * i] = 7 * i;
	}
	ASSERT_EQ(72, pc_read_values_decode(PERF_FORMAT_GROUP | RF_ALL, buf, 72, &v, &err))
		TH_LOG("%s", err);
	EXPECT_EQ(2ULL, v.nr);
	EXPECT_EQ(100ULL, v.time_enabled);
	EXPECT_EQ(90ULL, v.time_running);
	EXPECT_EQ(1001ULL, v.values[1].value);
	EXPECT_EQ(51ULL, v.values[1].id);
	EXPECT_EQ(7ULL, v.values[1].lost);
	/* A longer buffer is fine: the bytes used are returned. */
	EXPECT_EQ(72, pc_read_values_decode(PERF_FORMAT_GROUP | RF_ALL, buf, sizeof(buf), &v, &err));
	/* Every shorter one fails. */
	for (i = 0; i < 72; i++) {
		err = NULL;
		EXPECT_EQ(-EBADMSG, pc_read_values_decode(PERF_FORMAT_GROUP | RF_ALL, buf, i, &v, &err));
		EXPECT_NE(NULL, err);
	}
	/* Single: value, enabled, running, id, lost */
	ASSERT_EQ(40, pc_read_values_decode(RF_ALL, buf, 40, &v, &err));
	EXPECT_EQ(1ULL, v.nr);
	EXPECT_EQ(2ULL, v.values[0].value);
	EXPECT_EQ(100ULL, v.time_enabled);
	EXPECT_EQ(90ULL, v.time_running);
	EXPECT_EQ(1000ULL, v.values[0].id);
	EXPECT_EQ(50ULL, v.values[0].lost);
}

TEST(sample_format_from_attr)
{
	struct perfconf_attr a;
	struct pc_sample_format f;

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER;
	a.read_format = PERF_FORMAT_GROUP;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	a.sample_regs_user = 0xf;
	a.sample_regs_intr = 0x30;
	a.sample_id_all = 1;
	f = pc_sample_format(&a);
	EXPECT_EQ(a.sample_type, f.sample_type);
	EXPECT_EQ(a.read_format, f.read_format);
	EXPECT_EQ(a.branch_sample_type, f.branch_sample_type);
	EXPECT_EQ(0xfULL, f.sample_regs_user);
	EXPECT_EQ(0x30ULL, f.sample_regs_intr);
	EXPECT_TRUE(f.sample_id_all);
	a.sample_id_all = 0;
	f = pc_sample_format(&a);
	EXPECT_FALSE(f.sample_id_all);
}

struct walk_seen {
	int n;
	uint32_t types[16];
	int stop_after;
};

static int walk_cb(const struct pc_record *rec, void *arg)
{
	struct walk_seen *w = arg;

	if (w->n < 16)
		w->types[w->n] = rec->type;
	w->n++;
	return w->stop_after && w->n >= w->stop_after;
}

TEST(records_walk)
{
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME,
					.sample_id_all = true };
	struct pc_sample_id id = { .time = 5 };
	struct walk_seen w = { 0 };
	char err[200];
	struct pc_rb b;
	size_t total;

	pc_rb_init(&b, mem, sizeof(mem));
	pc_rb_begin(&b, PERF_RECORD_COMM, 0);
	pc_rb_u32(&b, 1); pc_rb_u32(&b, 1); pc_rb_string(&b, "a");
	pc_rb_sample_id(&b, &fmt, &id);
	ASSERT_NE(0U, pc_rb_end(&b));
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	pc_rb_u64(&b, 0x400000); pc_rb_u64(&b, 6);
	ASSERT_NE(0U, pc_rb_end(&b));
	pc_rb_begin(&b, 200, 0);		/* unknown: skipped over, counted */
	pc_rb_u64(&b, 0);
	ASSERT_NE(0U, pc_rb_end(&b));
	pc_rb_begin(&b, PERF_RECORD_EXIT, 0);
	pc_rb_zeros(&b, 24);
	pc_rb_sample_id(&b, &fmt, &id);
	ASSERT_NE(0U, pc_rb_end(&b));
	total = b.len;

	EXPECT_EQ(4, pc_records_walk(&fmt, mem, total, walk_cb, &w, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(4, w.n);
	EXPECT_EQ((uint32_t)PERF_RECORD_COMM, w.types[0]);
	EXPECT_EQ((uint32_t)PERF_RECORD_SAMPLE, w.types[1]);
	EXPECT_EQ(200U, w.types[2]);
	EXPECT_EQ((uint32_t)PERF_RECORD_EXIT, w.types[3]);
	EXPECT_EQ(0, pc_records_walk(&fmt, mem, 0, walk_cb, &w, err, sizeof(err)));

	/* Stop early. */
	memset(&w, 0, sizeof(w));
	w.stop_after = 2;
	EXPECT_EQ(2, pc_records_walk(&fmt, mem, total, walk_cb, &w, err, sizeof(err)));
	EXPECT_EQ(2, w.n);

	/* A stream cut in the middle of the last record. */
	memset(&w, 0, sizeof(w));
	EXPECT_EQ(-EBADMSG, pc_records_walk(&fmt, mem, total - 8, walk_cb, &w, err, sizeof(err)));
	EXPECT_EQ(3, w.n);
	EXPECT_NE(NULL, strstr(err, "record 3 at offset")) TH_LOG("%s", err);

	/* A malformed second record stops the walk there. */
	memset(&w, 0, sizeof(w));
	put_header((unsigned char *)mem + 32, PERF_RECORD_SAMPLE, 0, 0);
	EXPECT_EQ(-EBADMSG, pc_records_walk(&fmt, mem, total, walk_cb, &w, err, sizeof(err)));
	EXPECT_EQ(1, w.n);
	EXPECT_NE(NULL, strstr(err, "record 1 at offset 32")) TH_LOG("%s", err);
}

TEST_HARNESS_MAIN
