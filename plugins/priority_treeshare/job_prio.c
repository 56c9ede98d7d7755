/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_prio.c - job records in, priorities out (see job_prio.h).  The math
 * is src/priority.c's; this file only moves fields.
 */
#include "job_prio.h"

#include <inttypes.h>
#include <string.h>

#include "assoc_tree.h"
#include "cred_table.h"
#include "fs_cache.h"

/* The association whose usage decides the job's fair share. */
static slurmdb_assoc_rec_t *fs_assoc(job_record_t *job)
{
	slurmdb_assoc_rec_t *a = job->assoc_ptr;

	if (a->shares_raw == SLURMDB_FS_USE_PARENT && a->usage->fs_assoc_ptr)
		return a->usage->fs_assoc_ptr;
	return a;
}

/* The cached factor of the job's association: from memo, or looked up. */
static bool cached_fs(const struct priority_conf *c, job_record_t *job,
		      struct fs_memo *memo, double *f)
{
	if (memo->hit_id && memo->hit_id == job->assoc_id) {
		*f = memo->hit;
		return true;
	}
	if (!fs_cache_get(job->assoc_id, c->fs.algo, c->fs.damp, f))
		return false;
	memo->hit_id = job->assoc_id;
	memo->hit = *f;
	return true;
}

/*
 * From 25.11 multifactor computes the usage of the job's own association
 * when it has none (its FairShare is stored there), not only that of its
 * fs association (Fairshare=parent): so does treeshare, at the same time.
 */
static bool own_usage_on_demand(job_record_t *job)
{
	return TS_STORES_FS_FACTOR && assoc_usage_is_unset(job->assoc_ptr);
}

/*
 * The job's fair-share factor, by src/'s rule (fairshare.h): the value
 * stored in its own association (Fair Tree's rank), else
 * ts_fs_record_factor() of its fs association's record.  Mostly
 * from the cache (with fs_targets=, a target's factor); a classic user's
 * first pending job computes it from the record (its usage on demand)
 * and caches it for the others; an association added since the last
 * cycle gets it from its record until the next.
 */
static double job_fs(const struct priority_conf *c, job_record_t *job,
		     struct fs_memo *memo)
{
	slurmdb_assoc_rec_t *a;
	slurmdb_assoc_usage_t *u;
	double f;

	if (!c->calc_fairshare)
		return 0;
	if (own_usage_on_demand(job)) {
		if (memo->read_only)
			goto needs_write;
		assoc_usage_on_demand(job->assoc_ptr, c);
	}
	if (cached_fs(c, job, memo, &f))
		return f;

	a = fs_assoc(job);
	u = a->usage;
	if (assoc_usage_is_unset(a)) {
		if (memo->read_only)
			goto needs_write;
		assoc_usage_on_demand(a, c);
	}
	if (ts_fs_stored(c->fs.algo)) {
		f = job->assoc_ptr->usage->fs_factor;
	} else {
		if (memo->assoc != a || memo->usage_efctv != u->usage_efctv ||
		    memo->shares_norm != u->shares_norm) {
			memo->assoc = a;
			memo->usage_efctv = u->usage_efctv;
			memo->shares_norm = u->shares_norm;
			memo->factor = ts_fs_record_factor(
				c->fs.algo, u->usage_efctv,
				(long double)u->shares_norm, c->damp);
		}
		f = memo->factor;
	}
	if (memo->may_store && job->assoc_ptr->user &&
	    job->assoc_ptr->id == job->assoc_id)
		fs_cache_put(job->assoc_id, f);
	return f;

needs_write:
	memo->needs_write = true;
	return 0.0;
}

/*
 * Whether Maui's fair share applies to job: not without fair share,
 * usage per credential, or the job's association.
 */
static bool cred_fs_applies(const struct priority_conf *c,
			    const job_record_t *job)
{
	return c->cred_usage && c->calc_fairshare && job->assoc_ptr;
}

/*
 * Maui's fair share of job in part (NULL: where it runs or was sent)
 * into *cf (cred_table.h).  RET false when it does not apply.
 */
static bool job_cred_fs(const struct priority_conf *c, job_record_t *job,
			part_record_t *part, struct ts_cred_fs *cf)
{
	if (!cred_fs_applies(c, job))
		return false;
	cred_table_job(c, job, part, cf);
	return true;
}

