// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring/synth.h"

const char *pc_synth_absent(void)
{
	static char why[256];
	const char *runner = getenv("PERFCONF_PMU_MODULE");

	if (runner && *runner && strcmp(runner, "loaded"))
		snprintf(why, sizeof(why), "perfconf_pmu.ko is not loaded: %s", runner);
	else
		snprintf(why, sizeof(why), "perfconf_pmu.ko is not loaded (no %s or %s PMU in sysfs)",
			 PC_SYNTH_AUX, PC_SYNTH_OUT);
	return why;
}

bool pc_synth_param(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/perfconf_pmu/parameters/%s", name);
	FILE *f = fopen(path, "re");
	int c = f ? fgetc(f) : EOF;

	if (f)
		fclose(f);
	return c == 'Y';
}

int pc_synth_capture(struct pc_capture *c, struct perfconf_attr *attr, unsigned int aux_log2,
		     enum pc_ring_mode mode)
{
	int err = pc_capture_open(c, attr, 0, -1);

	if (err)
		return err;
	err = pc_ring_map_aux(&c->ring, c->fd, aux_log2, mode);
	if (err) {
		pc_capture_close(c);
		c->fd = -1;
	}
	return err;
}

uint64_t pc_synth_mismatch(const struct pc_ring *r, uint64_t from, uint64_t to)
{
	for (uint64_t p = from; p < to; p++)
		if (!r->aux || r->aux[p % r->aux_size] != pc_synth_byte(p))
			return p;
	return to;
}
