/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_prio.h - a job record to src/priority.c's snapshot, and the result
 * back into the record as Slurm keeps it: job->priority, the priority
 * array (one per partition, in tier order, and from 24.11 per QOS of a
 * multi-QOS job; slurm_compat.h) and job->prio_factors (the weighted
 * factors sprio shows).
 *
 * All functions here need the job write lock and assoc_mgr's
 * { .assoc = READ_LOCK, .qos = READ_LOCK } at least.  When a job's
 * association has no effective usage yet (classic fair share fills users
 * on demand) it is computed and stored, which needs .assoc = WRITE_LOCK:
 * a caller with the read lock sets fs_memo.read_only and learns it from
 * fs_memo.needs_write.
 */
#ifndef PT_JOB_PRIO_H
#define PT_JOB_PRIO_H

#include "slurmctld_api.h"

#include <stdbool.h>
#include <time.h>

#include "priority_conf.h"

/*
 * A job's fair-share factor comes from fs_cache.h's cache, else from its
 * association's record.  may_store: the caller holds the association
 * write lock, so a factor computed from the record is cached.
 * read_only: the caller holds the read lock only; a job whose usage must
 * be computed and stored is left as it was, needs_write set, for the
 * caller to compute again under the write lock (rare: a classic user's
 * first job since its usage was reset).  The rest is the last
 * association whose factor was computed from its record (the factor is
 * a pow()).  Start each use with { .may_store = ..., .read_only = ... }.
 */
struct fs_memo {
	bool may_store;
	bool read_only;
	bool needs_write;
	const slurmdb_assoc_rec_t *assoc;
	long double usage_efctv;
	double shares_norm;
	double factor;
	/* The last factor found in the cache, for association hit_id (0:
	 * none): the next job of the same association reuses it (the cache
	 * changes only at write back, not during a pass). */
	uint32_t hit_id;
	double hit;
};

/*
 * job_prio_compute() - Slurm's _get_priority_internal(): the factors of
 * job at now into job->prio_factors, per-partition (and per-QOS)
 * priorities into the job's priority array.  p is conf_prio_now(c).
 * RET the job's priority: job->priority unchanged when set directly by an
 * administrator, 0 for a job without details.
 */
uint32_t job_prio_compute(const struct priority_conf *c,
			  const struct ts_prio_config *p, job_record_t *job,
			  time_t now, struct fs_memo *memo);

/*
 * job_prio_recompute() - the decay cycle's step for one job (Slurm's
 * decay_apply_weighted_factors()): pending jobs (all of them with
 * CALCULATE_RUNNING) that are not held get job_prio_compute(), stored
 * under INCR_ONLY's rule.  RET true if job->priority was stored: the
 * caller then sets last_job_update, once per pass (the job write lock
 * is held throughout, so no reader sees the difference, and slurmctld's
 * clock is read once instead of once a job).
 */
bool job_prio_recompute(const struct priority_conf *c,
			const struct ts_prio_config *p, job_record_t *job,
			time_t now, struct fs_memo *memo);

/*
 * job_prio_part_tres() - TRES factors of job in part, weighted, into f
 * (tres_cnt entries, zeroed by the caller or holding the job's weighted
 * factors for sprio's per-partition rows).  RET their sum.
 */
double job_prio_part_tres(const struct ts_prio_config *p, job_record_t *job,
			  part_record_t *part, double *f);

/*
 * job_prio_prefetch() - start loading, ahead of its turn, what
 * job_prio_recompute() will read of job: stage 0 the job record, stage 1
 * what the record points to (run it once stage 0 has had time), stage 2
 * one more level (the factors' TRES arrays); stage -1 only the job's
 * state (a charge pass).  Only hints: no effect on results.  Reads only
 * job fields (the job lock covers them), not the fair-share cache.
 */
static inline void job_prio_prefetch(job_record_t *job, int stage)
{
	job_details_t *d;
	ts_job_factors_t *pf;

	switch (stage) {
	case -1:
		/* A charge pass reads no more of a pending job. */
		__builtin_prefetch(&job->job_state);
		break;
	case 0:
		__builtin_prefetch(&job->job_state);
		__builtin_prefetch(&job->priority);
		__builtin_prefetch(&job->direct_set_prio);
		__builtin_prefetch(&job->details);
		__builtin_prefetch(&job->assoc_ptr);
		__builtin_prefetch(&job->assoc_id);
		__builtin_prefetch(&job->qos_ptr);
		__builtin_prefetch(&job->part_ptr);
		__builtin_prefetch(&job->part_ptr_list);
		__builtin_prefetch(&job->prio_factors);
		__builtin_prefetch(&job->site_factor);
		__builtin_prefetch(&job->time_limit);
		__builtin_prefetch(&job->total_cpus);
		__builtin_prefetch(&job->tres_req_cnt);
		__builtin_prefetch(&job->tres_alloc_cnt);
		break;
	case 1:
		if ((d = job->details)) {
			__builtin_prefetch(&d->accrue_time);
			__builtin_prefetch(&d->max_cpus);
			__builtin_prefetch(&d->min_cpus);
			__builtin_prefetch(&d->min_nodes);
			__builtin_prefetch(&d->nice);
		}
		if ((pf = job->prio_factors)) {
			__builtin_prefetch(pf, 1);
			__builtin_prefetch((char *)pf + sizeof(*pf) - 1, 1);
		}
		if (job->tres_req_cnt)
			__builtin_prefetch(job->tres_req_cnt);
		if (job->tres_alloc_cnt)
			__builtin_prefetch(job->tres_alloc_cnt);
		break;
	default:
		if ((pf = job->prio_factors)) {
			if (pf->priority_tres)
				__builtin_prefetch(pf->priority_tres, 1);
			if (pf->tres_weights)
				__builtin_prefetch(pf->tres_weights, 1);
		}
		break;
	}
}

/*
 * job_prio_qos_term() - the weighted QOS term of a job of several QOS
 * (24.11) under qos: Slurm's rule, except that a QOS of priority 0 (or
 * no QOS weight) keeps the job's own weighted QOS term, own, as
 * multifactor does.
 */
double job_prio_qos_term(const struct ts_prio_config *p,
			 const slurmdb_qos_rec_t *qos, double own);

/*
 * job_prio_part_fs() - the job's weighted FairShare in part when Maui's
 * fair share decides it (c->cred_fs: the class term is part's); else fs,
 * the job's own.  Needs { .assoc = READ_LOCK } (cred_table.h) and the
 * job read lock; keep (cred_table_job_factor()'s) only under the job
 * write lock.
 */
double job_prio_part_fs(const struct priority_conf *c,
			const struct ts_prio_config *p, job_record_t *job,
			part_record_t *part, double fs, bool keep);

/* job_prio_part_term() - the weighted partition factor of part. */
double job_prio_part_term(const struct ts_prio_config *p, part_record_t *part);

#endif /* PT_JOB_PRIO_H */