/*
 * job_cred_fs()'s factor alone, or -1 when it does not apply; keep as
 * cred_table_job_factor().
 */
static double job_cred_factor(const struct priority_conf *c, job_record_t *job,
			      part_record_t *part, bool keep)
{
	if (!cred_fs_applies(c, job))
		return -1.0;
	return cred_table_job_factor(c, job, part, keep);
}

double job_prio_part_fs(const struct priority_conf *c,
			const struct ts_prio_config *p, job_record_t *job,
			part_record_t *part, double fs, bool keep)
{
	double f;

	if (!c->cred_fs || !p->w_fs ||
	    (f = job_cred_factor(c, job, part, keep)) < 0)
		return fs;
	return f * (double)p->w_fs;
}

/*
 * The FairShare factor of job (with an association): Maui's per
 * credential (cred_fs implies cred_usage), else the tree's.
 */
static double job_fair_share(const struct priority_conf *c, job_record_t *job,
			     struct fs_memo *memo)
{
	/* job_prio_compute()'s callers hold the job write lock */
	if (c->cred_fs && c->calc_fairshare)
		return cred_table_job_factor(c, job, job->part_ptr, true);
	return job_fs(c, job, memo);
}

static void part_snapshot(part_record_t *part, struct ts_prio_part *out)
{
	out->job_factor = part->priority_job_factor;
	out->norm = part->norm_priority;
	out->max_time = part->max_time;
	out->tres_cnt = part->tres_cnt;
}

/*
 * The fields of job the factors read; part is its partition's.  Every
 * field is set (no memset: this runs for every job of every cycle).
 */
static void job_snapshot(const struct priority_conf *c, job_record_t *job,
			 const struct ts_prio_part *part, struct fs_memo *memo,
			 struct ts_prio_job *out)
{
	job_details_t *d = job->details;

	out->accrue_time = d->accrue_time;
	out->has_assoc = job->assoc_ptr != NULL;
	out->fs = 0.0;
	out->assoc_prio = 0;
	out->assoc_norm = 0.0;
	if (job->assoc_ptr) {
		if (c->need_fs)
			out->fs = job_fair_share(c, job, memo);
		if (c->factors.w_assoc) {
			out->assoc_prio = job->assoc_ptr->priority;
			out->assoc_norm = job->assoc_ptr->usage->priority_norm;
		}
	}
	out->has_qos = job->qos_ptr != NULL;
	out->qos_prio = 0;
	out->qos_norm = 0.0;
	if (job->qos_ptr) {
		out->qos_prio = job->qos_ptr->priority;
		out->qos_norm = job->qos_ptr->usage->norm_priority;
	}
	out->total_cpus = job->total_cpus;
	out->max_cpus = d->max_cpus;
	out->min_cpus = d->min_cpus;
	out->min_nodes = d->min_nodes;
	if (c->favor_small && !(c->flags & PRIORITY_FLAGS_SIZE_RELATIVE))
		out->min_nodes =
			ts_favor_small_min_nodes(d->min_nodes, ts_node_count());
	out->time_limit = job->time_limit;
	out->part = part;
	out->site = job->site_factor;
	out->nice = d->nice;
	out->tres_alloc = job->tres_alloc_cnt;
	out->tres_req = job->tres_req_cnt;
}

/* Empty factors, as Slurm leaves them for jobs it does not compute. */
static void factors_clear(job_record_t *job)
{
	ts_job_factors_t *pf = job->prio_factors;

	if (!pf)
		return;
	xfree(pf->tres_weights);
	xfree(pf->priority_tres);
	memset(pf, 0, sizeof(*pf));
}

/*
 * The job's factor record with TRES arrays when TRES weights are set
 * (the weights copied in), none when not; the arrays of the last
 * computation are reused when their size still fits.  The other fields
 * are left as they are.
 */
