/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree.c - building the flat association tree and deriving Slurm's
 * fair-share structure from it (see tree.h for the rules).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"

#define GROW(ptr, count)                                                       \
	(tmp = realloc((ptr), (count) * sizeof(*(ptr))),                       \
	 tmp ? ((ptr) = tmp, 1) : 0)

static int grow_nodes(struct ts_tree *t, size_t cap, struct ts_error *err)
{
	void *tmp;

	if (cap <= t->cap)
		return TS_OK;
	if (!GROW(t->parent, cap) || !GROW(t->shares, cap) ||
	    !GROW(t->usage, cap) || !GROW(t->is_user, cap) ||
	    !GROW(t->id, cap) || !GROW(t->name_off, cap) ||
	    !GROW(t->fs_parent, cap) || !GROW(t->kid_first, cap) ||
	    !GROW(t->kid_count, cap) || !GROW(t->kids, cap) ||
	    !GROW(t->level_shares, cap) || !GROW(t->depth, cap))
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot grow tree to %zu nodes", cap);
	t->cap = cap;
	return TS_OK;
}

int ts_tree_reserve(struct ts_tree *t, size_t nodes, size_t name_bytes,
		    struct ts_error *err)
{
	char *tmp;

	if (grow_nodes(t, nodes, err))
		return err ? err->code : TS_ENOMEM;
	if (name_bytes <= t->names_cap)
		return TS_OK;
	tmp = realloc(t->names, name_bytes);
	if (!tmp)
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot grow name table to %zu",
				    name_bytes);
	t->names = tmp;
	t->names_cap = name_bytes;
	return TS_OK;
}

void ts_tree_trim_names(struct ts_tree *t)
{
	char *tmp;

	if (!t->names || t->names_len >= t->names_cap)
		return;
	tmp = realloc(t->names, t->names_len ? t->names_len : 1);
	if (tmp) {
		t->names = tmp;
		t->names_cap = t->names_len ? t->names_len : 1;
	}
}

/* One per-node array in the new order: out[k] = in[order[k]]. */
#define PERMUTE(field, type)                                                   \
	do {                                                                   \
		type *out = malloc(n * sizeof(*out));                          \
		if (!out)                                                      \
			goto nomem;                                            \
		for (k = 0; k < n; k++)                                        \
			out[k] = t->field[order[k]];                           \
		free(t->field);                                                \
		t->field = out;                                                \
	} while (0)

int ts_tree_permute(struct ts_tree *t, const long *order, struct ts_error *err)
{
	size_t n = t->n, k;
	long *new_index = malloc((n ? n : 1) * sizeof(*new_index));

	if (!new_index)
		goto nomem;
	for (k = 0; k < n; k++)
		new_index[order[k]] = (long)k;
	for (k = 0; k < n; k++)
		if (k ? new_index[t->parent[order[k]]] >= (long)k
		      : order[0] != 0) {
			free(new_index);
			return ts_error_set(
				err, TS_EINVAL, (long)k,
				"node %zu: the root is not first or a parent comes after its child",
				k);
		}
	PERMUTE(shares, uint32_t);
	PERMUTE(usage, long double);
	PERMUTE(is_user, unsigned char);
	PERMUTE(id, uint32_t);
	PERMUTE(name_off, size_t);
	PERMUTE(parent, long);
	for (k = 1; k < n; k++)
		t->parent[k] = new_index[t->parent[k]];
	free(new_index);
	/* Derived arrays only need room: finish refills them. */
	t->cap = n;
	return ts_tree_finish(t, err);
nomem:
	free(new_index);
	return ts_error_set(err, TS_ENOMEM, -1,
			    "cannot reorder a tree of %zu nodes", n);
}
#undef PERMUTE

int ts_tree_init(struct ts_tree *t, size_t cap_hint, struct ts_error *err)
{
	memset(t, 0, sizeof(*t));
	return grow_nodes(t, cap_hint ? cap_hint : 16, err);
}

void ts_tree_free(struct ts_tree *t)
{
	free(t->parent);
	free(t->shares);
	free(t->usage);
	free(t->is_user);
	free(t->id);
	free(t->name_off);
	free(t->names);
	free(t->fs_parent);
	free(t->kid_first);
	free(t->kid_count);
	free(t->kids);
	free(t->level_shares);
	free(t->depth);
	memset(t, 0, sizeof(*t));
}

void ts_tree_reset(struct ts_tree *t)
{
	t->n = 0;
	t->names_len = 0;
	t->n_users = 0;
	t->finished = 0;
}

static int store_name(struct ts_tree *t, const char *name, size_t *off,
		      struct ts_error *err)
{
	size_t len = strlen(name) + 1;

