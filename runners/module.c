// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and unloading the suite's module, perfconf_pmu (module.h), and
 * saying in one line why it is not loaded where it is not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "facts.h"
#include "health.h"
#include "module.h"
#include "tap.h"
#include "util.h"
#include "host/kernel.h"
#include "host/observe.h"
#include "host/sysctl.h"

#define TAINT_OOT 12		/* O: an out-of-tree module was loaded */
#define TAINT_UNSIGNED 13	/* E: an unsigned module was loaded */
#define CAP_SYS_MODULE_BIT 16
#define REASON_LOG_MAX 200	/* of a kernel log line quoted in a reason */

const char *module_sysfs(const char *rel, char *buf, size_t len)
{
	const char *base = getenv("PERFCONF_MODULE_SYSFS");

	snprintf(buf, len, "%s/" PC_MODULE "%s%s", base && *base ? base : "/sys/module", rel ? "/" : "",
		 rel ? rel : "");
	return buf;
}

bool module_present(void)
{
	char path[512];

	return access(module_sysfs(NULL, path, sizeof(path)), F_OK) == 0;
}

/* Its taint letters as sysfs has them ("OE"), or NULL. */
static char *taint_letters(void)
{
	char path[512], *t = read_file(module_sysfs("taint", path, sizeof(path)), NULL);

	if (t)
		t[strcspn(t, "\n")] = 0;
	return t;
}

unsigned long long module_taint_mask(void)
{
	char *t = taint_letters();
	unsigned long long mask = 0;

	if (t && strchr(t, 'O'))
		mask |= 1ull << TAINT_OOT;
	if (t && strchr(t, 'E'))
		mask |= 1ull << TAINT_UNSIGNED;
	free(t);
	return mask;
}

/* Whether this process has CAP_SYS_MODULE in its effective set. */
static bool cap_sys_module(void)
{
	char *status = read_file("/proc/self/status", NULL), *p;
	unsigned long long eff = 0;
	bool has = true;	/* not known: the kernel will say */

	p = status ? strstr(status, "\nCapEff:") : NULL;
	if (p && sscanf(p + 8, "%llx", &eff) == 1)
		has = eff & (1ull << CAP_SYS_MODULE_BIT);
	free(status);
	return has;
}

