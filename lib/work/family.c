// SPDX-License-Identifier: GPL-2.0
/* A task and the children that inherit its events: the anchor, a thread on cue. */

#include <errno.h>
#include <unistd.h>

#include "event/event.h"
#include "work/family.h"
#include "work/workload.h"

int pc_family_anchor(void)
{
	struct perfconf_attr attr = pc_attr_sw(PERF_COUNT_SW_DUMMY);
	return pc_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int sem_wait_(sem_t *s)
{
	while (sem_wait(s))
		if (errno != EINTR)
			return -errno;
	return 0;
}

static void *family_thread_main(void *arg)
{
	struct pc_family_thread *t = arg;

	t->tid = gettid();
	sem_post(&t->done);
	for (;;) {
		if (sem_wait_(&t->cue))
			break;
		if (!t->work)
			break;
		t->err = pc_work_do(t->work);
		sem_post(&t->done);
	}
	return NULL;
}

int pc_family_thread_start(struct pc_family_thread *t)
{
	int err;

	t->tid = 0;
	t->work = NULL;
	t->err = 0;
	if (sem_init(&t->cue, 0, 0) || sem_init(&t->done, 0, 0))
		return -errno;
	err = pthread_create(&t->thread, NULL, family_thread_main, t);
	if (err) {
		sem_destroy(&t->cue);
		sem_destroy(&t->done);
		return -err;
	}
	return sem_wait_(&t->done);
}

int pc_family_thread_do(struct pc_family_thread *t, const char *work)
{
	int err;

	if (!t->tid || !work)
		return -EINVAL;
	t->work = work;
	sem_post(&t->cue);
	err = sem_wait_(&t->done);
	return err ? err : t->err;
}

int pc_family_thread_stop(struct pc_family_thread *t)
{
	pid_t tid = t->tid;

	if (!tid)
		return 0;
	t->work = NULL;
	sem_post(&t->cue);
	pthread_join(t->thread, NULL);
	t->tid = 0;
	sem_destroy(&t->cue);
	sem_destroy(&t->done);
	return pc_work_thread_gone(tid);
}

int pc_family_task_start(struct pc_family_task *k, int thread)
{
	k->thread = thread;
	return thread ? pc_family_thread_start(&k->t) : pc_child_start(&k->child, 0);
}

int pc_family_task_do(struct pc_family_task *k, const char *work)
{
	return k->thread ? pc_family_thread_do(&k->t, work) : pc_child_do(&k->child, work);
}

int pc_family_task_finish(struct pc_family_task *k)
{
	return k->thread ? pc_family_thread_stop(&k->t) : pc_child_finish(&k->child);
}
