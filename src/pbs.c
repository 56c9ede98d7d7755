/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pbs.c - PBS Pro's fairshare_perc, fairshare_tree_usage and
 * fairshare_factor (seed 000, PP-718), on Slurm's fair-share tree.
 *
 * With p = fs_parent(i), w = shares[i] / (sum of the shares of p's kids,
 * "parent" ones excluded, in 64 bits) or 0 when that sum is 0, and
 * u = usage[i] / usage[root] capped at 1 (0 when the root has none;
 * ts_normalise_node_usage(), as NormUsage):
 *
 *   fairshare_perc[i]       = perc[p] * w              perc[root] = 1
 *   fairshare_tree_usage[i] = u                        p is the root
 *                           = u + (tree_usage[p] - u) * w   otherwise
 *   fairshare_factor[i]     = pow(2.0, -(tree_usage / perc)), 0 if perc 0
 *
 * The root's tree usage is 1 (all of it) or 0 when nothing was used.
 * Worked example (seed 000): Bob 100/1200 + (200/1200 - 100/1200) * 0.5
 * = 0.125, factor 2^-(0.125/0.2) = 0.648; Suzy 0 + 1000/1200 * 0.6 = 0.5,
 * 2^-(0.5/0.36) = 0.382.
 *
 * Fairshare=parent, which PBS lacks: such a node takes all three values
 * of its fs parent (the association Slurm charges it to), and its kids
 * sit among the fs parent's kids, as in Slurm.  Zero shares give perc 0
 * and factor 0 (PP-718: "will resolve to 0"), never a division by zero;
 * the tree usage is clamped to [0,1] against rounding.
 */
#include <math.h>

#include "fairshare.h"
#include "normalise.h"

double ts_pbs_factor(double tree_usage, double perc)
{
	if (!(perc > 0.0))
		return 0.0;
	return pow(2.0, -(tree_usage / perc));
}

int ts_pbs(const struct ts_tree *t, struct ts_fs *fs, struct ts_error *err)
{
	long double total;
	int rc;
	size_t p, k;

	if ((rc = ts_normalise_check(t, fs, "pbs", err)))
		return rc;
	total = t->usage[0];
	fs->pbs_perc[0] = 1.0;
	fs->pbs_tree_usage[0] = total > 0 ? 1.0 : 0.0;
	fs->pbs_factor[0] = ts_pbs_factor(fs->pbs_tree_usage[0], 1.0);

	/* Parents first: perc[p] and tree_usage[p] are final here. */
	for (p = 0; p < t->n; p++) {
		const long *kids = t->kids + t->kid_first[p];
		uint64_t sum = 0;

		for (k = 0; k < t->kid_count[p]; k++)
			if (t->shares[kids[k]] != TS_SHARES_PARENT)
				sum += t->shares[kids[k]];
		for (k = 0; k < t->kid_count[p]; k++) {
			long c = kids[k];
			double u, w = 0.0, eff;

			if (t->shares[c] == TS_SHARES_PARENT) {
				fs->pbs_perc[c] = fs->pbs_perc[p];
				fs->pbs_tree_usage[c] = fs->pbs_tree_usage[p];
				fs->pbs_factor[c] = fs->pbs_factor[p];
				continue;
			}
			u = (double)ts_normalise_node_usage(t->usage[c], total);
			if (sum)
				w = (double)t->shares[c] / (double)sum;
			eff = p ? u + (fs->pbs_tree_usage[p] - u) * w : u;
			eff = fmin(fmax(eff, 0.0), 1.0);
			fs->pbs_perc[c] = fs->pbs_perc[p] * w;
			fs->pbs_tree_usage[c] = eff;
			fs->pbs_factor[c] = ts_pbs_factor(eff, fs->pbs_perc[c]);
		}
	}
	return TS_OK;
}
