/* SPDX-License-Identifier: GPL-2.0 */
/* Reports from the lib's ABI tables: the tables themselves, and test coverage. */
#ifndef PERFCONF_ABI_REPORT_H
#define PERFCONF_ABI_REPORT_H

/*
 * perfconf abi: print the ABI tables (attr, mmap page, header, records,
 * ioctls, open and ioctl flags, perf_event_open errnos with their causes).
 */
int cmd_abi(int argc, char **argv);
/*
 * perfconf coverage [TESTS_DIR]: the attr fields that have no test binary
 * tests/attr/<field>.c or tests/attr/<field>_*.c (leading underscores of
 * the field's name dropped); then each ioctl without tests/ioctl/<name>.c
 * (PERF_EVENT_IOC_<NAME> lower case, and flag_group), each open flag
 * without tests/flags/<name>.c (PERF_FLAG_<NAME> lower case), each
 * documented errno without tests/errors/<errno>.c; a summary line per
 * table. Exit 1 while anything is missing.
 */
int cmd_coverage(int argc, char **argv);

#endif
