/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * depth_oblivious.c - PriorityFlags=DEPTH_OBLIVIOUS (seed 002), as Slurm
 * 22.05's _depth_oblivious_set_usage_efctv() runs it.
 *
 * The factor is F = 2^-R.  For a first-level entity R = r = U/S; below,
 * with p = fs_parent(i), long double arithmetic as Slurm's:
 *
 *   Rparent = EffectvUsage[p] / S[p]
 *   rs      = (sum of U over p's kids not "parent", in kid order) / S[p]
 *   rl      = (U[i] / S[i]) / rs
 *   k       = 1 / (1 + powl(5 logl(Rparent), 2))  if logl(Rparent)
 *                                                   * logl(rl) < 0
 *           = 1                                   otherwise, or when
 *                                                   Rparent or rl is 0
 *   EffectvUsage[i] = Rparent * pow(rl, k) * S[i]   (pow() in double)
 *
 * so that the classic factor 2^(-(EffectvUsage / S) / damp) is 2^-R with
 * damp 1.  The seed prints k's two branches with "<= 0" and ">= 0"; the
 * rule above is the one Slurm runs.
 *
 * Edge cases: when S[i], S[p], EffectvUsage[p] or U[i] is 0, EffectvUsage
 * is U[i] (Slurm's fallback); first-level and Fairshare=parent entities
 * are handled as in classic.c.  rs > 0 whenever it is used, since it
 * includes U[i] > 0.
 *
 * Slurm rescans the siblings for every child (quadratic in a large
 * account) and, on a cycle's first pass, reads siblings' usage_norm before
 * refreshing them; we sum each account's kids once, from this cycle's
 * usage_norm, in the same order, giving Slurm's steady-state value.
 */
#include <math.h>

#include "fairshare.h"
#include "normalise.h"

/* Slurm's f: the higher, the more a parent's imbalance weighs. */
#define DO_F 5.0L

/*
 * What every kid of one fs parent p shares: Rparent, its logarithm, the
 * k of the "< 0" branch and rs.  The same expressions as Slurm's, only
 * evaluated once per parent instead of once per kid.
 */
struct do_parent {
	int usable; /* S[p] and EffectvUsage[p] non-zero */
	double s_p;
	long double ratio_p, log_p, k_pull, ratio_s;
};

static void do_parent_init(const struct ts_tree *t, const struct ts_fs *fs,
			   long p, struct do_parent *dp)
{
	long double sum = 0.0L;
	size_t k;

	dp->s_p = fs->shares_norm[p];
	dp->usable = dp->s_p && fs->usage_efctv[p];
	if (!dp->usable)
		return;
	/* Slurm rescans these for every kid; the sum is the same each time */
	for (k = 0; k < t->kid_count[p]; k++) {
		long c = t->kids[t->kid_first[p] + k];

		if (t->shares[c] != TS_SHARES_PARENT)
			sum += fs->usage_norm[c];
	}
	dp->ratio_s = sum / dp->s_p;
	dp->ratio_p = fs->usage_efctv[p] / dp->s_p;
	dp->log_p = logl(dp->ratio_p);
	dp->k_pull = 1.0L / (1.0L + powl(DO_F * dp->log_p, 2.0L));
}

static long double do_usage_efctv(const struct ts_fs *fs, long i,
				  const struct do_parent *dp)
{
	double s = fs->shares_norm[i];
	long double u = fs->usage_norm[i];
	long double ratio_l, k;

	if (!s || !dp->usable || !u)
		return u;
	ratio_l = (u / s) / dp->ratio_s;
	if (!dp->ratio_p || !ratio_l || dp->log_p * logl(ratio_l) >= 0)
		k = 1.0L;
	else
		k = dp->k_pull;
	/* pow(), not powl(): Slurm's arithmetic, double there */
	return dp->ratio_p * pow((double)ratio_l, (double)k) * s;
}

int ts_depth_oblivious(const struct ts_tree *t, double damp, struct ts_fs *fs,
		       struct ts_error *err)
{
	int rc;
	size_t i, k;

	if ((rc = ts_normalise_check(t, fs, "depth-oblivious", err)))
		return rc;
	ts_normalise_usage(t, fs);
	ts_normalise_shares_traditional(t, fs);

	/*
	 * Parent by parent in node order: a parent's own EffectvUsage was
	 * set while its fs parent (a smaller index) was handled.
	 */
	fs->usage_efctv[0] = 1.0L;
	for (i = 0; i < t->n; i++) {
		struct do_parent dp = { 0 };

		if (!t->kid_count[i])
			continue;
		if (i)
			do_parent_init(t, fs, (long)i, &dp);
		for (k = 0; k < t->kid_count[i]; k++) {
			long c = t->kids[t->kid_first[i] + k];

			if (i == 0)
				fs->usage_efctv[c] = fs->usage_norm[c];
			else if (t->shares[c] == TS_SHARES_PARENT)
				fs->usage_efctv[c] = fs->usage_efctv[i];
			else
				fs->usage_efctv[c] = do_usage_efctv(fs, c, &dp);
		}
	}
	ts_classic_fill_factors(t, fs, damp);
	return TS_OK;
}
