/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_prio.h - a job record to src/priority.c's snapshot, and the result
 * back into the record as Slurm keeps it: job->priority,
 * job->priority_array (one per partition, in tier order) and
 * job->prio_factors (the weighted factors sprio shows).
 *
 * All functions here need the job write lock and assoc_mgr's
 * { .assoc = READ_LOCK, .qos = READ_LOCK } at least.  When a job's
 * association has no effective usage yet (classic fair share fills users
 * on demand) it is computed and stored, which needs .assoc = WRITE_LOCK:
 * job_prio_needs_usage() tells the caller beforehand.
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
 * write lock, so a factor computed from the record is cached.  The rest
 * is the last association whose factor was computed from its record
 * (the factor is a pow()).  Start each use with { .may_store = ... }.
 */
struct fs_memo {
	bool may_store;
	const slurmdb_assoc_rec_t *assoc;
	long double usage_efctv;
	double shares_norm;
	double factor;
};

/*
 * job_prio_needs_usage() - the job's fair share would compute and store
 * its association's usage.
 */
bool job_prio_needs_usage(const struct priority_conf *c, job_record_t *job);

/*
 * job_prio_compute() - Slurm's _get_priority_internal(): the factors of
 * job at now into job->prio_factors, per-partition priorities into
 * job->priority_array.  p is conf_prio_now(c).
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
 * under INCR_ONLY's rule.
 */
void job_prio_recompute(const struct priority_conf *c,
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
void job_prio_prefetch(job_record_t *job, int stage);

/* job_prio_part_term() - the weighted partition factor of part. */
double job_prio_part_term(const struct ts_prio_config *p, part_record_t *part);

#endif /* PT_JOB_PRIO_H */
