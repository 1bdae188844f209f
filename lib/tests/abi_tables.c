// SPDX-License-Identifier: GPL-2.0
/*
 * The ABI tables are consistent with themselves, with the published attr
 * sizes, and with the compiler's layout of struct perfconf_attr and of the
 * system header's structs. No kernel needed.
 */
#include <ctype.h>
#include <stdlib.h>
#include <linux/ioctl.h>

#include "perfconf.h"
#include "abi/abi_layout.h"

/* ---- helpers ---- */

static bool is_bits(const struct pc_abi_field *f)
{
	return f->nbits > 0;
}

static const struct pc_abi_field *find_before(const struct pc_abi_field *f, size_t i,
					      const char *name)
{
	while (i--)
		if (strcmp(f[i].name, name) == 0)
			return &f[i];
	return NULL;
}

/*
 * The fields, in table order, tile [start, start + size): each field that
 * is not a union alternative starts where the previous one ended; a union
 * alternative starts at or after its union's first member and ends within
 * what the fields before it already cover; the bitfields of one word share
 * the word's offset. Names are unique.
 */
static void check_tiling(struct __test_metadata *_metadata, const char *what,
			 const struct pc_abi_field *f, size_t n, size_t start, size_t size)
{
	size_t end = start;
	size_t word = (size_t)-1;	/* offset of the open bitfield word */

	for (size_t i = 0; i < n; i++) {
		const struct pc_abi_field *x = &f[i];

		EXPECT_NE(0, x->size) TH_LOG("%s.%s: empty", what, x->name);
		EXPECT_NULL(find_before(f, i, x->name)) TH_LOG("%s.%s: name twice", what, x->name);
		if (x->kind == PC_FIELD_BITS) {
			EXPECT_TRUE(is_bits(x)) TH_LOG("%s.%s: a bitfield of no bits", what, x->name);
		}
		if (x->kind == PC_FIELD_SCALAR) {
			EXPECT_FALSE(is_bits(x)) TH_LOG("%s.%s: a scalar with bits", what, x->name);
		}

		if (x->union_with) {
			const struct pc_abi_field *base = find_before(f, i, x->union_with);

			ASSERT_NE(NULL, base) TH_LOG("%s.%s: union with %s, which is not before it",
						     what, x->name, x->union_with);
			EXPECT_NULL(base->union_with) TH_LOG("%s.%s: %s is not a union's first member",
							     what, x->name, base->name);
			EXPECT_GE(x->offset, base->offset) TH_LOG("%s.%s", what, x->name);
			EXPECT_LE(x->offset + x->size, end) TH_LOG("%s.%s: outside its union", what, x->name);
			continue;
		}
		if (is_bits(x) && x->offset == word)
			continue;
		EXPECT_EQ(end, x->offset) TH_LOG("%s.%s at %zu: %s after byte %zu", what, x->name,
						 x->offset, x->offset > end ? "a gap" : "an overlap", end);
		word = is_bits(x) ? x->offset : (size_t)-1;
		end = x->offset + x->size;
	}
	EXPECT_EQ(start + size, end) TH_LOG("%s: the fields end at %zu, the struct at %zu",
					    what, end, start + size);
}

/*
 * Bitfields sharing a word (same offset and union) are listed in bit
 * order, contiguous from bit 0 to the word's last bit.
 */
static void check_bit_words(struct __test_metadata *_metadata, const char *what,
			    const struct pc_abi_field *f, size_t n)
{
	const struct pc_abi_field *first = NULL;
	unsigned int next = 0;

	for (size_t i = 0; i <= n; i++) {
		const struct pc_abi_field *x = i < n && is_bits(&f[i]) ? &f[i] : NULL;

		if (first && (!x || x->offset != first->offset)) {
			EXPECT_EQ(8 * first->size, next)
				TH_LOG("%s: the word at %zu has bits 0..%u of %zu", what,
				       first->offset, next, 8 * first->size);
			first = NULL;
		}
		if (!x)
			continue;
		if (!first) {
			first = x;
			next = 0;
		}
		EXPECT_EQ(first->size, x->size) TH_LOG("%s.%s: word size", what, x->name);
		EXPECT_EQ(next, x->bit) TH_LOG("%s.%s: bit %u, expected %u", what, x->name, x->bit, next);
		next = x->bit + x->nbits;
	}
}

static uint64_t load_word(const void *base, size_t offset, size_t size)
{
	uint64_t w64 = 0;
	uint32_t w32 = 0;

	if (size == 4) {
		memcpy(&w32, (const char *)base + offset, 4);
		return w32;
	}
	memcpy(&w64, (const char *)base + offset, 8);
	return w64;
}

