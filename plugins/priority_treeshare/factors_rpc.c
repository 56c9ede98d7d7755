/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * factors_rpc.c - what sprio shows: the stored factors of each job the
 * request selects, one row per partition the job may run in (and, from
 * 24.11, per QOS of a job of several) (priority_p_get_priority_factors_list()).
 * Nothing is computed here that the decay cycle has not: rows copy
 * job->prio_factors, and a job in several partitions gets each
 * partition's own partition and TRES terms, as Slurm's sprio expects.
 * With formula= the factors are the formula's inputs, weighted as usual,
 * and direct_prio carries the formula's value, which sprio prints as the
 * job's PRIORITY (from 23.11 such a row carries no factors: sprio shows
 * them as 0).  Rows own their strings where the release frees them
 * (slurm_compat.h, ts_row_new()).
 */
#include "factors_rpc.h"

#include <string.h>

#include "job_prio.h"

/* The job's start of priority accrual has come (sprio's filter). */
static bool accrues(const struct priority_conf *c, job_record_t *job,
		    time_t now)
{
	time_t t = (c->flags & PRIORITY_FLAGS_ACCRUE_ALWAYS)
			   ? job->details->submit_time
			   : job->details->begin_time;

	return t && t <= now;
}

/* PrivateData=jobs: may uid see this job? */
static bool visible(job_record_t *job, uid_t uid)
{
	if (!(slurm_conf.private_data & PRIVATE_DATA_JOBS) ||
	    job->user_id == uid || validate_operator(uid))
		return true;
	if (slurm_mcs_get_privatedata() == 0)
		return ts_is_user_acct_coord(acct_db_conn, uid, job->account);
	if (slurm_mcs_get_privatedata() == 1)
		return mcs_g_check_mcs_label(uid, job->mcs_label, false) == 0;
	return true;
}

static bool listed_u32(list_t *l, uint32_t v)
{
	list_itr_t *itr;
	uint32_t *p;
	bool found = false;

	itr = list_iterator_create(l);
	while ((p = list_next(itr)))
		if (*p == v) {
			found = true;
			break;
		}
	list_iterator_destroy(itr);
	return found;
}

static int same_ptr(void *x, void *key)
{
	return x == key;
}

static bool part_wanted(list_t *parts, part_record_t *part)
{
	return !parts || list_find_first(parts, same_ptr, part);
}

/* One job's rows, in priority-array order. */
struct rows {
	const struct priority_conf *c;
	const struct ts_prio_config *p;
	job_record_t *job;
	list_t *parts;	 /* partition filter (22.05), or NULL */
	list_t *out;	 /* the reply */
	uint32_t *array; /* the job's priority array, or NULL */
	int k;		 /* index of the next row's entry in it */
};

/*
 * The row of r->job in part under qos; part NULL: the job's only
 * partition, qos NULL: its own QOS.  Only what the decay cycle stored
 * is shown: the job's factors, with a partition's own partition and
 * TRES terms (a job of several partitions) and a QOS's own QOS term
 * (a job of several QOS, 24.11), as the release's multifactor does.
 */
static void add_row(struct rows *r, part_record_t *part, slurmdb_qos_rec_t *qos)
{
	const struct ts_prio_config *p = r->p;
	job_record_t *job = r->job;
	bool direct = job->direct_set_prio && (!part || TS_DIRECT_ROWS_ALL);
	bool formula = r->c->formula && job->prio_factors && !direct;
	priority_factors_object_t *row;
	ts_job_factors_t *f;
	int k = r->k++;

	if (part && !part_wanted(r->parts, part))
		return;
	row = ts_row_new(job, part, qos,
			 direct || (formula && TS_DIRECT_ROWS_ALL));
	list_append(r->out, row);
	if (direct) {
		row->direct_prio = job->priority;
		return;
	}
	/* formula=: sprio's PRIORITY is this partition's value. */
	if (formula && (r->array || TS_DIRECT_ROWS_ALL)) {
		if (r->array)
			row->direct_prio = r->array[k];
		else
			row->direct_prio = job->priority;
	}
	if (!(f = ts_row_factors(row)))
		return;
	if (part) {
		f->priority_part = job_prio_part_term(p, part);
		f->priority_fs =
			job_prio_part_fs(r->c, p, job, part, f->priority_fs,
					 false /* job read lock */);
		/*
		 * Slurm recomputes the TRES terms over the copied, already
		 * weighted ones: a TRES the partition has none of keeps the
		 * job's weighted value and is weighted again.  Kept for
		 * identical sprio output.
		 */
		if (f->priority_tres && f->tres_cnt == p->tres_cnt)
			(void)job_prio_part_tres(p, job, part,
						 f->priority_tres);
	}
	if (qos)
		f->priority_qos = job_prio_qos_term(p, qos, f->priority_qos);
}

