/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_touch.c - priority/touch, a measuring stick for make
 * bench-floor, never a priority plugin to run: it computes nothing.
 *
 * Its decay cycle walks the job list as often as multifactor and
 * treeshare do for the configured algorithm (twice under Fair Tree, whose
 * first walk only reads each job's state, once otherwise) and, for every
 * pending job, reads and writes the memory treeshare's priority pass reads
 * and writes: the job record's fields, its details, its QOS and
 * partition records, a fair-share cache slot (16 bytes, as fs_cache.c),
 * its TRES request, every partition of a multi-partition job and its
 * priority_array, the factor record and both TRES arrays (allocated
 * at the first cycle, as treeshare does).  Then it writes the decay state
 * file (fsync, rename), as both do.  No decay, no fair share, no factor:
 * the time it takes is a lower bound for any plugin that sets the same
 * job fields.  priority_p_set() does the same for one job, under the
 * assoc_mgr locks treeshare takes.
 *
 * make bench-floor times it against Debian's multifactor exactly as make
 * bench times treeshare (ts-harness(1), BENCH); its ratios are the
 * smallest any implementation of these factors can reach on the machine.
 * Built for every series treeshare supports (plugins/slurm_compat.h):
 * its thread starts where treeshare's does (init() in 22.05,
 * priority_p_thread_start() from 24.05).
 */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

/* The release's priority, state-file and factor-record names */
#define TS_COMPAT_CTLD
#include "plugins/slurm_compat.h"

const char plugin_name[] = "Priority touch (bench floor) plugin";
const char plugin_type[] = "priority/touch";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* A fair-share cache slot as fs_cache.c lays it out. */
struct slot {
	uint32_t id;
	double factor;
};

/* touch_mutex guards the thread's lifecycle; the rest is its own. */
static pthread_mutex_t touch_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t touch_wake = PTHREAD_COND_INITIALIZER;
static pthread_t touch_thread;
static bool running, stopping;
static struct slot *slots; /* written at init, read-only after */
static size_t slot_mask;
static double weights[64]; /* the TRES weights copied into each record */

/* The pointers a multi-partition job's priority_array walk reads. */
static int touch_part(void *x, void *arg)
{
	part_record_t *part = x;
	uint64_t *sum = arg;

	*sum += part->priority_job_factor + part->max_time +
		(uintptr_t)part->tres_cnt + (uint64_t)part->norm_priority;
	return 0;
}

/* Read and write what treeshare's job_prio_compute() does; no math. */
static uint32_t touch(job_record_t *job)
{
	job_details_t *d = job->details;
	ts_job_factors_t *pf = job->prio_factors;
	int n = slurmctld_tres_cnt > 64 ? 64 : slurmctld_tres_cnt;
	uint64_t sum = job->direct_set_prio + job->time_limit +
		       job->total_cpus + job->site_factor +
		       (uintptr_t)job->tres_alloc_cnt;
	double *tres, *tw;

	if (!d)
		return 0;
	sum += d->accrue_time + d->max_cpus + d->min_cpus + d->min_nodes +
	       d->nice;
	if (job->assoc_ptr && slots)
		sum += slots[(job->assoc_id * 2654435761U) & slot_mask].id;
	if (job->qos_ptr)
		sum += job->qos_ptr->priority +
		       (uint64_t)job->qos_ptr->usage->norm_priority;
	if (job->part_ptr)
		(void)touch_part(job->part_ptr, &sum);
	if (job->tres_req_cnt && n > TRES_ARRAY_CPU)
		sum += job->tres_req_cnt[TRES_ARRAY_CPU];
	if (job->part_ptr_list) {
		(void)list_for_each_ro(job->part_ptr_list, touch_part, &sum);
		ts_prio_array_get(job, list_count(job->part_ptr_list))[0] =
			(uint32_t)sum | 1;
	}
	if (!pf)
		pf = job->prio_factors = xmalloc(sizeof(*pf));
	if (!pf->priority_tres) {
		pf->priority_tres = xcalloc(n ? n : 1, sizeof(double));
		pf->tres_weights = xcalloc(n ? n : 1, sizeof(double));
	}
	tres = pf->priority_tres;
	tw = pf->tres_weights;
	memset(pf, 0, sizeof(*pf));
	pf->priority_tres = tres;
	pf->tres_weights = tw;
	pf->tres_cnt = n;
	memset(tres, 0, n * sizeof(*tres));
	memcpy(tw, weights, n * sizeof(*tw));
	pf->priority_age = (double)sum;
	pf->priority_site = job->site_factor;
	pf->nice = d->nice;
	return (uint32_t)sum | 1;
}

static int touch_pending(void *x, void *arg)
{
	job_record_t *job = x;

	(void)arg;
	if (IS_JOB_PENDING(job) && job->priority)
		job->priority = touch(job);
	return 0;
}

/* Fair Tree's charge walk, as far as a pending job goes: its state. */
static int read_state(void *x, void *arg)
{
	job_record_t *job = x;

	*(uint32_t *)arg += job->job_state;
	return 0;
}

