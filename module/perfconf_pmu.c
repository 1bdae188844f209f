// SPDX-License-Identifier: GPL-2.0
/*
 * perfconf_pmu: two synthetic PMUs that drive the perf core's AUX,
 * exclusive and itrace paths on machines without a tracing PMU (Intel PT,
 * ARM SPE, CoreSight), for the suite's cases. Nothing here is measured:
 * what the cases check is what the core does around a driver.
 *
 * perfconf_aux: an AUX PMU (setup_aux/free_aux), PERF_PMU_CAP_ITRACE,
 *	PERF_PMU_CAP_EXCLUSIVE and, where the kernel has it,
 *	PERF_PMU_CAP_AUX_PAUSE. Each time an event starts tracing (the
 *	enable, every schedule-in, a resume) it writes attr.config bytes
 *	into its AUX area, and commits them when it stops (schedule-out,
 *	disable, pause): one perf_aux_output_end() per running interval.
 *	The byte at AUX position p (aux_head counts from 0) is p % 251.
 *	Without room for all of them it writes what fits and flags the
 *	record TRUNCATED; without any room perf_aux_output_begin() fails.
 *	Both make the core disable the event. In overwrite mode (a
 *	read-only AUX mapping) it writes on, wrapping, and passes the new
 *	head. It does not call perf_event_itrace_started(): the core logs
 *	ITRACE_START at every schedule-in.
 * perfconf_out: PERF_PMU_CAP_AUX_OUTPUT. Its events count nothing. Its
 *	aux_output_match() takes a perfconf_aux group leader whose config1
 *	bit 0 is clear. An event with aux_output reports attr.config1 as its
 *	hw_id through perf_report_aux_output_id() each time it starts, where
 *	the kernel exports it (Kbuild checks Module.symvers).
 *
 * Both are task and CPU PMUs of the software context, as the modular AUX
 * drivers are. Start and stop keep PERF_HES_STOPPED, so a stop without
 * a start (throttling, a paused event's schedule-out) does nothing.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#ifdef PERF_PMU_CAP_AUX_PAUSE
#define PERFCONF_HAVE_AUX_PAUSE 1
#endif

#define CHUNK_MAX	(64UL << 10)

struct aux_buf {
	void **pages;		/* the AUX area's pages, one address each */
	unsigned long bytes;	/* its size */
	bool overwrite;
};

/* The AUX transaction of the event running on a CPU. */
struct aux_cpu {
	struct perf_output_handle handle;
	unsigned long written;
};

static DEFINE_PER_CPU(struct aux_cpu, aux_cpu);
static struct pmu aux_pmu, out_pmu;

/* What this kernel let the PMUs do: the cases read it to SKIP where not. */
static bool aux_output_id = IS_ENABLED(PERFCONF_HAVE_AUX_OUTPUT_ID);
module_param(aux_output_id, bool, 0444);
MODULE_PARM_DESC(aux_output_id, "perfconf_out reports AUX_OUTPUT_HW_ID (the kernel exports perf_report_aux_output_id)");
static bool aux_pause = IS_ENABLED(PERFCONF_HAVE_AUX_PAUSE);
module_param(aux_pause, bool, 0444);
MODULE_PARM_DESC(aux_pause, "perfconf_aux can pause (the kernel has PERF_PMU_CAP_AUX_PAUSE)");

static bool aux_paused(struct perf_event *event)
{
#ifdef PERF_PMU_CAP_AUX_PAUSE
	return READ_ONCE(event->hw.aux_paused);
#else
	return false;
#endif
}

static void aux_write(struct aux_buf *buf, unsigned long pos, unsigned long len)
{
	for (; len; pos++, len--) {
		unsigned long off = pos & (buf->bytes - 1);
		u8 *page = buf->pages[off >> PAGE_SHIFT];

		page[off & ~PAGE_MASK] = pos % 251;
	}
}

