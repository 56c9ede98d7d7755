/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_compat.h - what differs between the Slurm releases treeshare is
 * built against, keyed on SLURM_VERSION_NUMBER; the only place that knows
 * the release.  src/ never includes it; the plugin, ts-harness and
 * sshare-ext's libslurm layer do, after config.h of the configured tree.
 *
 *   series  where it comes from            first tested micro (plugin ABI)
 *   22.05   Debian 12 (bookworm)           22.05.8 (0x160508)
 *   24.11   Debian 13 (trixie)             24.11.5 (0x180b05)
 *   25.05   SchedMD's release source       25.05.8 (0x190508)
 *   25.11   SchedMD's release source       25.11.7 (0x190b07)
 *   26.05   SchedMD's release source       26.05.3 (0x1a0503)
 *
 * Any micro release of these series is accepted, built against that
 * micro's own configured tree: Slurm's loader takes only the exact
 * major.minor.micro the plugin was built for, and structures move inside
 * a series (job_record_t twice in 24.11), so one build per micro.
 * contrib/slurm-src-check.sh refuses pre-releases, snapshots and
 * unconfigured trees; an unknown series is refused here, by name.
 *
 * Every difference is keyed on the release that brought it
 * (SLURM_VERSION_NUM of the change, as dated from the release sources in
 * ../shared/labs/compat/UPSTREAM-API.md), never on a micro release
 * that merely has it.
 *
 * Sections: the release check; types and calls common to every user;
 * the controller side (TS_COMPAT_CTLD defined before inclusion: the
 * plugin and ts-harness); at the end, the client side (libslurm).
 */
#ifndef TS_SLURM_COMPAT_H
#define TS_SLURM_COMPAT_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "src/common/list.h"

/* ------------------------------------------------------------ release */

#define TS_SLURM_SERIES (SLURM_VERSION_NUMBER & 0xffff00)

#if TS_SLURM_SERIES == SLURM_VERSION_NUM(22, 5, 0) ||                          \
	TS_SLURM_SERIES == SLURM_VERSION_NUM(24, 11, 0) ||                     \
	TS_SLURM_SERIES == SLURM_VERSION_NUM(25, 5, 0) ||                      \
	TS_SLURM_SERIES == SLURM_VERSION_NUM(25, 11, 0) ||                     \
	TS_SLURM_SERIES == SLURM_VERSION_NUM(26, 5, 0)
/* supported */
#else
#pragma message("treeshare: the Slurm tree is " SLURM_VERSION_STRING)
#error "unsupported Slurm release series (named in the note above); treeshare supports the series 22.05, 24.11, 25.05, 25.11 and 26.05"
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

/*
 * The accounting storage interface (consumed_usage.c's query of ended
 * jobs): moved to src/interfaces/ in 23.02.  Included where it is used.
 */
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
#define TS_ACCOUNTING_STORAGE_H "src/common/slurm_accounting_storage.h"
#else
#define TS_ACCOUNTING_STORAGE_H "src/interfaces/accounting_storage.h"
#endif

/*
 * slurmctld functions the plugin calls from 23.11 on only (the QOS
 * used-limit lookups of ts_qos_used_limits(), part_list_to_xstr() of
 * ts_prio_array_get()); slurmctld_api.h declares them weak there.
 */
#define TS_CTLD_CALLS_2311                                                     \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0))

/*
 * sprio's list: before 24.05 the plugin applies the request's filters and
 * takes the job locks itself (priority_p_get_priority_factors_list() with
 * the request); from 24.05 sprio filters and slurmctld holds the locks.
 */
#define TS_PLUGIN_FILTERS_SPRIO                                                \
	(SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 5, 0))

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

/*
 * ts_job_factors_zero_rest() - zero the fields of a job's factors that no
 * priority computation sets (sprio's rows use them), as multifactor's
 * memset() of the record does.  The asserts catch a release whose
 * struct gained a field after the last one named here.
 */
static inline void ts_job_factors_zero_rest(ts_job_factors_t *pf)
{
	pf->tres_names = NULL;
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	pf->cluster_name = NULL;
	pf->job_id = 0;
	pf->partition = NULL;
	pf->user_id = 0;
	pf->direct_prio = 0.0;
	_Static_assert(
		sizeof(ts_job_factors_t) ==
			offsetof(ts_job_factors_t, nice) + sizeof(uint32_t) + 4,
		"priority_factors_object_t has a field treeshare does not know");
#else
	_Static_assert(
		sizeof(ts_job_factors_t) ==
			offsetof(ts_job_factors_t, tres_weights) +
				sizeof(double *),
		"priority_factors_t has a field treeshare does not know");
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
 * the job has neither.  Renamed prio_mult (same layout) in 24.11.7 and
 * 25.05.1; 24.11.0-24.11.6 and 25.05.0 have part_prio.
 */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 5, 1) ||                     \
	(TS_SLURM_SERIES == SLURM_VERSION_NUM(24, 11, 0) &&                    \
	 SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 7))
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

/* The job of a sprio row: from 26.05 rows carry the whole step id. */
static inline uint32_t ts_row_job_id(const priority_factors_object_t *row)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
	return row->step_id.job_id;
#else
	return row->job_id;
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
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
	/* 26.05: the whole id (sprio shows and matches the SLUID) */
	row->step_id = job->step_id;
