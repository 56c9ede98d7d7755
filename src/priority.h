/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority.h - a job's priority from its factors, computed the way Slurm
 * 22.05's priority/multifactor computes it (slurm.conf(5), "Multifactor
 * Priority"; sprio(1)), over a plain snapshot of the job.
 *
 *   factors, each in [0,1] unless a NO_NORMAL_* flag asks for the raw value:
 *     age       = min(now - accrue_time, max_age) / max_age
 *     fairshare = given by the caller (src/fairshare.h computes it)
 *     jobsize   = see ts_prio_factors()
 *     partition = PriorityJobFactor / max PriorityJobFactor (norm)
 *     qos, assoc = Priority / max Priority (norm)
 *     tres_i    = job's TRES i / partition's TRES i
 *   priority = Wage*age + Wassoc*assoc + Wfs*fairshare + Wjs*jobsize
 *            + Wpart*partition + Wqos*qos + SUM_i(Wtres_i * tres_i)
 *            + (site - NICE_OFFSET) - (nice - NICE_OFFSET)
 *
 * The sum is formed left to right in double, exactly in that order,
 * raised to 1 (0 means "held") and capped at 2^32 - 1, then truncated:
 * the same bits as Slurm, so a priority never differs by one.
 *
 * A job in several partitions also gets one priority per partition
 * (Slurm's priority_array), in partition tier order, where the
 * partition and TRES terms are those of each partition.
 *
 * Nothing here allocates, reads a clock or lets NaN or inf out: a
 * degenerate input (zero time limit, zero CPUs in the cluster) gives a
 * factor of 0 or 1 where Slurm's arithmetic would give NaN.
 */
#ifndef TS_PRIORITY_H
#define TS_PRIORITY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "no_val.h"

/*
 * Slurm's sentinels, with the values of slurm/slurm.h (22.05); NO_VAL is
 * TS_NO_VAL (no_val.h).
 */
#define TS_PRIO_NICE_OFFSET 0x80000000U
#define TS_PRIO_NO_CONSUME  ((uint64_t)0xfffffffffffffffdULL)
#define TS_PRIO_MAX	    UINT32_MAX

/* PriorityFlags bits that change the job factors (values are ours). */
enum ts_prio_flag {
	TS_PRIO_SIZE_RELATIVE = 1U << 0, /* SMALL_RELATIVE_TO_TIME */
	TS_PRIO_FAVOR_SMALL = 1U << 1,	 /* PriorityFavorSmall=YES */
	TS_PRIO_NO_NORMAL_ASSOC = 1U << 2,
	TS_PRIO_NO_NORMAL_PART = 1U << 3,
	TS_PRIO_NO_NORMAL_QOS = 1U << 4,
	TS_PRIO_NO_NORMAL_TRES = 1U << 5,
	TS_PRIO_INCR_ONLY = 1U << 6,
};

/* The weights and cluster figures every job shares (one per cycle). */
struct ts_prio_config {
	/*
	 * PriorityWeight*: integers (uint32_t in slurm.conf), held as
	 * double, exactly, since every job multiplies its factors by them
	 * (a conversion each, ~18 instructions a job).
	 */
	double w_age, w_assoc, w_fs, w_js, w_part, w_qos;
	const double *w_tres; /* tres_cnt weights; NULL: no TRES term */
	size_t tres_cnt;
	/*
	 * The TRES the TRES functions visit: n_tres_on indices, ascending,
	 * of the weights that are not 0 (ts_prio_tres_select()); NULL: all
	 * tres_cnt.  A TRES of weight 0 has a weighted factor of exactly 0
	 * and adds exactly +0.0 to the sum (factors are finite and >= 0),
	 * so skipping it changes no bit; most sites weigh one or two TRES
	 * of about ten.
	 */
	const uint32_t *tres_on;
	size_t n_tres_on;
	uint32_t max_age;      /* PriorityMaxAge, seconds */
	unsigned flags;	       /* enum ts_prio_flag */
	uint32_t cluster_cpus; /* CPUs in the cluster */
	uint32_t node_count;   /* nodes in the cluster */
};

/* One partition as the job factors see it. */
struct ts_prio_part {
	uint16_t job_factor;	  /* PriorityJobFactor */
	double norm;		  /* job_factor / max over partitions */
	uint32_t max_time;	  /* MaxTime, minutes */
	const uint64_t *tres_cnt; /* TRES totals of the partition; NULL */
};

/* A job snapshot: what the factors read, nothing else. */
struct ts_prio_job {
	time_t accrue_time;  /* 0: not accruing age */
	int has_assoc;	     /* job has an association */
	double fs;	     /* its fair-share factor, [0,1] */
	uint32_t assoc_prio; /* association Priority */
	double assoc_norm;   /* ... normalised */
	int has_qos;
	uint32_t qos_prio;   /* QOS Priority */
	double qos_norm;     /* ... normalised */
	uint32_t total_cpus; /* allocated CPUs, 0 if none yet */
	uint32_t max_cpus;   /* requested, TS_NO_VAL if unset */
	uint32_t min_cpus;
	uint32_t min_nodes;
	uint32_t time_limit;		 /* minutes; TS_NO_VAL: partition's */
	const struct ts_prio_part *part; /* NULL: none */
	uint32_t site;			 /* site factor, NICE_OFFSET based */
	uint32_t nice;			 /* nice, NICE_OFFSET based */
	const uint64_t *tres_alloc;	 /* tres_cnt entries or NULL */
	const uint64_t *tres_req;	 /* tres_cnt entries or NULL */
};

/*
 * The factors of one job.  ts_prio_factors() fills them normalised;
 * ts_prio_weigh() multiplies them by their weights in place, which is
 * what Slurm stores for sprio.  tres points to the caller's array of
 * tres_cnt doubles (may be NULL when w_tres is NULL).
 */
struct ts_prio_factors {
	double age, assoc, fs, js, part, qos;
	double *tres;
	uint32_t site; /* NICE_OFFSET based, as given */
	uint32_t nice; /* NICE_OFFSET based, as given */
};

/*
 * ts_prio_factors() - the normalised factors of job at time now; a factor
 * whose weight is 0 stays 0 (Slurm does not compute it).  out->tres must
 * have room for cfg->tres_cnt entries when cfg->w_tres is set; it is
 * zeroed first.
 */
void ts_prio_factors(const struct ts_prio_config *cfg,
		     const struct ts_prio_job *job, time_t now,
		     struct ts_prio_factors *out);

/*
 * ts_prio_job_size() - the job-size factor alone, [0,1].  Favour large:
 * (min_nodes / nodes + cpus / cluster_cpus) / 2; PriorityFavorSmall: the
 * same of the unused share; SMALL_RELATIVE_TO_TIME: max(min_nodes *
 * cpus_per_node, cpus) / time_limit / cluster_cpus, reversed when
 * favouring small.
 */
double ts_prio_job_size(const struct ts_prio_config *cfg,
			const struct ts_prio_job *job);

/*
 * ts_prio_tres_select() - the indices of the n weights w that are not
 * +0.0 (-0.0 and NaN are kept: they show in a weighted factor),
 * ascending, into on (room for n).  RET how many.  For tres_on.
 */
size_t ts_prio_tres_select(const double *w, size_t n, uint32_t *on);

/*
 * ts_prio_tres_factors() - TRES factors of job in part into f: for each
 * TRES of cfg->tres_on (all without it), the allocated count (the
 * requested one before allocation) divided by the partition's total, or
 * the count itself with NO_NORMAL_TRES.  Entries with no count or no
 * partition total, and those tres_on leaves out, are left as they are
 * (Slurm's sprio relies on the first; see factors_rpc.c).
 */
void ts_prio_tres_factors(const struct ts_prio_config *cfg,
			  const struct ts_prio_job *job,
			  const struct ts_prio_part *part, double *f);

/*
 * ts_prio_tres_weigh() - f[i] *= w_tres[i] in place for each TRES of
 * cfg->tres_on (all without it); RET their sum, in index order.  The
 * entries tres_on leaves out must be 0 already (their weighted value).
 */
double ts_prio_tres_weigh(const struct ts_prio_config *cfg, double *f);

/*
 * ts_prio_tres_weighted() - ts_prio_tres_factors() then
 * ts_prio_tres_weigh() in one pass over the TRES; RET the weighted sum
 * (0, the factors left unweighted, without TRES weights).
 */
double ts_prio_tres_weighted(const struct ts_prio_config *cfg,
			     const struct ts_prio_job *job,
			     const struct ts_prio_part *part, double *f);

/*
 * ts_prio_tres_weighted_sum() - the weighted TRES sum of job in part
 * alone (0 without TRES weights): the sum ts_prio_tres_weighted() gives
 * over an array of zeros.  scratch (tres_cnt doubles) is written at the
 * TRES visited and read nowhere else, so it needs no zeroing.
 */
double ts_prio_tres_weighted_sum(const struct ts_prio_config *cfg,
				 const struct ts_prio_job *job,
				 const struct ts_prio_part *part,
				 double *scratch);

/*
 * ts_prio_weigh() - multiply f's factors by their weights in place.
 * RET the weighted TRES sum (0 without TRES weights).
 */
double ts_prio_weigh(const struct ts_prio_config *cfg,
		     struct ts_prio_factors *f);

/*
 * ts_prio_weighted() - ts_prio_factors() then ts_prio_weigh(), in one
 * call: a cycle's per-job path.  RET the weighted TRES sum.
 */
double ts_prio_weighted(const struct ts_prio_config *cfg,
			const struct ts_prio_job *job, time_t now,
			struct ts_prio_factors *out);

/*
 * ts_prio_total() - the job priority from weighted factors and their
 * TRES sum: the sum in Slurm's order, at least 1, at most 2^32 - 1.
 * *capped (may be NULL) is set when the cap applied.
 */
uint32_t ts_prio_total(const struct ts_prio_factors *f, double tres_sum,
		       int *capped);

/* ts_prio_offset() - a site factor or nice value (NICE_OFFSET based), signed. */
static inline double ts_prio_offset(uint32_t v)
{
	return (double)((int64_t)v - (int64_t)TS_PRIO_NICE_OFFSET);
}

/*
 * ts_prio_sum() - the sum ts_prio_total() clamps; ts_prio_clamp() - at
 * least 1, at most 2^32 - 1 (*capped set then; may be NULL), truncated.
 */
double ts_prio_sum(const struct ts_prio_factors *f, double tres_sum);
uint32_t ts_prio_clamp(double p, int *capped);

/*
 * ts_prio_part_first_sum() - the sum ts_prio_part_total() clamps, from
 * the weighted partition term part_term (f->part is not read).
 */
double ts_prio_part_first_sum(double part_term, const struct ts_prio_factors *f,
			      double tres_sum);

/*
 * ts_prio_part_total() - the priority of the job in partition part:
 * the partition term of part (weighted by w_part) plus the other
 * weighted factors of f and part_tres_sum, the TRES sum for part.
 */
uint32_t ts_prio_part_total(const struct ts_prio_config *cfg,
			    const struct ts_prio_factors *f,
			    const struct ts_prio_part *part,
			    double part_tres_sum, int *capped);

/* ts_prio_part_term() - the weighted partition factor of part. */
double ts_prio_part_term(const struct ts_prio_config *cfg,
			 const struct ts_prio_part *part);

/*
 * ts_prio_next() - the priority to store: new_prio, or old_prio when
 * INCR_ONLY is set and new_prio is not higher.
 */
uint32_t ts_prio_next(const struct ts_prio_config *cfg, uint32_t old_prio,
		      uint32_t new_prio);

#endif /* TS_PRIORITY_H */
