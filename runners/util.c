// SPDX-License-Identifier: GPL-2.0
/* Small helpers shared by the runner's modules. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sigabbrev_np */
#endif
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

const char *progname = "perfconf";

static void oom(void)
{
	fprintf(stderr, "%s: out of memory\n", progname);
	exit(EXIT_SETUP);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	return b.s;
}

void grow(void *v, size_t *cap, size_t n, size_t sz)
{
	void **pv = v;
	size_t c = *cap;

	if (n <= c)
		return;
	while (c < n)
		c = c ? c * 2 : 8;
	*pv = xrealloc(*pv, c * sz);
	*cap = c;
}

void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t c = b->cap ? b->cap : 256;

		while (c < b->len + n + 1)
			c *= 2;
		b->s = xrealloc(b->s, c);
		b->cap = c;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sb_puts(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

void sb_vprintf(struct sbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	sb_add(b, "", 0);	/* make sure there is a buffer */
	if (b->len + n + 1 > b->cap) {
		size_t c = b->cap;

		while (c < b->len + n + 1)
			c *= 2;
		b->s = xrealloc(b->s, c);
		b->cap = c;
	}
	vsnprintf(b->s + b->len, n + 1, fmt, ap);
	b->len += n;
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(b, fmt, ap);
	va_end(ap);
}

void sb_free(struct sbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void strv_add(struct strv *s, const char *str)
{
	grow(&s->v, &s->cap, s->n + 2, sizeof(*s->v));
	s->v[s->n++] = xstrdup(str);
	s->v[s->n] = NULL;
}

void strv_addf(struct strv *s, const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	grow(&s->v, &s->cap, s->n + 2, sizeof(*s->v));
	s->v[s->n++] = b.s;
	s->v[s->n] = NULL;
}

void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

bool strv_has(const struct strv *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], str))
			return true;
	return false;
}

void strv_add_once(struct strv *s, const char *str)
{
	if (!strv_has(s, str))
		strv_add(s, str);
}

void strv_add_all_once(struct strv *to, const struct strv *from)
{
	for (size_t i = 0; i < from->n; i++)
		strv_add_once(to, from->v[i]);
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

char *read_file(const char *path, size_t *lenp)
{
	struct sbuf b = { 0 };
	char chunk[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return NULL;
	sb_add(&b, "", 0);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			sb_free(&b);
			errno = e;
			return NULL;
		}
		sb_add(&b, chunk, n);
	}
	close(fd);
	if (lenp)
		*lenp = b.len;
	return b.s;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), err = 0;

	if (fd < 0) {
		err = -errno;
		free(tmp);
		return err;
	}
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		data += n;
		len -= n;
	}
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

int mkdir_p(const char *path, int mode)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void remove_tree(const char *path)
{
	/* Make unreadable directories a test left behind removable. */
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

const char *signal_name(int sig)
{
	static char buf[16];
	const char *abbrev = sigabbrev_np(sig);

	if (!abbrev) {
		snprintf(buf, sizeof(buf), "signal %d", sig);
		return buf;
	}
	snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	return buf;
}

void warnx_(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
