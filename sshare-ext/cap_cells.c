/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cap_cells.c - feasibility caps as sshare-ext's cells (cap_cells.h). */
#include <stdio.h>
#include <stdlib.h>

#include "caps.h"

#include "cap_cells.h"

int cap_cells_load(struct share_set *s, const char *file, char *msg, size_t len)
{
	struct ts_error err = TS_ERROR_INIT;

	if (ts_targets_load(file, NULL, &s->targets, &err)) {
		snprintf(msg, len, "--targets %s: %s", file, err.msg);
		return -1;
	}
	if (!s->have_tree)
		return 0;
	s->cap_by = malloc((s->tree.n ? s->tree.n : 1) * sizeof(*s->cap_by));
	if (!s->cap_by) {
		snprintf(msg, len, "--targets %s: out of memory", file);
		return -1;
	}
	(void)ts_caps_evaluate(s->targets, &s->tree, s->cap_by);
	return 0;
}

/* "30%" or "3600": a cap's value, or the usage compared with it. */
static void amount(const struct ts_fscap *c, double v, char *buf, size_t len)
{
	if (c->kind == TS_FSCAP_PERCENT)
		snprintf(buf, len, "%.2f%%", v);
	else
		snprintf(buf, len, "%.0f", v);
}

int cap_cell(const struct share_set *s, long node, enum field_id f, char *buf,
	     size_t len)
{
	const struct ts_tree *t = &s->tree;
	const struct ts_fscap *c;
	long by;

	if (!s->cap_by || node < 0 || (size_t)node >= t->n)
		return 0;
	c = ts_caps_own(s->targets, t, (size_t)node);
	switch (f) {
	case F_FS_CAP:
		if (!c)
			return 0;
		amount(c, c->value, buf, len);
		return 1;
	case F_CAP_USAGE:
		if (!c)
			return 0;
		amount(c, ts_caps_used(c, t, (size_t)node), buf, len);
		return 1;
	case F_CAPPED_BY:
		by = s->cap_by[node];
		if (by == TS_NO_NODE)
			snprintf(buf, len, "no");
		else if (t->is_user[by])
			snprintf(buf, len, "%s@%s", ts_tree_name(t, (size_t)by),
				 ts_tree_name(t, (size_t)t->parent[by]));
		else
			snprintf(buf, len, "%s", ts_tree_name(t, (size_t)by));
		return 1;
	default:
		return 0;
	}
}

void cap_cells_free(struct share_set *s)
{
	ts_targets_free(s->targets);
	free(s->cap_by);
	s->targets = NULL;
	s->cap_by = NULL;
}
