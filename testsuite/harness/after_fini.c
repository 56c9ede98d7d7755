/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * after_fini.c - calls around and after a plugin's fini() (after_fini.h).
 *
 * Slurm 24.11 to 26.05 (controller.c): priority_g_fini() unloads the
 * plugin well before conmgr_fini() stops the threads that serve RPCs,
 * and priority_g_job_end() and the rest call through a static ops table
 * that fini does not clear.  Here a thread of the harness plays such an
 * RPC thread.
 */
#include "config.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "src/common/assoc_mgr.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "after_fini.h"
#include "cycle_gate.h"
#include "fake_clock.h"
#include "lock_hold.h"
#include "release.h"

/* last_prio of the calls after fini(): a plugin that refuses them
 * returns it, none computes it. */
#define TH_LAST_PRIO 4242u

typedef uint32_t (*set_fn)(uint32_t last_prio, job_record_t *job);
typedef void (*job_end_fn)(job_record_t *job);

struct find_so {
	const char *suffix; /* "/priority_treeshare.so" */
	char *path;	    /* as the loader has it */
};

static int find_so_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find_so *f = arg;
	size_t n = strlen(info->dlpi_name), k = strlen(f->suffix);

	(void)size;
	if (n < k || strcmp(info->dlpi_name + n - k, f->suffix))
		return 0;
	f->path = xstrdup(info->dlpi_name);
	return 1;
}

/* The loaded file of plugin ("priority/x": .../priority_x.so), or NULL. */
static char *plugin_path(const char *plugin)
{
	const char *name = strchr(plugin, '/');
	char *suffix =
		xstrdup_printf("/priority_%s.so", name ? name + 1 : plugin);
	struct find_so f = { .suffix = suffix };

	dl_iterate_phdr(find_so_cb, &f);
	xfree(suffix);
	return f.path;
}

/* Whether path is loaded; never loads it (RTLD_NOLOAD). */
static bool mapped(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);

	if (h)
		dlclose(h);
	return h != NULL;
}

/* The plugin's own symbol, as Slurm's loader resolves it; no handle kept,
 * so that the harness does not keep the file loaded itself. */
static void *plugin_sym(const char *path, const char *name)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD), *p;

	if (!h)
		return NULL;
	p = dlsym(h, name);
	dlclose(h);
	return p;
}

/* The lowest-numbered job in that state with an association. */
static job_record_t *first_job(bool running)
{
	job_record_t *j, *best = NULL;
	list_itr_t *it = list_iterator_create(job_list);

	while ((j = list_next(it))) {
		if (!j->assoc_ptr ||
		    (running ? !IS_JOB_RUNNING(j) : !IS_JOB_PENDING(j)))
			continue;
		if (!best || j->job_id < best->job_id)
			best = j;
	}
	list_iterator_destroy(it);
	return best;
}

static long double usage_raw(job_record_t *job)
{
	assoc_mgr_lock_t read = { .assoc = READ_LOCK };
	long double u;

	assoc_mgr_lock(&read);
	u = job->assoc_ptr->usage->usage_raw;
	assoc_mgr_unlock(&read);
	return u;
}

/* fini() as slurmctld calls it: no lock held; the decay thread, held
 * at the cycle gate, is let go by its join. */
static int fini_now(void)
{
	int rc;

	th_gate_arm_stop();
	rc = priority_g_fini();
	th_gate_disarm_stop();
	return rc;
}

struct inside {
	set_fn set;
	job_record_t *job;
	uint32_t prio;
};

/*
 * An RPC thread inside priority_p_set() when fini() starts: paused at its
 * first assoc_mgr_lock().  Without the job lock slurmctld's caller holds,
 * so that a fini() that does not wait for the call is not held up by it
 * either (a checkpoint may read the jobs).
 */
static void *call_inside(void *arg)
{
	struct inside *in = arg;

	th_hold_pause(pthread_self());
	in->prio = in->set(0, in->job);
	return NULL;
}

struct fini_call {
	int rc;
	int done;
};

static void *call_fini(void *arg)
{
	struct fini_call *f = arg;

	f->rc = fini_now();
	__atomic_store_n(&f->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

int th_after_fini(FILE *out, const char *plugin)
{
	slurmctld_lock_t job_write = { .job = WRITE_LOCK, .part = READ_LOCK };
	const struct timespec settle = { .tv_nsec = 500000000 };
	struct inside in = { 0 };
	struct fini_call f = { 0 };
	job_record_t *pending = first_job(false), *running = first_job(true);
	char *path = plugin_path(plugin);
	pthread_t t_in, t_fini;
	job_end_fn job_end;
	long double before;
	uint32_t prio;
	int first, rc = 0;

	in.set = path ? (set_fn)plugin_sym(path, "priority_p_set") : NULL;
	job_end = path ? (job_end_fn)plugin_sym(path, "priority_p_job_end")
		       : NULL;
	if (!in.set || !job_end || !pending || !running) {
		fprintf(stderr,
			"ts-harness: -F: needs %s loaded (%s), its "
			"priority_p_set and priority_p_job_end, a pending job "
			"and a running job\n",
			plugin, path ? path : "not found");
		xfree(path);
		(void)fini_now();
		return 2;
	}

	/* 1. fini() while a call is inside: it must wait for the call. */
	in.job = pending;
	pthread_create(&t_in, NULL, call_inside, &in);
	if (!th_hold_wait_paused(10)) {
		fprintf(stderr,
			"ts-harness: -F: %s's priority_p_set() took no "
			"assoc_mgr lock within 10 s\n",
			plugin);
		fflush(stdout);
		_exit(2); /* the call may still be inside */
	}
	pthread_create(&t_fini, NULL, call_fini, &f);
	nanosleep(&settle, NULL);
	first = __atomic_load_n(&f.done, __ATOMIC_ACQUIRE);
	th_hold_resume();
	pthread_join(t_in, NULL);
	pthread_join(t_fini, NULL);
	if (f.rc != SLURM_SUCCESS)
		rc = 1;
	fprintf(out, "after_fini|inside|%u|%u|%d\n", pending->job_id, in.prio,
		first);
	fflush(out);

	/* 2. Slurm has dlclose()d it: is the code still there? */
	fprintf(out, "after_fini|mapped|%d\n", mapped(path));
	fflush(out);

	/*
	 * 3. What an RPC thread then calls, with slurmctld's job lock, a
	 * period after the last cycle: a job end served would charge it.
	 */
	th_clock_advance((time_t)slurm_conf.priority_calc_period);
	before = usage_raw(running);
	lock_slurmctld(job_write);
	prio = in.set(TH_LAST_PRIO, pending);
	job_end(running);
	unlock_slurmctld(job_write);
	fprintf(out, "after_fini|set|%u|%u|%u\n", pending->job_id, TH_LAST_PRIO,
		prio);
	fprintf(out, "after_fini|job_end|%u|%.17Lg|%.17Lg\n", running->job_id,
		before, usage_raw(running));
	fflush(out);

	/* 4. Started again in the same process, it serves calls again. */
	th_gate_open();
	if (th_release_start() != SLURM_SUCCESS) {
		fprintf(stderr, "ts-harness: -F: %s does not start again\n",
			plugin);
		xfree(path);
		return 2;
	}
	lock_slurmctld(job_write);
	prio = priority_g_set(0, pending);
	unlock_slurmctld(job_write);
	fprintf(out, "after_fini|again|%u|%u\n", pending->job_id, prio);
	fflush(out);
	if (priority_g_fini() != SLURM_SUCCESS)
		rc = 1;
	xfree(path);
	return rc;
}
