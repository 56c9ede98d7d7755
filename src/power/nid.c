/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nid.c - nid numbers from node names and capmc's "--nids" list syntax.
 * Seed 001's command line "capmc set_sleep_state_limit --nids 24-25
 * --limit 4" is what ts_nid_ranges() writes for nodes nid00024, nid00025.
 * Edge cases: leading zeros are dropped (nid00000 is 0); a name with no
 * trailing digit has no default nid (-1) and must be in nid_map.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "power/nid.h"

long ts_nid_from_name(const char *name)
{
	size_t len = strlen(name), i = len;
	long v = 0;

	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	if (i == len)
		return -1;
	for (; i < len; i++) {
		v = v * 10 + (name[i] - '0');
		if (v > TS_NID_MAX)
			return -1;
	}
	return v;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

char *ts_nid_ranges(const long *nids, size_t n, struct ts_error *err)
{
	long *v = malloc((n ? n : 1) * sizeof(*v));
	/* Each run needs at most 2 * 20 digits, '-' and ','. */
	char *s = malloc(n * 42 + 1), *p = s;
	size_t i;

	if (!v || !s) {
		free(v);
		free(s);
		ts_error_set(err, TS_ENOMEM, -1, "out of memory for nid list");
		return NULL;
	}
	if (n)
		memcpy(v, nids, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_long);
	*p = '\0';
	for (i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && (v[j + 1] == v[j] || v[j + 1] == v[j] + 1))
			j++;
		if (p != s)
			*p++ = ',';
		if (v[j] != v[i])
			p += sprintf(p, "%ld-%ld", v[i], v[j]);
		else
			p += sprintf(p, "%ld", v[i]);
		i = j + 1;
	}
	free(v);
	return s;
}
