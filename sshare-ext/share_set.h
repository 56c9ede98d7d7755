/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * share_set.h - what every view of sshare-ext prints: the rows sshare
 * would print, in sshare's order, with sshare's own columns, plus the
 * association tree they came from and each algorithm's results on it.
 *
 * Online the rows are the controller's answer to the shares RPC (so
 * PrivateData and the -u/-A filters are the controller's); offline they
 * are computed from a file with src/ (share_file.c).  The extended
 * columns always come from src/ on the tree (extended.c).
 */
#ifndef SSHARE_EXT_SHARE_SET_H
#define SSHARE_EXT_SHARE_SET_H

#include <stddef.h>
#include <stdint.h>

#include "fairshare.h"
#include "no_val.h"
#include "targets.h"
#include "tree.h"

/* Slurm's markers, as the shares RPC carries them (slurm.h, slurmdb.h). */
#define SHARE_NO_VAL	 TS_NO_VAL /* the root's RawShares */
#define SHARE_INFINITE	 0xffffffffU
#define SHARE_USE_PARENT 0x7fffffffU /* Fairshare=parent */
#define SHARE_NO_VAL64	 TS_NO_VAL64
#define SHARE_INFINITE64 0xffffffffffffffffULL

/* One association row, as sshare's assoc_shares_object_t holds it. */
struct share_row {
	uint32_t id;
	char *cluster;	 /* NULL offline */
	char *name;	 /* user name of a user row, else account */
	char *parent;	 /* a user's account, an account's parent */
	char *partition; /* NULL when none */
	int is_user;
	uint32_t shares_raw; /* SHARE_NO_VAL root, SHARE_USE_PARENT */
	double shares_norm;
	uint64_t usage_raw; /* truncated, as the RPC sends it */
	double usage_norm;
	double usage_efctv;
	double fs_factor; /* the stored factor (Fair Tree users) */
	double level_fs;
	char *grp_tres_mins; /* "cpu=10,mem=5" or NULL (empty) */
	char *grp_tres_raw;
	char *tres_run_mins;
	long node; /* index in share_set.tree, -1 if none */
};

/*
 * How the FairShare column is printed.  sshare has two rules: under Fair
 * Tree (and from 25.11 always) the stored factor of users and nothing
 * for accounts; otherwise it computes ts_classic_factor(EffectvUsage,
 * NormShares, damp) itself.
 * Offline with --algo pbs, the stored (PBS) factor of every row.
 */
enum share_fs_rule {
	FS_RULE_FAIR_TREE,
	FS_RULE_CLASSIC,
	FS_RULE_STORED,
};

/*
 * The extended columns of every tree node (extended.h), one double (or
 * a rank) a column and node.  A column whose algorithm is the one the
 * rows reflect points into share_set.main instead of a copy.
 */
struct share_ext {
	double *tree_usage, *perc, *pbs_factor; /* PBS PP-718 */
	double *classic_fs, *do_fs, *ft_fs;	/* each algorithm's factor */
	uint32_t *rank;				/* Fair Tree rank; 0 accounts */
	unsigned owned;				/* EXT_* bits: arrays to free */
};

struct share_set {
	/*
	 * The displayed rows, in sshare's order: online copies of the
	 * controller's; offline (rows NULL) only each row's tree node, the
	 * row made when asked (share_set_row()) from the tree and main, so
	 * that a site-size file costs a few bytes a row.
	 */
	struct share_row *rows;
	uint32_t *row_node;
	size_t n, cap;
	enum share_fs_rule fs_rule; /* the FairShare column */
	double damp;		    /* FairShareDampeningFactor */
	enum ts_fs_algo algo;	    /* the algorithm the rows reflect */
	int consumed; /* online: usage_metric=consumed (RawUsage is CPU time) */
	const char *source; /* "controller" or the input file */

	/* The whole tree (all users) and each algorithm's results. */
	struct ts_tree tree;
	int have_tree;
	/*
	 * Online: per tree node, the controller's RawUsage as sshare shows
	 * it (the tree's usage is NormUsage x root's, a finer scale); NULL
	 * offline, where the tree's usage is the file's.
	 */
	uint64_t *raw_usage;
	struct ts_fs main; /* offline: algo's results, the rows' columns */
	struct share_ext ext;
	int have_ext;
	/* --targets: the feasibility caps (cap_cells.h), or NULL. */
	struct ts_targets *targets;
	long *cap_by; /* per tree node: src/caps.h's ts_caps_evaluate() */
};

/* share_set_init() - empty set. */
void share_set_init(struct share_set *s);

/* share_set_free() - release rows, tree and results. */
void share_set_free(struct share_set *s);

/*
 * share_set_row() - displayed row k: online the stored row, offline tmp
 * filled from the tree and the results (its strings point into the tree;
 * valid while s is).
 */
const struct share_row *share_set_row(const struct share_set *s, size_t k,
				      struct share_row *tmp);

/*
 * share_set_add_node() - offline: append a row showing tree node i.
 * RET 0 or -1 when out of memory.
 */
int share_set_add_node(struct share_set *s, size_t i);

/* share_set_add() - append a zeroed row (node -1); NULL when out of memory. */
struct share_row *share_set_add(struct share_set *s);

/*
 * share_set_strdup() - a malloc()ed copy of s for a row's text field,
 * NULL when s is NULL (or out of memory).
 */
char *share_set_strdup(const char *s);

/* share_set_fairshare() - the FairShare cell; 0 when blank. */
int share_set_fairshare(const struct share_set *s, const struct share_row *r,
			double *out);

#endif /* SSHARE_EXT_SHARE_SET_H */
