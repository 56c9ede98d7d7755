/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostlist.c - expand and compress Slurm-style host list expressions.
 *
 * Expansion walks one item left to right, copying text into a name buffer;
 * at '[' it loops over the group's numbers and recurses for the rest of
 * the item, so "a[1-2]b[3-4]" gives a1b3 a1b4 a2b3 a2b4.
 *
 * Compression splits each name into prefix, trailing number and that
 * number's digit count.  Zero-padded numbers ("007") only merge with
 * numbers of the same width, unpadded ones with any unpadded one, which
 * is what the expansion rule (width of the first number of a range) can
 * reproduce: n[9-10] and nid[08-10] both expand back exactly.
 * Edge cases: names without a trailing number are written as they are;
 * an empty list gives "".
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "power/hostlist.h"

#define MAX_NAME   256 /* longest name an expansion may build */
#define MAX_DIGITS 18  /* keeps every number inside unsigned long long */

void ts_hostlist_free(struct ts_hostlist *hl)
{
	size_t i;

	for (i = 0; i < hl->n; i++)
		free(hl->name[i]);
	free(hl->name);
	hl->name = NULL;
	hl->n = hl->cap = 0;
}

int ts_hostlist_add(struct ts_hostlist *hl, const char *name,
		    struct ts_error *err)
{
	char *copy;

	if (hl->n == hl->cap) {
		size_t cap = hl->cap ? 2 * hl->cap : 16;
		char **v = realloc(hl->name, cap * sizeof(*v));

		if (!v)
			return ts_error_set(err, TS_ENOMEM, -1,
					    "out of memory for host names");
		hl->name = v;
		hl->cap = cap;
	}
	copy = strdup(name);
	if (!copy)
		return ts_error_set(err, TS_ENOMEM, -1,
				    "out of memory for host names");
	hl->name[hl->n++] = copy;
	return TS_OK;
}

long ts_hostlist_find(const struct ts_hostlist *hl, const char *name)
{
	size_t i;

	for (i = 0; i < hl->n; i++)
		if (!strcmp(hl->name[i], name))
			return (long)i;
	return -1;
}

/* State of one expansion: the whole expression for error columns. */
struct expand {
	struct ts_hostlist *hl;
	const char *expr;
	size_t added;
	struct ts_error *err;
};

static int is_sep(char c)
{
	return c == ',' || isspace((unsigned char)c);
}

/* Read digits at *p into *v, their count into *width.  RET 0 or -1. */
static int read_number(const char **p, unsigned long long *v, int *width)
{
	const char *s = *p;
	unsigned long long x = 0;
	int w = 0;

	while (isdigit((unsigned char)*s)) {
		if (++w > MAX_DIGITS)
			return -1;
		x = x * 10 + (unsigned long long)(*s - '0');
		s++;
	}
	if (!w)
		return -1;
	*p = s;
	*v = x;
	*width = w;
	return 0;
}

static int col(const struct expand *x, const char *p)
{
	return (int)(p - x->expr) + 1;
}

/* The whole name in buf[0..len) is done: add it. */
static int add_expanded_name(struct expand *x, const char *end, char *buf,
			     size_t len)
{
	buf[len] = '\0';
	if (++x->added > TS_HOSTLIST_MAX)
		return ts_error_set(x->err, TS_ERANGE, col(x, end),
				    "more than %d host names", TS_HOSTLIST_MAX);
	return ts_hostlist_add(x->hl, buf, x->err);
}

/*
 * One range of a bracket group at *p: N or N-M, followed by ',' or ']'
 * (left at *p).  OUT *lo, *hi, *width (digits of N, which every name of
 * the range keeps).
 */
