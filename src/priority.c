/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority.c - the job factors and their weighted sum (see priority.h).
 *
 * Formula: slurm.conf(5) and the "Multifactor Priority Plugin" page of
 * Slurm 22.05; the reference is Debian's priority_multifactor.so,
 * compared job by job by the parity harness (testsuite/harness).
 * Hand-worked values: testsuite/unit/test_priority.c.
 *
 * Edge cases, each defined:
 *   - a weight of 0 leaves its factor 0 (it is not computed at all);
 *   - age: accrue_time in the future counts 0; PriorityMaxAge 0 gives 1;
 *   - job size: unsigned differences wrap as Slurm's do (more CPUs than
 *     the cluster has, favouring small, gives a large term that the
 *     final clamp to [0,1] bounds); NaN (no nodes, no time limit and no
 *     CPUs) becomes 0;
 *   - the sum is at least 1 and at most 2^32 - 1; NaN becomes 2^32 - 1,
 *     which is what Slurm's conversion yields on x86-64;
 *   - a TRES of weight +0.0 is skipped (tres_on): its weighted factor
 *     is exactly 0 and adding +0.0 to a sum of terms >= 0 changes no
 *     bit, so the priority is Slurm's to the bit without it.
 */
#include <math.h>
#include <string.h>

#include "priority.h"

/* Priorities are uint32_t; 2^32 is the first value that does not fit. */
#define PRIO_LIMIT 4294967296.0

static double age_factor(const struct ts_prio_config *cfg,
			 const struct ts_prio_job *job, time_t now)
{
	uint32_t waited = 0;

	/* Slurm keeps the wait in 32 bits: a wait past 136 years wraps. */
	if (now > job->accrue_time)
		waited = (uint32_t)(now - job->accrue_time);
	if (waited < cfg->max_age)
		return (double)waited / (double)cfg->max_age;
	return 1.0;
}

/*
 * Slurm's job size factor in [0,1]: nodes and CPUs against the cluster's,
 * per minute of time limit with SMALL_RELATIVE_TO_TIME, inverted by
 * PriorityFavorSmall; 0 instead of NaN.
 */
static inline double job_size(const struct ts_prio_config *cfg,
			      const struct ts_prio_job *job)
{
	uint32_t cpus = 0;
	double js;

	/* Allocated CPUs once known, else the request. */
	if (job->total_cpus)
		cpus = job->total_cpus;
	else if (job->max_cpus != TS_NO_VAL)
		cpus = job->max_cpus;
	else if (job->min_cpus)
		cpus = job->min_cpus;

	if (cfg->flags & TS_PRIO_SIZE_RELATIVE) {
		uint32_t limit = 1;

		/* CPUs of min_nodes average nodes, or the CPU count. */
		js = (double)job->min_nodes * (double)cfg->cluster_cpus /
		     (double)cfg->node_count;
		if (cpus > js)
			js = (double)cpus;
		if (job->time_limit != TS_NO_VAL)
			limit = job->time_limit;
		else if (job->part)
			limit = job->part->max_time;
		js /= limit;
		js /= cfg->cluster_cpus;
		if (cfg->flags & TS_PRIO_FAVOR_SMALL)
			js = 1.0 - js;
	} else if (cfg->flags & TS_PRIO_FAVOR_SMALL) {
		js = (double)(cfg->node_count - job->min_nodes) /
		     (double)cfg->node_count;
		if (cpus) {
			js += (double)(cfg->cluster_cpus - cpus) /
			      (double)cfg->cluster_cpus;
			js /= 2;
		}
	} else {
		js = (double)job->min_nodes / (double)cfg->node_count;
		if (cpus) {
			js += (double)cpus / (double)cfg->cluster_cpus;
			js /= 2;
		}
	}

	if (isnan(js) || js < 0.0)
		return 0.0;
	if (js > 1.0)
		return 1.0;
	return js;
}

