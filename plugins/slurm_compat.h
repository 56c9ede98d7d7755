/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_compat.h - what differs between the Slurm releases treeshare is
 * built against, keyed on SLURM_VERSION_NUMBER; the only place that knows
 * the release.  src/ never includes it; the plugin, ts-harness and
 * sshare-ext's libslurm layer do, after config.h of the configured tree.
 *
 *   22.05.8   Debian 12 (bookworm)   plugin ABI 0x160508   built, tested
 *   24.11.5   Debian 13 (trixie)     plugin ABI 0x180b05   built, tested
 *   26.05.5   Debian forky/sid       plugin ABI 0x1a0505   written from
 *             ../shared/labs/compat/RECIPE.md section 5 only: refused
 *             unless TS_SLURM_UNTESTED is defined (no exact source to
 *             build against yet; see the 26.05 notes below)
 *
 * Slurm's loader refuses a plugin of another major.minor.micro, and
 * structure layouts change between releases, so any other tree is refused
 * here, by name, rather than producing a plugin that loads and then
 * misbehaves.
 *
 * A change is keyed on the release that brought it where that is known
 * (RECIPE section 5), else on the first supported release that has it;
 * only the releases above ever pass the check below.
 *
 * Sections: the release check; types and calls common to every user;
 * the controller side (TS_COMPAT_CTLD defined before inclusion: the
 * plugin and ts-harness); at the end, the client side (libslurm).
 */
#ifndef TS_SLURM_COMPAT_H
#define TS_SLURM_COMPAT_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "src/common/list.h"

/* ------------------------------------------------------------ release */

#define TS_SLURM_22_05 SLURM_VERSION_NUM(22, 5, 8)
#define TS_SLURM_24_11 SLURM_VERSION_NUM(24, 11, 5)
#define TS_SLURM_26_05 SLURM_VERSION_NUM(26, 5, 5)

#if SLURM_VERSION_NUMBER == TS_SLURM_22_05 ||                                  \
	SLURM_VERSION_NUMBER == TS_SLURM_24_11
/* supported */
#elif SLURM_VERSION_NUMBER == TS_SLURM_26_05 && defined(TS_SLURM_UNTESTED)
#warning "Slurm 26.05.5: untested compatibility code (TS_SLURM_UNTESTED)"
#elif SLURM_VERSION_NUMBER == TS_SLURM_26_05
#pragma message("treeshare: the Slurm tree is " SLURM_VERSION_STRING)
#error "Slurm 26.05.5 is not yet supported: its code is written (slurm_compat.h) but was never built against the exact 26.05.5 source; supported: 22.05.8, 24.11.5"
#else
#pragma message("treeshare: the Slurm tree is " SLURM_VERSION_STRING)
#error "unsupported Slurm release (named in the note above); treeshare supports Slurm 22.05.8 (Debian 12) and 24.11.5 (Debian 13)"
#endif

/* ---------------------------------------------------------- all users */

#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
/* 23.02 renamed List/ListIterator; the new names, for the old release. */
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
#endif

/* ----------------------------------------------------- controller side */
#ifdef TS_COMPAT_CTLD

#include "src/common/assoc_mgr.h"
#include "src/slurmctld/slurmctld.h"

#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
#include "src/common/site_factor.h"
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_priority.h"
typedef struct job_details job_details_t;
#else
#include "src/common/state_save.h" /* lock_state_files() moved here */
#include "src/interfaces/mcs.h"
#include "src/interfaces/priority.h"
#include "src/interfaces/site_factor.h"
#include "src/slurmctld/acct_policy.h"
#endif

/*
 * Lifecycle.  22.05 calls init() after read_slurm_conf() with no lock
 * held: the plugin starts its thread there and gives jobs their first
 * factors there without slurmdbd.  From 24.05 init() runs under the
 * configuration write lock before read_slurm_conf() (no jobs yet, and a
 * slurmctld lock taken there deadlocks); the thread starts in
 * priority_p_thread_start(), the first factors come in
 * priority_p_recover() (23.02), and scontrol reconfigure is fini() and a
 * new slurmctld process (priority_p_reconfig(false) only for
 * setdebugflags and FairShareDampeningFactor).
 */
#define TS_SLURM_INIT_STARTS_THREAD                                            \
	(SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 5, 0))

/* The factors a job keeps (job->prio_factors). */
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
typedef priority_factors_object_t ts_job_factors_t;
#else
typedef priority_factors_t ts_job_factors_t;
#endif

/*
 * formula= shows its value as sprio's PRIORITY through direct_prio: in
 * 22.05 a field of the factors the job keeps; from 23.11 only rows have
 * it (factors_rpc.c sets it there).
 */
static inline void ts_job_factors_set_direct(ts_job_factors_t *pf, double prio)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	pf->direct_prio = prio;
#else
	(void)pf;
	(void)prio;
#endif
}