static inline __attribute__((always_inline)) ts_job_factors_t *
factors_arrays(job_record_t *job, const struct ts_prio_config *p)
{
	ts_job_factors_t *pf = job->prio_factors;

	if (!pf)
		pf = job->prio_factors = xmalloc(sizeof(*pf));
	if (!p->w_tres) {
		xfree(pf->priority_tres);
		xfree(pf->tres_weights);
		pf->tres_cnt = 0;
		return pf;
	}
	if (!pf->priority_tres || !pf->tres_weights ||
	    pf->tres_cnt != p->tres_cnt) {
		xfree(pf->priority_tres);
		xfree(pf->tres_weights);
		pf->priority_tres = xcalloc(p->tres_cnt, sizeof(double));
		pf->tres_weights = xcalloc(p->tres_cnt, sizeof(double));
		pf->tres_cnt = p->tres_cnt;
	}
	memcpy(pf->tres_weights, p->w_tres, p->tres_cnt * sizeof(double));
	return pf;
}

/* Zeroed factors with TRES arrays when TRES weights are set. */
static ts_job_factors_t *factors_reset(job_record_t *job,
				       const struct ts_prio_config *p)
{
	ts_job_factors_t *pf = factors_arrays(job, p);
	double *tres = pf->priority_tres, *weights = pf->tres_weights;
	uint32_t n = pf->tres_cnt;

	memset(pf, 0, sizeof(*pf));
	pf->priority_tres = tres;
	pf->tres_weights = weights;
	pf->tres_cnt = n;
	return pf;
}

static void report_cap(job_record_t *job)
{
	error("%s: %pJ priority exceeds 32 bits; reduced to 4294967295",
	      plugin_type, job);
}

double job_prio_part_tres(const struct ts_prio_config *p, job_record_t *job,
			  part_record_t *part, double *f)
{
	struct ts_prio_job snap = { .tres_alloc = job->tres_alloc_cnt,
				    .tres_req = job->tres_req_cnt };
	struct ts_prio_part ps;

	part_snapshot(part, &ps);
	return ts_prio_tres_weighted(p, &snap, &ps, f);
}

double job_prio_part_term(const struct ts_prio_config *p, part_record_t *part)
{
	struct ts_prio_part ps;

	part_snapshot(part, &ps);
	return ts_prio_part_term(p, &ps);
}

/* A job's partitions, read under one take of its list's lock. */
#define PARTS_MAX 16
struct part_list {
	part_record_t *part[PARTS_MAX];
	int n;
	bool sorted; /* highest tier first, as Slurm sorts them */
};

static int collect_part(void *x, void *arg)
{
	struct part_list *pl = arg;
	part_record_t *part = x;

	if (pl->n >= PARTS_MAX ||
	    (pl->n && pl->part[pl->n - 1]->priority_tier < part->priority_tier))
		pl->sorted = false;
	if (pl->n < PARTS_MAX)
		pl->part[pl->n] = part;
	pl->n++;
	return 0;
}

/*
 * The job's partitions in tier order.  Slurm 22.05 sorts the job's list
 * every time; it is sorted already after the first, and sorting (which
 * allocates) is only done when it is not.  Later releases keep the list
 * sorted in slurmctld and take it as it is.  RET false if there are more
 * than PARTS_MAX (the caller walks the list itself).
 */
static bool sorted_parts(job_record_t *job, struct part_list *pl)
{
	pl->n = 0;
	pl->sorted = true;
	(void)list_for_each_ro(job->part_ptr_list, collect_part, pl);
	if (pl->sorted || !TS_PLUGIN_SORTS_PARTITIONS)
		return pl->n <= PARTS_MAX;
	list_sort(job->part_ptr_list, priority_sort_part_tier);
	pl->n = 0;
	pl->sorted = true;
	(void)list_for_each_ro(job->part_ptr_list, collect_part, pl);
	return pl->n <= PARTS_MAX;
}

double job_prio_qos_term(const struct ts_prio_config *p,
			 const slurmdb_qos_rec_t *qos, double own)
{
	if (!qos || !qos->priority || !p->w_qos)
		return own;
	return ((p->flags & TS_PRIO_NO_NORMAL_QOS)
			? (double)qos->priority
			: qos->usage->norm_priority) *
	       (double)p->w_qos;
}

/*
 * Entry k's priority of job in part under QOS factor qos (weighted).
 * own_tres: the weighted TRES sum in part when known (the job's own
 * partition: job_prio_compute()'s, the same function of the same
 * snapshots), else NULL.
 */
