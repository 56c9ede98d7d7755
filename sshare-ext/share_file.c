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

/* The displayed rows: the tree nodes the filters let through. */
static int fill_rows(struct share_set *s, const struct cli *c)
{
	const struct ts_tree *t = &s->tree;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const char *name = ts_tree_name(t, i);
		const char *parent =
			i ? ts_tree_name(t, (size_t)t->parent[i]) : NULL;

		if (share_row_wanted(c, t->is_user[i], name,
				     t->is_user[i] ? parent : name) &&
		    share_set_add_node(s, i))
			return -1;
	}
	return 0;
}

/*
 * Memory: the text is parsed in place and freed before anything else is
 * allocated; the tree is put in Slurm's order in place; the algorithms
 * share one set of results (extended.c); rows are not stored.  So the
 * peak is the tree, one set of results and a few columns: about 210
 * bytes an association (docs/sshare-ext.1, FILES).
 */
int share_file_load(struct share_set *s, const struct cli *c, int need_ext,
		    char *msg, size_t len)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree_file_info info;
	struct ts_fs_config cfg;
	char *text = NULL;
	size_t n = 0;
	int rc = -1;

	if (ts_whole_file_read(c->input, MAX_INPUT, &text, &n, &err)) {
		snprintf(msg, len, "cannot read %s: %s", c->input, err.msg);
		return -1;
	}
	if (ts_tree_init(&s->tree, 0, &err)) {
		snprintf(msg, len, "%s", err.msg);
		free(text);
		return -1;
	}
	s->have_tree = 1;
	rc = ts_tree_file_parse_in_place(text, n, TS_TREE_FORMAT_AUTO, &s->tree,
					 &info, &err);
	free(text);
	if (rc) {
		snprintf(msg, len, "%s: %s", c->input, err.msg);
		return -1;
	}
	if (what_if_apply(&s->tree, c->what_ifs, c->n_what_ifs, msg, len))
		return -1;
	if (slurm_order(&s->tree, &err)) {
		snprintf(msg, len, "%s: %s", c->input, err.msg);
		return -1;
	}
	s->source = c->input;
	s->damp = c->damp_set ? c->damp : 1.0;
	if (c->algo_set)
		s->algo = c->algo;
	else
		s->algo = info.fair_tree == 0 ? TS_FS_CLASSIC : TS_FS_FAIR_TREE;
	s->fs_rule = ts_fs_stored(s->algo)	    ? FS_RULE_FAIR_TREE
		     : ts_fs_from_cycle(s->algo, 0) ? FS_RULE_STORED
						    : FS_RULE_CLASSIC;
	cfg.algo = s->algo;
	cfg.damp = s->damp;
	cfg.ft_flags = 0;
	/* the other algorithms first, then s->algo's results stay in main */
	if ((need_ext && extended_compute(s, (int)s->algo, &s->main, &err)) ||
	    ts_fs_alloc(&s->main, s->tree.n, &err) ||
	    ts_fs_compute(&s->tree, &cfg, &s->main, &err)) {
		snprintf(msg, len, "%s: %s", c->input, err.msg);
		return -1;
	}
	ts_fs_free_scratch(&s->main);
	if (need_ext)
		extended_link(s, &s->main);
	if (fill_rows(s, c)) {
		snprintf(msg, len, "%s", "out of memory");
		return -1;
	}
	return 0;
}