/* ---- the structs tile their sizes ---- */

TEST(attr_fields_tile_the_struct)
{
	EXPECT_EQ(PC_ATTR_SIZE_NEWEST, pc_abi_attr.size);
	EXPECT_EQ(sizeof(struct perfconf_attr), pc_abi_attr.size);
	check_tiling(_metadata, "attr", pc_abi_attr.fields, pc_abi_attr.nfields, 0, pc_abi_attr.size);
	check_bit_words(_metadata, "attr", pc_abi_attr.fields, pc_abi_attr.nfields);
}

TEST(mmap_page_fields_tile_the_struct)
{
	EXPECT_EQ(sizeof(struct perf_event_mmap_page), pc_abi_mmap_page.size);
	check_tiling(_metadata, "mmap_page", pc_abi_mmap_page.fields, pc_abi_mmap_page.nfields,
		     0, pc_abi_mmap_page.size);
	check_bit_words(_metadata, "mmap_page", pc_abi_mmap_page.fields, pc_abi_mmap_page.nfields);
	EXPECT_EQ(1024, pc_abi_find(&pc_abi_mmap_page, "data_head")->offset);
}

TEST(header_fields_tile_the_struct)
{
	EXPECT_EQ(sizeof(struct perf_event_header), pc_abi_header.size);
	check_tiling(_metadata, "header", pc_abi_header.fields, pc_abi_header.nfields,
		     0, pc_abi_header.size);
}

/* The flags word at offset 40: bits 0..63, each once, disabled first. */
TEST(attr_flag_bits_are_0_to_63)
{
	uint64_t seen = 0;
	unsigned int nbits = 0;

	for (size_t i = 0; i < pc_abi_attr.nfields; i++) {
		const struct pc_abi_field *f = &pc_abi_attr.fields[i];
		uint64_t mask;

		if (!is_bits(f) || f->offset != 40)
			continue;
		EXPECT_EQ(8, f->size);
		mask = pc_abi_bits_mask(f->bit, f->nbits, 8);
		EXPECT_EQ(0, seen & mask) TH_LOG("%s overlaps", f->name);
		seen |= mask;
		nbits += f->nbits;
	}
	EXPECT_EQ(~0ULL, seen);
	EXPECT_EQ(64, nbits);
	EXPECT_EQ(0, pc_abi_find(&pc_abi_attr, "disabled")->bit);
	EXPECT_EQ(15, pc_abi_find(&pc_abi_attr, "precise_ip")->bit);
	EXPECT_EQ(2, pc_abi_find(&pc_abi_attr, "precise_ip")->nbits);
	EXPECT_EQ(PC_FIELD_RESERVED, pc_abi_find(&pc_abi_attr, "__reserved_1")->kind);
	EXPECT_EQ(40, pc_abi_find(&pc_abi_attr, "__reserved_1")->bit);
}

/* ---- attr sizes and versions ---- */

TEST(attr_size_versions_are_the_published_sizes)
{
	static const uint32_t published[] = {
		PC_ATTR_SIZE_VER0, PC_ATTR_SIZE_VER1, PC_ATTR_SIZE_VER2, PC_ATTR_SIZE_VER3,
		PC_ATTR_SIZE_VER4, PC_ATTR_SIZE_VER5, PC_ATTR_SIZE_VER6, PC_ATTR_SIZE_VER7,
		PC_ATTR_SIZE_VER8, PC_ATTR_SIZE_VER9,
	};

	ASSERT_EQ(sizeof(published) / sizeof(published[0]), pc_abi_size_vers_count);
	for (size_t n = 0; n < pc_abi_size_vers_count; n++) {
		const struct pc_abi_size_ver *v = &pc_abi_size_vers[n];

		EXPECT_EQ(n, v->ver);
		EXPECT_EQ(published[n], v->size) TH_LOG("VER%zu", n);
		EXPECT_EQ(0, v->size % 8) TH_LOG("VER%zu", n);
		EXPECT_NE(NULL, v->added);
		if (n > 0) {
			EXPECT_GT(v->size, pc_abi_size_vers[n - 1].size);
			EXPECT_GE(v->since, pc_abi_size_vers[n - 1].since) TH_LOG("VER%zu", n);
		}
	}
	EXPECT_EQ(PC_ATTR_SIZE_NEWEST, pc_abi_size_vers[pc_abi_size_vers_count - 1].size);
}

