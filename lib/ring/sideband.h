/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding a test's own side-band records in a capture by what they name.
 *
 * A process produces records a test did not ask for (the dynamic loader's
 * mappings, malloc's arenas, other threads): a test looks for the record
 * about its file, its child, its BPF program or its cgroup, never for "the
 * first MMAP".
 *
 *	const struct pc_record *m = pc_find_mmap(&cap, path, 0);
 *	ASSERT_NE(NULL, m) TH_LOG("no MMAP record for %s", path);
 *
 * PC_CAPTURE_OPEN_SINCE ends a case (SKIP): it expands in a test, where
 * perfconf.h brings the harness.
 */
#ifndef PERFCONF_SIDEBAND_H
#define PERFCONF_SIDEBAND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "abi/abi.h"
#include "ring/capture.h"
#include "host/kernel.h"

/*
 * Open a capture (pc_capture_open) for a record bit that a later release
 * introduced: EINVAL from a kernel older than the release the ABI table
 * gives for `field` is a SKIP, not a failure; any other error fails.
 */
#define PC_CAPTURE_OPEN_SINCE(cap, attr, pid, cpu, field) do { \
	int err_ = pc_capture_open(cap, attr, pid, cpu); \
	const struct pc_abi_field *f_ = pc_abi_find(&pc_abi_attr, field); \
	if (err_ == -EINVAL && f_ && pc_kernel()->kver < f_->since) \
		SKIP(return, "%s is new in %d.%d (kernel %s)", field, f_->since / 1000, \
		     f_->since % 1000, pc_kernel()->release); \
	ASSERT_ERRNO(0, -err_); \
} while (0)

/* The nth (from 0) MMAP or MMAP2 record whose filename is `filename`, or NULL. */
const struct pc_record *pc_find_mmap(const struct pc_capture *c, const char *filename, size_t nth);
size_t pc_mmap_count(const struct pc_capture *c, const char *filename);
/* The nth MMAP or MMAP2 record of a mapping that starts at addr, or NULL. */
const struct pc_record *pc_find_mmap_at(const struct pc_capture *c, const void *addr, size_t nth);

/*
 * The nth record of `type` about thread `tid`, by the record's own tid
 * field: COMM, FORK, EXIT, NAMESPACES, MMAP, MMAP2.
 */
const struct pc_record *pc_find_tid(const struct pc_capture *c, uint32_t type, pid_t tid,
				    size_t nth);
size_t pc_tid_count(const struct pc_capture *c, uint32_t type, pid_t tid);

/* The KSYMBOL record of symbol `name` with exactly these flags, or NULL. */
const struct pc_record *pc_find_ksymbol(const struct pc_capture *c, const char *name,
					uint16_t flags);
/* The BPF_EVENT record of this type (PERF_BPF_EVENT_PROG_*) for program `id`, or NULL. */
const struct pc_record *pc_find_bpf_event(const struct pc_capture *c, uint16_t type, uint32_t id);
/* The CGROUP record with this path, or NULL. */
const struct pc_record *pc_find_cgroup(const struct pc_capture *c, const char *path);


#endif
