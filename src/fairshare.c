/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fairshare.c - sizing the result arrays, choosing the algorithm, and the
 * two normalisations Slurm 22.05 shares between classic and
 * DEPTH_OBLIVIOUS (see fairshare.h and fairshare-algorithms(7)).
 *
 *   usage_norm[i]  = min(usage[i] / usage[0], 1); 0 when usage[0] is 0
 *                    (set_assoc_usage_norm(), priority_multifactor.c)
 *   shares_norm[i] = prod over j = i, parent(i), ... below the root,
 *                    shares[j] not "parent", of shares[j] / level_shares[j]
 *                    (_normalize_assoc_shares_traditional(), assoc_mgr.c)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"

#define GROW(ptr, count)                                                       \
	(tmp = realloc((ptr), (count) * sizeof(*(ptr))),                       \
	 tmp ? ((ptr) = tmp, 1) : 0)

int ts_fs_alloc(struct ts_fs *fs, size_t n, struct ts_error *err)
{
	void *tmp;

	if (n <= fs->cap && fs->shares_norm)
		return TS_OK;
	if (n == 0)
		n = 1;
	if (!GROW(fs->shares_norm, n) || !GROW(fs->usage_norm, n) ||
	    !GROW(fs->usage_efctv, n) || !GROW(fs->level_fs, n) ||
	    !GROW(fs->fs_factor, n) || !GROW(fs->rank, n) ||
	    !GROW(fs->pbs_perc, n) || !GROW(fs->pbs_tree_usage, n) ||
	    !GROW(fs->pbs_factor, n) || !GROW(fs->ft_order, n) ||
	    !GROW(fs->ft_merge, n) || !GROW(fs->ft_stack, n))
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot size fair-share results for %zu "
				    "nodes",
				    n);
	fs->cap = n;
	return TS_OK;
}

void ts_fs_free(struct ts_fs *fs)
{
	free(fs->shares_norm);
	free(fs->usage_norm);
	free(fs->usage_efctv);
	free(fs->level_fs);
	free(fs->fs_factor);
	free(fs->rank);
	free(fs->pbs_perc);
	free(fs->pbs_tree_usage);
	free(fs->pbs_factor);
	free(fs->ft_order);
	free(fs->ft_merge);
	free(fs->ft_stack);
	memset(fs, 0, sizeof(*fs));
}

int ts_fs_check(const struct ts_tree *t, const struct ts_fs *fs,
		const char *who, struct ts_error *err)
{
	if (!t->finished || t->n == 0)
		return ts_error_set(err, TS_EINVAL, -1,
				    "%s: tree is not finished", who);
	if (fs->cap < t->n || !fs->shares_norm)
		return ts_error_set(err, TS_EINVAL, -1,
				    "%s: results sized for %zu nodes, tree "
				    "has %zu",
				    who, fs->cap, t->n);
	return TS_OK;
}

void ts_fs_usage_norm(const struct ts_tree *t, struct ts_fs *fs)
{
	long double total = t->usage[0];
	size_t i;

	fs->usage_norm[0] = TS_USAGE_NO_VAL;
	for (i = 1; i < t->n; i++)
		fs->usage_norm[i] = ts_fs_node_usage_norm(t->usage[i], total);
}

long double ts_fs_node_usage_norm(long double usage, long double total)
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
 * is bit-identical, for nodes up to TS_FS_EXACT_DEPTH deep: that costs
 * the node's depth.  Deeper nodes (no real tree has them) multiply their
 * own ratio into their parent's product, O(1) each, which differs from
 * Slurm's rounding by a few ulps at most.
 */
void ts_fs_shares_norm_traditional(const struct ts_tree *t, struct ts_fs *fs)
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
		if (t->depth[i] > TS_FS_EXACT_DEPTH) {
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

static int check_damp(double damp, struct ts_error *err)
{
	if (!(damp >= 1.0) || !isfinite(damp))
		return ts_error_set(err, TS_ERANGE, -1,
				    "FairShareDampeningFactor %g is not a "
				    "number >= 1",
				    damp);
	return TS_OK;
}

int ts_fs_compute(const struct ts_tree *t, const struct ts_fs_config *cfg,
		  struct ts_fs *fs, struct ts_error *err)
{
	return ts_fs_compute_pbs(t, cfg, 1, fs, err);
}

int ts_fs_compute_pbs(const struct ts_tree *t, const struct ts_fs_config *cfg,
		      int pbs, struct ts_fs *fs, struct ts_error *err)
{
	int rc;
	size_t i;

	if ((rc = ts_fs_check(t, fs, "fair-share", err)))
		return rc;
	switch (cfg->algo) {
	case TS_FS_CLASSIC:
		if ((rc = check_damp(cfg->damp, err)))
			return rc;
		rc = ts_classic(t, cfg->damp, fs, err);
		break;
	case TS_FS_DEPTH_OBLIVIOUS:
		if ((rc = check_damp(cfg->damp, err)))
			return rc;
		rc = ts_depth_oblivious(t, cfg->damp, fs, err);
		break;
	case TS_FS_FAIR_TREE:
		rc = ts_fair_tree_opt(t, cfg->ft_flags, fs, err);
		break;
	case TS_FS_PBS:
		ts_fs_usage_norm(t, fs);
		break;
	default:
		return ts_error_set(err, TS_EINVAL, -1,
				    "unknown fair-share algorithm %d",
				    (int)cfg->algo);
	}
	if (rc)
		return rc;
	if (!pbs && cfg->algo != TS_FS_PBS)
		return TS_OK;
	if ((rc = ts_pbs(t, fs, err)))
		return rc;
	if (cfg->algo != TS_FS_PBS)
		return TS_OK;

	/* PBS as the algorithm: sshare's columns show its three values. */
	for (i = 0; i < t->n; i++) {
		fs->shares_norm[i] = fs->pbs_perc[i];
		fs->usage_efctv[i] = fs->pbs_tree_usage[i];
		fs->fs_factor[i] = fs->pbs_factor[i];
		fs->level_fs[i] = 0.0L;
		fs->rank[i] = 0;
	}
	return TS_OK;
}
