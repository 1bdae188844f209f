// SPDX-License-Identifier: GPL-2.0
/* Kernel health: taint bits and the kernel log. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "health.h"
#include "module.h"
#include "tap.h"

/*
 * Kernel log lines that mean the kernel hit a bug, matched at the start of
 * the message. The strong ones name the problem; the weak ones (the lines
 * around a splat) only start one.
 */
static const char *const strong[] = {
	"WARNING:", "BUG:", "Oops", "general protection", "kernel BUG",
	"Unable to handle kernel", "Internal error:", "UBSAN:", "watchdog: BUG:", "Kernel panic",
	NULL,
};
static const char *const weak[] = { "Call Trace:", "------------[ cut here ]", NULL };

#define CONTEXT_LINES 40

/* The taint bits a load of the suite's module sets: O (12) and E (13). */
#define MODULE_TAINTS ((1ull << 12) | (1ull << 13))

/* Letters of the taint bits, as Documentation/admin-guide/tainted-kernels.rst lists them. */
static const char taint_letters[] = "PFSRMBUDAWCIOELKXTNJ";

void health_open(struct health *h)
{
	const char *tf = getenv("PERFCONF_TAINT_FILE");
	const char *any = getenv("PERFCONF_KMSG_ANY_FACILITY");
	char *data;

	memset(h, 0, sizeof(*h));
	h->any_facility = any && !strcmp(any, "1");
	snprintf(h->taint_path, sizeof(h->taint_path), "%s",
		 tf && *tf ? tf : "/proc/sys/kernel/tainted");
	data = read_file(h->taint_path, NULL);
	if (data) {
		h->taint = strtoull(data, NULL, 10);
		h->taint_ok = true;
		free(data);
	}
	h->kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (h->kmsg_fd < 0) {
		snprintf(h->kmsg_error, sizeof(h->kmsg_error), "/dev/kmsg: %s", strerror(errno));
		return;
	}
	if (lseek(h->kmsg_fd, 0, SEEK_END) < 0) {
		snprintf(h->kmsg_error, sizeof(h->kmsg_error), "/dev/kmsg: seek: %s", strerror(errno));
		close(h->kmsg_fd);
		h->kmsg_fd = -1;
	}
}

void health_close(struct health *h)
{
	if (h->kmsg_fd >= 0)
		close(h->kmsg_fd);
	h->kmsg_fd = -1;
	strv_free(&h->orphan_log);
	for (size_t i = 0; i < h->ncomplaints; i++)
		complaint_free(&h->complaints[i]);
	free(h->complaints);
	h->complaints = NULL;
	h->ncomplaints = h->complaints_cap = 0;
}

void complaint_free(struct complaint *c)
{
	free(c->title);
	free(c->where);
	strv_free(&c->frames);
	strv_free(&c->lines);
	strv_free(&c->suspects);
	free(c->owner);
	free(c->taint);
	free(c->repro);
	memset(c, 0, sizeof(*c));
}

/* "name+0x1a/0x60 [module]" -> "name" */
static char *symbol_of(const char *s)
{
	s += strspn(s, " \t");
	return xstrndup(s, strcspn(s, "+ \t"));
}

/* The number after "PID: " and the word after "Comm: ", where the line has them. */
static void task_of(struct complaint *c, const char *line)
{
	const char *p = strstr(line, "PID: "), *q = strstr(line, "Comm: ");

	if (p && c->pid < 0)
		c->pid = strtol(p + 5, NULL, 10);
	if (q && !c->comm[0])
		snprintf(c->comm, sizeof(c->comm), "%.*s", (int)strcspn(q + 6, " \t"), q + 6);
}

void complaint_feed(struct complaint *c, const char *line, const char *trigger, int level)
{
	const char *p;

	if (!c->lines.n && !c->title)
		c->pid = -1;
	if (c->lines.n < 200)
		strv_add(&c->lines, line);
	if (level > c->level)
		c->level = level;
	task_of(c, line);
	if (trigger && level == 2 && (!c->title || !strncmp(c->title, "Call Trace", 10))) {
		/* "WARNING: CPU: 1 PID: 7 at fs/x.c:460 f+0x5c/0x90 [mod]" -> "WARNING at fs/x.c:460 f" */
		if (!strncmp(line, "WARNING:", 8) && (p = strstr(line, " at "))) {
			const char *sym = p + 4 + strcspn(p + 4, " ");

			free(c->title);
			c->title = xasprintf("WARNING at %.*s%s%.*s", (int)(sym - p - 4), p + 4, *sym ? " " : "",
					     (int)strcspn(sym + strspn(sym, " "), "+ "), sym + strspn(sym, " "));
		} else {
			free(c->title);
			c->title = xstrndup(line, strlen(line) > 160 ? 160 : strlen(line));
		}
	} else if (trigger && !c->title && strncmp(trigger, "------------", 12)) {
		c->title = xstrdup(trigger);	/* "Call Trace:" alone, until a stronger line names it */
	}
	if (!c->where && (p = strstr(line, "RIP: ")) && (p = strchr(p, ':')) && (p = strchr(p + 1, ':')))
		c->where = symbol_of(p + 1);	/* "RIP: 0010:f+0x1a/0x60" */
	if (!c->where && !strncmp(line, "pc : ", 5))
		c->where = symbol_of(line + 5);	/* arm64 */
	if (strstr(line, "<IRQ>") || strstr(line, "Comm: swapper") || strstr(line, "in_interrupt"))
		c->irq = true;
	if (!strncmp(line, "Call trace:", 11) || !strncmp(line, "Call Trace:", 11)) {
		c->in_trace = true;
		return;
	}
	if (c->in_trace && c->frames.n < 6) {
		const char *f = line + strspn(line, " \t");

		if (*f && *f != '?' && *f != '<' && strchr(f, '+') && !strstr(f, "---[ end trace")) {
			char *sym = symbol_of(f);

			strv_add(&c->frames, sym);
			free(sym);
		}
	}
}

