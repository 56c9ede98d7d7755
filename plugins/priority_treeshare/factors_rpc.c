/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * factors_rpc.c - what sprio shows: the stored factors of each job the
 * request selects, one row per partition the job may run in
 * (priority_p_get_priority_factors_list()).  Nothing is computed here
 * that the decay cycle has not: rows copy job->prio_factors, and a job
 * in several partitions gets each partition's own partition and TRES
 * terms, as Slurm's sprio expects.  With formula= the factors are the
 * formula's inputs, weighted as usual, and direct_prio carries the
 * formula's value, which sprio prints as the job's PRIORITY.
 */
#include "factors_rpc.h"

#include <string.h>

#include "src/common/slurm_mcs.h"

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
		return assoc_mgr_is_user_acct_coord(acct_db_conn, uid,
						    job->account);
	if (slurm_mcs_get_privatedata() == 1)
		return mcs_g_check_mcs_label(uid, job->mcs_label, false) == 0;
	return true;
}

static bool listed_u32(List l, uint32_t v)
{
	ListIterator itr;
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

static bool part_wanted(List parts, part_record_t *part)
{
	return !parts || list_find_first(parts, same_ptr, part);
}

static priority_factors_object_t *new_row(job_record_t *job,
					  part_record_t *part)
{
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));

	slurm_copy_priority_factors_object(obj, job->prio_factors);
	xfree(obj->partition);
	obj->job_id = job->job_id;
	obj->partition = part->name; /* not owned, as in Slurm */
	obj->user_id = job->user_id;
	return obj;
}

/*
 * Append job's sprio rows to out: one per partition of the job that
 * parts selects (all when parts is NULL), as Slurm's multifactor does.
 */
static void add_rows(const struct priority_conf *c,
		     const struct ts_prio_config *p, job_record_t *job,
		     List parts, List out)
{
	priority_factors_object_t *obj;
	part_record_t *part;
	ListIterator itr;
	int k = -1;

	if (!job->part_ptr_list) {
		if (!part_wanted(parts, job->part_ptr))
			return;
		if (job->direct_set_prio) {
			obj = xmalloc(sizeof(*obj));
			obj->direct_prio = job->priority;
			obj->job_id = job->job_id;
			obj->partition = job->part_ptr->name;
			obj->user_id = job->user_id;
		} else {
			obj = new_row(job, job->part_ptr);
		}
		list_append(out, obj);
		return;
	}

	itr = list_iterator_create(job->part_ptr_list);
	while ((part = list_next(itr))) {
		k++;
		if (!part_wanted(parts, part))
			continue;
		obj = new_row(job, part);
		obj->priority_part = job_prio_part_term(p, part);
		/* formula=: sprio's PRIORITY is this partition's value. */
		if (c->formula && obj->direct_prio > 0 && job->priority_array)
			obj->direct_prio = job->priority_array[k];
		/*
		 * Slurm recomputes the TRES terms over the copied, already
		 * weighted ones: a TRES the partition has none of keeps the
		 * job's weighted value and is weighted again.  Kept for
		 * identical sprio output.
		 */
		if (obj->priority_tres && obj->tres_cnt == p->tres_cnt)
			(void)job_prio_part_tres(p, job, part,
						 obj->priority_tres);
		list_append(out, obj);
	}
	list_iterator_destroy(itr);
}

static List parse_parts(const char *names)
{
	char *copy, *tok, *save = NULL;
	List parts;

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

List factors_rpc_list(const struct priority_conf *c,
		      priority_factors_request_msg_t *req, uid_t uid)
{
	slurmctld_lock_t job_read = { .job = READ_LOCK,
				      .node = READ_LOCK,
				      .part = READ_LOCK };
	struct ts_prio_config p = conf_prio_now(c);
	time_t now = time(NULL);
	List parts, out = NULL;
	job_record_t *job;
	ListIterator itr;

	/*
	 * Every TRES: a row's zero-weight TRES must read 0 even when the
	 * job's factors are from before a reconfigure that zeroed a weight.
	 */
	p.tres_on = NULL;
	lock_slurmctld(job_read);
	parts = parse_parts(req->partitions);
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
			if (req->job_id_list &&
			    !listed_u32(req->job_id_list, job->job_id))
				continue;
			if (req->uid_list &&
			    !listed_u32(req->uid_list, job->user_id))
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
	unlock_slurmctld(job_read);
	FREE_NULL_LIST(parts);
	return out;
}
