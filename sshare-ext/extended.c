/* SPDX-License-Identifier: GPL-2.0-or-later */
/* extended.c - each algorithm on the same tree (extended.h). */
#include "extended.h"

int extended_compute(struct share_set *s, struct ts_error *err)
{
	const struct ts_tree *t = &s->tree;
	int k, rc;

	for (k = 0; k < SLOT_COUNT; k++)
		if ((rc = ts_fs_alloc(&s->fs[k], t->n, err)))
			return rc;
	if ((rc = ts_classic(t, s->damp, &s->fs[SLOT_CLASSIC], err)) ||
	    (rc = ts_pbs(t, &s->fs[SLOT_CLASSIC], err)) ||
	    (rc = ts_depth_oblivious(t, s->damp, &s->fs[SLOT_DEPTH_OBLIVIOUS],
				     err)) ||
	    (rc = ts_fair_tree(t, &s->fs[SLOT_FAIR_TREE], err)))
		return rc;
	s->have_ext = 1;
	return TS_OK;
}

int extended_value(const struct share_set *s, long node, enum field_id f,
		   double *out)
{
	const struct ts_fs *pbs = &s->fs[SLOT_CLASSIC];
	const struct ts_fs *ft = &s->fs[SLOT_FAIR_TREE];

	if (!s->have_ext || node < 0 || (size_t)node >= s->tree.n)
		return 0;
	switch (f) {
	case F_TREE_USAGE:
		*out = pbs->pbs_tree_usage[node];
		return 1;
	case F_PERC:
		*out = pbs->pbs_perc[node];
		return 1;
	case F_PBS_FACTOR:
		*out = pbs->pbs_factor[node];
		return 1;
	case F_RANK:
		if (!s->tree.is_user[node])
			return 0;
		*out = ft->rank[node];
		return 1;
	case F_CLASSIC_FS:
		*out = s->fs[SLOT_CLASSIC].fs_factor[node];
		return 1;
	case F_DO_FS:
		*out = s->fs[SLOT_DEPTH_OBLIVIOUS].fs_factor[node];
		return 1;
	case F_FAIR_TREE_FS:
		if (!s->tree.is_user[node])
			return 0;
		*out = ft->fs_factor[node];
		return 1;
	default:
		return 0;
	}
}
