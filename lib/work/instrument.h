/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instruments: what a case measures with when its subject is something else
 * (a breakpoint as an exact counter, a SCHED_FIFO partner to force a
 * preemption, a syscall tracepoint counting getppid() calls, a uprobe
 * counting a function's calls). On some machines an instrument is broken:
 * breakpoints that open but never fire, SCHED_FIFO refused to root, syscall
 * tracepoints that never fire for a 32-bit build on a 64-bit kernel (its
 * compat syscalls are not traced), uprobes whose hit kills the task (s390x
 * under qemu 7.2's TCG). A case that needs one
 * must then say it cannot test here instead of failing its own subject.
 *
 *	REQUIRE_INSTRUMENT(PC_INSTR_BREAKPOINTS);	(perfconf.h)
 *
 * Each instrument has a probe that tries it for real, once per binary: the
 * result is kept in memory shared by the harness's forks. A broken
 * instrument blocks the case: it is reported as SKIP with a reason that
 * starts with "blocked by <instrument>: ", naming what failed and the case
 * that shows the root cause. The runner reads that reason as the status
 * BLOCKED ("this machine cannot test it"), never as the kernel's
 * regression. The cases whose subject *is* the instrument call
 * pc_instrument_note() instead: they still run and fail, with one
 * "# CAUSE <instrument>: <why>" line so the runner can name the shared
 * cause once.
 *
 * PERFCONF_BROKEN=breakpoints,sched_fifo,syscall_tracepoints,uprobes (or "all") in the environment
 * forces those probes to report broken: a developer whose breakpoints
 * fire can watch the cases go blocked.
 */
#ifndef PERFCONF_INSTRUMENT_H
#define PERFCONF_INSTRUMENT_H

#define PC_BROKEN_ENV "PERFCONF_BROKEN"

enum pc_instrument {
	PC_INSTR_BREAKPOINTS,	/* execute and write breakpoints count their hits */
	PC_INSTR_SCHED_FIFO,	/* this process may make a task SCHED_FIFO */
	PC_INSTR_SYSCALL_TRACEPOINTS,	/* syscalls:sys_enter_* count this task's calls */
	PC_INSTR_UPROBES,	/* a uprobe counts a function's calls, and the task lives on */
	PC_INSTR_COUNT
};

enum pc_instrument_state {
	PC_INSTR_WORKS,
	PC_INSTR_BROKEN,	/* there, but does not do what it must on this machine */
	PC_INSTR_ABSENT,	/* not there at all (no PMU, refused open): the case SKIPs by itself */
};

struct pc_instrument_probe {
	enum pc_instrument_state state;
	char why[400];		/* what the probe saw and where the root cause shows */
};

/* The probe's verdict, run on first use and cached for the whole binary. */
const struct pc_instrument_probe *pc_instrument(enum pc_instrument i);
/* "breakpoints", "sched_fifo", "syscall_tracepoints", "uprobes": the names PERFCONF_BROKEN and the reasons use. */
const char *pc_instrument_name(enum pc_instrument i);
/*
 * For a case whose subject is the instrument: when it is broken, print
 * "# CAUSE <name>: <why>" (one write) so the runner names the cause once.
 */
void pc_instrument_note(enum pc_instrument i);

#endif
