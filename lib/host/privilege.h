/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dropping privileges inside one test case: the harness forks every case,
 * so a case may give up root for good and the others keep it.
 */
#ifndef PERFCONF_PRIVILEGE_H
#define PERFCONF_PRIVILEGE_H

#define PC_NOBODY 65534

/*
 * Become uid/gid 65534 with no supplementary groups: every capability is
 * gone (no CAP_PERFMON, CAP_SYS_ADMIN, CAP_BPF). Irreversible for the
 * calling process. 0, or -errno (-EPERM when not root to begin with).
 */
int pc_become_nobody(void);

#endif
