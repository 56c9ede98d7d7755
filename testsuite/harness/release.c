/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * release.c - the harness's per-release steps (see release.h).
 */
#include "release.h"

#include <math.h>
#include <stdlib.h>

#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#define TH_NEW_PROCESS_RECONFIG                                                \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0))

int th_release_start(void)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 5, 0)
	return priority_g_init();
#else
	/* controller.c: the same lock from before init() to after the
	 * thread starts; the jobs are read in between. */
	slurmctld_lock_t config_write = { .conf = WRITE_LOCK,
					  .job = WRITE_LOCK,
					  .node = WRITE_LOCK,
					  .part = WRITE_LOCK };
	int rc;

	lock_slurmctld(config_write);
	rc = priority_g_init();
	if (rc == SLURM_SUCCESS)
		priority_g_thread_start();
	unlock_slurmctld(config_write);
	if (rc == SLURM_SUCCESS)
		(void)priority_g_recover(0); /* sync_job_priorities() */
	return rc;
#endif
}

bool th_release_reconfig_restarts(void)
{
	return TH_NEW_PROCESS_RECONFIG;
}

list_t *th_release_factors(uid_t uid)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 5, 0)
	priority_factors_request_msg_t req = { 0 };

	return priority_g_get_priority_factors_list(&req, uid);
#else
	/* proc_req.c: the RPC handler holds these around the call. */
	slurmctld_lock_t job_read = { .job = READ_LOCK,
				      .node = READ_LOCK,
				      .part = READ_LOCK };
	list_t *l;

	lock_slurmctld(job_read);
	l = priority_g_get_priority_factors_list(uid);
	unlock_slurmctld(job_read);
	return l;
#endif
}

ts_job_factors_t *th_release_row(priority_factors_object_t *row,
				 const char **qos)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	*qos = "";
#else
	*qos = row->qos ? row->qos : "";
#endif
	return ts_row_factors(row);
}

static int free_partition(void *x, void *arg)
{
	(void)arg;
	xfree(((priority_factors_object_t *)x)->partition);
	return 0;
}

void th_release_rows_done(list_t *rows)
{
	if (rows && !TS_DIRECT_ROWS_ALL)
		(void)list_for_each(rows, free_partition, NULL);
}

int th_release_job_qos_list(job_record_t *job, list_t *qos)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	(void)job;
	(void)qos;
	return -1;
#else
	list_sort(qos, priority_sort_qos_desc);
	job->qos_list = qos;
	job->qos_ptr = list_peek(qos);
	return 0;
#endif
}

void th_release_job_id(job_record_t *job, uint32_t id)
{
	job->job_id = id;
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0)
	job->step_id = SLURM_STEP_ID_INITIALIZER;
	job->step_id.job_id = id;
#endif
}

void th_release_job_free(job_record_t *j)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
	FREE_NULL_LIST(j->qos_list);
#endif
	if (j->prio_factors) {
		xfree(j->prio_factors->priority_tres);
		xfree(j->prio_factors->tres_weights);
		xfree(j->prio_factors);
	}
#ifdef TS_JOB_PRIO_MULT
	if (j->TS_JOB_PRIO_MULT) {
		xfree(j->TS_JOB_PRIO_MULT->priority_array);
		xfree(j->TS_JOB_PRIO_MULT->priority_array_names);
		xfree(j->TS_JOB_PRIO_MULT);
	}
#else
	xfree(j->priority_array);
#endif
}

void th_release_set_nodes(int nodes)
{
	node_record_count = nodes;
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
	active_node_record_count = nodes;
#endif
}

void th_release_begin_qos(slurmdb_qos_rec_t *qos, job_record_t *job, int tres,
			  const uint64_t *secs)
{
	slurmdb_used_limits_t *acct, *user;
	uint64_t *a, *u;
	int i;

	if (!ts_qos_used_limits(qos, job, &acct, &user) || !acct)
		return;
	a = ts_used_limits_run_secs(acct);
	u = ts_used_limits_run_secs(user);
	for (i = 0; i < tres; i++) {
		a[i] += secs[i];
		u[i] += secs[i];
	}
}

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
struct qos_used_line {
	FILE *out;
	unsigned cycle;
	uint32_t qos_id;
	const char *kind;
};

static int print_used(void *x, void *arg)
{
	slurmdb_used_limits_t *l = x;
	struct qos_used_line *q = arg;
	uint32_t i;

	fprintf(q->out, "qos_used|%u|%u|%s|", q->cycle, q->qos_id, q->kind);
	if (!xstrcmp(q->kind, "account"))
		fprintf(q->out, "%s|", l->acct ? l->acct : "");
	else
		fprintf(q->out, "%u|", l->uid);
	for (i = 0; i < g_tres_count; i++)
		fprintf(q->out, "%s%" PRIu64, i ? "," : "",
			l->tres_run_secs ? l->tres_run_secs[i] : 0);
	fputc('\n', q->out);
	return 0;
}
#endif

void th_release_report_qos(FILE *out, unsigned cycle, slurmdb_qos_rec_t *qos)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
	struct qos_used_line q = { out, cycle, qos->id, "account" };

	if (qos->usage->acct_limit_list)
		(void)list_for_each(qos->usage->acct_limit_list, print_used,
				    &q);
	q.kind = "user";
	if (qos->usage->user_limit_list)
		(void)list_for_each(qos->usage->user_limit_list, print_used,
				    &q);
#else
	(void)out;
	(void)cycle;
	(void)qos;
#endif
}

void th_release_sort_parts(list_t *parts)
{
	/* partition_mgr.c's get_part_list() from 23.02; 22.05's multifactor
	 * sorts them itself. */
	if (parts && !TS_PLUGIN_SORTS_PARTITIONS)
		list_sort(parts, priority_sort_part_tier);
}

void th_release_assoc_path(slurmdb_assoc_rec_t *a,
			   const slurmdb_assoc_rec_t *parent)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	(void)a;
	(void)parent;
#else
	if (!parent)
		a->lineage = xstrdup("/");
	else if (a->user)
		a->lineage =
			xstrdup_printf("%s0-%s/", parent->lineage, a->user);
	else
		a->lineage = xstrdup_printf("%s%s/", parent->lineage, a->acct);
#endif
}

void th_release_assoc_nested(slurmdb_assoc_rec_t *a, uint32_t lft, uint32_t rgt)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(25, 5, 0)
	a->lft = lft;
	a->rgt = rgt;
#else
	(void)a;
	(void)lft;
	(void)rgt;
#endif
}

double th_release_fairshare(const assoc_shares_object_t *s, bool fair_tree)
{
#if TS_STORES_FS_FACTOR
	(void)fair_tree;
	return s->user ? s->fs_factor : NAN;
#else
	if (!fair_tree)
		return priority_g_calc_fs_factor((long double)s->usage_efctv,
						 (long double)s->shares_norm);
	return s->user ? s->fs_factor : NAN;
#endif
}

void th_release_sort_assocs(list_t *assocs)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	slurmdb_sort_hierarchical_assoc_list(assocs, true); /* by lft */
#else
	slurmdb_sort_hierarchical_assoc_list(assocs); /* by lineage */
#endif
}

void th_release_assoc_args(assoc_init_args_t *args)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	args->state_save_location = &slurm_conf.state_save_location;
#else
	(void)args; /* assoc_mgr reads slurm_conf itself */
#endif
}

int th_release_load_assoc_state(void)
{
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0)
	return load_assoc_mgr_state(false);
#else
	return load_assoc_mgr_state();
#endif
}
