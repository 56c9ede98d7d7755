/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential_ids.h - a job's Maui credentials (src/credential.h) as the
 * ids its usage is kept under (src/credential_usage.h; issue 27):
 *
 *   user     the job's uid: one user across all of its accounts
 *   group    the job's gid (its Unix group, not the user's others)
 *   account  the association id of the job's account (the parent of its
 *            user association), stable across restarts
 *   qos      the QOS id; TS_CRED_ID_NONE for a job without one
 *   class    ts_cred_class_id() of the partition the job runs in (for a
 *            job submitted to several, the one it started in)
 *
 * The caller holds assoc_mgr's association read lock (the account's
 * association) and, for a running job, the job read lock.
 */
#ifndef PT_CREDENTIAL_IDS_H
#define PT_CREDENTIAL_IDS_H

#include "slurmctld_api.h"

#include "src/credential_usage.h"

/*
 * cred_ids_of_job() - the credentials of a job slurmctld holds (a
 * job_record_t; void * to be a usage_cred_of).
 */
void cred_ids_of_job(const void *job, struct ts_cred_ids *ids);

/*
 * cred_ids_of_job_class() - the same with class id class_id (the
 * partition's ts_cred_class_id(), known to the caller): a job pending in
 * several partitions is in each one's class.
 */
void cred_ids_of_job_class(const job_record_t *job, uint32_t class_id,
			   struct ts_cred_ids *ids);

/* cred_account_id() - the account credential of an association. */
uint32_t cred_account_id(const slurmdb_assoc_rec_t *assoc);

/* cred_qos_id() - the QOS credential of a job slurmctld holds. */
uint32_t cred_qos_id(const job_record_t *job);

/*
 * cred_ids_of_ended() - the credentials of an ended job as slurmdbd
 * keeps it, whose association is assoc (found by the caller).
 */
void cred_ids_of_ended(const slurmdb_job_rec_t *job,
		       const slurmdb_assoc_rec_t *assoc,
		       struct ts_cred_ids *ids);

#endif /* PT_CREDENTIAL_IDS_H */
