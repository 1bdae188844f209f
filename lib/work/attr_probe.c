// SPDX-License-Identifier: GPL-2.0
/* Probing one attr field by its ABI-table name (see attr_probe.h). */
#include <errno.h>
#include <limits.h>
#include <linux/hw_breakpoint.h>
#include <string.h>
#include <unistd.h>

#include "work/attr_probe.h"
#include "event/event.h"
#include "host/kernel.h"
#include "event/pmu.h"
#include "work/workload.h"

const struct pc_abi_field *pc_field_find(const char *name)
{
	return pc_abi_find(&pc_abi_attr, name);
}

/* A bitfield has nbits; a whole field (scalar or reserved) has none. */
static bool is_bitfield(const struct pc_abi_field *f)
{
	return f->nbits != 0;
}

unsigned int pc_field_bits(const char *name)
{
	const struct pc_abi_field *f = pc_field_find(name);

	if (!f)
		return 0;
	return is_bitfield(f) ? f->nbits : (unsigned int)(8 * f->size);
}

/* The field's bits, as a value (not yet shifted to its place in the word). */
static uint64_t field_mask(const struct pc_abi_field *f)
{
	unsigned int bits = is_bitfield(f) ? f->nbits : (unsigned int)(8 * f->size);

	return bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
}

static uint64_t load_word(const unsigned char *p, size_t size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1: memcpy(&v8, p, 1); return v8;
	case 2: memcpy(&v16, p, 2); return v16;
	case 4: memcpy(&v32, p, 4); return v32;
	default: memcpy(&v64, p, 8); return v64;
	}
}

static void store_word(unsigned char *p, size_t size, uint64_t v)
{
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	switch (size) {
	case 1: memcpy(p, &v8, 1); break;
	case 2: memcpy(p, &v16, 2); break;
	case 4: memcpy(p, &v32, 4); break;
	default: memcpy(p, &v, 8); break;
	}
}

int pc_field_set(struct perfconf_attr *attr, const char *name, uint64_t value)
{
	const struct pc_abi_field *f = pc_field_find(name);

	if (!f || f->offset + f->size > sizeof(*attr) || (value & ~field_mask(f)))
		return -EINVAL;
	unsigned char *p = (unsigned char *)attr + f->offset;
	if (!is_bitfield(f)) {
		store_word(p, f->size, value);
		return 0;
	}
	/* Where the bitfield lies in its word depends on the byte order (pc_abi_bits_shift). */
	unsigned int shift = pc_abi_bits_shift(f->bit, f->nbits, f->size);
	uint64_t word = load_word(p, f->size);
	word &= ~(field_mask(f) << shift);
	word |= value << shift;
	store_word(p, f->size, word);
	return 0;
}

uint64_t pc_field_get(const struct perfconf_attr *attr, const char *name)
{
	const struct pc_abi_field *f = pc_field_find(name);

	if (!f || f->offset + f->size > sizeof(*attr))
		return 0;
	uint64_t word = load_word((const unsigned char *)attr + f->offset, f->size);
	return is_bitfield(f) ? (word >> pc_abi_bits_shift(f->bit, f->nbits, f->size)) & field_mask(f) : word;
}

bool pc_field_past_kernel(const char *name)
{
	const struct pc_abi_field *f = pc_field_find(name);
	uint32_t kernel_size = pc_attr_kernel_size();

	return f && kernel_size && f->offset >= kernel_size;
}

int pc_field_errno(const char *name, int known)
{
	return pc_field_past_kernel(name) ? E2BIG : known;
}

int pc_field_reserved_errno(const char *name)
{
	return pc_field_errno(name, EINVAL);
}

struct pc_field_probe pc_field_probe_group(const struct perfconf_attr *attr, const char *name,
					 uint64_t value, int group_fd)
{
	struct perfconf_attr copy = *attr;
	struct pc_field_probe p = { .err = EDOM, .size = attr->size };

	if (pc_field_set(&copy, name, value))
		return p;
	p.err = pc_open_errno(&copy, 0, -1, group_fd, 0);
	p.size = copy.size;
	return p;
}

struct pc_field_probe pc_field_probe(const struct perfconf_attr *attr, const char *name, uint64_t value)
{
	return pc_field_probe_group(attr, name, value, -1);
}

int pc_field_in_software_group_errno(const struct perfconf_attr *attr, const char *name,
					  uint64_t value)
{
	struct perfconf_attr dummy = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	int leader = pc_open(&dummy, 0, -1, -1, 0);

	if (leader < 0)
		return ENODEV;
	int err = pc_field_probe_group(attr, name, value, leader).err;
	close(leader);
	return err;
}

/* What the breakpoint kind watches. */
static volatile uint64_t watched;

size_t pc_field_events(struct pc_field_event *out, size_t max)
{
	static char uprobe_path[PATH_MAX];	/* must outlive the attr */
	struct pc_field_event all[PC_FIELD_EVENTS_MAX];
	size_t n = 0, written = 0;

	all[n++] = (struct pc_field_event){ "software", pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK), true };
	/* where the machine makes no data breakpoint at all, no such kind */
	if (pc_pmu_exists("breakpoint") && pc_breakpoint_refused(HW_BREAKPOINT_W))
		pc_depends("instrument.breakpoints");
	else if (pc_pmu_exists("breakpoint"))
		all[n++] = (struct pc_field_event){ "breakpoint",
						  pc_attr_breakpoint(HW_BREAKPOINT_W, &watched, sizeof(watched)),
						  true };
	all[n].kind = "tracepoint";
	all[n].opens = true;
	if (pc_attr_tracepoint(&all[n].attr, "syscalls", "sys_enter_getppid") == 0)
		n++;
	all[n].kind = "uprobe";
	all[n].opens = pc_kernel_uprobes_task();
	if (pc_attr_uprobe(&all[n].attr, (const void *)pc_work_target, uprobe_path, sizeof(uprobe_path)) == 0)
		n++;
	for (; written < n && written < max; written++)
		out[written] = all[written];
	return written;
}

const char *pc_aux_pmu(void)
{
	static const char *const prefixes[] = { "intel_pt", "intel_bts", "arm_spe", "cs_etm", "hisi_ptt",
						       PC_SYNTH_AUX };
	static char found[64];
	char **pmus = pc_pmu_list();
	const char *name = NULL;

	for (size_t i = 0; pmus && pmus[i] && !name; i++)
		for (size_t j = 0; j < sizeof(prefixes) / sizeof(prefixes[0]); j++)
			if (strncmp(pmus[i], prefixes[j], strlen(prefixes[j])) == 0 &&
			    strlen(pmus[i]) < sizeof(found)) {
				strcpy(found, pmus[i]);
				name = found;
				break;
			}
	pc_strv_free(pmus);
	return name;
}

int pc_aux_pmu_probe_errno(const char *name, uint64_t value, bool in_group)
{
	const char *pmu = pc_aux_pmu();
	int type = pmu ? pc_pmu_type(pmu) : -ENOENT;

	if (type < 0)
		return ENODEV;
	struct perfconf_attr aux = pc_attr((uint32_t)type, 0);
	aux.exclude_kernel = 1;		/* as an unprivileged tracer would */
	if (!in_group)
		return pc_field_probe(&aux, name, value).err;
	int leader = pc_open(&aux, 0, -1, -1, 0);
	if (leader < 0)
		return ENODEV;
	struct perfconf_attr member = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1, PERF_SAMPLE_TID);
	int err = pc_field_probe_group(&member, name, value, leader).err;
	close(leader);
	return err;
}