static void aux_start(struct perf_event *event, int flags)
{
	struct aux_cpu *c = this_cpu_ptr(&aux_cpu);
	unsigned long len = event->attr.config;
	struct aux_buf *buf;

	if (!(event->hw.state & PERF_HES_STOPPED) || aux_paused(event))
		return;
	buf = perf_aux_output_begin(&c->handle, event);
	if (!buf)
		return;		/* no AUX area, or no room: the core disables it */
	event->hw.state = 0;
	if (buf->overwrite) {
		aux_write(buf, c->handle.head, len);
		c->handle.head += len;
	} else {
		if (len > c->handle.size) {
			len = c->handle.size;
			perf_aux_output_flag(&c->handle, PERF_AUX_FLAG_TRUNCATED);
		}
		aux_write(buf, c->handle.head, len);
	}
	c->written = len;
}

static void aux_stop(struct perf_event *event, int flags)
{
	struct aux_cpu *c = this_cpu_ptr(&aux_cpu);

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	event->hw.state = PERF_HES_STOPPED;
	perf_aux_output_end(&c->handle, c->written);
	c->written = 0;
}

static int aux_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		aux_start(event, 0);
	return 0;
}

static void aux_del(struct perf_event *event, int flags)
{
	aux_stop(event, PERF_EF_UPDATE);
}

static void pmu_read(struct perf_event *event)
{
}

static void *aux_setup(struct perf_event *event, void **pages, int nr_pages, bool overwrite)
{
	struct aux_buf *buf;

	if (!is_power_of_2(nr_pages))
		return NULL;
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return NULL;
	buf->pages = pages;
	buf->bytes = (unsigned long)nr_pages << PAGE_SHIFT;
	buf->overwrite = overwrite;
	return buf;
}

static void aux_free(void *buf)
{
	kfree(buf);
}

static int aux_event_init(struct perf_event *event)
{
	if (event->attr.type != aux_pmu.type)
		return -ENOENT;
	if (event->attr.config > CHUNK_MAX)
		return -EINVAL;
	return 0;
}

static void out_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
#ifdef PERFCONF_HAVE_AUX_OUTPUT_ID
	if (event->attr.aux_output)
		perf_report_aux_output_id(event, event->attr.config1);
#endif
}

static void out_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

static int out_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		out_start(event, 0);
	return 0;
}

static void out_del(struct perf_event *event, int flags)
{
	out_stop(event, PERF_EF_UPDATE);
}

static int out_aux_output_match(struct perf_event *aux_event)
{
	return aux_event->pmu == &aux_pmu && !(aux_event->attr.config1 & 1);
}

static int out_event_init(struct perf_event *event)
{
	return event->attr.type == out_pmu.type ? 0 : -ENOENT;
}

static struct pmu aux_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_ITRACE | PERF_PMU_CAP_EXCLUSIVE
#ifdef PERF_PMU_CAP_AUX_PAUSE
			  | PERF_PMU_CAP_AUX_PAUSE
#endif
			  ,
	.event_init	= aux_event_init,
	.add		= aux_add,
	.del		= aux_del,
	.start		= aux_start,
	.stop		= aux_stop,
	.read		= pmu_read,
	.setup_aux	= aux_setup,
	.free_aux	= aux_free,
};

static struct pmu out_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_AUX_OUTPUT,
	.event_init	= out_event_init,
	.add		= out_add,
	.del		= out_del,
	.start		= out_start,
	.stop		= out_stop,
	.read		= pmu_read,
	.aux_output_match = out_aux_output_match,
};

static int __init perfconf_pmu_init(void)
{
	int err = perf_pmu_register(&out_pmu, "perfconf_out", -1);

	if (err)
		return err;
	err = perf_pmu_register(&aux_pmu, "perfconf_aux", -1);
	if (err)
		perf_pmu_unregister(&out_pmu);
	return err;
}

static void __exit perfconf_pmu_exit(void)
{
	perf_pmu_unregister(&aux_pmu);
	perf_pmu_unregister(&out_pmu);
	/*
	 * Before 6.2 a task context made for one of our events is freed
	 * by an RCU callback that reads ctx->pmu, in this module: wait
	 * for those callbacks, not only for a grace period.
	 */
	rcu_barrier();
}

module_init(perfconf_pmu_init);
module_exit(perfconf_pmu_exit);
MODULE_DESCRIPTION("perfconf: synthetic AUX PMUs for the perf ABI conformance suite");
MODULE_LICENSE("GPL");
