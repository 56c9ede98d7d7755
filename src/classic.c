/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * classic.c - Slurm 22.05's classic fair share (priority/multifactor with
 * PriorityFlags=NO_FAIR_TREE), after _set_usage_efctv(),
 * _set_assoc_usage_efctv() and priority_p_calc_fs_factor().
 *
 * With p = fs_parent(i), U = usage_norm, S = shares_norm (traditional,
 * normalise.c) and the arithmetic in long double as Slurm's:
 *
 *   EffectvUsage[i] = U[i]                                 p is the root
 *                   = EffectvUsage[p]                      i is "parent"
 *                   = EffectvUsage[p]                      level_shares 0
 *                   = U[i] + (EffectvUsage[p] - U[i])
 *                            * (shares[i] / level_shares[i])   otherwise
 *   FairShare[i]    = 2^(-(EffectvUsage[i] / S[i]) / damp), 0 if S <= 0
 *
 * The root's EffectvUsage is 1.0: Slurm's init() sets it and nothing
 * changes it.  Seed: Slurm's multifactor documentation, whose worked
 * example is seed 000's (PBS credits it): Bob 0.125 / 0.648 with damp 1.
 *
 * Edge cases: zero usage everywhere gives EffectvUsage 0 and FairShare 1
 * (0 with zero shares); a level whose shares are all 0 passes the
 * parent's EffectvUsage down; users are computed here, Slurm computes
 * them on demand with the same formula.
 */
#include <math.h>

#include "fairshare.h"
#include "normalise.h"

/* Slurm's fuzzy_equal(v, NO_VAL): within 1e-5. */
static int is_no_val(long double v)
{
	long double d = v - TS_USAGE_NO_VAL;

	return d > -0.00001 && d < 0.00001;
}

double ts_classic_factor(long double usage_efctv, long double shares_norm,
			 double damp)
{
	double f;

	if (is_no_val(usage_efctv) || shares_norm <= 0)
		return 0.0;
	if (!(damp >= 1.0))
		damp = 1.0;
	/* Slurm's order: the long double quotient, then pow() in double. */
	f = pow(2.0,
		(double)-((usage_efctv / shares_norm) / (long double)damp));
	return isnan(f) ? 0.0 : f;
}

int ts_classic(const struct ts_tree *t, double damp, struct ts_fs *fs,
	       struct ts_error *err)
{
	int rc;
	size_t i;

	if ((rc = ts_normalise_check(t, fs, "classic", err)))
		return rc;
	ts_normalise_usage(t, fs);
	ts_normalise_shares_traditional(t, fs);

	/* Parents first (fs_parent[i] < i), so EffectvUsage[p] is set. */
	fs->usage_efctv[0] = 1.0L;
	for (i = 1; i < t->n; i++) {
		long p = t->fs_parent[i];

		fs->usage_efctv[i] = ts_classic_node_efctv(
			fs->usage_norm[i], p == 0, fs->usage_efctv[p],
			t->shares[i], t->level_shares[i]);
	}
	ts_classic_fill_factors(t, fs, damp);
	return TS_OK;
}

long double ts_classic_node_efctv(long double usage_norm, int parent_is_root,
				  long double parent_efctv, uint32_t shares,
				  uint32_t level_shares)
{
	if (parent_is_root)
		return usage_norm;
	if (shares == TS_SHARES_PARENT || !level_shares)
		return parent_efctv;
	/* Slurm's order: the long double ratio, then the product. */
	return usage_norm + (parent_efctv - usage_norm) *
				    (shares / (long double)level_shares);
}

void ts_classic_fill_factors(const struct ts_tree *t, struct ts_fs *fs,
			     double damp)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		fs->level_fs[i] = 0.0L;
		fs->rank[i] = 0;
		fs->fs_factor[i] = ts_classic_factor(fs->usage_efctv[i],
						     fs->shares_norm[i], damp);
	}
}
