// SPDX-License-Identifier: GPL-2.0
/* Observations, errno names and the "not supported here" errnos. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/observe.h"

#define E(name) [name] = #name
static const char *const errno_names[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES),
	E(EFAULT), E(ENOTBLK), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV),
	E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY),
	E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK),
	E(EPIPE), E(EDOM), E(ERANGE), E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK),
	E(ENOSYS), E(ENOTEMPTY), E(ELOOP), E(ENOMSG), E(EIDRM), E(ENOSTR),
	E(ENODATA), E(ETIME), E(ENOSR), E(EOVERFLOW), E(EBADFD), E(EILSEQ),
	E(EUSERS), E(ENOTSOCK), E(EMSGSIZE), E(EPROTOTYPE), E(ENOPROTOOPT),
	E(EPROTONOSUPPORT), E(EOPNOTSUPP), E(EAFNOSUPPORT), E(EADDRINUSE),
	E(ENETDOWN), E(ENOBUFS), E(EISCONN), E(ENOTCONN), E(ETIMEDOUT),
	E(ECONNREFUSED), E(EALREADY), E(EINPROGRESS), E(ESTALE), E(EDQUOT),
	E(ECANCELED), E(EOWNERDEAD), E(ENOTRECOVERABLE), E(ERFKILL),
	E(EHWPOISON),
};
#undef E

const char *pc_errno_name(int err)
{
	/* A few slots, so that two unknown names can appear in one message. */
	static __thread char unknown[4][16];
	static __thread unsigned int slot;

	if (err == 0)
		return "OK";
	if (err > 0 && (size_t)err < sizeof(errno_names) / sizeof(errno_names[0]) &&
	    errno_names[err])
		return errno_names[err];
	char *name = unknown[slot++ % 4];
	snprintf(name, sizeof(unknown[0]), "E%d", err);
	return name;
}

int pc_errno_from_name(const char *name)
{
	if (!strcmp(name, "OK"))
		return 0;
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (errno_names[i] && !strcmp(errno_names[i], name))
			return (int)i;
	return -ENOENT;
}

/* Keys are [a-z0-9_.-]; values are one token of printable ASCII. */
static void sanitize(char *s, int is_key)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		int ok = is_key ? ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
				   c == '_' || c == '.' || c == '-')
				: (c > ' ' && c < 0x7f && c != '=' && c != '#');
		if (!ok)
			*s = '_';
	}
}

void pc_observe(const char *key, const char *fmt, ...)
{
	char k[64], v[448], line[544];
	int saved = errno;
	va_list ap;

	snprintf(k, sizeof(k), "%s", key);
	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	sanitize(k, 1);
	sanitize(v, 0);
	int n = snprintf(line, sizeof(line), "# OBS %s=%s\n", k, v[0] ? v : "_");
	/* One write: the harness forks each case and the child _exit()s. */
	if (write(STDOUT_FILENO, line, (size_t)n) < 0)
		perror("observation");
	errno = saved;
}

void pc_observe_errno(const char *key, int err)
{
	pc_observe(key, "%s", pc_errno_name(err));
}

void pc_diag_once(const char *line)
{
	static char said[48][160];	/* what this process said already */
	static pid_t said_by;
	static size_t nsaid;
	int saved = errno;

	/* Once per process: the harness forks each case, its child starts over. */
	if (said_by != getpid()) {
		said_by = getpid();
		nsaid = 0;
	}
	for (size_t i = 0; i < nsaid; i++)
		if (!strcmp(said[i], line))
			return;
	if (nsaid < sizeof(said) / sizeof(said[0]) && strlen(line) < sizeof(said[0]))
		strcpy(said[nsaid++], line);
	if (write(STDOUT_FILENO, line, strlen(line)) < 0)
		perror("diagnostic");
	errno = saved;
}

void pc_depends(const char *fmt, ...)
{
	char fact[128], line[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fact, sizeof(fact), fmt, ap);
	va_end(ap);
	sanitize(fact, 0);
	snprintf(line, sizeof(line), "# DEPENDS %s\n", fact);
	pc_diag_once(line);
}

bool pc_errno_is_unsupported(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV;
}
