/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What is expected of a case on this machine, and why: one entry,
 * expect(), for the runner's verdicts, `perfconf explain` and their tests.
 *
 * The rules, first that applies (README, "Which baseline judges a case"):
 *   own      this kernel's baseline (its arch, kernel line and profile),
 *            recorded under this machine's values of the facts the case
 *            depends on; a kernel with none of its own: the nearest older
 *            one of its arch, and the nearest newer one too (a kernel
 *            between them may show either value: ABI growth in transit),
 *            and the line or between rule's values below where they
 *            differ (any of them).
 * Otherwise every baseline of expected/ counts, of any arch, kernel line or
 * profile, that records the case under those values (a BLOCKED record is
 * no value). Besides its header's facts, each has those of its kernel:
 * arch, userland (the suite's build: the arch, or i386, armhf), word_size,
 * byte_order and line (the kernel's major.minor).
 *   abi      they all agree, over two kernel lines or more: the ABI's
 *            value, for any kernel of any arch;
 *   line     those of this kernel line agree;
 *   between  those of the nearest line below and of the nearest above each
 *            agree: either value (one other line's value never judges
 *            alone);
 * and where the baselines of a line differ between arches, those that
 * share this machine's value of the first separating fact (byte_order,
 * word_size, page_size, arch, userland) give that line's value when they
 * agree. A value that is an arch's own depends on a fact the case (or the
 * lib for it) declares, arch the last resort. What no rule judges is first
 * seen here, with the fact that keeps it from judgement.
 */
#ifndef PERFCONF_RUNNER_EXPECT_H
#define PERFCONF_RUNNER_EXPECT_H

#include <stdbool.h>

#include "baseline.h"
#include "recset.h"

/* Every baseline under expected/, for the rules beyond a kernel's own. */
struct expect_file {
	struct recset set;	/* its facts: its header's and its kernel's (expect_kernel_facts) */
	const char *name;	/* the file's base name */
	int major, minor;
};

struct expect_all {
	struct expect_file *v;
	size_t n;
	struct strv here;	/* this machine's facts and the same derived ones */
	int major, minor;
};

/* Load every <arch>-<M.m>-<profile>.txt of dir; -1 with "file:line: what" in err. */
int expect_load(struct expect_all *x, const char *dir, char *err, size_t errlen);
/*
 * A baseline's or run's facts of its kernel (arch, userland, word_size,
 * byte_order, line), from its "# perfconf" header or else its file name.
 */
void expect_kernel_facts(struct recset *set);
/* This machine: its kernel and facts (after facts_probe), with those of its kernel. */
void expect_here(struct expect_all *x, const struct kernel_id *k, const struct strv *here);
void expect_free(struct expect_all *x);

enum expect_rule { EX_NONE, EX_OWN, EX_ABI, EX_LINE, EX_BETWEEN };

#define EXPECT_MAX 3

struct expectation {
	enum expect_rule rule;
	/*
	 * The value, and others a kernel may show (NULL after the last): one
	 * between two lines may show either side's; one whose own baselines
	 * are of other lines, this line's other arches' too. Each from the
	 * recset named in from[].
	 */
	const struct record *exp[EXPECT_MAX];
	const struct recset *from[EXPECT_MAX];
	/*
	 * The own baseline's record where its facts differ from here's: what
	 * equals it is no regression whatever the facts. NULL otherwise.
	 */
	const struct record *same_anyway;
	bool recorded;		/* some baseline records the case */
	char *files;		/* the files behind the value(s), comma-separated */
	char *why;		/* EX_NONE: what keeps it from judgement (the summary groups by it); else the rule in words */
};

/* What j expects of obs (its id and the facts it depends on); marks the own baseline's record seen. */
void expect(const struct judges *j, const struct record *obs, struct expectation *e);
void expectation_free(struct expectation *e);
const char *expect_rule_name(enum expect_rule r);

#endif