static void part_priority(const struct ts_prio_config *p, job_record_t *job,
			  const struct ts_prio_job *snap,
			  const struct ts_prio_factors *f, part_record_t *part,
			  const double *own_tres, double qos, uint32_t *array,
			  int k)
{
	size_t n = p->w_tres ? p->tres_cnt : 0;
	double tres[n ? n : 1];
	struct ts_prio_factors fq = *f;
	struct ts_prio_part ps;
	double part_tres = 0.0;
	uint32_t prio;
	int capped;

	part_snapshot(part, &ps);
	if (own_tres)
		part_tres = *own_tres;
	else if (n)
		part_tres = ts_prio_tres_weighted_sum(p, snap, &ps, tres);
	fq.qos = qos;
	prio = ts_prio_part_total(p, &fq, &ps, part_tres, &capped);
	if (capped)
		report_cap(job);
	array[k] = ts_prio_next(p, array[k], prio);
	log_flag(PRIO, "%s: %pJ priority in partition %s: %u", plugin_type, job,
		 part->name, array[k]);
}

/* One entry of a job's priority array: where and under which QOS. */
struct part_qos {
	part_record_t *part;
	slurmdb_qos_rec_t *qos; /* NULL: the job's own */
	int k;			/* index in the array */
	uint32_t *array;
};

typedef void (*part_qos_fn)(const struct part_qos *pq, void *arg);

/* fn() for part under each QOS of the job's list (or its own). */
static int each_qos(part_record_t *part, list_t *qos_list, int *k,
		    uint32_t *array, part_qos_fn fn, void *arg)
{
	struct part_qos pq = { .part = part, .array = array };
	list_itr_t *itr;

	if (!qos_list) {
		pq.k = (*k)++;
		fn(&pq, arg);
		return 0;
	}
	itr = list_iterator_create(qos_list);
	while ((pq.qos = list_next(itr))) {
		pq.k = (*k)++;
		fn(&pq, arg);
	}
	list_iterator_destroy(itr);
	return 0;
}

/*
 * fn() for each entry of the job's priority array, allocated here when
 * missing: the job's partitions, highest tier first (its own partition
 * for a single-partition job), times its QOS when it has several (24.11;
 * QOS varying fastest).  Caller holds assoc_mgr's QOS read lock.
 */
static void each_part(job_record_t *job, part_qos_fn fn, void *arg)
{
	list_t *qos_list = ts_job_qos_list(job);
	int n_qos = qos_list ? list_count(qos_list) : 1;
	uint32_t *array;
	struct part_list pl;
	part_record_t *part;
	list_itr_t *itr;
	int i, k = 0;

	if (!job->part_ptr_list) {
		array = ts_prio_array_get(job, n_qos);
		(void)each_qos(job->part_ptr, qos_list, &k, array, fn, arg);
		return;
	}
	/* pl.n counts every partition, past PARTS_MAX too. */
	if (sorted_parts(job, &pl)) {
		array = ts_prio_array_get(job, pl.n * n_qos);
		for (i = 0; i < pl.n; i++)
			(void)each_qos(pl.part[i], qos_list, &k, array, fn,
				       arg);
		return;
	}
	array = ts_prio_array_get(job, pl.n * n_qos);
	itr = list_iterator_create(job->part_ptr_list);
	while ((part = list_next(itr)))
		(void)each_qos(part, qos_list, &k, array, fn, arg);
	list_iterator_destroy(itr);
}

struct weighted_part {
	const struct priority_conf *c;
	const struct ts_prio_config *p;
	job_record_t *job;
	const struct ts_prio_job *snap;
	const struct ts_prio_factors *f;
	/*
	 * The weighted FairShare in own_part (the job's, f's; NULL: not
	 * known) and in last_part, the last other one asked for.
	 */
	const part_record_t *own_part, *last_part;
	double last_fs;
	/* The weighted TRES sum in the job's partition, tres_part. */
	const part_record_t *tres_part;
	double own_tres;
};

