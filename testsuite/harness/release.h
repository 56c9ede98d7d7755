/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * release.h - how slurmctld drives a priority plugin, per Slurm release
 * (what differs is in release.c and plugins/slurm_compat.h; the rest of
 * the harness is the same for every release).
 *
 *                  22.05                      24.11
 *   start          priority_g_init()          under the config write
 *                                             lock: priority_g_init(),
 *                                             priority_g_thread_start();
 *                                             then priority_g_recover(0)
 *   sprio          the plugin takes the       slurmctld holds the job,
 *                  locks, filters the request node and partition read
 *                                             locks; no filter
 *   reconfigure    priority_g_reconfig(true)  fini(), then a new
 *                                             slurmctld: start as above
 *                                             with SLURMCTLD_RECONF set;
 *                                             if the plugin refuses, the
 *                                             old configuration starts
 *                                             again
 */
#ifndef TH_RELEASE_H
#define TH_RELEASE_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TS_COMPAT_CTLD
#include "plugins/slurm_compat.h"

/*
 * th_release_start() - load and start the plugin as slurmctld does at
 * start (after its state is read).  RET SLURM_SUCCESS or SLURM_ERROR.
 */
int th_release_start(void);

/* th_release_reconfig_restarts() - true where reconfigure is a restart. */
bool th_release_reconfig_restarts(void);

/*
 * th_release_factors() - sprio's reply for uid, as slurmctld asks the
 * plugin for it.  RET the list (NULL if none).
 */
list_t *th_release_factors(uid_t uid);

/*
 * th_release_row() - a reply row's values: its factors (NULL where the
 * release sends none, for a direct_prio row) and its QOS name ("" where
 * the release has none).
 */
ts_job_factors_t *th_release_row(priority_factors_object_t *row,
				 const char **qos);

/*
 * th_release_rows_done() - before a received reply is freed: free what
 * the release's destructor leaves (22.05: the partition names).
 */
void th_release_rows_done(list_t *rows);

/*
 * th_release_job_id() - give job the id as slurmctld does (from 25.11
 * also in step_id, which multifactor copies into sprio's rows in 26.05).
 */
void th_release_job_id(job_record_t *job, uint32_t id);

/* th_release_job_free() - free what a job record holds of priorities. */
void th_release_job_free(job_record_t *job);

/* th_release_set_nodes() - the node counts a plugin reads. */
void th_release_set_nodes(int nodes);

/*
 * th_release_begin_qos() - acct_policy_job_begin()'s run seconds of a
 * job for qos's per-account and per-user records (24.11; none in 22.05).
 */
void th_release_begin_qos(slurmdb_qos_rec_t *qos, job_record_t *job, int tres,
			  const uint64_t *secs);

/*
 * th_release_report_qos() - the per-account and per-user run seconds of
 * qos (24.11), one "qos_used" line each; nothing in 22.05.
 */
void th_release_report_qos(FILE *out, unsigned cycle, slurmdb_qos_rec_t *qos);

/*
 * th_release_assoc_path() - a's place in the tree as slurmdbd sends it
 * (24.11: lineage, "/acct/.../0-user/" from parent's; 22.05: lft/rgt,
 * set by the caller).  parent NULL: the root.
 */
void th_release_assoc_path(slurmdb_assoc_rec_t *a,
			   const slurmdb_assoc_rec_t *parent);

/*
 * th_release_assoc_nested() - a's nested-set numbers, where the release
 * still has them (25.05 dropped lft/rgt: lineage alone).
 */
void th_release_assoc_nested(slurmdb_assoc_rec_t *a, uint32_t lft,
			     uint32_t rgt);

/*
 * th_release_fairshare() - the FairShare sshare prints for s: up to 25.05
 * priority_g_calc_fs_factor(EffectvUsage, NormShares) outside Fair Tree
 * and fs_factor for Fair Tree users; from 25.11 fs_factor for every user
 * row under every algorithm.  NAN: blank (accounts, where sshare prints
 * none).
 */
double th_release_fairshare(const assoc_shares_object_t *s, bool fair_tree);

/* th_release_sort_assocs() - in the order slurmctld dumps them. */
void th_release_sort_assocs(list_t *assocs);

/* th_release_assoc_args() - assoc_mgr_init()'s arguments of slurmctld. */
void th_release_assoc_args(assoc_init_args_t *args);

/* th_release_load_assoc_state() - assoc_mgr_state, as slurmctld loads it. */
int th_release_load_assoc_state(void);

/*
 * th_release_job_qos_list() - job may run under every QOS of qos (24.11;
 * sorted highest priority first, as slurmctld keeps it, and the first is
 * its qos_ptr until it starts).  The job owns the list then.
 * RET 0, or -1 where the release has no such jobs (qos left to the caller).
 */
int th_release_job_qos_list(job_record_t *job, list_t *qos);

/* th_release_sort_parts() - a job's partitions as slurmctld keeps them. */
void th_release_sort_parts(list_t *parts);

#endif
