/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.h - an accounting history replayed through the plugin's cycle
 * (issue 30, ts-replay(1)): what each association's usage and fair share
 * would have been, one sample per PriorityCalcPeriod, under one
 * configuration.  The history (tree, jobs) is read once and stays
 * read-only, so that several configurations can be replayed over it.
 *
 * The plugin's cycle (plugins/priority_treeshare/cycle.c), with the same
 * arithmetic (usage_charge.h, consumed.h) and algorithms (fairshare.h).
 * The plugin is taken to have run since start with no usage: cycles at
 * start + k * period, k = 1, 2, ..., up to the first at or after end;
 * or, given the plugin's own cycle times (cycles[], from its log), at
 * cycles[1], cycles[2], ... with start = cycles[0], each decaying over
 * its own interval.
 * Between two cycles at ran and t = ran + period:
 *   0. the share changes made before t apply (slurmctld has them when
 *      the cycle computes; one in t's own second waits for the next);
 *   1. each job that ended in (ran, t] is charged at its end, its
 *      run seconds of [max(ran, start), end] (dedicated usage only),
 *      when charge_at_end (AccountingStorageEnforce with limits: Slurm
 *      charges a job's end under no other setting); otherwise that last
 *      slice is not charged, as Slurm does not; then, when PriorityUsageResetPeriod's time has come (NOW: at the
 *      first cycle), all usage is zeroed (ts_next_reset());
 *   2. classic and depth_oblivious: fair share is computed, from the
 *      usage before this cycle's decay and charges (as multifactor);
 *   3. all usage decays by d^period;
 *   4. each job running at t is charged its seconds of [max(ran, start), t];
 *   5. usage_metric=consumed: the jobs that ended in
 *      (ran - TS_CONSUMED_LAG, t - TS_CONSUMED_LAG] are charged their
 *      TotalCPU, decayed from their end to t (and nothing in 1 and 4);
 *   6. fair_tree and pbs: fair share is computed now;
 *   7. the sample: the usage after the cycle (sshare's RawUsage) and the
 *      cycle's fair-share figures.
 * A charge goes to the job's association and every ancestor up to the
 * root.  Jobs that never started (start 0) are never charged.  Not replayed (yet): QOS UsageFactor (taken as 1),
 * usage_window=, associations added or removed during the history.  Checked against a live
 * plugin by the cluster lab's replay run (scenario-replay.sh).
 *
 * Memory: the tree's usage and results, and three job indexes (n jobs
 * each), allocated once per run; nothing is allocated per cycle.
 *
 * A run is either driven by ts_replay_run() with a hook per cycle, or
 * stepped one cycle at a time (ts_replay_open(), ts_replay_next()), so
 * that several configurations can go side by side (replay_compare.h).
 */
#ifndef TS_REPLAY_H
#define TS_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "fairshare.h"
#include "sacct_jobs.h"
#include "share_changes.h"
#include "tree.h"
#include "usage_charge.h"

struct ts_replay_conf {
	struct ts_fs_config fs;
	uint32_t period;	    /* PriorityCalcPeriod, s, > 0 */
	double decay;		    /* per second (ts_decay_per_second()) */
	bool consumed;		    /* usage_metric=consumed */
	enum ts_reset_period reset; /* PriorityUsageResetPeriod */
	int64_t start; /* usage is 0 here; the first cycle is a period on */
	int64_t end;   /* the last cycle is the first at or after end */
	bool charge_at_end; /* AccountingStorageEnforce has limits */
	/*
	 * the cycles' times, increasing, n_cycles >= 2, the first = start,
	 * the last = end; NULL: by period
	 */
	const int64_t *cycles;
	size_t n_cycles;
	/* share changes by time (share_changes.h); nodes of the tree */
	const struct ts_share_change *changes;
	size_t n_changes;
	/* pending jobs' priorities (replay_compare.h); 0 when not compared */
	uint32_t w_age, w_fs; /* PriorityWeightAge, PriorityWeightFairshare */
	uint32_t max_age;     /* PriorityMaxAge, s */
};

struct ts_replay_sample {
	int64_t time;		    /* the cycle's start */
	size_t cycle;		    /* 1, 2, ... */
	const struct ts_tree *tree; /* usage: RawUsage after the cycle */
	const struct ts_fs *fs;	    /* the cycle's fair-share figures */
};

/* What a run did not charge, by reason (nothing is dropped unseen). */
struct ts_replay_stats {
	size_t cycles;
	size_t resets;	      /* PriorityUsageResetPeriod's zeroings */
	size_t charged;	      /* jobs charged at least once */
	size_t before_start;  /* ended at or before start: not charged */
	size_t after_end;     /* started at or after the last cycle */
	size_t no_cpu;	      /* consumed: ended in range without TotalCPU */
	size_t share_changes; /* applied */
};

/* The sample hook; a non-zero return stops the run with that code. */
typedef int (*ts_replay_fn)(void *arg, const struct ts_replay_sample *s);

/*
 * ts_replay_run() - replay jobs[0 .. n) (any order; job[i].node a node of
 * t) over t (finished; its own usage is not read) under c, calling fn
 * after each cycle.
 * RET TS_OK, the hook's code, or TS_EINVAL (period 0, end before start,
 * a node out of range, decay not in (0, 1], cycles not increasing or
 * fewer than 2), TS_ENOMEM, or the
 * algorithm's error; *err set.  *stats (may be NULL) filled.
 */
int ts_replay_run(const struct ts_tree *t, const struct ts_sacct_job *jobs,
		  size_t n, const struct ts_replay_conf *c, ts_replay_fn fn,
		  void *arg, struct ts_replay_stats *stats,
		  struct ts_error *err);

/*
 * The same run a cycle at a time: ts_replay_open() checks and allocates
 * (errors as ts_replay_run()); while !ts_replay_done(), ts_replay_next()
 * runs the next cycle and fills *s, valid until the next call (RET TS_OK
 * or the algorithm's error); ts_replay_close() (r may be NULL) fills
 * *stats (may be NULL) and frees.
 */
struct ts_replay;

int ts_replay_open(struct ts_replay **r, const struct ts_tree *t,
		   const struct ts_sacct_job *jobs, size_t n,
		   const struct ts_replay_conf *c, struct ts_error *err);
bool ts_replay_done(const struct ts_replay *r);
int ts_replay_next(struct ts_replay *r, struct ts_replay_sample *s,
		   struct ts_error *err);
void ts_replay_close(struct ts_replay *r, struct ts_replay_stats *stats);

/*
 * The user associations of a tree by (account, user), for the sacct
 * reader's resolve hook: built once, then O(log n) a job.
 */
struct ts_assoc_index {
	const struct ts_tree *t;
	long *node; /* user nodes sorted by (parent name, name) */
	size_t n;
};

int ts_assoc_index_build(struct ts_assoc_index *ix, const struct ts_tree *t,
			 struct ts_error *err);
/* RET the user's node under account, or TS_NO_NODE. */
long ts_assoc_index_find(const struct ts_assoc_index *ix, const char *user,
			 const char *account);
void ts_assoc_index_free(struct ts_assoc_index *ix);

#endif /* TS_REPLAY_H */
