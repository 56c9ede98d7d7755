/* SPDX-License-Identifier: GPL-2.0-or-later */
/* share_set.c - the rows and tree every view prints (share_set.h). */
#include <stdlib.h>
#include <string.h>

#include "extended.h"
#include "cap_cells.h"
#include "share_set.h"

void share_set_init(struct share_set *s)
{
	memset(s, 0, sizeof(*s));
	s->damp = 1.0;
	s->fs_rule = FS_RULE_FAIR_TREE;
	s->algo = TS_FS_FAIR_TREE;
}

void share_set_free(struct share_set *s)
{
	size_t i;

	for (i = 0; s->rows && i < s->n; i++) {
		struct share_row *r = &s->rows[i];

		free(r->cluster);
		free(r->name);
		free(r->parent);
		free(r->partition);
		free(r->grp_tres_mins);
		free(r->grp_tres_raw);
		free(r->tres_run_mins);
	}
	free(s->rows);
	free(s->row_node);
	free(s->raw_usage);
	if (s->have_tree)
		ts_tree_free(&s->tree);
	ts_fs_free(&s->main);
	extended_free(&s->ext);
	cap_cells_free(s);
	share_set_init(s);
}

char *share_set_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

int share_set_add_node(struct share_set *s, size_t i)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		uint32_t *tmp = realloc(s->row_node, cap * sizeof(*tmp));

		if (!tmp)
			return -1;
		s->row_node = tmp;
		s->cap = cap;
	}
	s->row_node[s->n++] = (uint32_t)i;
	return 0;
}

static uint64_t usage_u64(long double u)
{
	/* the RPC truncates; keep clear of Slurm's NO_VAL64 markers */
	if (!(u >= 0))
		return 0;
	if (u >= 18446744073709549568.0L)
		return SHARE_NO_VAL64 - 1;
	return (uint64_t)u;
}

const struct share_row *share_set_row(const struct share_set *s, size_t k,
				      struct share_row *r)
{
	const struct ts_tree *t = &s->tree;
	const struct ts_fs *fs = &s->main;
	size_t i;

	if (s->rows)
		return &s->rows[k];
	i = s->row_node[k];
	memset(r, 0, sizeof(*r));
	r->node = (long)i;
	r->id = t->id[i];
	r->is_user = t->is_user[i];
	r->name = (char *)ts_tree_name(t, i);
	r->parent = i ? (char *)ts_tree_name(t, (size_t)t->parent[i]) : NULL;
	if (i == 0)
		r->shares_raw = SHARE_NO_VAL;
	else if (t->shares[i] == TS_SHARES_PARENT)
		r->shares_raw = SHARE_USE_PARENT;
	else
		r->shares_raw = t->shares[i];
	r->shares_norm = fs->shares_norm[i];
	r->usage_raw = usage_u64(t->usage[i]);
	r->usage_norm = (double)fs->usage_norm[i];
	r->usage_efctv = (double)fs->usage_efctv[i];
	r->fs_factor = fs->fs_factor[i];
	r->level_fs = (double)fs->level_fs[i];
	return r;
}

struct share_row *share_set_add(struct share_set *s)
{
	struct share_row *r;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct share_row *tmp = realloc(s->rows, cap * sizeof(*tmp));

		if (!tmp)
			return NULL;
		s->rows = tmp;
		s->cap = cap;
	}
	r = &s->rows[s->n++];
	memset(r, 0, sizeof(*r));
	r->node = -1;
	return r;
}

int share_set_fairshare(const struct share_set *s, const struct share_row *r,
			double *out)
{
	switch (s->fs_rule) {
	case FS_RULE_FAIR_TREE:
		if (!r->is_user)
			return 0;
		*out = r->fs_factor;
		return 1;
	case FS_RULE_CLASSIC:
		*out = ts_fs_record_factor(s->algo, r->usage_efctv,
					   r->shares_norm, s->damp);
		return 1;
	default:
		*out = r->fs_factor;
		return 1;
	}
}
