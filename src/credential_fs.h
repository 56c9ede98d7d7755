/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential_fs.h - Maui's fair-share priority component over a job's
 * credentials (seed 003, 6.3.3; issue 27): its user, group, account, QOS
 * and class each compare their share of delivered usage with their
 * target, and the component is FSWEIGHT x the sum over the credential
 * types of FS<TYPE>WEIGHT x delta.
 *
 * A credential's delta, for usage U and target T (percent of delivered
 * usage; U clamped into 0..100, NaN counts as 0, as targets.h does):
 *   difference (Maui's default)  T - U       (percentage points)
 *   ratio (FSPOLICY with '%')    1 - U / T   (T = 0: 0 at U = 0, else
 *                                             -100, below any delta of
 *                                             a target of 1% or more,
 *                                             where Maui divides by 0)
 *   a target as it is, a cap (T-) only when negative (min(delta, 0)), a
 *   floor (T+) only when positive (max(delta, 0)), no target: 0.
 * Moab's worked example (user target 50 usage 45, group no target,
 * account 25 / 35, QOS 10+ / 25, class none; weights 100, 10, 20, 30,
 * 40, 0): 100 x (10 x 5 + 20 x 0 + 30 x -10 + 40 x 0 + 0 x 0) = -25000.
 *
 * The factor for Slurm's PriorityWeightFairshare (0..1): the mean of the
 * credentials' targets.h factors (ts_targets_factor()), weighted by
 * their FS<TYPE>WEIGHT, over the credentials that have a target and a
 * weight above 0; 0.5 when none has.  Each factor is 0.5 on target and
 * non-increasing in usage, so the mean is too; under the difference
 * policy it is exactly 0.5 + sum / (200 x those weights' sum): Maui's
 * sum scaled into 0..1 with nothing to clip.
 *
 * A weight that is not finite counts as 0 (the configuration refuses
 * one); nothing returned is NaN or infinite.
 */
#ifndef TS_CREDENTIAL_FS_H
#define TS_CREDENTIAL_FS_H

#include <math.h>

#include "credential.h"
#include "targets.h"

/* One credential of a job as the component sees it. */
struct ts_cred_term {
	const struct ts_target *target; /* NULL: no target */
	enum ts_fs_policy policy;
	double usage_pct; /* its share of delivered usage, 0..100 */
	double weight;	  /* FS<TYPE>WEIGHT */
};

struct ts_cred_fs {
	double delta[TS_CRED_N]; /* ts_cred_delta() of each */
	double sum;		 /* sum of weight x delta */
	double component;	 /* fs_weight x sum: Maui's FS component */
	double factor;		 /* 0..1, 0.5 on target */
};

/*
 * ts_cred_delta() - the delta of usage_pct against tg (NULL: none, 0)
 * under policy, as above.  Finite.
 */
double ts_cred_delta(const struct ts_target *tg, double usage_pct,
		     enum ts_fs_policy policy);

/*
 * One credential's share of the component, which depends only on its
 * usage and target: computed once per credential, summed per job.
 */
struct ts_cred_part {
	double delta;  /* ts_cred_delta() */
	double factor; /* ts_targets_factor() */
};

/*
 * ts_cred_part_of() - the part of usage_pct against tg (not NULL) under
 * policy.
 */
void ts_cred_part_of(const struct ts_target *tg, double usage_pct,
		     enum ts_fs_policy policy, struct ts_cred_part *out);

/*
 * ts_cred_weight() - weight as the component uses it: a non-finite one
 * is 0.
 */
double ts_cred_weight(double weight);

/*
 * ts_cred_factor_of() - the factor from the sum over a job's credentials
 * with a target and a weight > 0 of weight x factor (mean) and of weight
 * (weights): their mean clipped into 0..1; 0.5 when weights is not > 0
 * or the mean not finite.  Inline: it ends every job's priority.
 */
static inline double ts_cred_factor_of(double mean, double weights)
{
	double f;

	if (!(weights > 0))
		return 0.5;
	f = mean / weights;
	if (!isfinite(f))
		return 0.5;
	if (!(f > 0))
		return 0.0;
	return f > 1 ? 1.0 : f;
}

/*
 * ts_cred_fs_parts() - ts_cred_fs() from each credential's part
 * (part[c] NULL: no target), weighted weight[c], with FSWEIGHT
 * fs_weight, into *out: the same figures, bit for bit.
 */
void ts_cred_fs_parts(const struct ts_cred_part *const part[TS_CRED_N],
		      const double weight[TS_CRED_N], double fs_weight,
		      struct ts_cred_fs *out);

/*
 * ts_cred_fs() - the component of a job whose credentials are
 * term[0 .. TS_CRED_N) (indexed by enum ts_cred), with FSWEIGHT
 * fs_weight, into *out.
 */
void ts_cred_fs(const struct ts_cred_term term[TS_CRED_N], double fs_weight,
		struct ts_cred_fs *out);

#endif /* TS_CREDENTIAL_FS_H */
