/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_compare.h - one history replayed under several configurations
 * side by side (ts-replay(1), --compare): at each sample, every
 * association's figures under each, the jobs pending then with their
 * priority under each, and how each configuration's order of those jobs
 * compares with the first one's (rank_compare.h).
 *
 * The samples are at start + every, start + 2 every, ... : every is a
 * whole number of each configuration's PriorityCalcPeriod, and the
 * configurations share start and end.  They stop at the first sample
 * one configuration has no cycle for.  With the plugin's cycle times
 * (replay.h cycles, the same array in every configuration) a sample
 * is taken at each cycle and every is not used.
 *
 * A job is pending at t when Eligible <= t < Start (the replay is
 * open-loop: it started when it really did); one that never started
 * (start 0, sacct_jobs.h keep_pending) from Eligible to its End (a
 * cancellation) or for good.  Jobs without an Eligible
 * time are in no order; they are counted.  A pending job's priority
 * under a configuration is Slurm's sum (priority.h) of the two factors
 * a history gives:
 *   age       = min(t - Eligible, PriorityMaxAge) / PriorityMaxAge
 *               (Eligible stands for the accrue time, which sacct does
 *               not keep)
 *   fairshare = the replayed FairShare of the job's association
 *               (ts_fs_job_node())
 * weighted by that configuration's PriorityWeightAge and
 * PriorityWeightFairshare, the total truncated to an integer, as Slurm
 * does.  Job size, partition, QOS, association, TRES and nice need the
 * cluster's and partitions' figures at the time, which sacct does not
 * keep: they are left out, the same for every configuration.
 *
 * Memory: the replays (replay.h), two job indexes, and per sample the
 * pending jobs' priorities (one double per job and configuration),
 * grown to the largest pending set and reused.
 */
#ifndef TS_REPLAY_COMPARE_H
#define TS_REPLAY_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "rank_compare.h"
#include "replay.h"

struct ts_compare_sample {
	int64_t time;
	size_t index; /* 1, 2, ... */
	size_t k;     /* configurations */
	/* per configuration: the replay's sample (usage, figures) */
	const struct ts_replay_sample *run;
	size_t n_pending;
	const size_t *pending; /* job indexes, by Eligible then input order */
	const double *prio;    /* prio[c * n_pending + i]: job pending[i] */
	/* rank[c], c >= 1: configuration c's order against the first's */
	const struct ts_rank_pairs *rank;
};

/* The sample hook; a non-zero return stops the run with that code. */
typedef int (*ts_compare_fn)(void *arg, const struct ts_compare_sample *s);

struct ts_compare_stats {
	size_t samples;
	size_t no_eligible; /* jobs without Eligible: in no order */
};

/*
 * ts_replay_compare() - jobs[0 .. n) over t under confs[0 .. k) (k >= 1,
 * all with the same start and end), a sample every `every` seconds, fn
 * called on each.  stats[0 .. k) (may be NULL) get each replay's
 * figures, *cs (may be NULL) the comparison's.
 * RET TS_OK, the hook's code, TS_EINVAL (every not a whole number of
 * some period, configurations with different spans), TS_ENOMEM, or a
 * replay's error; *err set (which configuration, 1-based, for a
 * replay's).
 */
int ts_replay_compare(const struct ts_tree *t, const struct ts_sacct_job *jobs,
		      size_t n, const struct ts_replay_conf *confs, size_t k,
		      uint32_t every, ts_compare_fn fn, void *arg,
		      struct ts_replay_stats *stats,
		      struct ts_compare_stats *cs, struct ts_error *err);

#endif /* TS_REPLAY_COMPARE_H */