size_t ts_prio_tres_select(const double *w, size_t n, uint32_t *on)
{
	size_t i, k = 0;

	/* Only +0.0 weighs to exactly +0.0; -0.0 and NaN must show. */
	for (i = 0; i < n; i++)
		if (w[i] != 0.0 || signbit(w[i]))
			on[k++] = (uint32_t)i;
	return k;
}

/* How many TRES the TRES functions visit, and the k-th of them. */
static size_t tres_visits(const struct ts_prio_config *cfg)
{
	return cfg->tres_on ? cfg->n_tres_on : cfg->tres_cnt;
}

static size_t tres_visit(const struct ts_prio_config *cfg, size_t k)
{
	return cfg->tres_on ? cfg->tres_on[k] : k;
}

double ts_prio_job_size(const struct ts_prio_config *cfg,
			const struct ts_prio_job *job)
{
	return job_size(cfg, job);
}

/* TRES i's factor of job in part into f[i]; left as it is without one. */
static inline void tres_factors_one(const struct ts_prio_config *cfg,
				    const struct ts_prio_job *job,
				    const struct ts_prio_part *part, double *f,
				    size_t i)
{
	uint64_t value = 0;

	if (job->tres_alloc && job->tres_alloc[i] != TS_PRIO_NO_CONSUME)
		value = job->tres_alloc[i];
	else if (job->tres_req)
		value = job->tres_req[i];

	if (cfg->flags & TS_PRIO_NO_NORMAL_TRES)
		f[i] = (double)value;
	else if (value && part && part->tres_cnt && part->tres_cnt[i])
		f[i] = (double)value / (double)part->tres_cnt[i];
}

static inline void tres_factors(const struct ts_prio_config *cfg,
				const struct ts_prio_job *job,
				const struct ts_prio_part *part, double *f)
{
	size_t k, n = tres_visits(cfg);

	for (k = 0; k < n; k++)
		tres_factors_one(cfg, job, part, f, tres_visit(cfg, k));
}

void ts_prio_tres_factors(const struct ts_prio_config *cfg,
			  const struct ts_prio_job *job,
			  const struct ts_prio_part *part, double *f)
{
	tres_factors(cfg, job, part, f);
}

static inline double tres_weigh(const struct ts_prio_config *cfg, double *f)
{
	size_t k, n = tres_visits(cfg);
	double sum = 0.0;

	if (!cfg->w_tres)
		return 0.0;
	for (k = 0; k < n; k++) {
		size_t i = tres_visit(cfg, k);

		f[i] *= cfg->w_tres[i];
		sum += f[i];
	}
	return sum;
}

double ts_prio_tres_weigh(const struct ts_prio_config *cfg, double *f)
{
	return tres_weigh(cfg, f);
}

/*
 * Entry i of tres_weighted_req(), added to *sum.  A request of 0 needs
 * no test of its own: 0 / cnt is +0.0, as the general case's 0.
 */
static inline __attribute__((always_inline)) void
tres_req_one(const double *w, const uint64_t *req, const uint64_t *cnt,
	     double *f, size_t i, double *sum)
{
	double x = 0.0;

	if (cnt[i])
		x = (double)req[i] / (double)cnt[i];
	x *= w[i];
	f[i] = x;
	*sum += x;
}

/*
 * tres_weighted() with zero, for the common job: pending (no allocated
 * counts), normalised by its partition's totals.  The same operations
 * on each entry in the same order, without the per-entry tests of the
 * general case, one loop with tres_on and one without (bench shape
 * tres: 27 instructions a TRES with the tests, 19 without).
 */
static inline __attribute__((always_inline)) double
tres_weighted_req(const struct ts_prio_config *cfg, const uint64_t *req,
		  const uint64_t *cnt, double *f)
{
	const uint32_t *on = cfg->tres_on;
	const double *w = cfg->w_tres;
	size_t k, n = tres_visits(cfg);
	double sum = 0.0;

	if (on)
		for (k = 0; k < n; k++)
			tres_req_one(w, req, cnt, f, on[k], &sum);
	else
		for (k = 0; k < n; k++)
			tres_req_one(w, req, cnt, f, k, &sum);
	return sum;
}

