/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cred_table.h - Maui's fair share per credential in slurmctld (issue 27):
 * once a cycle, the table of every credential's usage and target
 * (src/cred_shares.h) from the usage per credential (usage_windows.h)
 * and the targets file; for each job, its component and its FairShare
 * factor (src/credential_fs.h) in one partition (Maui's class).
 *
 *   resolve   the targets file names credentials; the usage is kept by
 *             id.  Users and groups through the system's databases
 *             (getpwnam_r, getgrnam_r; a name of digits alone is the id
 *             itself when no entry has that name), with no lock held;
 *             accounts (their own association) and QOS under
 *             assoc_mgr's read locks; partitions by
 *             ts_cred_class_id().  A name not found counts as no target
 *             (once a cycle, DebugFlags=Priority says how many).
 *   take      the table, under { .assoc = WRITE_LOCK }.
 *   job       under { .assoc = READ_LOCK } at least, as fs_cache.h.
 *
 * A change to the targets file (at reconfigure) reaches the factors at
 * the next cycle, as the tree's targets do.
 */
#ifndef PT_CRED_TABLE_H
#define PT_CRED_TABLE_H

#include "slurmctld_api.h"

#include "src/credential_fs.h"
#include "src/credential_usage.h"

#include "priority_conf.h"

/*
 * cred_table_update() - resolve the names of c's targets file, then take
 * the table from the usage per credential now; empty without
 * c->cred_usage.  Takes assoc_mgr's locks itself (the caller holds
 * none; slurmctld's own may be held).  On failure (logged) the last
 * table stays.
 */
void cred_table_update(const struct priority_conf *c);

/*
 * cred_table_job() - job's component in part (its class; NULL: the
 * partition the job runs in or was sent to, as credential_ids.h) into
 * *out under c's weights and policy.  An empty table gives every job 0.5
 * and 0.  Allocates nothing.
 */
void cred_table_job(const struct priority_conf *c, const job_record_t *job,
		    const part_record_t *part, struct ts_cred_fs *out);

/*
 * cred_table_job_factor() - cred_table_job()'s factor alone, the same
 * double; from the terms the table was weighed with at its update when
 * c's weights and policy are still those (the priority pass's path).
 * keep false: a reader under the job read lock (sprio's factors).  true:
 * the caller holds slurmctld's job write lock (every caller that sets a
 * job's priority does), and the factor is kept per association, class
 * terms, group and QOS until the next update (its readers, under the
 * job read lock at least, are excluded).
 */
double cred_table_job_factor(const struct priority_conf *c,
			     const job_record_t *job, const part_record_t *part,
			     bool keep);

/*
 * cred_table_job_ids() - cred_ids_of_job() (credential_ids.h), its class
 * the id kept for the job's partition at the last update instead of a
 * hash of the partition's name each time: the charge's usage_cred_of
 * (every running job, every cycle).  Caller holds { .assoc = READ_LOCK }
 * at least.
 */
void cred_table_job_ids(const void *job, struct ts_cred_ids *ids);

/*
 * cred_table_cap_reason() - why job may not start when one of its
 * credentials (user NAME@*, Unix group, QOS, partition; its account's
 * cap is the association tree's, cap_hold.h) is at or over its fscap=:
 * "FairshareCap:qos:gpu=12.50%>=10%" written into buf[len]; else NULL.
 * Caller holds { .assoc = READ_LOCK } at least.  Allocates nothing.
 */
const char *cred_table_cap_reason(const job_record_t *job, char *buf,
				  size_t len);

/*
 * cred_table_uncap() - no credential is capped until the next update: a
 * configuration without fscap= is in force.  Association write lock.
 */
void cred_table_uncap(void);

/*
 * cred_table_capped() - some credential is at or over its fscap= in the
 * last table taken.  No lock needed (a hint for the callers' fast
 * paths, exact under the association lock).
 */
bool cred_table_capped(void);

/* cred_table_fini() - free the table and the names (plugin fini). */
void cred_table_fini(void);

#endif /* PT_CRED_TABLE_H */