static void weighted_part_priority(const struct part_qos *pq, void *arg)
{
	struct weighted_part *wp = arg;
	struct ts_prio_factors f = *wp->f;

	if (wp->c->cred_fs && pq->part != wp->own_part) {
		if (pq->part != wp->last_part) {
			/* job_prio_compute()'s callers: job write lock */
			wp->last_fs = job_prio_part_fs(wp->c, wp->p, wp->job,
						       pq->part, f.fs, true);
			wp->last_part = pq->part;
		}
		f.fs = wp->last_fs;
	}
	part_priority(wp->p, wp->job, wp->snap, &f, pq->part,
		      pq->part == wp->tres_part ? &wp->own_tres : NULL,
		      job_prio_qos_term(wp->p, pq->qos, wp->f->qos), pq->array,
		      pq->k);
}

/*
 * One priority per partition (and QOS), in priority-array order;
 * tres_sum is the weighted TRES sum in the job's own partition.
 */
static void part_priorities(const struct priority_conf *c,
			    const struct ts_prio_config *p, job_record_t *job,
			    const struct ts_prio_job *snap,
			    const struct ts_prio_factors *f, double tres_sum)
{
	struct weighted_part wp = {
		.c = c, .p = p, .job = job, .snap = snap, .f = f
	};

	/* Its own partition's sum is known: not computed twice. */
	if (p->w_tres && job->part_ptr && snap->part) {
		wp.tres_part = job->part_ptr;
		wp.own_tres = tres_sum;
	}

	/* f->fs is the one of the partition the job is in (job_snapshot) */
	if (c->need_fs)
		wp.own_part = job->part_ptr;

	each_part(job, weighted_part_priority, &wp);
}

/* ------------------------------------------------------------ formula= */

/* A formula's value as a Slurm priority: truncated, 1 .. 2^32 - 1. */
static uint32_t formula_priority(double value, job_record_t *job)
{
	if (!(value >= 1.0))
		return 1; /* 0 would hold the job */
	if (value >= (double)UINT32_MAX) {
		log_flag(PRIO, "%s: %pJ formula value %g capped at %u",
			 plugin_type, job, value, UINT32_MAX);
		return UINT32_MAX;
	}
	return (uint32_t)value;
}

/* Maui's variables of the formula: its component and the deltas. */
static void formula_cred_vars(const struct ts_cred_fs *cf, double *vars)
{
	int k;

	vars[CONF_VAR_MAUI_FS] = cf->component;
	for (k = 0; k < TS_CRED_N; k++)
		vars[CONF_VAR_FS_USER_DELTA + k] = cf->delta[k];
}

/* The part of the formula's variables that no partition changes. */
static void formula_vars(const struct ts_prio_factors *f,
			 const struct fs_pbs *pbs, double *vars)
{
	vars[CONF_VAR_AGE] = f->age;
	vars[CONF_VAR_ASSOC] = f->assoc;
	vars[CONF_VAR_FAIRSHARE] = f->fs;
	vars[CONF_VAR_JOBSIZE] = f->js;
	vars[CONF_VAR_PARTITION] = f->part;
	vars[CONF_VAR_QOS] = f->qos;
	vars[CONF_VAR_SITE] = (double)((int64_t)f->site - TS_PRIO_NICE_OFFSET);
	vars[CONF_VAR_NICE] = (double)((int64_t)f->nice - TS_PRIO_NICE_OFFSET);
	vars[CONF_VAR_PBS_TREE_USAGE] = pbs->tree_usage;
	vars[CONF_VAR_PBS_PERC] = pbs->perc;
	vars[CONF_VAR_PBS_FACTOR] = pbs->factor;
	vars[CONF_VAR_MAUI_FS] = 0.0;
	memset(&vars[CONF_VAR_FS_USER_DELTA], 0, TS_CRED_N * sizeof(*vars));
}

/* The normalised partition factor of part (ts_prio_factors()'s rule). */
static double part_factor(const struct ts_prio_config *fc,
			  const struct ts_prio_part *part)
{
	if (!part->job_factor || !fc->w_part)
		return 0.0;
	return (fc->flags & TS_PRIO_NO_NORMAL_PART) ? (double)part->job_factor
						    : part->norm;
}

/* One job's formula evaluation, carried from partition to partition. */
struct formula_part {
	const struct priority_conf *c;
	const struct ts_prio_config *p, *fc;
	job_record_t *job;
	const struct ts_prio_job *snap;
	double *vars; /* the job's; partition and TRES ones replaced */
	double *tres; /* fc->tres_cnt scratch, or NULL */
	double qos;   /* the job's own normalised QOS factor */
};

