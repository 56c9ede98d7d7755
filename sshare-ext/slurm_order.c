/* SPDX-License-Identifier: GPL-2.0-or-later */
/* slurm_order.c - Slurm's association order (slurm_order.h). */
#include <stdlib.h>
#include <string.h>

#include "slurm_order.h"

static const struct ts_tree *sort_tree; /* qsort has no context argument */

/* Users first, then accounts; by name; input order breaks ties. */
static int cmp_children(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	int d;

	if (sort_tree->is_user[x] != sort_tree->is_user[y])
		return sort_tree->is_user[x] ? -1 : 1;
	d = strcmp(ts_tree_name(sort_tree, (size_t)x),
		   ts_tree_name(sort_tree, (size_t)y));
	if (d)
		return d;
	return x < y ? -1 : x > y;
}

int slurm_order(const struct ts_tree *in, struct ts_tree *out,
		struct ts_error *err)
{
	size_t n = in->n, i, *first = NULL, *count = NULL, top = 0;
	long *kids = NULL, *stack = NULL, *new_index = NULL;
	int rc = TS_OK;

	ts_tree_reset(out);
	if (!n)
		return ts_error_set(err, TS_EINVAL, -1, "tree has no root");
	first = calloc(n, sizeof(*first));
	count = calloc(n, sizeof(*count));
	kids = malloc(n * sizeof(*kids));
	stack = malloc(n * sizeof(*stack));
	new_index = malloc(n * sizeof(*new_index));
	if (!first || !count || !kids || !stack || !new_index) {
		rc = ts_error_set(err, TS_ENOMEM, -1, "out of memory");
		goto out;
	}
	/* Direct children, grouped by parent (counting sort). */
	for (i = 1; i < n; i++)
		count[in->parent[i]]++;
	for (i = 1; i < n; i++)
		first[i] = first[i - 1] + count[i - 1];
	memset(count, 0, n * sizeof(*count));
	for (i = 1; i < n; i++) {
		long p = in->parent[i];

		kids[first[p] + count[p]++] = (long)i;
	}
	sort_tree = in;
	for (i = 0; i < n; i++)
		if (count[i] > 1)
			qsort(kids + first[i], count[i], sizeof(*kids),
			      cmp_children);

	/* Depth first; children pushed last-first so they pop in order. */
	stack[top++] = 0;
	while (top) {
		long x = stack[--top], p = in->parent[x];
		size_t k;

		new_index[x] = ts_tree_add(
			out, p < 0 ? TS_NO_NODE : new_index[p],
			ts_tree_name(in, (size_t)x), in->is_user[x],
			in->shares[x], in->usage[x], in->id[x], err);
		if (new_index[x] < 0) {
			rc = err ? err->code : TS_EINVAL;
			goto out;
		}
		for (k = count[x]; k-- > 0;)
			stack[top++] = kids[first[x] + k];
	}
	rc = ts_tree_finish(out, err);
out:
	free(first);
	free(count);
	free(kids);
	free(stack);
	free(new_index);
	return rc;
}
