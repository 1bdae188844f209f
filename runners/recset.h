/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results as the baselines store them: one record per case,
 *	<case-id> <STATUS>[ <key>=<value>]...
 * with the observations sorted by key. The same format serves the
 * baselines under expected/ and the results.txt of every run.
 */
#ifndef PERFCONF_RUNNER_RECSET_H
#define PERFCONF_RUNNER_RECSET_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/*
 * ST_BLOCKED: this machine cannot test the case (an instrument it needs is
 * broken here, or the environment refuses what it needs). In KTAP it is a
 * SKIP whose reason starts with "blocked"; in baselines and results, BLOCKED.
 */
enum status { ST_PASS, ST_FAIL, ST_SKIP, ST_XFAIL, ST_TIMEOUT, ST_ERROR, ST_BLOCKED, ST__COUNT };

const char *status_name(enum status st);
/* ST__COUNT when `name` is not a status. */
enum status status_parse(const char *name);
/* FAIL, TIMEOUT or ERROR: something went wrong. */
bool status_bad(enum status st);
/* SKIP or BLOCKED: the case did not run its assertions. */
bool status_skipped(enum status st);

struct obs {
	char *key, *value;
};

struct record {
	char *id;		/* "area/binary:case", or "area/binary" for the binary itself */
	enum status st;
	struct obs *obs;
	size_t nobs, obs_cap;
	struct strv deps;	/* the facts it depends on ("# DEPENDS"), from a run only */
	int line;		/* line in the file it was read from, 0 if none */
	bool seen;		/* comparing: a result matched it */
};

/* Observation keys and values, as observe.h defines them. */
bool obs_key_valid(const char *key);
bool obs_value_valid(const char *value);
/* Case ids: printable ASCII without spaces or '#'. */
bool case_id_valid(const char *id);

/* Add an observation (copied); false when the key is already there. */
bool record_add_obs(struct record *r, const char *key, const char *value);
void record_sort_obs(struct record *r);
/* The value for key, or NULL. */
const char *record_obs(const struct record *r, const char *key);
void record_free(struct record *r);
/* "<id> <STATUS> k=v ..." without a newline. */
void record_format(const struct record *r, char **out);

struct recset {
	struct record *v;
	size_t n, cap;
	char *path;		/* where it was read from */
	char *recorded_on;	/* from a "# recorded on: <release>" header, if any */
	char *kernel;		/* "<arch> <M.m> <profile>", from a "# perfconf <what>: " header, if any */
	struct strv facts;	/* from a "# facts: k=v ..." header (facts.h), if any */
	bool has_facts;
	bool sorted;
};

/*
 * Load a baseline or results file. On error returns -1 with a message of
 * the form "file:line: what" in err (never crashes on bad input).
 */
int recset_load(struct recset *s, const char *path, char *err, size_t errlen);
/* Take ownership of *r (the caller's copy is cleared). */
struct record *recset_add(struct recset *s, struct record *r);
void recset_sort(struct recset *s);
/* Binary search; the set must be sorted. */
struct record *recset_find(const struct recset *s, const char *id);
/* Sorted, with a comment header; 0 or -errno. */
int recset_write(struct recset *s, const char *path, const char *header);
void recset_free(struct recset *s);

/* "area/binary" of a case id (into buf). */
void case_binary(const char *id, char *buf, size_t len);

#endif
