/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probing one attr field by its name in the ABI table (lib/abi/abi.h): set it
 * in an attr, tell whether it lies past the running kernel's attr size,
 * open with it and report what the kernel answered. The tests/attr
 * binaries, one per field, are built on this.
 *
 *	struct perfconf_attr a = pc_attr_sw(PERF_COUNT_SW_CPU_CLOCK);
 *	struct pc_field_probe p = pc_field_probe(&a, "__reserved_2", 1);
 *	EXPECT_ERRNO(EINVAL, p.err);
 *
 * Its EXPECT_, REQUIRE_ and PROBE_ macros expand in a test, where
 * perfconf.h brings the harness.
 */
#ifndef PERFCONF_ATTR_PROBE_H
#define PERFCONF_ATTR_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/abi.h"
#include "abi/uapi.h"
#include "host/observe.h"
#include "host/kernel.h"
#include "event/event.h"

/* The attr field of that name in the ABI table ("aux_pause", "__reserved_1"), or NULL. */
const struct pc_abi_field *pc_field_find(const char *name);
/* Its width in bits: nbits for a bitfield, 8 * size for a whole field; 0 if unknown. */
unsigned int pc_field_bits(const char *name);
/*
 * Store `value` in the field, a whole field or a bitfield, leaving every
 * other bit of the attr as it was. 0, or -EINVAL for an unknown name or a
 * value wider than the field.
 */
int pc_field_set(struct perfconf_attr *attr, const char *name, uint64_t value);
uint64_t pc_field_get(const struct perfconf_attr *attr, const char *name);
/*
 * True when the field starts at or past the running kernel's own attr size
 * (pc_attr_kernel_size()): that kernel does not know it, and a non-zero
 * value there is E2BIG. False when the size could not be probed.
 */
bool pc_field_past_kernel(const char *name);
/*
 * What setting the field gets from the running kernel: `known`, its answer
 * where the field lies within its attr size, or E2BIG where it lies past.
 */
int pc_field_errno(const char *name, int known);
/*
 * What a non-zero value in a reserved field gets from the running kernel:
 * EINVAL ("must be zero"), or E2BIG when the field lies past its attr size.
 */
int pc_field_reserved_errno(const char *name);

struct pc_field_probe {
	int err;	/* errno of the open; 0 if it opened (then closed again) */
	uint32_t size;	/* attr.size as the kernel left it */
};
/*
 * Open a copy of attr with the field set to value, on this task, any CPU,
 * alone or in group_fd's group. attr itself is not changed. A name that is
 * not in the table, or a value that does not fit, fails the probe with
 * err = EDOM, which no open returns.
 */
struct pc_field_probe pc_field_probe_group(const struct perfconf_attr *attr, const char *name,
					 uint64_t value, int group_fd);
struct pc_field_probe pc_field_probe(const struct perfconf_attr *attr, const char *name, uint64_t value);
/*
 * The errno of the probe in a group led by a software (dummy) event: for
 * fields that want a particular group leader. ENODEV if the leader did not open.
 */
int pc_field_in_software_group_errno(const struct perfconf_attr *attr, const char *name,
					  uint64_t value);
/*
 * A reserved (or not yet known) field: each of its bits set alone, and all
 * of them at once, gets pc_field_reserved_errno() from an open of attr.
 */
#define EXPECT_EACH_BIT_REFUSED(attr, name) do { \
	unsigned int bits_ = pc_field_bits(name); \
	ASSERT_NE(0, bits_) TH_LOG("%s is not in the ABI table", name); \
	for (unsigned int b_ = 0; b_ < bits_; b_++) { \
		EXPECT_ERRNO(pc_field_reserved_errno(name), pc_field_probe(attr, name, 1ULL << b_).err) \
			TH_LOG("%s bit %u (bit %u of its word in declaration order)", name, b_, \
			       pc_field_find(name)->bit + b_); \
	} \
} while (0)
#define EXPECT_ALL_BITS_REFUSED(attr, name) do { \
	unsigned int bits_ = pc_field_bits(name); \
	ASSERT_NE(0, bits_) TH_LOG("%s is not in the ABI table", name); \
	EXPECT_ERRNO(pc_field_reserved_errno(name), \
		     pc_field_probe(attr, name, bits_ >= 64 ? UINT64_MAX : (1ULL << bits_) - 1).err); \
} while (0)

/*
 * The attr size rule for one field, as (part of) a test case: with the
 * field non-zero, a field past the kernel's attr size gives E2BIG with the
 * kernel's size written into attr.size; a field within it is read by the
 * kernel, so whatever it answers, it is not E2BIG and attr.size stays.
 */
#define EXPECT_ATTR_SIZE_RULE(attr, name, value) do { \
	struct pc_field_probe p_ = pc_field_probe(attr, name, value); \
	uint32_t k_ = pc_attr_kernel_size(); \
	ASSERT_NE(0, k_) TH_LOG("the kernel's attr size could not be probed"); \
	ASSERT_NE(EDOM, p_.err) TH_LOG("%s: not in the ABI table, or the value does not fit", name); \
	if (pc_field_past_kernel(name)) { \
		EXPECT_ERRNO(E2BIG, p_.err) TH_LOG("%s lies past this kernel's attr size %u", name, k_); \
		EXPECT_EQ(k_, p_.size) TH_LOG("attr.size after E2BIG is not the kernel's size"); \
	} else { \
		EXPECT_STRNE(pc_errno_name(E2BIG), pc_errno_name(p_.err)) \
			TH_LOG("%s lies within this kernel's attr size %u", name, k_); \
		EXPECT_EQ((attr)->size, p_.size) TH_LOG("attr.size rewritten without E2BIG"); \
	} \
} while (0)