/* A field's size_ver is the first VERn whose size covers it. */
TEST(attr_field_size_versions)
{
	for (size_t i = 0; i < pc_abi_attr.nfields; i++) {
		const struct pc_abi_field *f = &pc_abi_attr.fields[i];
		size_t end = f->offset + f->size;

		ASSERT_LT(f->size_ver, pc_abi_size_vers_count) TH_LOG("%s", f->name);
		EXPECT_LE(end, pc_abi_size_vers[f->size_ver].size)
			TH_LOG("%s ends at %zu, past VER%u", f->name, end, f->size_ver);
		if (f->size_ver > 0) {
			EXPECT_GT(end, pc_abi_size_vers[f->size_ver - 1].size)
				TH_LOG("%s ends at %zu, inside VER%u already", f->name, end,
				       f->size_ver - 1);
		}
	}
}

/*
 * No field predates the size version that covers it; each size version
 * was introduced by a field of its own; within a flags word, bits were
 * added in order.
 */
TEST(attr_sinces_follow_size_versions)
{
	int newest_bit_since[2] = { 0, 0 };	/* flags word, aux_action word */

	for (size_t i = 0; i < pc_abi_attr.nfields; i++) {
		const struct pc_abi_field *f = &pc_abi_attr.fields[i];
		const struct pc_abi_size_ver *v = &pc_abi_size_vers[f->size_ver];

		EXPECT_GE(f->since, v->since) TH_LOG("%s (since %d) predates VER%u (since %d)",
						     f->name, f->since, v->ver, v->since);
		if (f->kind == PC_FIELD_BITS) {
			int *newest = &newest_bit_since[f->offset == 40 ? 0 : 1];

			EXPECT_GE(f->since, *newest) TH_LOG("bit %s is older than a bit below it",
							     f->name);
			*newest = f->since;
		}
	}
	for (size_t n = 0; n < pc_abi_size_vers_count; n++) {
		bool introduced = false;

		for (size_t i = 0; i < pc_abi_attr.nfields; i++)
			if (pc_abi_attr.fields[i].size_ver == n &&
			    pc_abi_attr.fields[i].since == pc_abi_size_vers[n].since)
				introduced = true;
		EXPECT_TRUE(introduced) TH_LOG("no field of VER%zu is as old as VER%zu", n, n);
	}
}

TEST(attr_size_for_kernel)
{
	EXPECT_EQ(0, pc_abi_size_for_kernel(0));
	/* every 2.6.x is PC_KVER(2, 6): it gets the newest 2.6 size, VER1 */
	EXPECT_EQ(72, pc_abi_size_for_kernel(PC_KVER(2, 6)));
	EXPECT_EQ(80, pc_abi_size_for_kernel(PC_KVER(3, 4)));
	EXPECT_EQ(96, pc_abi_size_for_kernel(PC_KVER(3, 18)));
	EXPECT_EQ(104, pc_abi_size_for_kernel(PC_KVER(3, 19)));
	EXPECT_EQ(112, pc_abi_size_for_kernel(PC_KVER(4, 19)));
	EXPECT_EQ(120, pc_abi_size_for_kernel(PC_KVER(5, 10)));
	EXPECT_EQ(128, pc_abi_size_for_kernel(PC_KVER(6, 1)));
	EXPECT_EQ(136, pc_abi_size_for_kernel(PC_KVER(6, 18)));
	EXPECT_EQ(144, pc_abi_size_for_kernel(PC_KVER(6, 19)));
	EXPECT_EQ(144, pc_abi_size_for_kernel(PC_KVER(7, 3)));

	EXPECT_EQ(0, pc_abi_size_ver_of(64));
	EXPECT_EQ(8, pc_abi_size_ver_of(136));
	EXPECT_EQ(9, pc_abi_size_ver_of(144));
	EXPECT_EQ(-ENOENT, pc_abi_size_ver_of(100));
	EXPECT_EQ(-ENOENT, pc_abi_size_ver_of(0));
}

TEST(find_by_name)
{
	EXPECT_EQ(128, pc_abi_find(&pc_abi_attr, "config3")->offset);
	EXPECT_EQ(136, pc_abi_find(&pc_abi_attr, "config4")->offset);
	EXPECT_STREQ("bp_addr", pc_abi_find(&pc_abi_attr, "config1")->union_with);
	EXPECT_NULL(pc_abi_find(&pc_abi_attr, "config5"));
	EXPECT_NULL(pc_abi_find(&pc_abi_attr, NULL));
	EXPECT_EQ(6, pc_abi_find(&pc_abi_header, "size")->offset);
}