static void write_state_file(void)
{
	char path[4096], tmp[4200];
	char rec[16] = { 0 };
	int fd;

	snprintf(path, sizeof(path), "%s/priority_last_decay_ran",
		 slurm_conf.state_save_location);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	lock_state_files();
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0) {
		if (write(fd, rec, sizeof(rec)) != sizeof(rec) || fsync(fd))
			error("%s: cannot write %s: %m", plugin_type, tmp);
		close(fd);
		if (rename(tmp, path))
			error("%s: cannot rename %s: %m", plugin_type, tmp);
	}
	unlock_state_files();
}

static void *touch_cycles(void *arg)
{
	slurmctld_lock_t job_write = { .job = WRITE_LOCK,
				       .node = READ_LOCK,
				       .part = READ_LOCK };
	assoc_mgr_lock_t read = { .assoc = READ_LOCK, .qos = READ_LOCK };
	bool two = slurm_conf.priority_flags & PRIORITY_FLAGS_FAIR_TREE;
	struct timespec wake;
	struct timeval tv;
	uint32_t states = 0;

	(void)arg;
	gettimeofday(&tv, NULL);
	wake.tv_sec = tv.tv_sec;
	wake.tv_nsec = tv.tv_usec * 1000;
	while (true) {
		if (two) {
			lock_slurmctld(job_write);
			(void)list_for_each_ro(job_list, read_state, &states);
			unlock_slurmctld(job_write);
		}
		lock_slurmctld(job_write);
		assoc_mgr_lock(&read);
		(void)list_for_each_ro(job_list, touch_pending, NULL);
		assoc_mgr_unlock(&read);
		unlock_slurmctld(job_write);
		write_state_file();

		slurm_mutex_lock(&touch_mutex);
		wake.tv_sec += slurm_conf.priority_calc_period;
		if (!stopping)
			pthread_cond_timedwait(&touch_wake, &touch_mutex,
					       &wake);
		if (stopping) {
			slurm_mutex_unlock(&touch_mutex);
			break;
		}
		slurm_mutex_unlock(&touch_mutex);
	}
	debug2("%s: %u", plugin_type, states);
	return NULL;
}

/* The slots sized to the associations, and the cycle thread. */
static int touch_start(void)
{
	assoc_mgr_lock_t read = { .assoc = READ_LOCK };
	size_t want = 64, i;
	int rc;

	assoc_mgr_lock(&read);
	while (assoc_mgr_assoc_list &&
	       want < 2 * (size_t)list_count(assoc_mgr_assoc_list))
		want *= 2;
	assoc_mgr_unlock(&read);
	slots = xcalloc(want, sizeof(*slots));
	slot_mask = want - 1;
	for (i = 0; i < sizeof(weights) / sizeof(weights[0]); i++)
		weights[i] = i == TRES_ARRAY_CPU ? 100 : 0;
	slurm_mutex_lock(&touch_mutex);
	stopping = false;
	rc = pthread_create(&touch_thread, NULL, touch_cycles, NULL);
	running = !rc;
	slurm_mutex_unlock(&touch_mutex);
	return rc ? SLURM_ERROR : SLURM_SUCCESS;
}

extern int init(void)
{
	if (!job_list || !TS_SLURM_INIT_STARTS_THREAD)
		return SLURM_SUCCESS; /* a client, or started later */
	return touch_start();
}

extern void priority_p_thread_start(void)
{
	if (!TS_SLURM_INIT_STARTS_THREAD && job_list && !running)
		(void)touch_start();
}

/* Nothing to recover: priorities come from the cycles (as treeshare's
 * with slurmdbd). */
extern uint32_t priority_p_recover(uint32_t prio_boost)
{
	(void)prio_boost;
	return 0;
}

extern int fini(void)
{
	bool join;

	slurm_mutex_lock(&touch_mutex);
	stopping = true;
	join = running;
	running = false;
	pthread_cond_broadcast(&touch_wake);
	slurm_mutex_unlock(&touch_mutex);
	if (join)
		pthread_join(touch_thread, NULL);
	xfree(slots);
	return SLURM_SUCCESS;
}

extern uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr)
{
	assoc_mgr_lock_t read = { .assoc = READ_LOCK, .qos = READ_LOCK };
	uint32_t prio;

	(void)last_prio;
	assoc_mgr_lock(&read);
	prio = touch(job_ptr);
	(void)time(NULL); /* both plugins read the clock once a job */
	assoc_mgr_unlock(&read);
	return prio;
}

extern void priority_p_reconfig(bool assoc_clear)
{
	(void)assoc_clear;
}

extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	(void)assoc;
}

extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm)
{
	(void)usage_efctv;
	(void)shares_norm;
	return 0.0;
}

#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 5, 0)
extern list_t *
priority_p_get_priority_factors_list(priority_factors_request_msg_t *req_msg,
				     uid_t uid)
{
	(void)req_msg;
	(void)uid;
	return NULL;
}
#else
extern list_t *priority_p_get_priority_factors_list(uid_t uid)
{
	(void)uid;
	return NULL;
}
#endif

extern void priority_p_job_end(job_record_t *job_ptr)
{
	(void)job_ptr;
}