/*
 * tres_factors() then tres_weigh() (w_tres set), entry by entry: the
 * same values and the same sum; zero: each entry visited is 0 before
 * its factor (else an entry with no count keeps its value, weighted).
 */
static inline __attribute__((always_inline)) double
tres_weighted(const struct ts_prio_config *cfg, const struct ts_prio_job *job,
	      const struct ts_prio_part *part, double *f, int zero)
{
	size_t k, n = tres_visits(cfg);
	double sum = 0.0;

	if (zero && !job->tres_alloc && job->tres_req && part &&
	    part->tres_cnt && !(cfg->flags & TS_PRIO_NO_NORMAL_TRES))
		return tres_weighted_req(cfg, job->tres_req, part->tres_cnt, f);
	for (k = 0; k < n; k++) {
		size_t i = tres_visit(cfg, k);

		if (zero)
			f[i] = 0.0;
		tres_factors_one(cfg, job, part, f, i);
		f[i] *= cfg->w_tres[i];
		sum += f[i];
	}
	return sum;
}

double ts_prio_tres_weighted(const struct ts_prio_config *cfg,
			     const struct ts_prio_job *job,
			     const struct ts_prio_part *part, double *f)
{
	if (!cfg->w_tres) {
		tres_factors(cfg, job, part, f);
		return 0.0;
	}
	return tres_weighted(cfg, job, part, f, 0);
}

double ts_prio_tres_weighted_sum(const struct ts_prio_config *cfg,
				 const struct ts_prio_job *job,
				 const struct ts_prio_part *part,
				 double *scratch)
{
	if (!cfg->w_tres)
		return 0.0;
	return tres_weighted(cfg, job, part, scratch, 1);
}

/*
 * One job's factors into out: each whose weight is not 0, site and nice
 * always, the rest 0; out->tres, the caller's array, is kept.  weighted
 * (a constant at each call) multiplies each by its weight as it is
 * made, the same multiplication ts_prio_weigh() does afterwards, and
 * RETs the weighted TRES sum (0 when not weighted): one pass over the
 * job and the TRES instead of two.
 */
static inline __attribute__((always_inline)) double
factors(const struct ts_prio_config *cfg, const struct ts_prio_job *job,
	time_t now, struct ts_prio_factors *out, int weighted)
{
	double *tres = out->tres;
	double age = 0.0, fs = 0.0, js = 0.0, part = 0.0, assoc = 0.0;
	double qos = 0.0;

	if (cfg->w_age && job->accrue_time)
		age = age_factor(cfg, job, now);
	if (job->has_assoc && cfg->w_fs)
		fs = job->fs;
	if (cfg->w_js)
		js = job_size(cfg, job);
	if (job->part && job->part->job_factor && cfg->w_part)
		part = (cfg->flags & TS_PRIO_NO_NORMAL_PART)
			       ? (double)job->part->job_factor
			       : job->part->norm;
	if (job->has_assoc && cfg->w_assoc)
		assoc = (cfg->flags & TS_PRIO_NO_NORMAL_ASSOC)
				? (double)job->assoc_prio
				: job->assoc_norm;
	if (job->has_qos && job->qos_prio && cfg->w_qos)
		qos = (cfg->flags & TS_PRIO_NO_NORMAL_QOS)
			      ? (double)job->qos_prio
			      : job->qos_norm;
	if (weighted) {
		age *= (double)cfg->w_age;
		assoc *= (double)cfg->w_assoc;
		fs *= (double)cfg->w_fs;
		js *= (double)cfg->w_js;
		part *= (double)cfg->w_part;
		qos *= (double)cfg->w_qos;
	}
	out->age = age;
	out->assoc = assoc;
	out->fs = fs;
	out->js = js;
	out->part = part;
	out->qos = qos;
	out->site = job->site;
	out->nice = job->nice;
	if (!cfg->w_tres || !tres)
		return 0.0;
	/* Entries tres_on leaves out are 0, weighted or not. */
	if (cfg->tres_on)
		memset(tres, 0, cfg->tres_cnt * sizeof(*tres));
	if (!weighted) {
		if (!cfg->tres_on)
			memset(tres, 0, cfg->tres_cnt * sizeof(*tres));
		tres_factors(cfg, job, job->part, tres);
		return 0.0;
	}
	return tres_weighted(cfg, job, job->part, tres, 1);
}

