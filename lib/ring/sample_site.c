// SPDX-License-Identifier: GPL-2.0
/* Samples taken at a known place, and where their addresses lie (see sample_site.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "event/event.h"
#include "ring/sample_site.h"

__attribute__((__noinline__, __noipa__)) void pc_probe(uint64_t a, uint64_t b)
{
	__asm__ volatile("" : : "r"(a), "r"(b) : "memory");
}

void pc_probe_work(void *n)
{
	for (uint64_t k = 0; k < (uint64_t)(uintptr_t)n; k++)
		pc_probe(PC_PROBE_ARG0 + k, PC_PROBE_ARG1);
}

int pc_addr_kernel_text(uint64_t *addr)
{
	struct pc_capture cap;
	struct perfconf_attr attr = pc_attr_kernel_sampling(PERF_SAMPLE_IP);
	int err = pc_capture_run(&cap, &attr, pc_kernel_faults_work, PC_N(1));
	if (err && cap.fd < 0)
		return err;	/* it did not open */
	const struct pc_record *r = err ? NULL : pc_capture_find(&cap, PERF_RECORD_SAMPLE, 0);
	uint64_t ip = r ? r->sample.ip : 0;

	pc_capture_close(&cap);
	if (!ip)
		return -EIO;
	*addr = ip;
	return 0;
}

bool pc_callchain_is_marker(uint64_t entry)
{
	return entry >= (uint64_t)PERF_CONTEXT_MAX;
}

unsigned int pc_callchain_count(const struct pc_sample *s, uint64_t value)
{
	unsigned int n = 0;

	for (uint64_t i = 0; i < s->callchain_nr; i++)
		n += s->callchain[i] == value;
	return n;
}

long pc_callchain_find(const struct pc_sample *s, uint64_t value)
{
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		if (s->callchain[i] == value)
			return (long)i;
	return -ENOENT;
}

enum pc_addr_class pc_addr_class(uint64_t addr)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	enum pc_addr_class class = PC_ADDR_UNMAPPED;
	char line[4096];

	if (!maps)
		return PC_ADDR_UNMAPPED;
	while (fgets(line, sizeof(line), maps)) {
		unsigned long long start, end;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s", &start, &end, perms) != 3)
			continue;
		if (addr >= start && addr < end) {
			class = perms[2] == 'x' ? PC_ADDR_TEXT : PC_ADDR_DATA;
			break;
		}
	}
	fclose(maps);
	return class;
}
