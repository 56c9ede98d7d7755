/* SPDX-License-Identifier: GPL-2.0-or-later */
/* what_if.c - --set and --usage on a tree (what_if.h). */
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entity.h"
#include "tree_file.h"
#include "what_if.h"

/* "--usage NAME=VALUE: " and why (printf's fmt) in msg.  RET -1. */
static int explain_failure(char *msg, size_t len, const struct what_if *w,
			   const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int explain_failure(char *msg, size_t len, const struct what_if *w,
			   const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(msg, len,
			 "%s %s=%s: ", w->is_usage ? "--usage" : "--set",
			 w->name, w->value);

	if (n >= 0 && (size_t)n < len) {
		va_start(ap, fmt);
		vsnprintf(msg + n, len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The one node NAME means (entity.h); TS_NO_NODE with why set if none. */
static long resolve(const struct ts_tree *t, const char *name, const char **why)
{
	long found[2];
	size_t n = entity_find(t, name, found, 2);

	if (n == 1)
		return found[0];
	*why = n ? "user is in several accounts, use user@account"
		 : "no such account or user";
	return TS_NO_NODE;
}

static int set_shares(struct ts_tree *t, const struct what_if *w, char *msg,
		      size_t len)
{
	const char *why = NULL;
	long i = resolve(t, w->name, &why);

	if (i < 0)
		return explain_failure(msg, len, w, "%s", why);
	if (i == 0)
		return explain_failure(msg, len, w, "%s",
				       "the root has no shares to set");
	if (ts_tree_file_shares(w->value, &t->shares[i]))
		return explain_failure(
			msg, len, w, "%s",
			"SHARES is not an integer 0..2147483646 or parent");
	return 0;
}

/*
 * --usage NAME=VALUE: set NAME's raw usage and carry the difference up
 * to its ancestors.  RET 0, or -1 with msg saying why.
 */
static int set_usage(struct ts_tree *t, const struct what_if *w, char *msg,
		     size_t len)
{
	const char *why = NULL;
	long i = resolve(t, w->name, &why), p;
	long double v, kids = 0, delta;
	size_t k;

	if (i < 0)
		return explain_failure(msg, len, w, "%s", why);
	if (ts_tree_file_usage(w->value, &v))
		return explain_failure(msg, len, w,
				       "VALUE is not a number 0..1.8e308");
	for (k = (size_t)i + 1; k < t->n; k++)
		if (t->parent[k] == i)
			kids += t->usage[k];
	if (v + kids * 1e-12L < kids)
		return explain_failure(
			msg, len, w, "below its children's usage %.6Lg", kids);
	delta = v - t->usage[i];
	/* the ancestors' sums must stay numbers a usage line may give */
	for (p = t->parent[i]; p >= 0; p = t->parent[p])
		if (t->usage[p] + delta > DBL_MAX)
			return explain_failure(
				msg, len, w,
				"%s's usage would add up to %.6Lg, above 1.8e308",
				p ? ts_tree_name(t, (size_t)p) : "root",
				t->usage[p] + delta);
	t->usage[i] = v;
	for (p = t->parent[i]; p >= 0; p = t->parent[p]) {
		t->usage[p] += delta;
		if (t->usage[p] < 0)
			t->usage[p] = 0; /* rounding below a kept child */
	}
	return 0;
}

int what_if_apply(struct ts_tree *t, const struct what_if *w, size_t n,
		  char *msg, size_t len)
{
	struct ts_error err = TS_ERROR_INIT;
	size_t k;

	for (k = 0; k < n; k++) {
		int rc = w[k].is_usage ? set_usage(t, &w[k], msg, len)
				       : set_shares(t, &w[k], msg, len);

		if (rc)
			return rc;
	}
	if (ts_tree_finish(t, &err)) {
		snprintf(msg, len, "%s", err.msg);
		return -1;
	}
	return 0;
}
