/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the runner's modules: memory, strings, buffers, time. */
#ifndef PERFCONF_RUNNER_UTIL_H
#define PERFCONF_RUNNER_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Exit codes of the runner. */
enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_SETUP = 2 };

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *v (of *cap elements of size sz) so that it holds at least n. */
void grow(void *v, size_t *cap, size_t n, size_t sz);

/* A growable byte buffer, always NUL-terminated. */
struct sbuf {
	char *s;
	size_t len, cap;
};
void sb_add(struct sbuf *b, const char *s, size_t n);
void sb_puts(struct sbuf *b, const char *s);
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(struct sbuf *b, const char *fmt, va_list ap);
void sb_free(struct sbuf *b);

/* A growable array of owned strings. */
struct strv {
	char **v;
	size_t n, cap;
};
void strv_add(struct strv *s, const char *str);
void strv_addf(struct strv *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strv_free(struct strv *s);
bool strv_has(const struct strv *s, const char *str);
/* strv_add, unless s has it already. */
void strv_add_once(struct strv *s, const char *str);
/* Each string of from that to does not have yet, in order. */
void strv_add_all_once(struct strv *to, const struct strv *from);

/* Monotonic seconds. */
double now_s(void);

/* Read a whole (small) file; NULL with errno set on failure. */
char *read_file(const char *path, size_t *len);
/* Write a whole file through a temp file and rename. 0 or -errno. */
int write_file_atomic(const char *path, const char *data, size_t len);
/* mkdir -p. 0 or -errno. */
int mkdir_p(const char *path, int mode);
/* rm -rf, never crossing into other file systems. */
void remove_tree(const char *path);

/* "SIGSEGV" for SIGSEGV. */
const char *signal_name(int sig);

/* The program name for messages ("perfconf"). */
extern const char *progname;
/* "perfconf: message" on stderr. */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
