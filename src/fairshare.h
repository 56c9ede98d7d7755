/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fairshare.h - the fair-share algorithms over a finished struct ts_tree,
 * and the per-node results they produce, named as Slurm's sshare names
 * them.  One file per algorithm: classic.c, depth_oblivious.c,
 * fair_tree.c, pbs.c; dispatch in fairshare.c.
 *
 * Every function here allocates nothing (struct ts_fs is sized once with
 * ts_fs_alloc()), reads no clock, and lets no NaN out.  The exceptions
 * Slurm itself shows, and which therefore are kept: level_fs is +inf for
 * an association with shares and no usage (sshare prints "inf"), and
 * TS_USAGE_NO_VAL marks "not computed" exactly where Slurm uses NO_VAL.
 */
#ifndef TS_FAIRSHARE_H
#define TS_FAIRSHARE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "tree.h"

/* Slurm's NO_VAL (0xfffffffe) as stored in its long double fields. */
#define TS_USAGE_NO_VAL ((long double)0xfffffffeU)

enum ts_fs_algo {
	TS_FS_CLASSIC,		/* priority/multifactor with NO_FAIR_TREE */
	TS_FS_DEPTH_OBLIVIOUS,	/* PriorityFlags=DEPTH_OBLIVIOUS (seed 002) */
	TS_FS_FAIR_TREE,	/* the default since Slurm 19.05 (seed 004) */
	TS_FS_PBS,		/* PBS PP-718 fairshare_factor (seed 000) */
};

struct ts_fs_config {
	enum ts_fs_algo algo;
	double damp;		/* FairShareDampeningFactor, >= 1 */
};

/* Per-node results; every array has room for cap nodes. */
struct ts_fs {
	size_t cap;
	double *shares_norm;	   /* NormShares */
	long double *usage_norm;   /* NormUsage: usage / root's, <= 1 */
	long double *usage_efctv;  /* EffectvUsage (meaning per algorithm) */
	long double *level_fs;	   /* Level FS (Fair Tree), may be +inf */
	double *fs_factor;	   /* FairShare, [0,1] */
	uint32_t *rank;		   /* Fair Tree rank of a user, 0 otherwise */
	/* PBS PP-718, computed whatever the algorithm: */
	double *pbs_perc;	   /* fairshare_perc, [0,1] */
	double *pbs_tree_usage;	   /* fairshare_tree_usage, [0,1] */
	double *pbs_factor;	   /* fairshare_factor, [0,1] */
};

/* ts_fs_alloc() - room for n nodes; keeps memory when already enough. */
int ts_fs_alloc(struct ts_fs *fs, size_t n, struct ts_error *err);
void ts_fs_free(struct ts_fs *fs);

/*
 * ts_fs_compute() - run cfg->algo over t, then the PBS values for every
 * node.  t must be finished.  RET TS_OK or TS_E*.
 */
int ts_fs_compute(const struct ts_tree *t, const struct ts_fs_config *cfg,
		  struct ts_fs *fs, struct ts_error *err);

/* The pieces, for callers that need one algorithm only. */
int ts_classic(const struct ts_tree *t, double damp, struct ts_fs *fs,
	       struct ts_error *err);
int ts_depth_oblivious(const struct ts_tree *t, double damp,
		       struct ts_fs *fs, struct ts_error *err);
int ts_fair_tree(const struct ts_tree *t, struct ts_fs *fs,
		 struct ts_error *err);
int ts_pbs(const struct ts_tree *t, struct ts_fs *fs, struct ts_error *err);

/*
 * ts_classic_factor() - Slurm's priority_p_calc_fs_factor():
 * 2^(-(usage_efctv / shares_norm) / damp); 0 when shares_norm <= 0 or
 * usage_efctv is TS_USAGE_NO_VAL.  Never NaN.
 */
double ts_classic_factor(long double usage_efctv, long double shares_norm,
			 double damp);

#endif /* TS_FAIRSHARE_H */