/* The kernel log from its end now: an fd to read what the load says, or -1. */
static int kmsg_from_now(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * The kernel's own lines since fd was opened (kmsg_from_now; user space's
 * too with PERFCONF_KMSG_ANY_FACILITY=1, for the runner's tests), each
 * sanitized and cut to REASON_LOG_MAX. Closes fd.
 */
static void kmsg_lines(int fd, struct strv *out)
{
	const char *any = getenv("PERFCONF_KMSG_ANY_FACILITY");
	char rec[8192 + 1], *msg;

	if (fd < 0)
		return;
	while (kmsg_next(fd, any && !strcmp(any, "1"), rec, sizeof(rec), &msg)) {
		if (strlen(msg) > REASON_LOG_MAX)
			msg[REASON_LOG_MAX] = 0;
		strv_add(out, msg);
	}
	close(fd);
}

/*
 * The kernel's line about a failed load: the first that names the module
 * ("perfconf_pmu: Unknown symbol x (err -2)") or the module loader
 * ("module: ..."), other than the taint notices any load prints. NULL
 * when there is none.
 */
static char *kmsg_reason(int fd)
{
	struct strv lines = { 0 };
	char *found = NULL;

	kmsg_lines(fd, &lines);
	for (size_t i = 0; i < lines.n && !found; i++) {
		const char *l = lines.v[i];

		if (strstr(l, "taints kernel") || strstr(l, "tainting kernel"))
			continue;
		if (strstr(l, PC_MODULE) || !strncasecmp(l, "module", 6))
			found = xstrdup(l);
	}
	strv_free(&lines);
	return found;
}

/*
 * The kernel's complaint while the module loaded or unloaded (health.h):
 * the first line of the strongest. The run's health check starts after
 * the load and ends before the unload, so it would go unseen. NULL when
 * there is none.
 */
static char *kmsg_complaint(int fd)
{
	struct strv lines = { 0 };
	char *found = NULL;
	int found_level = 0;

	kmsg_lines(fd, &lines);
	for (size_t i = 0; i < lines.n; i++) {
		int level = health_trigger(lines.v[i]);

		if (level > found_level) {
			free(found);
			found = xstrdup(lines.v[i]);
			found_level = level;
		}
	}
	strv_free(&lines);
	return found;
}

/* Why finit_module() refused it (err), in one line; log: the kernel's line, or NULL. */
static char *load_reason(int err, const char *log)
{
	const char *what, *name = pc_errno_name(err);
	char *s, *lockdown = NULL;
	long disabled = 0;

	switch (err) {
	case ENOSYS:
		return xstrdup("this kernel loads no modules (CONFIG_MODULES=n)");
	case EPERM:
		if (!cap_sys_module())
			return xstrdup("not permitted: the runner has no CAP_SYS_MODULE");
		if (pc_kernel_read_long("/proc/sys/kernel/modules_disabled", &disabled) == 0 && disabled)
			return xstrdup("module loading is disabled (/proc/sys/kernel/modules_disabled is 1)");
		lockdown = xstrdup(facts_lockdown());
		if (strcmp(lockdown, "none") && strcmp(lockdown, FACT_UNKNOWN)) {
			s = xasprintf("the kernel is locked down (lockdown=%s): it loads signed modules only", lockdown);
			free(lockdown);
			return s;
		}
		s = xasprintf("not permitted (EPERM), with CAP_SYS_MODULE, modules enabled and lockdown %s: "
			      "a security module's policy?%s%s", lockdown, log ? " The kernel log: " : "", log ? log : "");
		free(lockdown);
		return s;
	case EKEYREJECTED:
	case ENOKEY:
	case EKEYEXPIRED:
	case EKEYREVOKED:
		name = err == EKEYREJECTED ? "EKEYREJECTED" : err == ENOKEY ? "ENOKEY"
		     : err == EKEYEXPIRED ? "EKEYEXPIRED" : "EKEYREVOKED";
		what = "the kernel enforces module signatures (module.sig_enforce) and it is not signed "
		       "with a key the kernel trusts";
		break;
	case ENOEXEC:
		what = "built for another kernel, or not a module (vermagic, arch or format)";
		break;
	case EINVAL:
		what = "built for another kernel (vermagic, symbol versions), or its init failed";
		break;
	case ENOENT:
		what = "a symbol it needs is not in this kernel";
		break;
	default:
		what = "the kernel refused it";
		break;
	}
	if (log)
		return xasprintf("%s (%s): %s", what, name, log);
	return xasprintf("%s (%s: %s; the kernel log says no more)", what, name, strerror(err));
}

/* Why there is no file to load: module/why beside it, where the build left one. */
static char *missing_reason(const char *file, bool default_file)
{
	const char *slash = strrchr(file, '/');
	char *why_path = slash ? xasprintf("%.*s/why", (int)(slash - file), file) : xstrdup("why");
	char *why = read_file(why_path, NULL);

	free(why_path);
	if (why) {
		why[strcspn(why, "\n")] = 0;
		sanitize(why);
		if (*why)
			return why;
	}
	free(why);
	if (default_file)
		return xasprintf("not built (no %s)", file);
	return xasprintf("%s: %s", file, strerror(ENOENT));
}

char *module_missing(const char *file, bool default_file)
{
	if (access(file, F_OK) == 0)
		return NULL;
	return missing_reason(file, default_file);
}

int module_restore(void)
{
	/* A run killed between noting the load and making it left nothing loaded. */
	if (!module_present()) {
		pc_sysctl_forget(PC_MODULE_STATE);
		return -ENOENT;
	}
	return pc_sysctl_restore(PC_MODULE_STATE);
}

int module_restore_stale(struct module_run *m)
{
	int err = module_restore();

	if (err && err != -ENOENT)
		m->stale = true;	/* still loaded and still ours: unloaded at this run's end */
	return err;
}

void module_load(struct module_run *m, const char *file, bool default_file, bool skip)
{
	int fd, kfd, err;

	if (module_present()) {
		m->loaded = true;
		m->ours = m->stale;
		m->before = !m->stale;
		goto taints;
	}
	if (skip) {
		m->reason = xstrdup("the runner was told not to load it (--no-module)");
		return;
	}
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		m->reason = errno == ENOENT ? missing_reason(file, default_file)
					    : xasprintf("cannot open %s: %s", file, strerror(errno));
		return;
	}
	/* Noted first: a run killed right after the load still has it unloaded. */
	err = pc_sysctl_save_module(PC_MODULE_STATE);
	if (err) {
		m->reason = xasprintf("cannot note it in the state file %s (%s): nothing would unload it after "
				      "a crash", pc_sysctl_state_path(), strerror(-err));
		close(fd);
		return;
	}
	kfd = kmsg_from_now();
	if (syscall(SYS_finit_module, fd, "", 0) == 0) {
		m->loaded = m->ours = true;
		m->load_complaint = kmsg_complaint(kfd);
	} else {
		err = errno;
		pc_sysctl_forget(PC_MODULE_STATE);
		if (err == EEXIST && module_present()) {
			/* loaded meanwhile by someone else: theirs to unload */
			m->loaded = m->before = true;
			if (kfd >= 0)
				close(kfd);
		} else {
			char *log = kmsg_reason(kfd);

			m->reason = err == EEXIST ? xstrdup("the kernel has a module of that name loading or loaded "
							    "(EEXIST), yet no /sys/module/" PC_MODULE)
						  : load_reason(err, log);
			free(log);
		}
	}
	close(fd);
	if (!m->loaded)
		return;
taints:
	{
		char *t = taint_letters();

		if (t) {
			struct sbuf b = { 0 };

			for (const char *p = t; *p; p++)
				sb_printf(&b, "%s%c", p == t ? "" : ", ", *p);
			m->taints = b.s ? b.s : xstrdup("");
			free(t);
		}
	}
}