static int read_range(struct expand *x, const char **p, unsigned long long *lo,
		      unsigned long long *hi, int *width)
{
	int whi;

	if (read_number(p, lo, width))
		return ts_error_set(
			x->err, TS_ESYNTAX, col(x, *p),
			"column %d: expected a number (at most %d digits) in brackets",
			col(x, *p), MAX_DIGITS);
	*hi = *lo;
	if (**p == '-') {
		(*p)++;
		if (read_number(p, hi, &whi))
			return ts_error_set(
				x->err, TS_ESYNTAX, col(x, *p),
				"column %d: expected a number after '-'",
				col(x, *p));
		if (*hi < *lo)
			return ts_error_set(
				x->err, TS_ERANGE, col(x, *p),
				"column %d: range %llu-%llu runs backwards",
				col(x, *p), *lo, *hi);
		if (*hi - *lo >= TS_HOSTLIST_MAX)
			return ts_error_set(
				x->err, TS_ERANGE, col(x, *p),
				"column %d: range %llu-%llu has more than %d names",
				col(x, *p), *lo, *hi, TS_HOSTLIST_MAX);
	}
	if (**p != ',' && **p != ']')
		return ts_error_set(x->err, TS_ESYNTAX, col(x, *p),
				    "column %d: unexpected '%c' in brackets",
				    col(x, *p), **p);
	return TS_OK;
}

/*
 * Expand the item text [p, end) behind the name built so far in buf[0..len).
 * RET TS_OK or an error code with x->err set.
 */
static int expand_item(struct expand *x, const char *p, const char *end,
		       char *buf, size_t len)
{
	const char *open, *close;

	while (p < end && *p != '[') {
		if (*p == ']')
			return ts_error_set(x->err, TS_ESYNTAX, col(x, p),
					    "column %d: ']' without '['",
					    col(x, p));
		if (len + 1 >= MAX_NAME)
			return ts_error_set(
				x->err, TS_ERANGE, col(x, p),
				"column %d: host name longer than %d",
				col(x, p), MAX_NAME - 1);
		buf[len++] = *p++;
	}
	if (p == end)
		return add_expanded_name(x, end, buf, len);

	/* p at '[': find the group's end, then walk its ranges. */
	open = p;
	close = p + 1;
	while (close < end && *close != ']' && *close != '[')
		close++;
	if (close == end || *close != ']')
		return ts_error_set(x->err, TS_ESYNTAX, col(x, open),
				    "column %d: '[' without ']'", col(x, open));
	p = open + 1;
	for (;;) {
		unsigned long long lo, hi, v;
		int width, rc = read_range(x, &p, &lo, &hi, &width);

		if (rc != TS_OK)
			return rc;
		for (v = lo; v <= hi; v++) {
			int n = snprintf(buf + len, MAX_NAME - len, "%0*llu",
					 width, v);

			if (n < 0 || (size_t)n >= MAX_NAME - len)
				return ts_error_set(
					x->err, TS_ERANGE, col(x, open),
					"column %d: host name longer than %d",
					col(x, open), MAX_NAME - 1);
			rc = expand_item(x, close + 1, end, buf, len + n);
			if (rc != TS_OK)
				return rc;
		}
		if (*p == ']')
			break;
		p++; /* ',' */
	}
	return TS_OK;
}

int ts_hostlist_expand(struct ts_hostlist *hl, const char *expr,
		       struct ts_error *err)
{
	struct expand x = { hl, expr, 0, err };
	char buf[MAX_NAME];
	const char *p = expr;

	if (!expr)
		return TS_OK;
	while (*p) {
		const char *start, *q;
		int depth = 0, rc;

		while (*p && is_sep(*p))
			p++;
		if (!*p)
			break;
		start = p;
		/* An item ends at a separator outside brackets. */
		for (q = p; *q && (depth || !is_sep(*q)); q++) {
			if (*q == '[')
				depth++;
			else if (*q == ']' && depth)
				depth--;
			if (depth && isspace((unsigned char)*q))
				return ts_error_set(
					err, TS_ESYNTAX, col(&x, q),
					"column %d: blank inside brackets",
					col(&x, q));
		}
		rc = expand_item(&x, start, q, buf, 0);
		if (rc != TS_OK)
			return rc;
		p = q;
	}
	return TS_OK;
}

/* A name split for sorting and merging. */
struct split {
	const char *name;
	size_t prefix_len; /* bytes before the trailing number */
	int has_num;
	int width;  /* digits of the number */
	int padded; /* width > 1 and a leading zero */
	unsigned long long num;
};

static void split_name(const char *name, struct split *s)
{
	size_t len = strlen(name), i = len;
	const char *p;

	while (i > 0 && isdigit((unsigned char)name[i - 1]) &&
	       len - (i - 1) <= MAX_DIGITS)
		i--;
	s->name = name;
	s->prefix_len = i;
	s->has_num = i < len;
	s->width = (int)(len - i);
	s->padded = s->width > 1 && name[i] == '0';
	s->num = 0;
	for (p = name + i; *p; p++)
		s->num = s->num * 10 + (unsigned long long)(*p - '0');
}

