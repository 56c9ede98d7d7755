/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * normalise.c - the input check and the two normalisations Slurm 22.05
 * shares between classic and DEPTH_OBLIVIOUS, which Fair Tree and PBS
 * use in part (see normalise.h and fairshare-algorithms(7)).
 *
 *   usage_norm[i]  = min(usage[i] / usage[0], 1); 0 when usage[0] is 0
 *                    (set_assoc_usage_norm(), priority_multifactor.c)
 *   shares_norm[i] = prod over j = i, parent(i), ... below the root,
 *                    shares[j] not "parent", of shares[j] / level_shares[j]
 *                    (_normalize_assoc_shares_traditional(), assoc_mgr.c)
 */
#include "normalise.h"

int ts_normalise_check(const struct ts_tree *t, const struct ts_fs *fs,
		       const char *who, struct ts_error *err)
{
	if (!t->finished || t->n == 0)
		return ts_error_set(err, TS_EINVAL, -1,
				    "%s: tree is not finished", who);
	if (fs->cap < t->n || !fs->shares_norm)
		return ts_error_set(
			err, TS_EINVAL, -1,
			"%s: results sized for %zu nodes, tree has %zu", who,
			fs->cap, t->n);
	return TS_OK;
}

void ts_normalise_usage(const struct ts_tree *t, struct ts_fs *fs)
{
	long double total = t->usage[0];
	size_t i;

	fs->usage_norm[0] = TS_USAGE_NO_VAL;
	for (i = 1; i < t->n; i++)
		fs->usage_norm[i] = ts_normalise_node_usage(t->usage[i], total);
}

long double ts_normalise_node_usage(long double usage, long double total)
{
	long double u;

	if (!total)
		return 0.0L;
	u = usage / total;
	/* more than the whole: a half-life change, says Slurm */
	return u > 1.0L ? 1.0L : u;
}

/* shares / level_shares of one level, 0 when the level has no shares. */
static double level_ratio(const struct ts_tree *t, long j)
{
	if (!t->level_shares[j])
		return 0.0;
	return (double)t->shares[j] / (double)t->level_shares[j];
}

/*
 * Multiplied from the node upwards, as Slurm does, so the double result
 * is bit-identical, for nodes up to TS_NORMALISE_EXACT_DEPTH deep: that
 * costs the node's depth.  Deeper nodes (no real tree has them) multiply
 * their own ratio into their parent's product, O(1) each, which differs
 * from Slurm's rounding by a few ulps at most.
 */
void ts_normalise_shares_traditional(const struct ts_tree *t, struct ts_fs *fs)
{
	size_t i;

	fs->shares_norm[0] = 1.0;
	for (i = 1; i < t->n; i++) {
		double norm = 1.0;
		long j;

		if (t->shares[i] == TS_SHARES_PARENT) {
			/* fs_parent[i] < i: already set */
			fs->shares_norm[i] = fs->shares_norm[t->fs_parent[i]];
			continue;
		}
		if (t->depth[i] > TS_NORMALISE_EXACT_DEPTH) {
			/* a "parent" parent's product is its fs parent's */
			fs->shares_norm[i] = fs->shares_norm[t->parent[i]] *
					     level_ratio(t, (long)i);
			continue;
		}
		for (j = (long)i; j > 0; j = t->parent[j]) {
			if (t->shares[j] != TS_SHARES_PARENT)
				norm *= level_ratio(t, j);
		}
		fs->shares_norm[i] = norm;
	}
}
