/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * consumed_usage.c - usage_metric=consumed: ended jobs' TotalCPU from
 * slurmdbd, charged once (see consumed_usage.h and src/consumed.h).
 *
 * Why slurmdbd: slurmctld aggregates a step's jobacct (user and system
 * CPU) when REQUEST_STEP_COMPLETE arrives, sends it to the accounting
 * storage and deletes the step record in the same call, under the job
 * write lock; job_record_t keeps no CPU total.  No priority plugin hook
 * runs in between, so the figure is only to be had where sacct reads it.
 */
#include "consumed_usage.h"

#include <string.h>

#include "slurmctld_api.h"
#include TS_ACCOUNTING_STORAGE_H

#include "src/consumed.h"
#include "src/usage_state.h"
#include "src/utc_time.h"
#include "usage.h"
#include "credential_ids.h"
#include "usage_windows.h"

/* The start of a span slurmdbd did not answer for; 0: none. */
static time_t retry_from;
/* consumed_since of the state resumed from at start (init only). */
static time_t restored_since;

void consumed_usage_restore(time_t since)
{
	restored_since = since;
}

void consumed_usage_fini(void)
{
	restored_since = 0;
	retry_from = 0;
}

static void log_switch(time_t since)
{
	char t[32];

	/* clang-format off */
	info("%s: usage_metric=consumed in force from %s: jobs that started before are charged dedicated usage to their end, jobs that start from then on their consumed CPU time",
	     plugin_type, ts_utc_time((int64_t)since, t, sizeof(t)));
	/* clang-format on */
}

void consumed_usage_adopt(struct priority_conf *c)
{
	char t[32];

	if (!c->settings.consumed)
		return;
	if (!restored_since) {
		log_switch(c->consumed_since);
		return;
	}
	c->consumed_since = restored_since;
	log_flag(PRIO, "%s: usage_metric=consumed in force since %s (%s)",
		 plugin_type,
		 ts_utc_time((int64_t)c->consumed_since, t, sizeof(t)),
		 TS_USAGE_STATE_FILE);
}

void consumed_usage_switched(const struct priority_conf *c,
			     const struct priority_conf *old)
{
	if (c->settings.consumed && old && !old->settings.consumed)
		log_switch(c->consumed_since);
}

bool consumed_usage_gather_none(void)
{
	const char *t = slurm_conf.job_acct_gather_type;

	return !t || !t[0] || !strcasecmp(t, "jobacct_gather/none");
}

/* sacct's TotalCPU of a job: the sum over its steps (extern, batch too). */
static double job_cpu_seconds(slurmdb_job_rec_t *job)
{
	slurmdb_step_rec_t *step;
	list_itr_t *itr;
	double secs = 0;

	if (!job->steps)
		return 0;
	itr = list_iterator_create(job->steps);
	while ((step = list_next(itr)))
		secs += ts_consumed_cpu_seconds(step->tot_cpu_sec,
						step->tot_cpu_usec);
	list_iterator_destroy(itr);
	return secs;
}

static slurmdb_assoc_rec_t *find_assoc(uint32_t id)
{
	slurmdb_assoc_rec_t want, *assoc = NULL;

	memset(&want, 0, sizeof(want));
	want.id = id;
	want.uid = NO_VAL;
	if (assoc_mgr_fill_in_assoc(acct_db_conn, &want,
				    ACCOUNTING_ENFORCE_ASSOCS, &assoc, true))
		return NULL;
	return assoc;
}

static double qos_factor(uint32_t id)
{
	slurmdb_qos_rec_t want, *qos = NULL;

	if (!id)
		return -1;
	memset(&want, 0, sizeof(want));
	want.id = id;
	if (assoc_mgr_fill_in_qos(acct_db_conn, &want, 0, &qos, true) || !qos)
		return -1;
	return qos->usage_factor;
}

/* An ended job and its association, for ended_cred_ids(). */
struct ended {
	const slurmdb_job_rec_t *job;
	const slurmdb_assoc_rec_t *assoc;
};

static void ended_cred_ids(const void *arg, struct ts_cred_ids *ids)
{
	const struct ended *e = arg;

	cred_ids_of_ended(e->job, e->assoc, ids);
}

