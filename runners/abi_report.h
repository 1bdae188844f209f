/* SPDX-License-Identifier: GPL-2.0 */
/* Reports from the lib's ABI tables: the tables themselves, and test coverage. */
#ifndef PERFCONF_ABI_REPORT_H
#define PERFCONF_ABI_REPORT_H

/* perfconf abi: print the ABI tables (attr, mmap page, header, records). */
int cmd_abi(int argc, char **argv);
/*
 * perfconf coverage [TESTS_DIR]: the attr fields that have no test binary
 * tests/attr/<field>.c or tests/attr/<field>_*.c (leading underscores of
 * the field's name dropped). Exit 1 when a field has none.
 */
int cmd_coverage(int argc, char **argv);

#endif
