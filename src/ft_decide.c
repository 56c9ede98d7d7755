/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ft_decide.c - the level that orders two users under Fair Tree. */
#include "ft_decide.h"

/* Depth of i in the fair-share tree (fs_parent links). */
static size_t fs_depth(const struct ts_tree *t, long i)
{
	size_t d = 0;

	for (; i > 0; i = t->fs_parent[i])
		d++;
	return d;
}

int ts_ft_decide(const struct ts_tree *t, const struct ts_fs *fs, size_t a,
		 size_t b, struct ts_ft_decision *d, struct ts_error *err)
{
	long x = (long)a, y = (long)b;
	size_t dx, dy;

	if (a >= t->n || b >= t->n || a == b || !a || !b)
		return ts_error_set(err, TS_EINVAL, -1,
				    "nodes %zu and %zu: not two associations",
				    a, b);
	dx = fs_depth(t, x);
	dy = fs_depth(t, y);
	/* Climb the deeper one, then both, until their parents meet. */
	for (; dx > dy; dx--)
		x = t->fs_parent[x];
	for (; dy > dx; dy--)
		y = t->fs_parent[y];
	if (x == y)
		return ts_error_set(err, TS_EINVAL, -1,
				    "node %zu is above node %zu",
				    x == (long)a ? a : b, x == (long)a ? b : a);
	while (t->fs_parent[x] != t->fs_parent[y]) {
		x = t->fs_parent[x];
		y = t->fs_parent[y];
	}
	d->ancestor = t->fs_parent[x];
	d->side_a = x;
	d->side_b = y;
	/*
	 * Equal Level FS is a tie in Fair Tree's ranking even where the sort
	 * puts a user before an account: the one after starts tied, its
	 * first user sharing the rank of the one before.
	 */
	d->tied = fs->level_fs[x] == fs->level_fs[y];
	d->a_first = ts_ft_before(t, fs, x, y) ||
		     (!ts_ft_before(t, fs, y, x) && x < y);
	return TS_OK;
}