/*
 * One counting attr of each kind of event this machine offers, to show a
 * rule holds whatever the event: "software" (cpu-clock), "breakpoint" (a
 * write watchpoint on a variable of the lib), "tracepoint"
 * (syscalls:sys_enter_getppid; tracefs is mounted privately if needed),
 * "uprobe" (on pc_work_target). Kinds this machine lacks are left out;
 * `opens` is false for the uprobe where the kernel cannot probe this task
 * (pc_kernel_uprobes_task): only refusals that come before the probe is
 * placed show on it.
 * Returns how many were written (at most max).
 */
struct pc_field_event {
	const char *kind;
	struct perfconf_attr attr;
	bool opens;		/* the plain event opens on this task */
};
#define PC_FIELD_EVENTS_MAX 4
size_t pc_field_events(struct pc_field_event *out, size_t max);

/*
 * The rule holds on every kind of event here (pc_field_events) that opens
 * on this task: the plain event opens, and with the field set to value the
 * open gets `expected` (0: it opens too); an E2BIG writes the kernel's
 * attr size back.
 */
#define EXPECT_EACH_KIND_ERRNO(name, value, expected) do { \
	struct pc_field_event k_[PC_FIELD_EVENTS_MAX]; \
	size_t n_ = pc_field_events(k_, PC_FIELD_EVENTS_MAX); \
	ASSERT_LE(1, n_); \
	for (size_t i_ = 0; i_ < n_; i_++) { \
		if (!k_[i_].opens) \
			continue; \
		EXPECT_ERRNO(0, pc_open_errno(&k_[i_].attr, 0, -1, -1, 0)) \
			TH_LOG("a plain %s event", k_[i_].kind); \
		struct pc_field_probe p_ = pc_field_probe(&k_[i_].attr, name, value); \
		EXPECT_ERRNO(expected, p_.err) TH_LOG("%s = %#llx on a %s event", name, \
						(unsigned long long)(value), k_[i_].kind); \
		if (p_.err == E2BIG) \
			EXPECT_EQ(pc_attr_kernel_size(), p_.size) \
				TH_LOG("attr.size after E2BIG on a %s event", k_[i_].kind); \
	} \
} while (0)

/*
 * The name of a PMU here that has an AUX area (intel_pt, intel_bts,
 * arm_spe_N, cs_etm, hisi_ptt...), known by name since sysfs has no flag
 * for it; NULL when there is none. The AUX fields' effects need one.
 */
const char *pc_aux_pmu(void);

/*
 * The field set to value on the AUX PMU's event (config 0), or with
 * in_group on a software event led by that event: the errno of the open.
 * ENODEV when there is no AUX PMU or its plain event does not open.
 */
int pc_aux_pmu_probe_errno(const char *name, uint64_t value, bool in_group);

/*
 * A case about the effect on an AUX PMU: SKIP when there is none. Where
 * there is one, pc_aux_pmu_probe_errno()'s answer is observed as
 * "errno.aux_pmu" and the case SKIPs as well: the effects the suite's
 * own PMUs can show are other cases (ring/synth.h).
 */
#define PROBE_ON_AUX_PMU(name, value, in_group, effect) do { \
	const char *pmu_ = pc_aux_pmu(); \
	if (!pmu_) \
		SKIP(return, "no AUX-area PMU (intel_pt, arm_spe, cs_etm...) here: %s", effect); \
	pc_observe_errno("errno.aux_pmu", pc_aux_pmu_probe_errno(name, value, in_group)); \
	SKIP(return, "%s is here: this case observes its errno; the effect (%s) is checked, where a " \
	     "PMU can show it, by the binary's cases on the suite's own PMUs", pmu_, effect); \
} while (0)

/* SKIP a case that sets the field when the running kernel's attr ends before it. */
#define REQUIRE_ATTR_FIELD(name) do { \
	if (pc_field_past_kernel(name)) \
		SKIP(return, "%s lies past this kernel's attr size %u (attr_size_rule covers it)", \
		     name, pc_attr_kernel_size()); \
} while (0)

/*
 * What a kernel answers for a field depends on whether it knows it: from
 * the release the ABI table gives on, exactly `known`; before, `unknown`
 * (or `known`, where the field was backported).
 */
#define EXPECT_ERRNO_SINCE(name, known, unknown, err) do { \
	int e_ = (err); \
	const struct pc_abi_field *f_ = pc_field_find(name); \
	ASSERT_NE(NULL, f_) TH_LOG("%s is not in the ABI table", name); \
	if (pc_kernel()->kver >= f_->since) { \
		EXPECT_ERRNO(known, e_) TH_LOG("%s is known since %d.%d", name, \
					     f_->since / 1000, f_->since % 1000); \
	} else { \
		EXPECT_TRUE(e_ == (unknown) || e_ == (known)) \
			TH_LOG("%s: expected %s (or %s where backported), got %s", name, \
			       pc_errno_name(unknown), pc_errno_name(known), pc_errno_name(e_)); \
	} \
} while (0)

#endif
