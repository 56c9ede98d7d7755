/* SPDX-License-Identifier: GPL-2.0-or-later */
/* share_set.c - the rows and tree every view prints (share_set.h). */
#include <stdlib.h>
#include <string.h>

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

	for (i = 0; i < s->n; i++) {
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
	if (s->have_tree)
		ts_tree_free(&s->tree);
	for (i = 0; i < SLOT_COUNT; i++)
		ts_fs_free(&s->fs[i]);
	share_set_init(s);
}

char *share_set_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
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
		*out = ts_classic_factor(r->usage_efctv, r->shares_norm,
					 s->damp);
		return 1;
	default:
		*out = r->fs_factor;
		return 1;
	}
}
