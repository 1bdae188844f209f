/* SPDX-License-Identifier: GPL-2.0 */
/* A finished binary: its outcome, records and verdicts (job.c), and its KTAP block (ktap.c). */
#ifndef PERFCONF_RUNNER_JOB_H
#define PERFCONF_RUNNER_JOB_H

#include <stdbool.h>

#include "baseline.h"
#include "runner.h"

/* Decide the binary's own status and build its records. */
void job_outcome(struct job *j);
/* Compare its records with the baseline (NULL: none), and a newer one (judge_between). */
void job_judge(struct job *j, struct recset *base, const struct recset *newer);
/* The verdict on case i (records list the cases first, in order). */
const struct verdict *job_case_verdict(const struct job *j, size_t case_index);

/*
 * The binary's KTAP block, numbered j->num: its cases as an indented
 * subtest, then its own result line. verbose: every line it printed;
 * otherwise the diagnostics of the cases that went wrong.
 */
char *ktap_job(const struct job *j, bool verbose);

/* A diagnostic line made safe for KTAP parsers ("# " + text + "\n"). */
void ktap_diag(struct sbuf *out, const char *indent, const char *text);

#endif