/* Merge key: unpadded numbers share key 0, padded ones their width. */
static int merge_width(const struct split *s)
{
	return s->padded ? s->width : 0;
}

static int cmp_split(const void *a, const void *b)
{
	const struct split *x = a, *y = b;
	size_t n =
		x->prefix_len < y->prefix_len ? x->prefix_len : y->prefix_len;
	int c = strncmp(x->name, y->name, n);

	if (c)
		return c;
	if (x->prefix_len != y->prefix_len)
		return x->prefix_len < y->prefix_len ? -1 : 1;
	if (x->has_num != y->has_num)
		return x->has_num - y->has_num;
	if (merge_width(x) != merge_width(y))
		return merge_width(x) - merge_width(y);
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_name_order(const void *a, const void *b)
{
	struct split x, y;

	split_name(*(char *const *)a, &x);
	split_name(*(char *const *)b, &y);
	return cmp_split(&x, &y);
}

void ts_hostlist_uniq(struct ts_hostlist *hl)
{
	size_t i, out = 0;

	if (hl->n < 2)
		return;
	qsort(hl->name, hl->n, sizeof(hl->name[0]), cmp_name_order);
	for (i = 0; i < hl->n; i++) {
		if (out && !strcmp(hl->name[out - 1], hl->name[i])) {
			free(hl->name[i]);
			continue;
		}
		hl->name[out++] = hl->name[i];
	}
	hl->n = out;
}

/* Growing output string. */
struct out {
	char *s;
	size_t len, cap;
	int failed;
};

static void append_grown(struct out *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 64;
		char *p;

		while (o->len + n + 1 > cap)
			cap *= 2;
		p = realloc(o->s, cap);
		if (!p) {
			o->failed = 1;
			return;
		}
		o->s = p;
		o->cap = cap;
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = '\0';
}

static void put_num(struct out *o, const struct split *s)
{
	append_grown(o, s->name + s->prefix_len, (size_t)s->width);
}

static int same_group(const struct split *a, const struct split *b)
{
	return a->has_num && b->has_num && a->prefix_len == b->prefix_len &&
	       !strncmp(a->name, b->name, a->prefix_len) &&
	       merge_width(a) == merge_width(b);
}

char *ts_hostlist_ranged(const struct ts_hostlist *hl, struct ts_error *err)
{
	struct out o = { NULL, 0, 0, 0 };
	struct split *v;
	size_t i, n = 0;

	v = calloc(hl->n ? hl->n : 1, sizeof(*v));
	if (!v) {
		ts_error_set(err, TS_ENOMEM, -1, "out of memory for host list");
		return NULL;
	}
	for (i = 0; i < hl->n; i++)
		split_name(hl->name[i], &v[i]);
	qsort(v, hl->n, sizeof(*v), cmp_split);
	for (i = 0; i < hl->n; i++) /* drop repeats */
		if (!n || strcmp(v[n - 1].name, v[i].name))
			v[n++] = v[i];

	append_grown(&o, "", 0);
	for (i = 0; i < n;) {
		size_t j = i + 1, k;
		int bracket;

		if (o.len)
			append_grown(&o, ",", 1);
		while (j < n && same_group(&v[i], &v[j]))
			j++;
		append_grown(&o, v[i].name, v[i].prefix_len);
		bracket = j - i > 1;
		if (!v[i].has_num) {
			append_grown(&o, v[i].name + v[i].prefix_len,
				     strlen(v[i].name + v[i].prefix_len));
			i = j;
			continue;
		}
		if (bracket)
			append_grown(&o, "[", 1);
		for (k = i; k < j;) {
			size_t r = k;

			while (r + 1 < j && v[r + 1].num == v[r].num + 1)
				r++;
			if (k > i)
				append_grown(&o, ",", 1);
			put_num(&o, &v[k]);
			if (r > k) {
				append_grown(&o, "-", 1);
				put_num(&o, &v[r]);
			}
			k = r + 1;
		}
		if (bracket)
			append_grown(&o, "]", 1);
		i = j;
	}
	free(v);
	if (o.failed) {
		free(o.s);
		ts_error_set(err, TS_ENOMEM, -1, "out of memory for host list");
		return NULL;
	}
	return o.s;
}