void ts_prio_factors(const struct ts_prio_config *cfg,
		     const struct ts_prio_job *job, time_t now,
		     struct ts_prio_factors *out)
{
	(void)factors(cfg, job, now, out, 0);
}

static inline double weigh(const struct ts_prio_config *cfg,
			   struct ts_prio_factors *f)
{
	f->age *= (double)cfg->w_age;
	f->assoc *= (double)cfg->w_assoc;
	f->fs *= (double)cfg->w_fs;
	f->js *= (double)cfg->w_js;
	f->part *= (double)cfg->w_part;
	f->qos *= (double)cfg->w_qos;
	if (cfg->w_tres && f->tres)
		return tres_weigh(cfg, f->tres);
	return 0.0;
}

double ts_prio_weigh(const struct ts_prio_config *cfg,
		     struct ts_prio_factors *f)
{
	return weigh(cfg, f);
}

double ts_prio_weighted(const struct ts_prio_config *cfg,
			const struct ts_prio_job *job, time_t now,
			struct ts_prio_factors *out)
{
	return factors(cfg, job, now, out, 1);
}

/* At least 1 (0 is "held"), at most 2^32 - 1, truncated. */
static inline uint32_t clamp_priority(double p, int *capped)
{
	if (capped)
		*capped = 0;
	if (p < 1)
		return 1;
	if (!(p < PRIO_LIMIT)) {
		if (capped)
			*capped = 1;
		return TS_PRIO_MAX;
	}
	return (uint32_t)p;
}

uint32_t ts_prio_clamp(double p, int *capped)
{
	return clamp_priority(p, capped);
}

/* Same terms in the same order as Slurm: same rounding. */
static inline double prio_sum(const struct ts_prio_factors *f, double tres_sum)
{
	return f->age + f->assoc + f->fs + f->js + f->part + f->qos + tres_sum +
	       ts_prio_offset(f->site) - ts_prio_offset(f->nice);
}

/* A partition's priority: its term first, then the others' sum. */
static inline double part_first_sum(double part_term,
				    const struct ts_prio_factors *f,
				    double tres_sum)
{
	double p = part_term;

	p += f->age + f->assoc + f->fs + f->js + f->qos + tres_sum +
	     ts_prio_offset(f->site) - ts_prio_offset(f->nice);
	return p;
}

double ts_prio_sum(const struct ts_prio_factors *f, double tres_sum)
{
	return prio_sum(f, tres_sum);
}

double ts_prio_part_first_sum(double part_term, const struct ts_prio_factors *f,
			      double tres_sum)
{
	return part_first_sum(part_term, f, tres_sum);
}

uint32_t ts_prio_total(const struct ts_prio_factors *f, double tres_sum,
		       int *capped)
{
	return clamp_priority(prio_sum(f, tres_sum), capped);
}

double ts_prio_part_term(const struct ts_prio_config *cfg,
			 const struct ts_prio_part *part)
{
	double factor = (cfg->flags & TS_PRIO_NO_NORMAL_PART)
				? (double)part->job_factor
				: part->norm;

	return factor * (double)cfg->w_part;
}

uint32_t ts_prio_part_total(const struct ts_prio_config *cfg,
			    const struct ts_prio_factors *f,
			    const struct ts_prio_part *part,
			    double part_tres_sum, int *capped)
{
	return clamp_priority(
		part_first_sum(ts_prio_part_term(cfg, part), f, part_tres_sum),
		capped);
}

uint32_t ts_prio_next(const struct ts_prio_config *cfg, uint32_t old_prio,
		      uint32_t new_prio)
{
	if ((cfg->flags & TS_PRIO_INCR_ONLY) && old_prio >= new_prio)
		return old_prio;
	return new_prio;
}