/* ---- bitfield positions, as the compiler lays them out ---- */

/*
 * One probe per bitfield of the layout lists: it sets every bit of the
 * member in a zeroed struct. The bytes that changed must be the table's
 * bits of the table's word, nothing else.
 */
static volatile uint64_t all_ones = ~0ULL;

typedef void (*probe_fn)(void *);

#define IF_SYS_0(...)
#define IF_SYS_1(...)		__VA_ARGS__
#define SYS_PROBE_0(n)		NULL
#define SYS_PROBE_1(n)		probe_sys_##n

#define ATTR_PROBE_F(...)
#define ATTR_PROBE_B(n, off, wsz, b, nb, k, uw, ver, kv, sys) \
	static void probe_pc_##n(void *p) { ((struct perfconf_attr *)p)->n = all_ones; } \
	IF_SYS_##sys(static void probe_sys_##n(void *p) \
		     { ((struct perf_event_attr *)p)->n = all_ones; })
#define ATTR_PROBE_ENTRY(n, off, wsz, b, nb, k, uw, ver, kv, sys) \
	{ #n, probe_pc_##n, SYS_PROBE_##sys(n) },

#define MMAP_PROBE_F(...)
#define MMAP_PROBE_B(n, off, wsz, b, nb, k, uw, kv) \
	static void probe_sys_##n(void *p) { ((struct perf_event_mmap_page *)p)->n = all_ones; }
#define MMAP_PROBE_ENTRY(n, off, wsz, b, nb, k, uw, kv) \
	{ #n, NULL, probe_sys_##n },

struct bit_probe {
	const char *name;
	probe_fn ours;		/* struct perfconf_attr */
	probe_fn sys;		/* the system header's struct, if it has the member */
};

PC_ATTR_LAYOUT(ATTR_PROBE_F, ATTR_PROBE_B)
static const struct bit_probe attr_probes[] = {
	PC_ATTR_LAYOUT(ATTR_PROBE_F, ATTR_PROBE_ENTRY)
};

PC_MMAP_PAGE_LAYOUT(MMAP_PROBE_F, MMAP_PROBE_B)
static const struct bit_probe mmap_probes[] = {
	PC_MMAP_PAGE_LAYOUT(MMAP_PROBE_F, MMAP_PROBE_ENTRY)
};

/* Run the probe on a zeroed struct of `size` bytes; check what it set. */
static void check_probe(struct __test_metadata *_metadata, const char *what,
			const struct pc_abi_field *f, probe_fn probe, size_t size)
{
	unsigned char *buf = calloc(1, size);
	uint64_t expected = pc_abi_bits_mask(f->bit, f->nbits, f->size);
	uint64_t word;

	ASSERT_NE(NULL, buf);
	probe(buf);
	word = load_word(buf, f->offset, f->size);
	EXPECT_EQ(expected, word) TH_LOG("%s.%s: the table says bits %u..%u of the word at %zu, "
					 "the compiler set 0x%llx", what, f->name, f->bit,
					 f->bit + f->nbits - 1, f->offset, (unsigned long long)word);
	memset(buf + f->offset, 0, f->size);
	for (size_t i = 0; i < size; i++) {
		EXPECT_EQ(0, buf[i]) TH_LOG("%s.%s also set byte %zu", what, f->name, i);
	}
	free(buf);
}

TEST(attr_bits_match_perfconf_attr)
{
	size_t nbits = 0;

	for (size_t i = 0; i < sizeof(attr_probes) / sizeof(attr_probes[0]); i++) {
		const struct pc_abi_field *f = pc_abi_find(&pc_abi_attr, attr_probes[i].name);

		ASSERT_NE(NULL, f) TH_LOG("%s is not in the table", attr_probes[i].name);
		check_probe(_metadata, "perfconf_attr", f, attr_probes[i].ours,
			    sizeof(struct perfconf_attr));
	}
	for (size_t i = 0; i < pc_abi_attr.nfields; i++)
		nbits += is_bits(&pc_abi_attr.fields[i]);
	EXPECT_EQ(nbits, sizeof(attr_probes) / sizeof(attr_probes[0]));
}

TEST(attr_bits_match_system_header)
{
	size_t checked = 0;

	for (size_t i = 0; i < sizeof(attr_probes) / sizeof(attr_probes[0]); i++) {
		if (!attr_probes[i].sys)
			continue;
		check_probe(_metadata, "perf_event_attr",
			    pc_abi_find(&pc_abi_attr, attr_probes[i].name), attr_probes[i].sys,
			    sizeof(struct perf_event_attr));
		checked++;
	}
	/* Linux 6.1's header has the 37 flag members up to sigtrap (38 bits). */
	EXPECT_GE(checked, 37);
}

TEST(mmap_page_bits_match_system_header)
{
	for (size_t i = 0; i < sizeof(mmap_probes) / sizeof(mmap_probes[0]); i++) {
		const struct pc_abi_field *f = pc_abi_find(&pc_abi_mmap_page, mmap_probes[i].name);

		ASSERT_NE(NULL, f) TH_LOG("%s is not in the table", mmap_probes[i].name);
		check_probe(_metadata, "perf_event_mmap_page", f, mmap_probes[i].sys,
			    sizeof(struct perf_event_mmap_page));
	}
}

/* ---- records ---- */

TEST(record_types_1_to_22)
{
	ASSERT_EQ(PC_RECORD_TYPE_MAX, pc_abi_records_count);
	for (uint32_t t = 1; t <= PC_RECORD_TYPE_MAX; t++) {
		const struct pc_abi_record *r = pc_abi_record(t);

		ASSERT_NE(NULL, r);
		EXPECT_EQ(t, r->type);
		EXPECT_STREQ(r->name, pc_abi_record_name(t));
		for (uint32_t u = 1; u < t; u++) {
			EXPECT_STRNE(r->name, pc_abi_record_name(u)) TH_LOG("type %u and %u", t, u);
		}
		EXPECT_EQ(t != PERF_RECORD_SAMPLE, r->has_sample_id) TH_LOG("%s", r->name);
		if (t > 1) {
			EXPECT_GE(r->since, pc_abi_record(t - 1)->since) TH_LOG("%s", r->name);
		}
	}
	EXPECT_NULL(pc_abi_record(0));
	EXPECT_NULL(pc_abi_record(PC_RECORD_TYPE_MAX + 1));
	EXPECT_STREQ("UNKNOWN", pc_abi_record_name(0));
	EXPECT_STREQ("UNKNOWN", pc_abi_record_name(23));
	EXPECT_STREQ("CALLCHAIN_DEFERRED", pc_abi_record_name(PC_RECORD_CALLCHAIN_DEFERRED));
}

TEST(record_types_match_system_header)
{
#define REC(name) { #name, PERF_RECORD_##name }
	static const struct { const char *name; uint32_t type; } sys[] = {
		REC(MMAP), REC(LOST), REC(COMM), REC(EXIT), REC(THROTTLE), REC(UNTHROTTLE),
		REC(FORK), REC(READ), REC(SAMPLE), REC(MMAP2), REC(AUX), REC(ITRACE_START),
		REC(LOST_SAMPLES), REC(SWITCH), REC(SWITCH_CPU_WIDE), REC(NAMESPACES),
		REC(KSYMBOL), REC(BPF_EVENT), REC(CGROUP), REC(TEXT_POKE), REC(AUX_OUTPUT_HW_ID),
	};
#undef REC
	for (size_t i = 0; i < sizeof(sys) / sizeof(sys[0]); i++) {
		EXPECT_STREQ(sys[i].name, pc_abi_record_name(sys[i].type));
	}
}

/* The fixed fields sit right after the header and fill the fixed part. */
TEST(record_fields_tile_the_fixed_part)
{
	for (size_t i = 0; i < pc_abi_records_count; i++) {
		const struct pc_abi_record *r = &pc_abi_records[i];

		check_tiling(_metadata, r->name, r->fields, r->nfields, 8, r->fixed_size);
		for (size_t j = 0; j < r->nfields; j++) {
			EXPECT_GE(r->fields[j].since, r->since)
				TH_LOG("%s.%s", r->name, r->fields[j].name);
		}
	}
	EXPECT_EQ(0, pc_abi_record(PERF_RECORD_SAMPLE)->fixed_size);
	EXPECT_EQ(0, pc_abi_record(PERF_RECORD_SWITCH)->fixed_size);
	EXPECT_EQ(32, pc_abi_record(PERF_RECORD_MMAP)->fixed_size);
	EXPECT_EQ(64, pc_abi_record(PERF_RECORD_MMAP2)->fixed_size);
	EXPECT_EQ(16, pc_abi_record(PC_RECORD_CALLCHAIN_DEFERRED)->fixed_size);
	EXPECT_TRUE(pc_abi_record(PC_RECORD_CALLCHAIN_DEFERRED)->variable_tail);
}

/* ---- sample_type and read_format bits ---- */

TEST(sample_bits_match_system_header)
{
#define SB(name) { #name, PERF_SAMPLE_##name }
	static const struct { const char *name; uint64_t value; } sys[] = {
		SB(IP), SB(TID), SB(TIME), SB(ADDR), SB(READ), SB(CALLCHAIN), SB(ID), SB(CPU),
		SB(PERIOD), SB(STREAM_ID), SB(RAW), SB(BRANCH_STACK), SB(REGS_USER),
		SB(STACK_USER), SB(WEIGHT), SB(DATA_SRC), SB(IDENTIFIER), SB(TRANSACTION),
		SB(REGS_INTR), SB(PHYS_ADDR), SB(AUX), SB(CGROUP), SB(DATA_PAGE_SIZE),
		SB(CODE_PAGE_SIZE), SB(WEIGHT_STRUCT),
	};
#undef SB
	ASSERT_EQ(sizeof(sys) / sizeof(sys[0]), pc_abi_sample_bits_count);
	ASSERT_EQ(PC_SAMPLE_TYPE_MAX_BIT + 1, pc_abi_sample_bits_count);
	for (size_t i = 0; i < pc_abi_sample_bits_count; i++) {
		const struct pc_abi_bit *b = &pc_abi_sample_bits[i];

		EXPECT_EQ(i, b->bit);
		EXPECT_STREQ(sys[i].name, b->name);
		EXPECT_EQ(sys[i].value, 1ULL << b->bit) TH_LOG("PERF_SAMPLE_%s", b->name);
		if (i > 0) {
			EXPECT_GE(b->since, pc_abi_sample_bits[i - 1].since) TH_LOG("%s", b->name);
		}
	}
}

TEST(read_format_bits_match_system_header)
{
#define RF(name) { #name, PERF_FORMAT_##name }
	static const struct { const char *name; uint64_t value; } sys[] = {
		RF(TOTAL_TIME_ENABLED), RF(TOTAL_TIME_RUNNING), RF(ID), RF(GROUP), RF(LOST),
	};
#undef RF
	ASSERT_EQ(sizeof(sys) / sizeof(sys[0]), pc_abi_read_format_bits_count);
	for (size_t i = 0; i < pc_abi_read_format_bits_count; i++) {
		const struct pc_abi_bit *b = &pc_abi_read_format_bits[i];

		EXPECT_EQ(i, b->bit);
		EXPECT_STREQ(sys[i].name, b->name);
		EXPECT_EQ(sys[i].value, 1ULL << b->bit) TH_LOG("PERF_FORMAT_%s", b->name);
	}
	EXPECT_EQ(PC_KVER(6, 0), pc_abi_read_format_bits[4].since);
}

/* ---- ioctls, flags and errnos ---- */

/* A since-version is a release perf_event existed in: 2.6.x to today's. */
static bool plausible_release(int kver)
{
	return kver >= PC_KVER(2, 6) && kver <= PC_KVER(7, 99);
}

/* The test name is the lower-case name after `prefix`. */
static void check_test_name(struct __test_metadata *_metadata, const char *name,
			    const char *prefix, const char *test)
{
	size_t plen = strlen(prefix);

	ASSERT_EQ(0, strncmp(name, prefix, plen)) TH_LOG("%s: not %s*", name, prefix);
	ASSERT_EQ(strlen(name) - plen, strlen(test)) TH_LOG("%s: test %s", name, test);
	for (size_t i = 0; test[i]; i++) {
		EXPECT_EQ(tolower((unsigned char)name[plen + i]), test[i]) TH_LOG("%s: test %s", name, test);
	}
}

TEST(ioctls_are_the_12_requests_in_number_order)
{
	static const struct { const char *name; unsigned long request; } sys[] = {
#define IOC(n) { "PERF_EVENT_IOC_" #n, PERF_EVENT_IOC_##n }
		IOC(ENABLE), IOC(DISABLE), IOC(REFRESH), IOC(RESET), IOC(PERIOD), IOC(SET_OUTPUT),
		IOC(SET_FILTER), IOC(ID), IOC(SET_BPF), IOC(PAUSE_OUTPUT), IOC(QUERY_BPF),
		IOC(MODIFY_ATTRIBUTES),
#undef IOC
	};

	ASSERT_EQ(12, pc_abi_ioctls_count);
	ASSERT_EQ(sizeof(sys) / sizeof(sys[0]), pc_abi_ioctls_count);
	for (size_t i = 0; i < pc_abi_ioctls_count; i++) {
		const struct pc_abi_ioctl *c = &pc_abi_ioctls[i];

		EXPECT_STREQ(sys[i].name, c->name);
		EXPECT_EQ(sys[i].request, c->request) TH_LOG("%s", c->name);
		EXPECT_EQ(i, c->nr) TH_LOG("%s", c->name);
		EXPECT_EQ(i, _IOC_NR(c->request)) TH_LOG("%s", c->name);
		EXPECT_EQ('$', _IOC_TYPE(c->request)) TH_LOG("%s", c->name);
		EXPECT_NE(NULL, c->encoding);
		EXPECT_NE(NULL, c->arg_what);
		EXPECT_TRUE(plausible_release(c->since)) TH_LOG("%s: since %d", c->name, c->since);
		check_test_name(_metadata, c->name, "PERF_EVENT_IOC_", c->test);
		for (size_t j = 0; j < i; j++) {
			EXPECT_NE(pc_abi_ioctls[j].request, c->request) TH_LOG("%s", c->name);
			EXPECT_STRNE(pc_abi_ioctls[j].test, c->test);
		}
		/* numbers were handed out in order, so releases never go back */
		if (i > 0) {
			EXPECT_GE(c->since, pc_abi_ioctls[i - 1].since) TH_LOG("%s", c->name);
		}
		EXPECT_EQ(c, pc_abi_ioctl_find(c->name));
		EXPECT_EQ(c, pc_abi_ioctl_find(c->name + strlen("PERF_EVENT_IOC_")));
	}
	EXPECT_NULL(pc_abi_ioctl_find("PERF_EVENT_IOC_ATTACH_CGROUP"));
	EXPECT_NULL(pc_abi_ioctl_find(NULL));
}

TEST(ioctl_arguments)
{
	/* the requests that take PERF_IOC_FLAG_GROUP, and only they */
	for (size_t i = 0; i < pc_abi_ioctls_count; i++) {
		const struct pc_abi_ioctl *c = &pc_abi_ioctls[i];

		EXPECT_EQ(c->arg == PC_IOC_ARG_FLAGS, c->group_flag) TH_LOG("%s", c->name);
		/* an argument passed by address has a size in the request */
		if (c->arg == PC_IOC_ARG_U64_IN || c->arg == PC_IOC_ARG_U64_OUT ||
		    c->arg == PC_IOC_ARG_STRING || c->arg == PC_IOC_ARG_QUERY_BPF ||
		    c->arg == PC_IOC_ARG_ATTR) {
			EXPECT_NE(0, _IOC_SIZE(c->request)) TH_LOG("%s", c->name);
		}
	}
	EXPECT_EQ(PC_IOC_ARG_U64_IN, pc_abi_ioctl_find("PERIOD")->arg);
	EXPECT_EQ(8, _IOC_SIZE(pc_abi_ioctl_find("PERIOD")->request));
	EXPECT_EQ(PC_IOC_ARG_U64_OUT, pc_abi_ioctl_find("ID")->arg);
	/* ID, SET_FILTER, QUERY_BPF and MODIFY_ATTRIBUTES encode a pointer's size */
	EXPECT_EQ(sizeof(void *), _IOC_SIZE(pc_abi_ioctl_find("ID")->request));
	EXPECT_EQ(sizeof(void *), _IOC_SIZE(pc_abi_ioctl_find("MODIFY_ATTRIBUTES")->request));
	EXPECT_EQ(_IOC_READ | _IOC_WRITE, _IOC_DIR(pc_abi_ioctl_find("QUERY_BPF")->request));
	EXPECT_EQ(PC_IOC_ARG_FD, pc_abi_ioctl_find("SET_OUTPUT")->arg);
	EXPECT_EQ(PC_IOC_ARG_FD, pc_abi_ioctl_find("SET_BPF")->arg);
	EXPECT_EQ(PC_KVER(3, 12), pc_abi_ioctl_find("ID")->since);
	EXPECT_EQ(PC_KVER(4, 17), pc_abi_ioctl_find("MODIFY_ATTRIBUTES")->since);
}

static void check_flags(struct __test_metadata *_metadata, const struct pc_abi_flag *f, size_t n,
			const char *prefix)
{
	unsigned long seen = 0;

	for (size_t i = 0; i < n; i++) {
		EXPECT_EQ(1UL << i, f[i].value) TH_LOG("%s", f[i].name);
		EXPECT_EQ(0, seen & f[i].value) TH_LOG("%s", f[i].name);
		seen |= f[i].value;
		EXPECT_TRUE(plausible_release(f[i].since)) TH_LOG("%s", f[i].name);
		EXPECT_NE(NULL, f[i].meaning);
		check_test_name(_metadata, f[i].name, prefix, f[i].test);
		if (i > 0) {
			EXPECT_GE(f[i].since, f[i - 1].since) TH_LOG("%s", f[i].name);
		}
	}
}

TEST(open_flags)
{
	static const unsigned long sys[] = {
		PERF_FLAG_FD_NO_GROUP, PERF_FLAG_FD_OUTPUT, PERF_FLAG_PID_CGROUP, PERF_FLAG_FD_CLOEXEC,
	};

	ASSERT_EQ(4, pc_abi_open_flags_count);
	for (size_t i = 0; i < pc_abi_open_flags_count; i++) {
		EXPECT_EQ(sys[i], pc_abi_open_flags[i].value) TH_LOG("%s", pc_abi_open_flags[i].name);
	}
	check_flags(_metadata, pc_abi_open_flags, pc_abi_open_flags_count, "PERF_FLAG_");
	EXPECT_EQ(PC_KVER(3, 14), pc_abi_open_flags[3].since);
	EXPECT_STREQ("fd_cloexec", pc_abi_open_flags[3].test);
}

TEST(ioctl_flags)
{
	ASSERT_EQ(1, pc_abi_ioctl_flags_count);
	EXPECT_EQ(PERF_IOC_FLAG_GROUP, pc_abi_ioctl_flags[0].value);
	EXPECT_STREQ("PERF_IOC_FLAG_GROUP", pc_abi_ioctl_flags[0].name);
	/* its binary is tests/ioctl/flag_group.c: the name after PERF_IOC_ */
	check_flags(_metadata, pc_abi_ioctl_flags, pc_abi_ioctl_flags_count, "PERF_IOC_");
	for (size_t i = 0; i < pc_abi_ioctls_count; i++) {
		EXPECT_STRNE(pc_abi_ioctl_flags[0].test, pc_abi_ioctls[i].test);
	}
}

TEST(errnos_are_the_16_of_the_man_page)
{
	static const int documented[] = {
		E2BIG, EACCES, EBADF, EBUSY, EFAULT, EINTR, EINVAL, EMFILE, ENODEV, ENOENT,
		ENOSPC, ENOSYS, EOPNOTSUPP, EOVERFLOW, EPERM, ESRCH,
	};

	ASSERT_EQ(16, pc_abi_errnos_count);
	for (size_t i = 0; i < pc_abi_errnos_count; i++) {
		const struct pc_abi_errno *e = &pc_abi_errnos[i];

		EXPECT_EQ(documented[i], e->value) TH_LOG("%s", e->name);
		EXPECT_EQ(e, pc_abi_errno_find(e->value));
		check_test_name(_metadata, e->name, "", e->test);
		if (i > 0) {
			EXPECT_LT(0, strcmp(e->name, pc_abi_errnos[i - 1].name)) TH_LOG("%s: order", e->name);
		}
		for (size_t j = 0; j < i; j++) {
			EXPECT_NE(pc_abi_errnos[j].value, e->value) TH_LOG("%s", e->name);
		}
		EXPECT_TRUE(e->since == 0 || plausible_release(e->since)) TH_LOG("%s", e->name);
		EXPECT_GE(e->ncauses, 1) TH_LOG("%s has no documented cause", e->name);
		EXPECT_EQ(e->kernel_causes == NULL, e->nkernel_causes == 0) TH_LOG("%s", e->name);
		for (size_t j = 0; j < e->ncauses; j++) {
			EXPECT_NE(NULL, e->causes[j]);
			EXPECT_NE(0, strlen(e->causes[j]));
		}
		for (size_t j = 0; j < e->nkernel_causes; j++) {
			EXPECT_NE(NULL, e->kernel_causes[j]);
			EXPECT_NE(0, strlen(e->kernel_causes[j]));
		}
	}
	EXPECT_EQ(PC_KVER(4, 1), pc_abi_errno_find(EBUSY)->since);
	EXPECT_EQ(PC_KVER(4, 8), pc_abi_errno_find(EOVERFLOW)->since);
	EXPECT_NULL(pc_abi_errno_find(ENOTTY));
	EXPECT_STREQ("eopnotsupp", pc_abi_errno_find(EOPNOTSUPP)->test);
}

TEST_HARNESS_MAIN
