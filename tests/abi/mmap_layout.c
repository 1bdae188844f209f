// SPDX-License-Identifier: GPL-2.0
/*
 * struct perf_event_mmap_page: "The mmap size should be 1+2^n pages, where
 * the first page is a metadata page (struct perf_event_mmap_page) that
 * contains various bits of information such as where the ring-buffer head
 * is." Every field sits where the ABI table says in the system header's
 * struct; the ring positions start at 1 KiB. The capability bits are
 * checked by lib/tests/abi_tables.
 */
#include <stddef.h>
#include <string.h>

#include "perfconf.h"

#define MEMBER_SIZE(type, m)	sizeof(((type *)0)->m)

static void expect_field(struct __test_metadata *_metadata, const struct pc_abi_struct *s,
			 const char *name, size_t off, size_t size)
{
	const struct pc_abi_field *f = pc_abi_find(s, name);

	ASSERT_NE(NULL, f) TH_LOG("%s.%s is not in the table", s->name, name);
	EXPECT_EQ(off, f->offset) TH_LOG("%s.%s: offset", s->name, name);
	EXPECT_EQ(size, f->size) TH_LOG("%s.%s: size", s->name, name);
}

#define PAGE(m) expect_field(_metadata, &pc_abi_mmap_page, #m, \
			     offsetof(struct perf_event_mmap_page, m), \
			     MEMBER_SIZE(struct perf_event_mmap_page, m))
#define HEADER(m) expect_field(_metadata, &pc_abi_header, #m, \
			       offsetof(struct perf_event_header, m), \
			       MEMBER_SIZE(struct perf_event_header, m))

/* The seqlock-protected part a self-monitoring reader uses. */
TEST(counter_read)
{
	PAGE(version);
	PAGE(compat_version);
	PAGE(lock);
	PAGE(index);
	PAGE(offset);
	PAGE(time_enabled);
	PAGE(time_running);
	PAGE(capabilities);
	PAGE(pmc_width);
}

/*
 * The fields that convert the CPU's counter into perf-clock time, and the
 * capability bits that say which of them hold: each bit where the table
 * says, set alone through the system header's bitfield (a layout that
 * moved a bit would read as another capability; where the bit lies in the
 * word is the byte order's, pc_abi_bits_mask), time_mult 32 bits,
 * time_shift 16, time_zero/time_cycles/time_mask 64. Whether the kernel
 * fills them with a conversion that matches PERF_SAMPLE_TIME is
 * tests/record/user_time's (sample_time_lies_between_converted_counter_reads,
 * enabled_and_running_times_extend_by_the_counter).
 */
TEST(time_conversion)
{
	static const struct { const char *name; unsigned int bit; } caps[] = {
		{ "cap_user_time", 3 }, { "cap_user_time_zero", 4 }, { "cap_user_time_short", 5 },
	};
	struct perf_event_mmap_page p;
	size_t i;

	PAGE(time_shift);
	PAGE(time_mult);
	PAGE(time_offset);
	PAGE(time_zero);
	PAGE(time_cycles);
	PAGE(time_mask);
	EXPECT_EQ(4, MEMBER_SIZE(struct perf_event_mmap_page, time_mult));
	EXPECT_EQ(2, MEMBER_SIZE(struct perf_event_mmap_page, time_shift));
	EXPECT_EQ(8, MEMBER_SIZE(struct perf_event_mmap_page, time_zero));
	EXPECT_EQ(8, MEMBER_SIZE(struct perf_event_mmap_page, time_cycles));
	EXPECT_EQ(8, MEMBER_SIZE(struct perf_event_mmap_page, time_mask));
	/* time_cycles and time_mask (5.9) follow the 3.12 fields, before __reserved */
	EXPECT_LT(offsetof(struct perf_event_mmap_page, time_zero),
		  offsetof(struct perf_event_mmap_page, time_cycles));
	EXPECT_LT(offsetof(struct perf_event_mmap_page, time_mask),
		  offsetof(struct perf_event_mmap_page, __reserved));

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		const struct pc_abi_field *f = pc_abi_find(&pc_abi_mmap_page, caps[i].name);

		ASSERT_NE(NULL, f) TH_LOG("%s is not in the table", caps[i].name);
		EXPECT_EQ(offsetof(struct perf_event_mmap_page, capabilities), f->offset) TH_LOG("%s", caps[i].name);
		EXPECT_EQ(caps[i].bit, f->bit) TH_LOG("%s: the table's bit", caps[i].name);
		EXPECT_EQ(1, f->nbits) TH_LOG("%s", caps[i].name);
	}
	memset(&p, 0, sizeof(p));
	p.cap_user_time = 1;
	EXPECT_EQ(pc_abi_bits_mask(3, 1, 8), p.capabilities) TH_LOG("cap_user_time in the system header");
	memset(&p, 0, sizeof(p));
	p.cap_user_time_zero = 1;
	EXPECT_EQ(pc_abi_bits_mask(4, 1, 8), p.capabilities) TH_LOG("cap_user_time_zero in the system header");
	memset(&p, 0, sizeof(p));
	p.cap_user_time_short = 1;
	EXPECT_EQ(pc_abi_bits_mask(5, 1, 8), p.capabilities) TH_LOG("cap_user_time_short in the system header");
}

/* "size": the header size up to the __reserved[] fields. */
TEST(header_size_and_reserved)
{
	PAGE(size);
	PAGE(__reserved_1);
	PAGE(__reserved);
	EXPECT_EQ(1024, pc_abi_find(&pc_abi_mmap_page, "__reserved")->offset +
			pc_abi_find(&pc_abi_mmap_page, "__reserved")->size);
}

/* "data_head ... head in the data section", at 1024 since the first release. */
TEST(data_ring)
{
	PAGE(data_head);
	PAGE(data_tail);
	PAGE(data_offset);
	PAGE(data_size);
	EXPECT_EQ(1024, offsetof(struct perf_event_mmap_page, data_head));
	EXPECT_EQ(1024, pc_abi_find(&pc_abi_mmap_page, "data_head")->offset);
}

TEST(aux_ring)
{
	PAGE(aux_head);
	PAGE(aux_tail);
	PAGE(aux_offset);
	PAGE(aux_size);
	EXPECT_EQ(sizeof(struct perf_event_mmap_page), pc_abi_mmap_page.size);
}

/* Every record starts with struct perf_event_header: u32 type, u16 misc, u16 size. */
TEST(record_header)
{
	HEADER(type);
	HEADER(misc);
	HEADER(size);
	EXPECT_EQ(sizeof(struct perf_event_header), pc_abi_header.size);
}

TEST_HARNESS_MAIN
