// SPDX-License-Identifier: GPL-2.0
/* Overflow notifications as poll() sees them. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "ring/capture.h"
#include "event/event.h"
#include "work/faults.h"
#include "ring/wakeup.h"
#include "work/workload.h"

int pc_pollin(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/*
 * Fault in every page of the ring now, the control page for writing:
 * reading the ring later must not add page faults of its own.
 */
static void touch_ring(struct pc_ring *r)
{
	long pg = sysconf(_SC_PAGESIZE);

	for (uint64_t off = 0; off < r->data_size; off += (uint64_t)pg)
		(void)*(volatile unsigned char *)(r->data + off);
	__atomic_store_n(&r->page->data_tail, r->tail, __ATOMIC_RELEASE);
}

/* One step: a fault, a poll, a drain. Returns the poll's answer. */
static int fault_step(int fd, struct pc_ring *r, struct pc_faults *f)
{
	pc_faults_next(f, 1);
	int woken = pc_pollin(fd);
	pc_ring_drain(r);
	return woken;
}

/* One run of `steps` enabled steps on a fresh event. */
static int run(struct perfconf_attr *attr, unsigned int pages_log2, size_t steps,
	       char *pattern, uint64_t *count)
{
	struct pc_faults f;
	struct pc_ring r;
	int err, fd;

	fd = pc_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return fd;
	err = pc_ring_map(&r, fd, pages_log2, PC_RING_READWRITE);
	if (err)
		goto out_close;
	err = pc_faults_map(&f, steps);
	if (err)
		goto out_unmap;
	touch_ring(&r);
	pc_pollin(fd);
	err = pc_enable(fd);
	if (err)
		goto out_faults;
	for (size_t i = 0; i < steps; i++)
		pattern[i] = fault_step(fd, &r, &f) ? 'w' : '.';
	pattern[steps] = '\0';
	err = pc_disable(fd);
	if (!err)
		err = pc_read_count(fd, count);
out_faults:
	pc_faults_unmap(&f);
out_unmap:
	pc_ring_unmap(&r);
out_close:
	close(fd);
	return err;
}

int pc_wakeup_pattern(struct perfconf_attr *attr, unsigned int pages_log2, size_t steps,
			  char *pattern, uint64_t *count)
{
	char rehearsal[2];
	int err;

	attr->exclude_kernel = 1;
	/*
	 * A rehearsal of one step, so that every page the loop touches is
	 * there; the pattern's too: a calloc'd one may lie on a heap page
	 * never written yet, whose first write would be one more sample.
	 */
	memset(pattern, 0, steps + 1);
	err = run(attr, pages_log2, 1, rehearsal, count);
	return err ? err : run(attr, pages_log2, steps, pattern, count);
}

int pc_comm_wakes(struct perfconf_attr *attr, size_t *comm_records)
{
	struct pc_capture cap;
	int woken, err;

	attr->comm = 1;
	err = pc_capture_open(&cap, attr, 0, -1);
	if (err)
		return err;
	pc_pollin(cap.fd);	/* nothing may be pending from before */
	if (pc_enable(cap.fd) || pc_work_set_comm("pc-wakeup")) {
		pc_capture_close(&cap);
		return -EIO;
	}
	woken = pc_pollin(cap.fd);
	if (pc_disable(cap.fd) || pc_capture_read(&cap) < 0)
		woken = -EIO;
	*comm_records = pc_capture_count(&cap, PERF_RECORD_COMM);
	pc_capture_close(&cap);
	return woken;
}
