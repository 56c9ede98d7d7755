/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extended.c - each algorithm on the same tree (extended.h).
 *
 * Memory: the algorithms run one after the other in one struct ts_fs,
 * and only what a column shows is kept (a double a node, the rank a
 * uint32), so a site-size file costs a few arrays, not one full set of
 * results per algorithm.  The algorithm the rows reflect runs last and
 * its arrays, PBS's included, are used in place (extended_link()).
 */
#include <stdlib.h>
#include <string.h>

#include "extended.h"
#include "normalise.h"

enum {
	EXT_TREE_USAGE = 1u << 0,
	EXT_PERC = 1u << 1,
	EXT_PBS_FACTOR = 1u << 2,
	EXT_CLASSIC = 1u << 3,
	EXT_DO = 1u << 4,
	EXT_FT = 1u << 5,
	EXT_RANK = 1u << 6,
};

void extended_free(struct share_ext *e)
{
	if (e->owned & EXT_TREE_USAGE)
		free(e->tree_usage);
	if (e->owned & EXT_PERC)
		free(e->perc);
	if (e->owned & EXT_PBS_FACTOR)
		free(e->pbs_factor);
	if (e->owned & EXT_CLASSIC)
		free(e->classic_fs);
	if (e->owned & EXT_DO)
		free(e->do_fs);
	if (e->owned & EXT_FT)
		free(e->ft_fs);
	if (e->owned & EXT_RANK)
		free(e->rank);
	memset(e, 0, sizeof(*e));
}

/* A copy of n doubles, owned by e under bit; NULL when out of memory. */
static double *keep(struct share_ext *e, unsigned bit, const double *from,
		    size_t n)
{
	double *to = malloc((n ? n : 1) * sizeof(*to));

	if (to) {
		memcpy(to, from, n * sizeof(*to));
		e->owned |= bit;
	}
	return to;
}

/* Run one algorithm in fs and keep its columns.  RET TS_OK or the error. */
static int run(struct share_set *s, enum ts_fs_algo algo, int with_pbs,
	       struct ts_fs *fs, struct ts_error *err)
{
	struct share_ext *e = &s->ext;
	const struct ts_tree *t = &s->tree;
	size_t n = t->n;
	int rc;

	switch (algo) {
	case TS_FS_CLASSIC:
		rc = ts_classic(t, s->damp, fs, err);
		if (!rc && with_pbs)
			rc = ts_pbs(t, fs, err);
		if (rc)
			return rc;
		if (!(e->classic_fs = keep(e, EXT_CLASSIC, fs->fs_factor, n)))
			break;
		if (with_pbs &&
		    (!(e->tree_usage = keep(e, EXT_TREE_USAGE,
					    fs->pbs_tree_usage, n)) ||
		     !(e->perc = keep(e, EXT_PERC, fs->pbs_perc, n)) ||
		     !(e->pbs_factor =
			       keep(e, EXT_PBS_FACTOR, fs->pbs_factor, n))))
			break;
		return TS_OK;
	case TS_FS_DEPTH_OBLIVIOUS:
		if ((rc = ts_depth_oblivious(t, s->damp, fs, err)))
			return rc;
		if (!(e->do_fs = keep(e, EXT_DO, fs->fs_factor, n)))
			break;
		return TS_OK;
	case TS_FS_FAIR_TREE:
		if ((rc = ts_fair_tree(t, fs, err)))
			return rc;
		ts_fs_free_scratch(fs);
		if (!(e->ft_fs = keep(e, EXT_FT, fs->fs_factor, n)))
			break;
		e->rank = malloc((n ? n : 1) * sizeof(*e->rank));
		if (!e->rank)
			break;
		e->owned |= EXT_RANK;
		memcpy(e->rank, fs->rank, n * sizeof(*e->rank));
		return TS_OK;
	default:
		return TS_OK;
	}
	return ts_error_set(
		err, TS_ENOMEM, -1,
		"cannot keep the extended columns of %zu associations", n);
}

int extended_compute(struct share_set *s, int skip, struct ts_fs *fs,
		     struct ts_error *err)
{
	static const enum ts_fs_algo algos[] = {
		TS_FS_CLASSIC,
		TS_FS_DEPTH_OBLIVIOUS,
		TS_FS_FAIR_TREE,
	};
	size_t k;
	int rc;

	extended_free(&s->ext);
	if ((rc = ts_fs_alloc(fs, s->tree.n, err)))
		return rc;
	for (k = 0; k < sizeof(algos) / sizeof(algos[0]); k++)
		if ((int)algos[k] != skip &&
		    (rc = run(s, algos[k], skip < 0, fs, err)))
			return rc;
	s->have_ext = 1;
	return TS_OK;
}

void extended_link(struct share_set *s, const struct ts_fs *fs)
{
	struct share_ext *e = &s->ext;

	e->tree_usage = fs->pbs_tree_usage;
	e->perc = fs->pbs_perc;
	e->pbs_factor = fs->pbs_factor;
	switch (s->algo) {
	case TS_FS_CLASSIC:
		e->classic_fs = fs->fs_factor;
		break;
	case TS_FS_DEPTH_OBLIVIOUS:
		e->do_fs = fs->fs_factor;
		break;
	case TS_FS_FAIR_TREE:
		e->ft_fs = fs->fs_factor;
		e->rank = fs->rank;
		break;
	default:
		break;
	}
}

int extended_value(const struct share_set *s, long node, enum field_id f,
		   double *out)
{
	const struct share_ext *e = &s->ext;

	if (!s->have_ext || node < 0 || (size_t)node >= s->tree.n)
		return 0;
	switch (f) {
	case F_TREE_USAGE:
		*out = e->tree_usage[node];
		return 1;
	case F_PERC:
		*out = e->perc[node];
		return 1;
	case F_PBS_FACTOR:
		*out = e->pbs_factor[node];
		return 1;
	case F_RANK:
		if (!s->tree.is_user[node])
			return 0;
		*out = e->rank[node];
		return 1;
	case F_CLASSIC_FS:
		*out = e->classic_fs[node];
		return 1;
	case F_DO_FS:
		*out = e->do_fs[node];
		return 1;
	case F_FAIR_TREE_FS:
		if (!s->tree.is_user[node])
			return 0;
		*out = e->ft_fs[node];
		return 1;
	default:
		return 0;
	}
}

double extended_usage_norm(const struct share_set *s, size_t node)
{
	const struct ts_tree *t = &s->tree;

	return (double)ts_normalise_node_usage(t->usage[node], t->usage[0]);
}
