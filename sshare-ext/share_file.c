/* SPDX-License-Identifier: GPL-2.0-or-later */
/* share_file.c - the offline share_set (share_file.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "extended.h"
#include "share_file.h"
#include "slurm_order.h"
#include "tree_file.h"
#include "whole_file.h"
#include "what_if.h"

#define MAX_INPUT (256UL << 20) /* a saved sshare of 1M rows is ~150 MB */

static int in_list(char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(v[i], s))
			return 1;
	return 0;
}

int share_row_wanted(const struct cli *c, int is_user, const char *name,
		     const char *account)
{
	if (c->users_only && !is_user)
		return 0;
	if (is_user && !c->all_users && c->n_users &&
	    !in_list(c->users, c->n_users, name))
		return 0;
	if (c->n_accounts && !in_list(c->accounts, c->n_accounts, account))
		return 0;
	return 1;
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

/* The displayed rows: the chosen algorithm's columns, filtered. */
static int fill_rows(struct share_set *s, const struct cli *c,
		     const struct ts_fs *fs)
{
	const struct ts_tree *t = &s->tree;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const char *name = ts_tree_name(t, i);
		const char *parent =
			i ? ts_tree_name(t, (size_t)t->parent[i]) : NULL;
		struct share_row *r;

		if (!share_row_wanted(c, t->is_user[i], name,
				      t->is_user[i] ? parent : name))
			continue;
		if (!(r = share_set_add(s)))
			return -1;
		r->node = (long)i;
		r->id = t->id[i];
		r->is_user = t->is_user[i];
		r->name = strdup(name);
		r->parent = share_set_strdup(parent);
		if (!r->name || (parent && !r->parent))
			return -1;
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
	}
	return 0;
}

int share_file_load(struct share_set *s, const struct cli *c, char *msg,
		    size_t len)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree_file_info info;
	struct ts_tree raw;
	struct ts_fs fs = { 0 };
	struct ts_fs_config cfg;
	char *text = NULL;
	size_t n = 0;
	int rc = -1;

	if (ts_whole_file_read(c->input, MAX_INPUT, &text, &n, &err)) {
		snprintf(msg, len, "cannot read %s: %s", c->input, err.msg);
		return -1;
	}
	if (ts_tree_init(&raw, 0, &err)) {
		snprintf(msg, len, "%s", err.msg);
		free(text);
		return -1;
	}
	if (ts_tree_file_parse(text, n, TS_TREE_FORMAT_AUTO, &raw, &info,
			       &err)) {
		snprintf(msg, len, "%s: %s", c->input, err.msg);
		goto out;
	}
	if (what_if_apply(&raw, c->what_ifs, c->n_what_ifs, msg, len))
		goto out;
	if (ts_tree_init(&s->tree, raw.n, &err) ||
	    slurm_order(&raw, &s->tree, &err)) {
		snprintf(msg, len, "%s: %s", c->input, err.msg);
		goto out;
	}
	s->have_tree = 1;
	s->source = c->input;
	s->damp = c->damp_set ? c->damp : 1.0;
	if (c->algo_set)
		s->algo = c->algo;
	else
		s->algo = info.fair_tree == 0 ? TS_FS_CLASSIC : TS_FS_FAIR_TREE;
	s->fs_rule = s->algo == TS_FS_FAIR_TREE ? FS_RULE_FAIR_TREE
		     : s->algo == TS_FS_PBS	? FS_RULE_STORED
						: FS_RULE_CLASSIC;
	cfg.algo = s->algo;
	cfg.damp = s->damp;
	cfg.ft_flags = 0;
	if (ts_fs_alloc(&fs, s->tree.n, &err) ||
	    ts_fs_compute(&s->tree, &cfg, &fs, &err) ||
	    extended_compute(s, &err)) {
		snprintf(msg, len, "%s: %s", c->input, err.msg);
		goto out;
	}
	if (fill_rows(s, c, &fs)) {
		snprintf(msg, len, "%s", "out of memory");
		goto out;
	}
	rc = 0;
out:
	ts_fs_free(&fs);
	ts_tree_free(&raw);
	free(text);
	return rc;
}
