/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential_ids.c - a job's Maui credentials as ids (credential_ids.h).
 */
#include "credential_ids.h"

/* A user association's account is its parent; an account is itself. */
uint32_t cred_account_id(const slurmdb_assoc_rec_t *assoc)
{
	if (!assoc)
		return TS_CRED_ID_NONE;
	if (assoc->user && assoc->usage && assoc->usage->parent_assoc_ptr)
		return assoc->usage->parent_assoc_ptr->id;
	return assoc->id;
}

void cred_ids_of_job(const void *job_ptr, struct ts_cred_ids *ids)
{
	const job_record_t *job = job_ptr;
	/* part_ptr is where it runs; partition lists all it was sent to */
	const char *part = job->part_ptr ? job->part_ptr->name : job->partition;

	cred_ids_of_job_class(job, ts_cred_class_id(part), ids);
}

void cred_ids_of_job_class(const job_record_t *job, uint32_t class_id,
			   struct ts_cred_ids *ids)
{
	ids->id[TS_CRED_USER] = job->user_id;
	ids->id[TS_CRED_GROUP] = job->group_id;
	ids->id[TS_CRED_ACCOUNT] = cred_account_id(job->assoc_ptr);
	ids->id[TS_CRED_QOS] = cred_qos_id(job);
	ids->id[TS_CRED_CLASS] = class_id;
}

uint32_t cred_qos_id(const job_record_t *job)
{
	return job->qos_ptr ? job->qos_ptr->id : TS_CRED_ID_NONE;
}

void cred_ids_of_ended(const slurmdb_job_rec_t *job,
		       const slurmdb_assoc_rec_t *assoc,
		       struct ts_cred_ids *ids)
{
	ids->id[TS_CRED_USER] = job->uid;
	ids->id[TS_CRED_GROUP] = job->gid;
	ids->id[TS_CRED_ACCOUNT] = cred_account_id(assoc);
	ids->id[TS_CRED_QOS] = job->qosid ? job->qosid : TS_CRED_ID_NONE;
	ids->id[TS_CRED_CLASS] = ts_cred_class_id(job->partition);
}