/* Entry k: the formula with partition part's (and a QOS's) factors. */
static void formula_part_priority(const struct part_qos *pq, void *arg)
{
	struct formula_part *fp = arg;
	part_record_t *part = pq->part;
	struct ts_cred_fs cf;
	struct ts_prio_part ps;
	uint32_t prio;
	size_t i;

	part_snapshot(part, &ps);
	fp->vars[CONF_VAR_QOS] = fp->qos;
	if (pq->qos && pq->qos->priority)
		fp->vars[CONF_VAR_QOS] =
			(fp->fc->flags & TS_PRIO_NO_NORMAL_QOS)
				? (double)pq->qos->priority
				: pq->qos->usage->norm_priority;
	fp->vars[CONF_VAR_PARTITION] = part_factor(fp->fc, &ps);
	if (job_cred_fs(fp->c, fp->job, part, &cf)) {
		formula_cred_vars(&cf, fp->vars);
		if (fp->c->cred_fs)
			fp->vars[CONF_VAR_FAIRSHARE] = cf.factor;
	}
	if (fp->tres) {
		memset(fp->tres, 0, fp->fc->tres_cnt * sizeof(*fp->tres));
		ts_prio_tres_factors(fp->fc, fp->snap, &ps, fp->tres);
		for (i = 0; i < fp->fc->tres_cnt; i++)
			fp->vars[CONF_VAR_TRES + i] = fp->tres[i];
	}
	prio = formula_priority(ts_formula_eval(fp->c->formula, fp->vars, NULL),
				fp->job);
	pq->array[pq->k] = ts_prio_next(fp->p, pq->array[pq->k], prio);
	log_flag(PRIO, "%s: %pJ priority in partition %s: %u", plugin_type,
		 fp->job, part->name, pq->array[pq->k]);
}

/*
 * formula= for one job: the value of the formula over the job's
 * normalised factors (every one computed, whatever its weight), its site
 * factor and nice value, its association's PBS values and its TRES
 * factors, as its priority; one per partition (and QOS) for a job of
 * several.  sprio gets the factors weighted by their PriorityWeight* as
 * usual, and the priority as direct_prio, which sprio shows as PRIORITY
 * (from 23.11 sprio then shows no factors: factors_rpc.c).  Allocates
 * nothing (the arrays are on the stack).
 */
static uint32_t formula_compute(const struct priority_conf *c,
				const struct ts_prio_config *p,
				job_record_t *job,
				const struct ts_prio_job *snap, time_t now,
				ts_job_factors_t *pf)
{
	struct ts_prio_config fc = c->factors;
	size_t i, nt = fc.w_tres ? fc.tres_cnt : 0;
	double tres[nt ? nt : 1], vars[CONF_VAR_TRES + (nt ? nt : 1)];
	struct ts_prio_factors f = { .tres = nt ? tres : NULL };
	struct ts_cred_fs cf;
	struct fs_pbs pbs;
	uint32_t prio;

	fc.cluster_cpus = p->cluster_cpus;
	fc.node_count = p->node_count;
	(void)fs_cache_get_pbs(job->assoc_id, &pbs);
	ts_prio_factors(&fc, snap, now, &f);
	formula_vars(&f, &pbs, vars);
	if (job_cred_fs(c, job, job->part_ptr, &cf))
		formula_cred_vars(&cf, vars);
	for (i = 0; i < nt; i++)
		vars[CONF_VAR_TRES + i] = tres[i];
	prio = formula_priority(ts_formula_eval(c->formula, vars, NULL), job);

	pf->priority_age = f.age * p->w_age;
	pf->priority_assoc = f.assoc * p->w_assoc;
	pf->priority_fs = f.fs * p->w_fs;
	pf->priority_js = f.js * p->w_js;
	pf->priority_part = f.part * p->w_part;
	pf->priority_qos = f.qos * p->w_qos;
	pf->priority_site = f.site;
	pf->nice = f.nice;
	ts_job_factors_set_direct(pf, prio);
	if (p->w_tres && pf->priority_tres)
		for (i = 0; i < p->tres_cnt && i < nt; i++)
			pf->priority_tres[i] = tres[i] * p->w_tres[i];

	ts_prio_array_drop(job);
	if (job->part_ptr_list || ts_job_qos_list(job)) {
		struct formula_part fp = { .c = c,
					   .p = p,
					   .fc = &fc,
					   .job = job,
					   .snap = snap,
					   .vars = vars,
					   .tres = nt ? tres : NULL,
					   .qos = f.qos };

		each_part(job, formula_part_priority, &fp);
	}
	/* clang-format off */
	log_flag(PRIO,
		 "%s: %pJ priority %u from formula: age %g assoc %g fairshare %g jobsize %g partition %g qos %g fairshare_tree_usage %g fairshare_perc %g fairshare_factor %g",
		 plugin_type, job, prio, f.age, f.assoc, f.fs, f.js, f.part,
		 f.qos, pbs.tree_usage, pbs.perc, pbs.factor);
	/* clang-format on */
	return prio;
}