char *complaint_describe(const struct complaint *c)
{
	struct sbuf b = { 0 };

	sb_puts(&b, c->title ? c->title : "a kernel complaint");
	if (c->where && (!c->title || !strstr(c->title, c->where)))
		sb_printf(&b, " in %s", c->where);
	if (c->comm[0] || c->pid >= 0 || c->irq) {
		sb_puts(&b, " (");
		if (c->comm[0])
			sb_printf(&b, "Comm %s", c->comm);
		if (c->pid >= 0)
			sb_printf(&b, "%sPID %ld", c->comm[0] ? ", " : "", c->pid);
		if (c->irq)
			sb_printf(&b, "%sfrom an interrupt or the idle task", c->comm[0] || c->pid >= 0 ? "; " : "");
		sb_puts(&b, ")");
	}
	for (size_t i = 0; i < c->frames.n && i < 4; i++)
		sb_printf(&b, "%s%s", i ? " < " : ": ", c->frames.v[i]);
	return b.s;
}

/* The trigger a message starts with, or NULL; *level 2 strong, 1 weak. */
static const char *trigger_of(const char *msg, int *level)
{
	for (int i = 0; strong[i]; i++) {
		if (!strncmp(msg, strong[i], strlen(strong[i]))) {
			*level = 2;
			return strong[i];
		}
	}
	for (int i = 0; weak[i]; i++) {
		if (!strncmp(msg, weak[i], strlen(weak[i]))) {
			*level = 1;
			return weak[i];
		}
	}
	*level = 0;
	return NULL;
}

int health_trigger(const char *msg)
{
	int level;

	trigger_of(msg, &level);
	return level;
}

int kmsg_next(int fd, bool any_facility, char *rec, size_t len, char **msg)
{
	for (;;) {
		ssize_t n = read(fd, rec, len - 1);
		unsigned int prio;
		char *m;

		if (n < 0 && (errno == EPIPE || errno == EINTR))
			continue;	/* records were overwritten: go on with the next */
		if (n <= 0)
			return 0;
		rec[n] = 0;
		/* "prio,seq,usec,flags[,...];message\n[ KEY=value\n]..." */
		m = strchr(rec, ';');
		if (!m || sscanf(rec, "%u", &prio) != 1)
			continue;
		m++;
		m[strcspn(m, "\n")] = 0;
		if ((prio >> 3) != 0 && !any_facility)
			continue;	/* not the kernel's own */
		sanitize(m);
		*msg = m;
		return 1;
	}
}

void health_read_log(struct health *h, health_fn fn, void *ctx)
{
	char rec[8192 + 1], *msg;

	if (h->kmsg_fd < 0)
		return;
	while (kmsg_next(h->kmsg_fd, h->any_facility, rec, sizeof(rec), &msg)) {
		int level;
		const char *trigger = trigger_of(msg, &level);

		if (trigger) {
			h->context = CONTEXT_LINES;
			fn(ctx, msg, trigger, level);
		} else if (h->context > 0) {
			h->context--;
			fn(ctx, msg, NULL, 0);
			if (strstr(msg, "---[ end trace"))
				h->context = 0;
		}
	}
}

unsigned long long health_new_taint(struct health *h, char *what, size_t len)
{
	char *data = read_file(h->taint_path, NULL);
	unsigned long long now, fresh;
	size_t off = 0;

	if (!data)
		return 0;
	now = strtoull(data, NULL, 10);
	free(data);
	if (!h->taint_ok) {
		h->taint = now;
		h->taint_ok = true;
		return 0;
	}
	fresh = now & ~h->taint;
	/*
	 * Loading the suite's module taints O and E: masked while its own
	 * taint letters say so, and counted as seen (every other bit, and
	 * those with no module of ours to explain them, still count).
	 */
	if (fresh & MODULE_TAINTS)
		fresh &= ~module_taint_mask();
	h->taint |= now;
	if (len)
		what[0] = 0;
	for (int bit = 0; bit < 64 && fresh; bit++) {
		if (!(fresh & (1ull << bit)))
			continue;
		if (off < len)
			off += snprintf(what + off, len - off, "%s%c (bit %d)", off ? ", " : "",
					bit < (int)sizeof(taint_letters) - 1 ? taint_letters[bit] : '?', bit);
	}
	return fresh;
}
