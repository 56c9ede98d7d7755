/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain.h - "why is my job waiting?" (issue 29): the arithmetic behind
 * sshare-ext --explain, free of Slurm.
 *
 *   - A job's priority from the weighted factors sprio's request returns,
 *     summed in slurmctld's order (priority.h: the job's own priority;
 *     a partition's of a multi-partition job adds the partition term
 *     first), so the contributions printed give the integer squeue
 *     shows, to the bit; and in sprio's order (sprio adds TRES last).
 *   - Two jobs: the contribution whose difference favours the job ahead
 *     most.
 *   - When the order can change if no one adds usage.  Decay multiplies
 *     every usage by the same factor, and every algorithm's fair share
 *     reads only ratios of usage (NormUsage, EffectvUsage, Level FS,
 *     fairshare_tree_usage), so decay alone moves no FairShare: the age
 *     factor moves priorities (each job's grows at PriorityWeightAge /
 *     PriorityMaxAge a second until it is full), and an absolute
 *     feasibility cap lets a job go once its usage has decayed below it.
 */
#ifndef TS_EXPLAIN_H
#define TS_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "priority.h"
#include "tree.h"

/*
 * ts_explain_ctld_sum() - the weighted factors f (site and nice
 * NICE_OFFSET based) and TRES terms tres[n] (weighted) added as
 * slurmctld adds them: the job's priority (part_first 0) or, part_first
 * 1, its priority in one partition of several (priority_array).  RET
 * the sum before ts_prio_clamp().
 */
double ts_explain_ctld_sum(const struct ts_prio_factors *f, const double *tres,
			   size_t n, int part_first);

/*
 * ts_explain_sprio_sum() - the same terms as sprio's PRIORITY column
 * adds them (TRES last, each non-zero one), at least 1.
 */
double ts_explain_sprio_sum(const struct ts_prio_factors *f, const double *tres,
			    size_t n);

/*
 * ts_explain_decisive() - of n contributions of the job ahead and the
 * job behind (the same order), the index k where ahead[k] - behind[k]
 * is largest and positive.  RET k, or -1 when none favours the job
 * ahead (equal priorities).
 */
long ts_explain_decisive(const double *ahead, const double *behind, size_t n);

/* Two jobs' priorities and ages now, for ts_explain_overtake_age(). */
struct ts_overtake {
	double behind, ahead;	      /* priorities now (sums) */
	double age_behind, age_ahead; /* their weighted age terms now */
	double w_age;		      /* PriorityWeightAge */
	uint32_t max_age;	      /* PriorityMaxAge, seconds */
};

/*
 * ts_explain_overtake_age() - seconds from now until the job behind has
 * the higher priority when only the age factor moves (each age term
 * grows at w_age / max_age a second up to w_age).  RET 0 when it is
 * not behind, -1 when it never gets ahead that way.
 */
double ts_explain_overtake_age(const struct ts_overtake *o);

/*
 * ts_explain_decay_below() - seconds until usage decays below cap under
 * half-life hl seconds with no new usage: hl * log2(usage / cap).  RET 0
 * when usage is below cap already, -1 when it never is (cap <= 0, no
 * decay, a value that is not finite).
 */
double ts_explain_decay_below(double usage, double cap, double hl);

/*
 * ts_explain_path() - node i's path from the root through direct
 * parents into path[]: path[0] is the root, path[n - 1] is i.  RET n, or
 * 0 when i is out of range or the path is longer than cap.
 */
size_t ts_explain_path(const struct ts_tree *t, size_t i, long *path,
		       size_t cap);

#endif /* TS_EXPLAIN_H */
