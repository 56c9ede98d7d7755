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

int slurm_order(struct ts_tree *t, struct ts_error *err)
{
	size_t n = t->n, i, *first = NULL, *count = NULL, top = 0, done = 0;
	long *kids = NULL, *stack = NULL, *order = NULL;
	int rc = TS_OK;

	if (!n)
		return ts_error_set(err, TS_EINVAL, -1, "tree has no root");
	first = calloc(n, sizeof(*first));
	count = calloc(n, sizeof(*count));
	kids = malloc(n * sizeof(*kids));
	stack = malloc(n * sizeof(*stack));
	if (!first || !count || !kids || !stack) {
		rc = ts_error_set(err, TS_ENOMEM, -1, "out of memory");
		goto out;
	}
	/* Direct children, grouped by parent (counting sort). */
	for (i = 1; i < n; i++)
		count[t->parent[i]]++;
	for (i = 1; i < n; i++)
		first[i] = first[i - 1] + count[i - 1];
	memset(count, 0, n * sizeof(*count));
	for (i = 1; i < n; i++) {
		long p = t->parent[i];

		kids[first[p] + count[p]++] = (long)i;
	}
	sort_tree = t;
	for (i = 0; i < n; i++)
		if (count[i] > 1)
			qsort(kids + first[i], count[i], sizeof(*kids),
			      cmp_children);

	/* Depth first; children pushed last-first so they pop in order. */
	order = malloc(n * sizeof(*order));
	if (!order) {
		rc = ts_error_set(err, TS_ENOMEM, -1, "out of memory");
		goto out;
	}
	stack[top++] = 0;
	while (top) {
		long x = stack[--top];
		size_t k;

		order[done++] = x;
		for (k = count[x]; k-- > 0;)
			stack[top++] = kids[first[x] + k];
	}
	free(first);
	free(count);
	free(kids);
	free(stack);
	first = count = NULL;
	kids = stack = NULL;
	rc = ts_tree_permute(t, order, err);
out:
	free(first);
	free(count);
	free(kids);
	free(stack);
	free(order);
	return rc;
}
