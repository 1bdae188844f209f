/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For mmap, mmap2 and mmap_data: finding the record of a mapping that
 * this task made with the capture's event enabled (ring/sideband.h), or
 * failing the case when there is none.
 */
#ifndef PERFCONF_TESTS_ATTR_MMAP_RECORDS_H
#define PERFCONF_TESTS_ATTR_MMAP_RECORDS_H

#include <sys/mman.h>

#include "perfconf.h"
#include "work/mapping.h"
#include "ring/sideband.h"

/* Read the records: the MMAP or MMAP2 record of the mapping at p. */
static inline const struct pc_record *record_at(struct __test_metadata *_metadata,
						struct pc_capture *cap, const void *p)
{
	ASSERT_CAPTURE_READ(cap);
	const struct pc_record *r = pc_find_mmap_at(cap, p, 0);

	ASSERT_NE(NULL, r) TH_LOG("no MMAP or MMAP2 record at %p", p);
	return r;
}

/*
 * Map len bytes of anonymous memory (prot, MAP_PRIVATE) with the event
 * enabled, into *p (for pc_unmap_guarded); its record.
 */
static inline const struct pc_record *anon_mapping_record(struct __test_metadata *_metadata,
							  struct pc_capture *cap, size_t len,
							  int prot, void **p)
{
	*p = pc_map_guarded_enabled(cap->fd, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, *p);
	return record_at(_metadata, cap, *p);
}

/* Read the records: the record of the file mapping m, the only one that names its file. */
static inline const struct pc_record *only_record_of(struct __test_metadata *_metadata,
						     struct pc_capture *cap,
						     const struct pc_file_map *m)
{
	ASSERT_CAPTURE_READ(cap);
	ASSERT_EQ(1, pc_mmap_count(cap, m->path)) TH_LOG("one mapping, one record");
	return pc_find_mmap(cap, m->path, 0);
}

/* An MMAP record names m as this task mapped it, from pgoff bytes into the file. */
static inline void expect_mmap_of(struct __test_metadata *_metadata, const struct pc_record *r,
				  const struct pc_file_map *m, uint64_t pgoff)
{
	EXPECT_EQ(PERF_RECORD_MMAP, r->type);
	EXPECT_EQ(getpid(), r->mmap.pid);
	EXPECT_EQ(gettid(), r->mmap.tid);
	EXPECT_EQ((uintptr_t)m->addr, r->mmap.addr);
	EXPECT_EQ(m->len, r->mmap.len);
	EXPECT_EQ(pgoff, r->mmap.pgoff);
}

#endif
