/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * caps.c - Maui feasibility caps on the association tree (see caps.h).
 */
#include <math.h>
#include <stdio.h>

#include "caps.h"

const struct ts_fscap *ts_caps_own(const struct ts_targets *tg,
				   const struct ts_tree *t, size_t i)
{
	const struct ts_fscap *c;

	if (!tg || i == 0 || i >= t->n)
		return NULL;
	if (!t->is_user[i])
		return ts_targets_find_fscap(tg, 0, ts_tree_name(t, i), NULL);
	c = ts_targets_find_fscap(tg, 1, ts_tree_name(t, i),
				  ts_tree_name(t, (size_t)t->parent[i]));
	return c ? c : ts_targets_find_fscap(tg, 1, ts_tree_name(t, i), NULL);
}

double ts_caps_used(const struct ts_fscap *c, const struct ts_tree *t, size_t i)
{
	if (c->kind == TS_FSCAP_PERCENT)
		return t->usage[0] > 0
			       ? (double)(100.0L * t->usage[i] / t->usage[0])
			       : 0.0;
	return (double)t->usage[i];
}

/* Node i of a pass parents first: by[i] from its parent, or itself. */
static inline int evaluate_node(const struct ts_tree *t, size_t i,
				const struct ts_fscap *own, long *by)
{
	by[i] = i ? by[t->parent[i]] : TS_NO_NODE;
	if (by[i] == TS_NO_NODE && own && ts_caps_used(own, t, i) >= own->value)
		by[i] = (long)i;
	return by[i] != TS_NO_NODE;
}

size_t ts_caps_evaluate(const struct ts_targets *tg, const struct ts_tree *t,
			long *by)
{
	size_t i, capped = 0;

	for (i = 0; i < t->n; i++)
		capped += evaluate_node(t, i,
					i && by[t->parent[i]] != TS_NO_NODE
						? NULL
						: ts_caps_own(tg, t, i),
					by);
	return capped;
}

size_t ts_caps_evaluate_own(const struct ts_tree *t,
			    const struct ts_fscap *const *own, long *by)
{
	size_t i, capped = 0;

	for (i = 0; i < t->n; i++)
		capped += evaluate_node(t, i, own[i], by);
	return capped;
}

size_t ts_caps_describe(const struct ts_targets *tg, const struct ts_tree *t,
			size_t by, char *buf, size_t len)
{
	const struct ts_fscap *c = ts_caps_own(tg, t, by);
	const char *name = ts_tree_name(t, by);
	const char *at = "", *acct = "";
	int n;

	if (len)
		buf[0] = '\0';
	if (!c)
		return 0;
	if (t->is_user[by]) {
		at = "@";
		acct = ts_tree_name(t, (size_t)t->parent[by]);
	}
	if (c->kind == TS_FSCAP_PERCENT)
		n = snprintf(buf, len, "%s%s%s%s=%.2f%%>=%g%%",
			     TS_CAPS_REASON_PREFIX, name, at, acct,
			     floor(100 * ts_caps_used(c, t, by)) / 100,
			     c->value);
	else
		n = snprintf(buf, len, "%s%s%s%s=%.0f>=%.0f",
			     TS_CAPS_REASON_PREFIX, name, at, acct,
			     floor(ts_caps_used(c, t, by)), ceil(c->value));
	return n < 0 ? 0 : (size_t)n;
}