/* Rows of part under each of the job's QOS (or its own). */
static void add_part_rows(struct rows *r, part_record_t *part)
{
	list_t *qos_list = ts_job_qos_list(r->job);
	slurmdb_qos_rec_t *qos;
	list_itr_t *itr;

	if (!qos_list) {
		add_row(r, part, NULL);
		return;
	}
	itr = list_iterator_create(qos_list);
	while ((qos = list_next(itr)))
		add_row(r, part, qos);
	list_iterator_destroy(itr);
}

static void add_rows(const struct priority_conf *c,
		     const struct ts_prio_config *p, job_record_t *job,
		     list_t *parts, list_t *out)
{
	struct rows r = { .c = c,
			  .p = p,
			  .job = job,
			  .parts = parts,
			  .out = out,
			  .array = ts_prio_array(job) };
	part_record_t *part;
	list_itr_t *itr;

	if (!job->part_ptr_list) {
		if (!part_wanted(parts, job->part_ptr))
			return;
		r.parts = NULL;
		add_part_rows(&r, NULL);
		return;
	}
	itr = list_iterator_create(job->part_ptr_list);
	while ((part = list_next(itr)))
		add_part_rows(&r, part);
	list_iterator_destroy(itr);
}

static list_t *parse_parts(const char *names)
{
	char *copy, *tok, *save = NULL;
	list_t *parts;

	if (!names)
		return NULL;
	parts = list_create(NULL);
	copy = xstrdup(names);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		part_record_t *part = find_part_record(tok);

		if (part)
			list_append(parts, part);
	}
	xfree(copy);
	return parts;
}

list_t *factors_rpc_list(const struct priority_conf *c,
			 const struct factors_filter *filter, uid_t uid,
			 bool take_locks)
{
	slurmctld_lock_t job_read = { .job = READ_LOCK,
				      .node = READ_LOCK,
				      .part = READ_LOCK };
	assoc_mgr_lock_t assoc_read = { .assoc = READ_LOCK };
	struct ts_prio_config p = conf_prio_now(c);
	time_t now = time(NULL);
	list_t *parts = NULL, *out = NULL;
	job_record_t *job;
	list_itr_t *itr;

	/*
	 * Every TRES: a row's zero-weight TRES must read 0 even when the
	 * job's factors are from before a reconfigure that zeroed a weight.
	 */
	p.tres_on = NULL;
	if (take_locks)
		lock_slurmctld(job_read);
	/* Maui's per-partition FairShare reads the credential table. */
	if (c->cred_fs)
		assoc_mgr_lock(&assoc_read);
	if (filter)
		parts = parse_parts(filter->partitions);
	if (job_list && list_count(job_list)) {
		out = list_create(slurm_destroy_priority_factors_object);
		itr = list_iterator_create(job_list);
		while ((job = list_next(itr))) {
			if (!(c->flags & PRIORITY_FLAGS_CALCULATE_RUNNING) &&
			    !IS_JOB_PENDING(job))
				continue;
			if (IS_JOB_REVOKED(job) || !accrues(c, job, now) ||
			    job->priority == 0 || !visible(job, uid))
				continue;
			if (filter && filter->job_ids &&
			    !listed_u32(filter->job_ids, job->job_id))
				continue;
			if (filter && filter->uids &&
			    !listed_u32(filter->uids, job->user_id))
				continue;
			/* A deleted partition: nothing to show. */
			if (!job->part_ptr && !job->part_ptr_list)
				continue;
			add_rows(c, &p, job, parts, out);
		}
		list_iterator_destroy(itr);
		if (!list_count(out))
			FREE_NULL_LIST(out);
	}
	if (c->cred_fs)
		assoc_mgr_unlock(&assoc_read);
	if (take_locks)
		unlock_slurmctld(job_read);
	FREE_NULL_LIST(parts);
	return out;
}
