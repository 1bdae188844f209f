// SPDX-License-Identifier: GPL-2.0
/* Dropping privileges inside one test case. */
#include <errno.h>
#include <grp.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "host/privilege.h"

int pc_become_nobody(void)
{
	/* Capabilities must not survive the uid change. */
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) ||
	    setgroups(0, NULL) ||
	    setresgid(PC_NOBODY, PC_NOBODY, PC_NOBODY) ||
	    setresuid(PC_NOBODY, PC_NOBODY, PC_NOBODY))
		return -errno;
	return 0;
}