	if (t->names_len + len > t->names_cap) {
		size_t cap = t->names_cap ? t->names_cap : 256;
		char *tmp;

		while (cap < t->names_len + len)
			cap *= 2;
		tmp = realloc(t->names, cap);
		if (!tmp)
			return ts_error_set(err, TS_ENOMEM, -1,
					    "cannot grow name table to %zu",
					    cap);
		t->names = tmp;
		t->names_cap = cap;
	}
	memcpy(t->names + t->names_len, name, len);
	*off = t->names_len;
	t->names_len += len;
	return TS_OK;
}

long ts_tree_add(struct ts_tree *t, long parent, const char *name, int is_user,
		 uint32_t shares, long double usage, uint32_t id,
		 struct ts_error *err)
{
	size_t i = t->n;

	if (i == 0 && parent != TS_NO_NODE) {
		ts_error_set(err, TS_EINVAL, 0, "node 0 must be the root");
		return -1;
	}
	if (i > 0 && (parent < 0 || (size_t)parent >= i)) {
		ts_error_set(err, TS_EINVAL, (long)i,
			     "node %zu: parent %ld is not before it", i,
			     parent);
		return -1;
	}
	if (i > 0 && t->is_user[parent]) {
		ts_error_set(err, TS_EINVAL, (long)i,
			     "node %zu: parent %ld is a user", i, parent);
		return -1;
	}
	if (i == 0 && is_user) {
		ts_error_set(err, TS_EINVAL, 0, "the root cannot be a user");
		return -1;
	}
	if (!isfinite(usage) || usage < 0) {
		ts_error_set(err, TS_EINVAL, (long)i,
			     "node %zu: usage is not a finite number >= 0", i);
		return -1;
	}
	if (i == t->cap && grow_nodes(t, t->cap ? 2 * t->cap : 16, err))
		return -1;
	if (store_name(t, name ? name : "", &t->name_off[i], err))
		return -1;
	t->parent[i] = parent;
	t->shares[i] = shares;
	t->usage[i] = usage;
	t->is_user[i] = is_user ? 1 : 0;
	t->id[i] = id;
	t->n++;
	t->finished = 0;
	return (long)i;
}

int ts_tree_finish(struct ts_tree *t, struct ts_error *err)
{
	size_t i, pos = 0;

	if (t->n == 0)
		return ts_error_set(err, TS_EINVAL, -1, "tree has no root");

	t->n_users = 0;
	t->fs_parent[0] = TS_NO_NODE;
	t->depth[0] = 0;
	for (i = 0; i < t->n; i++) {
		t->kid_count[i] = 0;
		t->level_shares[i] = 0;
	}
	for (i = 1; i < t->n; i++) {
		long p = t->parent[i];

		/* Climb past Fairshare=parent accounts; the root stops it. */
		while (p > 0 && t->shares[p] == TS_SHARES_PARENT)
			p = t->parent[p];
		t->fs_parent[i] = p;
		t->kid_count[p]++;
		t->depth[i] = t->depth[t->parent[i]] + 1;
		if (t->is_user[i])
			t->n_users++;
	}

	/* Children in node order, as Slurm appends them to children_list. */
	for (i = 0; i < t->n; i++) {
		t->kid_first[i] = pos;
		pos += t->kid_count[i];
		t->kid_count[i] = 0;
	}
	for (i = 1; i < t->n; i++) {
		long p = t->fs_parent[i];

		t->kids[t->kid_first[p] + t->kid_count[p]++] = (long)i;
	}

	/*
	 * level_shares: a Fairshare=parent kid adds the shares of its own
	 * kids, which are always none here because its children were lifted
	 * to this level; so it adds 0.  The sum wraps as Slurm's uint32_t.
	 */
	for (i = 0; i < t->n; i++) {
		uint32_t sum = 0;
		size_t k;

		for (k = 0; k < t->kid_count[i]; k++) {
			long c = t->kids[t->kid_first[i] + k];

			if (t->shares[c] != TS_SHARES_PARENT)
				sum += t->shares[c];
		}
		for (k = 0; k < t->kid_count[i]; k++)
			t->level_shares[t->kids[t->kid_first[i] + k]] = sum;
	}
	/* The root is nobody's kid: Slurm never sets its level_shares. */
	t->level_shares[0] = 0;
	t->finished = 1;
	return TS_OK;
}

const char *ts_tree_name(const struct ts_tree *t, size_t i)
{
	if (i >= t->n || !t->names)
		return "";
	return t->names + t->name_off[i];
}

long ts_tree_find(const struct ts_tree *t, const char *name, int is_user,
		  const char *parent_name)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (is_user >= 0 && t->is_user[i] != (is_user ? 1 : 0))
			continue;
		if (strcmp(ts_tree_name(t, i), name))
			continue;
		if (parent_name &&
		    (t->parent[i] < 0 ||
		     strcmp(ts_tree_name(t, (size_t)t->parent[i]),
			    parent_name)))
			continue;
		return (long)i;
	}
	return TS_NO_NODE;
}