uint32_t job_prio_compute(const struct priority_conf *c,
			  const struct ts_prio_config *p, job_record_t *job,
			  time_t now, struct fs_memo *memo)
{
	struct ts_prio_part part;
	struct ts_prio_job snap;
	struct ts_prio_factors f;
	ts_job_factors_t *pf;
	double tres_sum;
	uint32_t prio;
	int capped;

	if (job->direct_set_prio && job->priority > 0) {
		factors_clear(job);
		return job->priority;
	}
	if (!job->details) {
		error("%s: %pJ has no details: priority not set", plugin_type,
		      job);
		factors_clear(job);
		return 0;
	}

	if (job->part_ptr)
		part_snapshot(job->part_ptr, &part);
	job_snapshot(c, job, job->part_ptr ? &part : NULL, memo, &snap);
	if (memo->needs_write)
		return 0; /* nothing written: the caller retries */
	if (c->formula)
		return formula_compute(c, p, job, &snap, now,
				       factors_reset(job, p));
	/*
	 * The weighted TRES factors go straight into the job's record;
	 * the rest is stored field by field, the fields not computed
	 * zeroed, as a reset would (a compound literal assigned to *pf is
	 * built on the stack and copied: twice the stores, every job).
	 */
	pf = factors_arrays(job, p);
	f.tres = pf->priority_tres;
	tres_sum = ts_prio_weighted(p, &snap, now, &f);
	pf->priority_age = f.age;
	pf->priority_assoc = f.assoc;
	pf->priority_fs = f.fs;
	pf->priority_js = f.js;
	pf->priority_part = f.part;
	pf->priority_qos = f.qos;
	pf->priority_site = f.site;
	pf->nice = f.nice;
	ts_job_factors_zero_rest(pf);

	prio = ts_prio_total(&f, tres_sum, &capped);
	if (capped)
		report_cap(job);
	ts_prio_array_drop(job);
	if (job->part_ptr_list || ts_job_qos_list(job))
		part_priorities(c, p, job, &snap, &f, tres_sum);

	/* clang-format off */
	log_flag(PRIO,
		 "%s: %pJ priority %u = age %.2f + assoc %.2f + fairshare %.2f + jobsize %.2f + partition %.2f + qos %.2f + tres %.2f + site %" PRId64 " - nice %" PRId64,
		 plugin_type, job, prio, f.age, f.assoc, f.fs, f.js, f.part,
		 f.qos, tres_sum,
		 (int64_t)f.site - (int64_t)TS_PRIO_NICE_OFFSET,
		 (int64_t)f.nice - (int64_t)TS_PRIO_NICE_OFFSET);
	/* clang-format on */
	return prio;
}

bool job_prio_recompute(const struct priority_conf *c,
			const struct ts_prio_config *p, job_record_t *job,
			time_t now, struct fs_memo *memo)
{
	uint32_t prio;

	/* 0 is "held"; running jobs keep theirs unless asked. */
	if (job->priority == 0 || IS_JOB_POWER_UP_NODE(job) ||
	    (!IS_JOB_PENDING(job) &&
	     !(c->flags & PRIORITY_FLAGS_CALCULATE_RUNNING)))
		return false;
	prio = job_prio_compute(c, p, job, now, memo);
	if (memo->needs_write)
		return false;
	if (!(c->flags & PRIORITY_FLAGS_INCR_ONLY) || job->priority < prio) {
		job->priority = prio;
		return true;
	}
	return false;
}