char *module_header(const struct module_run *m)
{
	char *taints, *line;

	if (!m->loaded)
		return xasprintf("module: " PC_MODULE " not loaded: %s", m->reason ? m->reason : "unknown");
	taints = !m->taints ? xstrdup("") : *m->taints ? xasprintf(" (taints %s)", m->taints)
					  : xstrdup(" (no taint)");
	line = xasprintf("module: " PC_MODULE " loaded%s%s", taints,
			 m->stale ? ", by an earlier run; still in use at start, unloaded at the end of this run"
			 : m->before ? ", as it was before the run: left loaded" : "");
	free(taints);
	return line;
}

int module_unload(struct module_run *m, char **why)
{
	int err, kfd;

	*why = NULL;
	if (!m->ours)
		return 0;
	kfd = kmsg_from_now();
	err = pc_sysctl_restore(PC_MODULE_STATE);
	m->unload_complaint = kmsg_complaint(kfd);
	if (err == -ENOENT)
		err = 0;	/* unloaded by hand meanwhile (perfconf restore is refused while we run) */
	if (err == -EBUSY || err == -EAGAIN)
		*why = xasprintf(PC_MODULE " stays loaded: still in use after %d s (lsmod names its users); the "
				 "next run or `perfconf restore` unloads it", PC_MODULE_UNLOAD_WAIT_MS / 1000);
	else if (err)
		*why = xasprintf("cannot unload " PC_MODULE ": %s; the next run or `perfconf restore` tries again",
				 strerror(-err));
	else
		m->ours = false;
	return err;
}

void module_run_free(struct module_run *m)
{
	free(m->reason);
	free(m->taints);
	free(m->load_complaint);
	free(m->unload_complaint);
	memset(m, 0, sizeof(*m));
}
