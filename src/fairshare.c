/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fairshare.c - sizing the result arrays, checking the dampening factor,
 * choosing the algorithm, and showing PBS's values in sshare's columns
 * when PBS is the algorithm (see fairshare.h and
 * fairshare-algorithms(7)).  The normalisations the algorithms share are
 * in normalise.c; nothing there or in an algorithm file calls back here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"
#include "normalise.h"

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
	    !GROW(fs->pbs_factor, n))
		return ts_error_set(
			err, TS_ENOMEM, -1,
			"cannot size fair-share results for %zu nodes", n);
	fs->cap = n;
	return TS_OK;
}

void ts_fs_free_scratch(struct ts_fs *fs)
{
	free(fs->ft_order);
	free(fs->ft_merge);
	free(fs->ft_stack);
	fs->ft_order = NULL;
	fs->ft_merge = NULL;
	fs->ft_stack = NULL;
	fs->ft_cap = 0;
	fs->ft_stack_cap = 0;
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

static int check_damp(double damp, struct ts_error *err)
{
	if (!(damp >= 1.0) || !isfinite(damp))
		return ts_error_set(
			err, TS_ERANGE, -1,
			"FairShareDampeningFactor %g is not a number >= 1",
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

	if ((rc = ts_normalise_check(t, fs, "fair-share", err)))
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
		ts_normalise_usage(t, fs);
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

double ts_fs_record_factor(enum ts_fs_algo algo, long double usage_efctv,
			   long double shares_norm, double damp)
{
	long double unset = usage_efctv - TS_USAGE_NO_VAL;

	if (algo == TS_FS_PBS)
		return unset > -0.00001 && unset < 0.00001
			       ? 0.0
			       : ts_pbs_factor((double)usage_efctv,
					       (double)shares_norm);
	return ts_classic_factor(usage_efctv, shares_norm, damp);
}
