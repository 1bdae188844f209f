// SPDX-License-Identifier: GPL-2.0
/*
 * Compile-time checks of the ABI layout lists (abi_layout.h) against the
 * system <linux/perf_event.h> and against struct perfconf_attr (uapi.h).
 * The tables in abi.c are expanded from the same lists, so a wrong offset,
 * size or version fails the build here; likewise each ioctl request number
 * and open/ioctl flag value of abi.h's lists against the UAPI macro.
 *
 * Bitfields cannot be offsetof()'d; lib/tests/abi_tables.c checks their
 * positions at run time. Members the system header lacks (Debian 12's is
 * Linux 6.1) have in_sys = 0 in the list and are checked against struct
 * perfconf_attr only.
 */
#include <stddef.h>
#include <stdint.h>

#include <linux/ioctl.h>
#include <linux/perf_event.h>

#include "abi/abi.h"
#include "abi/abi_layout.h"
#include "abi/uapi.h"

#define MEMBER_SIZE(type, m)	sizeof(((type *)0)->m)

#define ASSERT_MEMBER(type, m, off, sz) \
	_Static_assert(offsetof(type, m) == (off), #type "." #m ": offset"); \
	_Static_assert(MEMBER_SIZE(type, m) == (sz), #type "." #m ": size");

/* Expand only when the system header has the member. */
#define IF_SYS_0(...)
#define IF_SYS_1(...)	__VA_ARGS__
#define IF_SYS(sys, ...)	IF_SYS_##sys(__VA_ARGS__)

/* ---- struct perf_event_attr ---- */

#define ATTR_F(n, off, sz, k, uw, ver, kv, sys) \
	ASSERT_MEMBER(struct perfconf_attr, n, off, sz) \
	IF_SYS(sys, ASSERT_MEMBER(struct perf_event_attr, n, off, sz)) \
	_Static_assert((off) + (sz) <= PC_ABI_ATTR_SIZE, #n ": inside the struct");
/* Bitfields: only what a constant expression can see (the word fits). */
#define ATTR_B(n, off, wsz, b, nb, k, uw, ver, kv, sys) \
	_Static_assert((b) + (nb) <= 8 * (wsz), #n ": bits inside the word"); \
	_Static_assert((off) + (wsz) <= PC_ABI_ATTR_SIZE, #n ": inside the struct");

PC_ATTR_LAYOUT(ATTR_F, ATTR_B)

_Static_assert(sizeof(struct perfconf_attr) == PC_ABI_ATTR_SIZE, "perfconf_attr size");

/* The size versions are uapi.h's PC_ATTR_SIZE_VERn. */
#define SIZE_VER(n, size, kv, added) \
	_Static_assert((size) == PC_ATTR_SIZE_VER##n, "PERF_ATTR_SIZE_VER" #n);

PC_ATTR_SIZE_VERS(SIZE_VER)
_Static_assert(PC_ABI_ATTR_SIZE == PC_ATTR_SIZE_NEWEST, "newest attr size");

/* The system header's published sizes are ours, and its struct is VER7. */
_Static_assert(PC_ATTR_SIZE_VER0 == PERF_ATTR_SIZE_VER0, "VER0");
_Static_assert(PC_ATTR_SIZE_VER1 == PERF_ATTR_SIZE_VER1, "VER1");
_Static_assert(PC_ATTR_SIZE_VER2 == PERF_ATTR_SIZE_VER2, "VER2");
_Static_assert(PC_ATTR_SIZE_VER3 == PERF_ATTR_SIZE_VER3, "VER3");
_Static_assert(PC_ATTR_SIZE_VER4 == PERF_ATTR_SIZE_VER4, "VER4");
_Static_assert(PC_ATTR_SIZE_VER5 == PERF_ATTR_SIZE_VER5, "VER5");
_Static_assert(PC_ATTR_SIZE_VER6 == PERF_ATTR_SIZE_VER6, "VER6");
_Static_assert(PC_ATTR_SIZE_VER7 == PERF_ATTR_SIZE_VER7, "VER7");
#ifdef PERF_ATTR_SIZE_VER8
_Static_assert(PC_ATTR_SIZE_VER8 == PERF_ATTR_SIZE_VER8, "VER8");
#endif
#ifdef PERF_ATTR_SIZE_VER9
_Static_assert(PC_ATTR_SIZE_VER9 == PERF_ATTR_SIZE_VER9, "VER9");
#endif
#ifndef PERF_ATTR_SIZE_VER8
_Static_assert(sizeof(struct perf_event_attr) == PERF_ATTR_SIZE_VER7,
	       "a system header without VER8 has a VER7 struct");
#endif

/*
 * Before 6.13 the word at 116 was a plain __u32 __reserved_3; it is now the
 * aux_action union, with __reserved_3 its top 29 bits. The 6.1 header still
 * has the plain word, which must sit where the union does.
 */
#ifndef PERF_ATTR_SIZE_VER8
ASSERT_MEMBER(struct perf_event_attr, __reserved_3, 116, 4)
#endif

/* ---- struct perf_event_mmap_page: all of it is in the 6.1 header ---- */

#define MMAP_F(n, off, sz, k, uw, kv) \
	ASSERT_MEMBER(struct perf_event_mmap_page, n, off, sz)
#define MMAP_B(n, off, wsz, b, nb, k, uw, kv) \
	_Static_assert((b) + (nb) <= 8 * (wsz), #n ": bits inside the word");

PC_MMAP_PAGE_LAYOUT(MMAP_F, MMAP_B)

_Static_assert(sizeof(struct perf_event_mmap_page) == PC_ABI_MMAP_PAGE_SIZE, "mmap page size");

/* ---- struct perf_event_header ---- */

#define HDR_F(n, off, sz)	ASSERT_MEMBER(struct perf_event_header, n, off, sz)

PC_HEADER_LAYOUT(HDR_F)

_Static_assert(sizeof(struct perf_event_header) == PC_ABI_HEADER_SIZE, "header size");

/* ---- record types and sample/read_format bits the system header names ---- */

_Static_assert(PERF_RECORD_MMAP == 1 && PERF_RECORD_SAMPLE == 9 &&
	       PERF_RECORD_MMAP2 == 10 && PERF_RECORD_AUX_OUTPUT_HW_ID == 21 &&
	       PERF_RECORD_MAX == PC_RECORD_AUX_OUTPUT_HW_ID + 1, "record types");
_Static_assert(PERF_SAMPLE_WEIGHT_STRUCT == 1U << PC_SAMPLE_TYPE_MAX_BIT, "last sample bit");
_Static_assert(PERF_FORMAT_LOST == 1U << 4, "PERF_FORMAT_LOST");

/* ---- ioctl request numbers and flag values (lists in abi.h) ---- */

#define IOC_CHECK(n, t, number, enc, a, what, grp, kv) \
	_Static_assert((enc) == PERF_EVENT_IOC_##n, "PERF_EVENT_IOC_" #n); \
	_Static_assert(_IOC_NR(enc) == (number), "PERF_EVENT_IOC_" #n ": nr"); \
	_Static_assert(_IOC_TYPE(enc) == '$', "PERF_EVENT_IOC_" #n ": type");

PC_ABI_IOCTL_LIST(IOC_CHECK)

#define OPEN_FLAG_CHECK(n, t, v, kv, m) \
	_Static_assert((v) == PERF_FLAG_##n, "PERF_FLAG_" #n);
#define IOCTL_FLAG_CHECK(n, t, v, kv, m) \
	_Static_assert((v) == PERF_IOC_FLAG_##n, "PERF_IOC_FLAG_" #n);

PC_ABI_OPEN_FLAG_LIST(OPEN_FLAG_CHECK)
PC_ABI_IOCTL_FLAG_LIST(IOCTL_FLAG_CHECK)

/* ISO C wants a translation unit to declare something. */
extern const int pc_abi_check_unit;