/* Site factor plugin: started by the priority plugin, as multifactor. */
static inline int ts_site_factor_init(void)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
	return site_factor_plugin_init();
#else
	return site_factor_g_init();
#endif
}

static inline void ts_site_factor_fini(void)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
	(void)site_factor_plugin_fini();
#else
	(void)site_factor_g_fini();
#endif
}

/* 24.11 no longer tells the site factor plugin of a reconfigure. */
static inline void ts_site_factor_reconfig(void)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
	site_factor_g_reconfig();
#endif
}

/*
 * Nodes the job size factor divides by: node_record_count in 22.05;
 * active_node_record_count from 23.11 (node_record_count is the table's
 * size there, holes for dynamic nodes included).
 */
static inline int ts_node_count(void)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	return node_record_count;
#else
	return active_node_record_count;
#endif
}

/*
 * Job size needs nodes and CPUs from 23.11 (0 without them); 22.05
 * divides by them whatever they are.
 */
static inline bool ts_job_size_defined(uint32_t nodes, uint32_t cpus)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	(void)nodes;
	(void)cpus;
	return true;
#else
	return nodes && cpus;
#endif
}

/*
 * Job size with PriorityFavorSmall, not SIZE_RELATIVE: 24.11 counts the
 * node part of a job asking as many nodes as the cluster has or more as
 * 0 (22.05: (nodes - min_nodes) / nodes, in unsigned arithmetic).  The
 * min_nodes to give src/priority.c for the same result.
 */
static inline uint32_t ts_favor_small_min_nodes(uint32_t min_nodes,
						int node_count)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	(void)node_count;
	return min_nodes;
#else
	if (node_count > 0 && min_nodes > (uint32_t)node_count)
		return (uint32_t)node_count;
	return min_nodes;
#endif
}

/* 24.11 adds is_locked (false: assoc_mgr takes its own locks). */
static inline bool ts_is_user_acct_coord(void *db_conn, uint32_t uid,
					 char *acct)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
	return assoc_mgr_is_user_acct_coord(db_conn, uid, acct);
#else
	return assoc_mgr_is_user_acct_coord(db_conn, uid, acct, false);
#endif
}

/* The QOS a job may run under (24.11: several; NULL: its qos_ptr). */
static inline list_t *ts_job_qos_list(job_record_t *job)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	(void)job;
	return NULL;
#else
	return job->qos_list;
#endif
}

/*
 * Per-partition (and, from 24.11, per-QOS) priorities.  22.05:
 * job->priority_array, one per partition, allocated once.  24.11:
 * job->part_prio (priority_mult_t) with the partition names, reallocated
 * after any partition change (last_part_update), for multi-partition
 * and multi-QOS jobs (partitions x QOS, QOS varying fastest), freed when
 * the job has neither.  26.05 renames part_prio to prio_mult (RECIPE
 * section 5; its layout is assumed unchanged, unverified).
 */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define TS_JOB_PRIO_MULT prio_mult
#elif SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
#define TS_JOB_PRIO_MULT part_prio
#endif

/* ts_prio_array() - the job's array, or NULL when it has none. */
static inline uint32_t *ts_prio_array(job_record_t *job)
{
#ifdef TS_JOB_PRIO_MULT
	return job->TS_JOB_PRIO_MULT ? job->TS_JOB_PRIO_MULT->priority_array
				     : NULL;
#else
	return job->priority_array;
#endif
}

/*
 * ts_prio_array_get() - the job's array with room for n entries, kept
 * when it is still valid (so that PriorityFlags=INCR_ONLY compares with
 * the last values), else allocated zeroed as the release's multifactor
 * does.  Needs the job write lock.
 */
static inline uint32_t *ts_prio_array_get(job_record_t *job, int n)
{
#ifdef TS_JOB_PRIO_MULT
	priority_mult_t *m = job->TS_JOB_PRIO_MULT;

	if (!m)
		m = job->TS_JOB_PRIO_MULT = xmalloc(sizeof(*m));
	if (!m->priority_array || m->last_update < last_part_update) {
		xfree(m->priority_array);
		if (job->part_ptr_list) {
			xfree(m->priority_array_names);
			m->priority_array_names =
				part_list_to_xstr(job->part_ptr_list);
		}
		m->priority_array = xcalloc(n, sizeof(uint32_t));
		m->last_update = time(NULL);
	}
	return m->priority_array;
#else
	if (!job->priority_array)
		job->priority_array = xcalloc(n + 1, sizeof(uint32_t));
	return job->priority_array;
#endif
}

/* ts_prio_array_drop() - a job now in one partition and one QOS. */
static inline void ts_prio_array_drop(job_record_t *job)
{
#ifdef TS_JOB_PRIO_MULT
	if (job->TS_JOB_PRIO_MULT && !job->part_ptr_list && !job->qos_list) {
		xfree(job->TS_JOB_PRIO_MULT->priority_array);
		xfree(job->TS_JOB_PRIO_MULT->priority_array_names);
		xfree(job->TS_JOB_PRIO_MULT);
	}
#else
	(void)job;
#endif
}

