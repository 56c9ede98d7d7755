/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fairshare.h - the fair-share algorithms over a finished struct ts_tree,
 * and the per-node results they produce, named as Slurm's sshare names
 * them.  One file per algorithm: classic.c, depth_oblivious.c,
 * fair_tree.c, pbs.c; sizing and dispatch in fairshare.c; the check and
 * normalisations they share in normalise.c (normalise.h).  Calls run one
 * way: fairshare.c -> algorithms -> normalise.c, and depth_oblivious.c
 * -> classic.c.
 * The math, its sources and every known difference from Slurm 22.05's
 * documentation are in fairshare-algorithms(7).
 *
 * Every function here allocates nothing (struct ts_fs is sized once with
 * ts_fs_alloc()), reads no clock, and lets no NaN out.  The exceptions
 * Slurm itself shows, and which therefore are kept: level_fs is +inf for
 * an association with shares and no usage (sshare prints "inf"), and
 * TS_USAGE_NO_VAL marks "not computed" exactly where Slurm keeps NO_VAL
 * (the root's usage_norm, the root's and Fairshare=parent accounts'
 * level_fs under Fair Tree).
 *
 * Each array holds, per node, the value Slurm 22.05 stores in that
 * association's usage record after a decay cycle (users included, which
 * Slurm fills lazily with the same values), except fs_factor outside
 * Fair Tree: Slurm stores nothing there and sshare prints
 * ts_classic_factor(usage_efctv, shares_norm), which is what we keep.
 *
 * A job's fair-share factor: under Fair Tree fs_factor[i] of its
 * association i; otherwise fs_factor[i], or fs_factor[fs_parent[i]] when
 * i is Fairshare=parent (Slurm's _get_fairshare_priority()).
 */
#ifndef TS_FAIRSHARE_H
#define TS_FAIRSHARE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "no_val.h"
#include "tree.h"

/* Slurm's NO_VAL as stored in its long double fields. */
#define TS_USAGE_NO_VAL ((long double)TS_NO_VAL)

enum ts_fs_algo {
	TS_FS_CLASSIC,	       /* priority/multifactor with NO_FAIR_TREE */
	TS_FS_DEPTH_OBLIVIOUS, /* PriorityFlags=DEPTH_OBLIVIOUS (seed 002) */
	TS_FS_FAIR_TREE,       /* the default since Slurm 19.05 (seed 004) */
	TS_FS_PBS,	       /* PBS PP-718 fairshare_factor (seed 000) */
};

/* Fair Tree variants (ts_fair_tree_opt()). */
#define TS_FT_AS_RUN 0 /* Slurm 22.05's running code (default) */
#define TS_FT_MERGE_TIED                                                       \
	1 /* documented rule: tied sibling accounts
				   have their children merged */

struct ts_fs_config {
	enum ts_fs_algo algo;
	double damp;  /* FairShareDampeningFactor, >= 1 */
	int ft_flags; /* TS_FT_*; 0 = as Slurm runs */
};

/* Fair Tree's walk: one frame per level of the descent (internal). */
struct ts_ft_frame {
	size_t start; /* first sibling in ft_order */
	size_t len;   /* number of siblings */
	size_t next;  /* next sibling to visit */
	int tied;     /* level starts tied with the previous user */
};

/*
 * Per-node results; every array has room for cap nodes.  Zero the struct
 * before its first ts_fs_alloc() (struct ts_fs fs = { 0 };).
 */
struct ts_fs {
	size_t cap;
	double *shares_norm;	  /* NormShares */
	long double *usage_norm;  /* NormUsage: usage / root's, <= 1 */
	long double *usage_efctv; /* EffectvUsage (meaning per algorithm) */
	long double *level_fs;	  /* Level FS (Fair Tree), may be +inf */
	double *fs_factor;	  /* FairShare, [0,1] */
	uint32_t *rank;		  /* Fair Tree rank of a user, 0 otherwise */
	/* PBS PP-718, computed whatever the algorithm: */
	double *pbs_perc;	/* fairshare_perc, [0,1] */
	double *pbs_tree_usage; /* fairshare_tree_usage, [0,1] */
	double *pbs_factor;	/* fairshare_factor, [0,1] */
	/*
	 * Fair Tree scratch (internal), allocated by the first Fair Tree
	 * run and kept for the next: other algorithms never need it, and
	 * the stack needs one frame per level, not per node.
	 */
	long *ft_order; /* siblings being ranked, sorted */
	long *ft_merge; /* merge sort's second buffer */
	size_t ft_cap;	/* nodes ft_order and ft_merge hold */
	struct ts_ft_frame *ft_stack;
	size_t ft_stack_cap; /* frames */
};

/*
 * ts_fs_alloc() - room for n nodes; keeps memory when already enough.
 * On failure the old arrays are kept (and still freed by ts_fs_free()).
 */
int ts_fs_alloc(struct ts_fs *fs, size_t n, struct ts_error *err);

/*
 * ts_fs_free_scratch() - release the Fair Tree scratch only (a caller
 * done computing that keeps the results); the next Fair Tree run
 * allocates it again.
 */
void ts_fs_free_scratch(struct ts_fs *fs);

/* ts_fs_free() - release the arrays; fs is zeroed and may be reused. */
void ts_fs_free(struct ts_fs *fs);

/*
 * ts_fs_compute() - run cfg->algo over t, then the PBS values for every
 * node.  t must be finished and fs sized for t->n nodes.
 * RET TS_OK, TS_EINVAL (unfinished tree, fs too small, unknown algo) or
 * TS_ERANGE (damp not a number >= 1); *err set.
 */
int ts_fs_compute(const struct ts_tree *t, const struct ts_fs_config *cfg,
		  struct ts_fs *fs, struct ts_error *err);

/*
 * ts_fs_compute_pbs() - ts_fs_compute(), with the PBS values only when
 * pbs is not 0 or cfg->algo is TS_FS_PBS; otherwise the pbs_* columns
 * are left as they were (a caller that never reads them saves a pow() a
 * node).
 */
int ts_fs_compute_pbs(const struct ts_tree *t, const struct ts_fs_config *cfg,
		      int pbs, struct ts_fs *fs, struct ts_error *err);

/*
 * The one rule for a record's FairShare: which value a job, a record
 * written back or computed on demand, Slurm's sshare (through
 * priority_p_calc_fs_factor()) and sshare-ext's FairShare column get.
 * The plugin and sshare-ext ask these and test no algorithm themselves:
 * a new algorithm is added here and in ts_fs_compute().
 */

/*
 * ts_fs_stored() - the FairShare is the value the cycle stored for the
 * association itself (Fair Tree: a rank among its siblings, which no
 * formula of the record's own values gives), with the level_fs and
 * users' fs_factor Slurm's Fair Tree cycle leaves in the record.
 * Otherwise it is ts_fs_record_factor() of the record of its fs
 * association (itself, or its parent when Fairshare=parent).
 */
static inline int ts_fs_stored(enum ts_fs_algo algo)
{
	return algo == TS_FS_FAIR_TREE;
}

/*
 * ts_fs_from_cycle() - a user's FairShare is the cycle's fs_factor[] for
 * its node, known at the write back with nothing on demand: Fair Tree's
 * and PBS's, and under fs_targets= a targeted record's (targeted not 0).
 * Otherwise (classic, depth_oblivious) the record's values give it
 * (ts_fs_record_factor()), a classic user's once computed on demand.
 */
static inline int ts_fs_from_cycle(enum ts_fs_algo algo, int targeted)
{
	return algo == TS_FS_FAIR_TREE || algo == TS_FS_PBS || targeted;
}

/*
 * ts_fs_job_node() - the node whose fs_factor[] a job of association i
 * gets: i under Fair Tree, otherwise its fs_parent when i is
 * Fairshare=parent (Slurm's _get_fairshare_priority()).
 */
static inline size_t ts_fs_job_node(const struct ts_tree *t,
				    enum ts_fs_algo algo, size_t i)
{
	if (algo != TS_FS_FAIR_TREE && t->shares[i] == TS_SHARES_PARENT &&
	    t->fs_parent[i] >= 0)
		return (size_t)t->fs_parent[i];
	return i;
}

/*
 * ts_fs_users_on_demand() - Slurm computes users' EffectvUsage when it
 * needs it (classic): the cycle leaves a user's usage_efctv NO_VAL.
 */
static inline int ts_fs_users_on_demand(enum ts_fs_algo algo)
{
	return algo == TS_FS_CLASSIC;
}

/*
 * ts_fs_record_factor() - the FairShare a record's usage_efctv and
 * shares_norm give under algo: PBS's 2^-(fairshare_tree_usage /
 * fairshare_perc), which its records hold in those two fields; under any
 * other algorithm Slurm's 2^(-usage_efctv / shares_norm / damp)
 * (ts_classic_factor(), Slurm's priority_p_calc_fs_factor()).  0 while
 * usage_efctv is TS_USAGE_NO_VAL (within 1e-5: not computed yet).
 */
double ts_fs_record_factor(enum ts_fs_algo algo, long double usage_efctv,
			   long double shares_norm, double damp);

/*
 * The pieces, for callers that need one algorithm only.  Each fills
 * shares_norm, usage_norm, usage_efctv, level_fs, fs_factor and rank for
 * every node (the PBS columns only by ts_pbs()).
 */
int ts_classic(const struct ts_tree *t, double damp, struct ts_fs *fs,
	       struct ts_error *err);
int ts_depth_oblivious(const struct ts_tree *t, double damp, struct ts_fs *fs,
		       struct ts_error *err);
int ts_fair_tree(const struct ts_tree *t, struct ts_fs *fs,
		 struct ts_error *err);
int ts_fair_tree_opt(const struct ts_tree *t, int ft_flags, struct ts_fs *fs,
		     struct ts_error *err);
/*
 * ts_ft_before() - Slurm's _cmp_level_fs(): sibling a sorts strictly
 * before sibling b in Fair Tree's ranking (higher Level FS first, a user
 * before an account on equal Level FS); neither: their kid order.
 */
static inline int ts_ft_before(const struct ts_tree *t, const struct ts_fs *fs,
			       long a, long b)
{
	if (fs->level_fs[a] != fs->level_fs[b])
		return fs->level_fs[a] > fs->level_fs[b];
	return t->is_user[a] && !t->is_user[b];
}
/* ts_pbs() - the pbs_* columns only. */
int ts_pbs(const struct ts_tree *t, struct ts_fs *fs, struct ts_error *err);

/*
 * ts_classic_factor() - Slurm's priority_p_calc_fs_factor():
 * 2^(-(usage_efctv / shares_norm) / damp); 0 when shares_norm <= 0 or
 * usage_efctv is within 1e-5 of TS_USAGE_NO_VAL.  damp below 1 counts
 * as 1.  Never NaN.
 */
double ts_classic_factor(long double usage_efctv, long double shares_norm,
			 double damp);

/*
 * ts_classic_node_efctv() - one node's classic EffectvUsage from its own
 * usage_norm and its fs parent's EffectvUsage (the formula in classic.c):
 * usage_norm when the fs parent is the root; the parent's for a
 * Fairshare=parent node (shares TS_SHARES_PARENT) or a level without
 * shares; else usage_norm + (parent - usage_norm) * shares / level_shares.
 * For callers that need one node at a time (Slurm computes users on
 * demand); ts_classic() uses it for every node.
 */
long double ts_classic_node_efctv(long double usage_norm, int parent_is_root,
				  long double parent_efctv, uint32_t shares,
				  uint32_t level_shares);

/*
 * ts_classic_fill_factors() - outside Fair Tree: fs_factor as sshare
 * prints it (ts_classic_factor() of each node's own columns), level_fs
 * and rank 0 (Slurm never sets them there).
 */
void ts_classic_fill_factors(const struct ts_tree *t, struct ts_fs *fs,
			     double damp);

/*
 * ts_pbs_factor() - PP-718's fairshare_factor from the two other
 * keywords: exactly pow(2.0, -(tree_usage / perc)), 0 when perc <= 0.
 */
double ts_pbs_factor(double tree_usage, double perc);

#endif /* TS_FAIRSHARE_H */