/* One ended job to its association chain; assoc_mgr write-locked. */
static void charge_ended_job(slurmdb_job_rec_t *job, time_t start, double decay,
			     bool windows)
{
	slurmdb_assoc_rec_t *assoc = find_assoc(job->associd), *a;
	double cpu = job_cpu_seconds(job), factor = qos_factor(job->qosid);
	const struct ended ended = { job, assoc };
	double used;
	size_t n = 0;

	if (!assoc) {
		debug("%s: job %u: association %u gone, its consumed usage is not charged",
		      plugin_type, job->jobid, job->associd);
		return;
	}
	for (a = assoc; a; a = a->usage->parent_assoc_ptr)
		n++;
	/* clang-format off */
	log_flag(PRIO, "%s: job %u ended %ld: TotalCPU %.3f s, UsageFactor %g: consumed usage to association %u",
		 plugin_type, job->jobid, (long)job->end, cpu, factor,
		 assoc->id);
	/* clang-format on */
	if (windows) {
		uint32_t ids[n];

		n = 0;
		for (a = assoc; a; a = a->usage->parent_assoc_ptr)
			ids[n++] = a->id;
		used = ts_consumed_charge(cpu, factor, 1, 0);
		if (usage_windows_charge(ids, n, ended_cred_ids, &ended,
					 (long double)used, job->end, job->end))
			return;
	}
	used = ts_consumed_charge(cpu, factor, decay,
				  difftime(start, job->end));
	for (a = assoc; a; a = a->usage->parent_assoc_ptr)
		a->usage->usage_raw += (long double)used;
	usage_windows_cred_charge(ended_cred_ids, &ended, (long double)used,
				  job->end);
}

void consumed_usage_charge(time_t last_ran, time_t start, double decay,
			   bool windows, time_t since)
{
	assoc_mgr_lock_t locks = USAGE_LOCKS;
	struct ts_consumed_span span;
	slurmdb_job_cond_t cond;
	slurmdb_job_rec_t *job;
	list_t *jobs;
	list_itr_t *itr;
	size_t charged = 0, dedicated = 0;

	if (!&acct_db_conn ||
	    !ts_consumed_span(last_ran, start, TS_CONSUMED_LAG, &span))
		return;
	/* A failed query's span is asked again, joined to this one. */
	if (retry_from && retry_from < span.after)
		span.after = retry_from;

	memset(&cond, 0, sizeof(cond));
	cond.cluster_list = list_create(xfree_ptr);
	list_append(cond.cluster_list, xstrdup(slurm_conf.cluster_name));
	/* Every run of a requeued job; end times as stored, not cut. */
	cond.flags = JOBCOND_FLAG_DUP | JOBCOND_FLAG_NO_TRUNC;
	/* Any job flags (0 would ask for jobs with none set). */
	cond.db_flags = SLURMDB_JOB_FLAG_NOTSET;
	cond.usage_start = span.after;
	cond.usage_end = span.upto;
	jobs = jobacct_storage_g_get_jobs_cond(acct_db_conn,
					       slurm_conf.slurm_user_id, &cond);
	FREE_NULL_LIST(cond.cluster_list);
	if (!jobs) {
		/* clang-format off */
		error("%s: usage_metric=consumed: slurmdbd did not answer for the jobs that ended in (%ld, %ld]; asking again next cycle",
		      plugin_type, (long)span.after, (long)span.upto);
		/* clang-format on */
		retry_from = span.after;
		return;
	}

	assoc_mgr_lock(&locks);
	itr = list_iterator_create(jobs);
	while ((job = list_next(itr))) {
		if (!ts_consumed_in_span(&span, job->end) || !job->associd)
			continue;
		/* Started under dedicated: charged so to its end. */
		if (job->start < since) {
			dedicated++;
			continue;
		}
		charge_ended_job(job, start, decay, windows);
		charged++;
	}
	list_iterator_destroy(itr);
	assoc_mgr_unlock(&locks);
	FREE_NULL_LIST(jobs);
	retry_from = 0;
	/* clang-format off */
	log_flag(PRIO, "%s: consumed usage of %zu jobs ended in (%ld, %ld]; %zu started before usage_metric=consumed came in force (%ld) were charged dedicated usage",
		 plugin_type, charged, (long)span.after, (long)span.upto,
		 dedicated, (long)since);
	/* clang-format on */
}