/*
 * 22.05 sorts a job's partitions by tier in the priority plugin, every
 * time; from 23.02 slurmctld keeps part_ptr_list sorted and multifactor
 * uses it as it is.
 */
#define TS_PLUGIN_SORTS_PARTITIONS                                             \
	(SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0))

/*
 * QOS usage limits per account and user (24.11): giving back a running
 * job's TRES run seconds also gives them back to the QOS's record of the
 * job's account and user, and skips the QOS entirely for a job without
 * an association.  RET false where the release keeps none.
 */
static inline bool ts_qos_used_limits(slurmdb_qos_rec_t *qos, job_record_t *job,
				      slurmdb_used_limits_t **acct,
				      slurmdb_used_limits_t **user)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	(void)qos;
	(void)job;
	*acct = *user = NULL;
	return false;
#else
	*acct = *user = NULL;
	if (!job->assoc_ptr)
		return true;
	*acct = acct_policy_get_acct_used_limits(&qos->usage->acct_limit_list,
						 job->assoc_ptr->acct);
	*user = acct_policy_get_user_used_limits(&qos->usage->user_limit_list,
						 job->user_id);
	return true;
#endif
}

/* The run seconds of a used-limits record (NULL where there are none). */
static inline uint64_t *ts_used_limits_run_secs(slurmdb_used_limits_t *l)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	(void)l;
	return NULL;
#else
	return l->tres_run_secs;
#endif
}

/*
 * sprio's rows (priority_factors_object_t).  22.05: the factors are the
 * row's own fields and the partition name is borrowed (the destructor
 * leaves it).  From 23.11 a row holds account, partition and QOS names
 * and a pointer to its factors, and slurm_destroy_priority_factors_object()
 * frees all of them: a row must own copies (a borrowed partition name
 * was freed with the first sprio's reply and crashed slurmctld on the
 * second).  Rows of a job whose priority an administrator set carry
 * direct_prio and no factors there (sprio prints zeros), one per
 * partition (22.05: only a single-partition job's row; a multi-partition
 * job's rows copy its cleared factors): TS_DIRECT_ROWS_ALL.
 */
#define TS_DIRECT_ROWS_ALL                                                     \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0))

static inline ts_job_factors_t *ts_row_factors(priority_factors_object_t *row)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	return row;
#else
	return row->prio_factors;
#endif
}

/*
 * ts_row_new() - a row of job in partition part (NULL: its own) under
 * QOS qos (NULL: its own), factors copied from job->prio_factors unless
 * direct (then zeroed, or absent from 23.11).
 */
static inline priority_factors_object_t *ts_row_new(job_record_t *job,
						    part_record_t *part,
						    slurmdb_qos_rec_t *qos,
						    bool direct)
{
	priority_factors_object_t *row = xmalloc(sizeof(*row));

	if (!part)
		part = job->part_ptr;
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	(void)qos;
	if (!direct && job->prio_factors)
		slurm_copy_priority_factors_object(row, job->prio_factors);
	row->partition = part->name; /* borrowed: 22.05 frees it not */
#else
	if (!qos)
		qos = job->qos_ptr;
	row->account = xstrdup(job->account);
	row->partition = xstrdup(part->name);
	row->qos = qos ? xstrdup(qos->name) : NULL;
	/* A row without direct_prio must have factors: they are packed. */
	if (!direct) {
		row->prio_factors = xmalloc(sizeof(*row->prio_factors));
		slurm_copy_priority_factors(row->prio_factors,
					    job->prio_factors);
	}
#endif
	row->cluster_name = NULL;
	row->job_id = job->job_id;
	row->user_id = job->user_id;
	return row;
}

/*
 * 26.05 drops priority_p_calc_fs_factor(): sshare prints the fs_factor
 * that slurmctld sends, so the plugin stores every association's
 * FairShare there (Fair Tree's users have theirs already).  Before 26.05
 * the field is Fair Tree's alone and this does nothing.
 */
static inline void ts_assoc_set_fs_factor(slurmdb_assoc_rec_t *assoc,
					  double factor)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
	assoc->usage->fs_factor = factor;
#else
	(void)assoc;
	(void)factor;
#endif
}

#endif /* TS_COMPAT_CTLD */

/* ------------------------------------------------ client side (libslurm) */
/*
 * sshare-ext's libslurm layer: differences of the client API go here
 * (helper "lab" adds them).  Known so far (RECIPE section 5):
 *   - slurm_get_errno() is no longer exported from 24.11 (use errno);
 *   - slurm_free_ctl_conf() is slurm_free_conf() from 26.05.
 */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define ts_free_ctl_conf(conf) slurm_free_conf(conf)
#else
#define ts_free_ctl_conf(conf) slurm_free_ctl_conf(conf)
#endif

#endif /* TS_SLURM_COMPAT_H */
