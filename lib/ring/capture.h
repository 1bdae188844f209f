/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A capture: an event, its ring buffer, and the records read from it,
 * decoded. The usual shape of a record test:
 *
 *	struct pc_capture cap;
 *	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
 *	attr.comm = 1;
 *	ASSERT_EQ(0, pc_capture_open(&cap, &attr, 0, -1));
 *	pc_enable(cap.fd); pc_work_set_comm("renamed"); pc_disable(cap.fd);
 *	ASSERT_LE(0, pc_capture_read(&cap)) TH_LOG("%s", cap.error);
 *	const struct pc_record *comm = pc_capture_find(&cap, PERF_RECORD_COMM, 0);
 *
 * An event with inherit=1 has a ring only when it is bound to a CPU (the
 * kernel refuses to mmap a per-task inherited event: EINVAL).
 *
 * Each record's bytes are copied out of the ring, so decoded pointers
 * (filenames, callchains) stay valid until pc_capture_close().
 */
#ifndef PERFCONF_CAPTURE_H
#define PERFCONF_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ring/record.h"
#include "ring/ring.h"
#include "abi/uapi.h"
#include "work/workload.h"

#define PC_CAPTURE_PAGES_LOG2 4		/* 16 data pages unless a test asks */

struct pc_captured {
	unsigned char *bytes;
	size_t len;
	struct pc_record rec;
};

struct pc_capture {
	int fd;
	struct pc_ring ring;
	struct pc_sample_format fmt;
	struct pc_captured *recs;
	size_t nr, cap;
	char error[200];
};

/*
 * Open the event and map its ring (1 + 2^PC_CAPTURE_PAGES_LOG2 pages).
 * Returns 0, or -errno of the open or mmap (with c->fd == -1).
 */
int pc_capture_open(struct pc_capture *c, struct perfconf_attr *attr, pid_t pid, int cpu);
/*
 * A capture of an inherited event on this task and its children-to-be:
 * sets attr->inherit, pins the caller (work/affinity.h: pc_pin_self) and
 * opens the event on that CPU. 0, or -errno of the pinning, the open or
 * the mmap.
 */
int pc_capture_open_inherited(struct pc_capture *c, struct perfconf_attr *attr);
/* pc_capture_open() of a member of group_fd's group, on this task. */
int pc_capture_open_member(struct pc_capture *c, struct perfconf_attr *attr, int group_fd);
/* pc_capture_open() with a ring of 1 + 2^pages_log2 pages. */
int pc_capture_open_pages(struct pc_capture *c, struct perfconf_attr *attr, pid_t pid, int cpu,
			  unsigned int pages_log2);
/*
 * Drain the ring: copy, decode and keep every new record, releasing the
 * space to the kernel. Returns how many were added, or -errno with the
 * reason in c->error: -EBADMSG for a malformed record or ring (an error,
 * not skipped), -ENOMEM. For a write_backward event the kept records are
 * replaced by a snapshot of the ring, oldest first: pause or disable the
 * event before reading.
 */
int pc_capture_read(struct pc_capture *c);
/* The nth (from 0) record of a type, or NULL. */
const struct pc_record *pc_capture_find(const struct pc_capture *c, uint32_t type, size_t nth);
/* The nth PERF_RECORD_SAMPLE's parsed sample, or NULL. */
const struct pc_sample *pc_capture_sample(const struct pc_capture *c, size_t nth);
size_t pc_capture_count(const struct pc_capture *c, uint32_t type);
/* The samples whose PERF_SAMPLE_IDENTIFIER is id, of task pid (of any task when pid is 0). */
size_t pc_capture_samples_of(const struct pc_capture *c, uint64_t id, uint32_t pid);
/* The sum of the `lost` fields of the capture's PERF_RECORD_LOSTs. */
uint64_t pc_capture_lost_total(const struct pc_capture *c);
/* The distinct record types seen, in order of first arrival: "MMAP2,COMM,EXIT". */
void pc_capture_types(const struct pc_capture *c, char *buf, size_t len);
void pc_capture_close(struct pc_capture *c);

/* Where a record sits in the capture (its arrival order), or -ENOENT. */
long pc_capture_index(const struct pc_capture *c, const struct pc_record *rec);
/* The raw bytes of a kept record (header included), for padding checks. */
const unsigned char *pc_capture_bytes(const struct pc_capture *c, const struct pc_record *rec);

/*
 * Open the event on this task (its ring 1 + 2^pages_log2 pages), enable,
 * run work(arg), disable, read every record. Returns 0, or -errno: of the
 * open or mmap (c->fd == -1 then), or of the enabling, disabling or
 * reading, with the reason in c->error. The capture stays open for the
 * caller to inspect and close (c->fd == -1 when it did not open).
 */
int pc_capture_run(struct pc_capture *c, struct perfconf_attr *attr, pc_work_fn work, void *arg);
int pc_capture_run_pages(struct pc_capture *c, struct perfconf_attr *attr, unsigned int pages_log2,
			 pc_work_fn work, void *arg);
/*
 * pc_capture_run() that does the work once before enabling too, so that
 * the code, stack and PLT pages it runs through are there: only the
 * second run's own events are captured.
 */
int pc_capture_run_warm(struct pc_capture *c, struct perfconf_attr *attr, pc_work_fn work, void *arg);

#endif