#else
	row->job_id = job->job_id;
#endif
	row->user_id = job->user_id;
	return row;
}

/*
 * 25.11 drops priority_p_calc_fs_factor(): the association's fs_factor is
 * then the one FairShare of every algorithm (sshare's user rows,
 * slurmrestd's shares, QOS UsageThreshold), so the plugin stores every
 * association's FairShare there (accounts' too, as multifactor's cycle).  Before 25.11 the field is Fair
 * Tree's alone (the client computes the others): TS_STORES_FS_FACTOR
 * false, and this does nothing.
 */
#define TS_STORES_FS_FACTOR                                                    \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0))

static inline void ts_assoc_set_fs_factor(slurmdb_assoc_rec_t *assoc,
					  double factor)
{
#if TS_STORES_FS_FACTOR
	assoc->usage->fs_factor = factor;
#else
	(void)assoc;
	(void)factor;
#endif
}

/*
 * 26.05 validates a heterogeneous job's limits at submission by a job
 * begin and a job end of each pending component (proc_req.c
 * _het_job_val_add()/_rem(), with AccountingStorageEnforce=limits): the
 * plugin's job end sees a job that never started.  Nothing ran, so
 * treeshare charges nothing there (multifactor charges the time since
 * its last decay); see docs/priority_treeshare.5.
 */
#define TS_JOB_END_OF_PENDING_JOB                                              \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0))

#endif /* TS_COMPAT_CTLD */

/* ------------------------------------------------ client side (libslurm) */
/*
 * sshare-ext's libslurm layer: differences of the client API go here:
 *   - slurm_get_errno() is no longer exported from 24.11 (use errno);
 *   - slurm_free_ctl_conf() is slurm_free_conf() from 26.05;
 *   - from 23.02 the shares request is libslurm's own call (shares_rpc.c).
 */
/*
 * sshare's FairShare: from 25.11 the user rows' fs_factor slurmctld sends
 * (accounts blank) under every algorithm; before, outside Fair Tree,
 * computed in the client from EffectvUsage and NormShares.
 */
#define TS_SSHARE_STORED_FAIRSHARE                                             \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0))

/* The shares request is libslurm's own call from 23.02 (shares_rpc.c). */
#define TS_LIBSLURM_GETS_SHARES                                                \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0))

/*
 * (Macros, not functions: the header alone must compile against any
 * micro release's tree, test_slurm_src.sh.)
 * sprio's request from a client (sshare-ext --explain): 22.05's call
 * takes sprio's filters (NULL: every job the caller may see); from 23.02
 * only show flags, the client filters.  A row's factors: 22.05's row is
 * its factors; from 23.11 it points to them (NULL when an administrator
 * set the priority: direct_prio); from 26.05 a row names its job by the
 * whole step id.
 */
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0)
#define ts_client_load_job_prio(r) slurm_load_job_prio((r), NULL, NULL, NULL, 0)
#else
#define ts_client_load_job_prio(r) slurm_load_job_prio((r), 0)
#endif

#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
#define ts_client_factors_t	   priority_factors_object_t
#define ts_client_row_factors(row) (row)
#define ts_client_row_qos(row)	   ((const char *)NULL)
#else
#define ts_client_factors_t	   priority_factors_t
#define ts_client_row_factors(row) ((row)->prio_factors)
#define ts_client_row_qos(row)	   ((row)->qos)
#endif

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define ts_client_row_job_id(row) ((row)->step_id.job_id)
#else
#define ts_client_row_job_id(row) ((row)->job_id)
#endif

/* squeue's request for one job: by its whole step id from 26.05. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define ts_client_load_job(resp, id)                                           \
	slurm_load_job((resp),                                                 \
		       ((slurm_step_id_t){ .sluid = 0,                         \
					   .job_id = (id),                     \
					   .step_het_comp = NO_VAL,            \
					   .step_id = NO_VAL }),               \
		       SHOW_ALL)
#else
#define ts_client_load_job(resp, id) slurm_load_job((resp), (id), SHOW_ALL)
#endif

/*
 * A job's state and pending reason in words: libslurm exports them but
 * slurm.h declares neither; job_reason_string() is
 * job_state_reason_string() from 24.05 (the old name is gone there).
 */
extern char *slurm_job_state_string(uint32_t inx);
#define ts_client_state_string(state)                                          \
	((const char *)slurm_job_state_string(state))
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0)
extern const char *slurm_job_state_reason_string(enum job_state_reason inx);
#define ts_client_reason_string(r)                                             \
	slurm_job_state_reason_string((enum job_state_reason)(r))
#else
extern char *slurm_job_reason_string(enum job_state_reason inx);
#define ts_client_reason_string(r)                                             \
	((const char *)slurm_job_reason_string((enum job_state_reason)(r)))
#endif

/*
 * A pending job's priority in each of its partitions, as squeue has it:
 * slurm_job_info_t's priority_array in the order of priority_array_names
 * from 24.11 (22.05 gives clients the job's one priority only).
 */
#define TS_CLIENT_PRIORITY_ARRAY                                               \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0))

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define ts_free_ctl_conf(conf) slurm_free_conf(conf)
#else
#define ts_free_ctl_conf(conf) slurm_free_ctl_conf(conf)
#endif

#endif /* TS_SLURM_COMPAT_H */
