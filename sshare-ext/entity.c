/* SPDX-License-Identifier: GPL-2.0-or-later */
/* entity.c - command-line names to tree nodes (entity.h). */
#include <stdlib.h>
#include <string.h>

#include "entity.h"

size_t entity_find(const struct ts_tree *t, const char *name, long *out,
		   size_t max)
{
	const char *at = strrchr(name, '@');
	size_t n = 0, i;
	long x;

	if (!t->n || !max)
		return 0;
	if (at) {
		char *user = strndup(name, (size_t)(at - name));

		x = user ? ts_tree_find(t, user, 1, at + 1) : TS_NO_NODE;
		free(user);
		if (x < 0)
			return 0;
		out[0] = x;
		return 1;
	}
	if (!strcmp(name, "root")) {
		out[0] = 0;
		return 1;
	}
	if ((x = ts_tree_find(t, name, 0, NULL)) >= 0) {
		out[0] = x;
		return 1;
	}
	for (i = 1; i < t->n && n < max; i++)
		if (t->is_user[i] && !strcmp(ts_tree_name(t, i), name))
			out[n++] = (long)i;
	return n;
}
