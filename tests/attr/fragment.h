/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the fragments in this folder: a fragment holds the cases that two
 * or more field files share, written once. A field file defines FIELD (the
 * attr member, as a token) and the fragment's other parameters, then
 * includes the fragment; each binary keeps its own name and its own case
 * ids, which FIELD_CASE() spells as before ("formats_in_" + "config3").
 */
#ifndef PERFCONF_TESTS_ATTR_FRAGMENT_H
#define PERFCONF_TESTS_ATTR_FRAGMENT_H

#define FRAGMENT_CAT_(a, b)	a##b
#define FRAGMENT_CAT(a, b)	FRAGMENT_CAT_(a, b)
#define FRAGMENT_STR_(a)	#a
#define FRAGMENT_STR(a)		FRAGMENT_STR_(a)

/* A case id that ends in the field's name: FIELD_CASE(formats_in_). */
#define FIELD_CASE(prefix)	FRAGMENT_CAT(prefix, FIELD)
/* The field's name as a string, as the attr probes take it. */
#define FIELD_NAME		FRAGMENT_STR(FIELD)

#endif
