/* SPDX-License-Identifier: GPL-2.0-or-later */
/* explain.c - the arithmetic of sshare-ext --explain (see explain.h). */
#include <math.h>

#include "explain.h"

/* Slurm's TRES sum: index order, from 0.0 (priority.c's tres_weigh()). */
static double tres_total(const double *tres, size_t n)
{
	double sum = 0.0;
	size_t i;

	for (i = 0; tres && i < n; i++)
		sum += tres[i];
	return sum;
}

double ts_explain_ctld_sum(const struct ts_prio_factors *f, const double *tres,
			   size_t n, int part_first)
{
	double t = tres_total(tres, n);

	if (part_first)
		return ts_prio_part_first_sum(f->part, f, t);
	return ts_prio_sum(f, t);
}

double ts_explain_sprio_sum(const struct ts_prio_factors *f, const double *tres,
			    size_t n)
{
	double p = f->age + f->assoc + f->fs + f->js + f->part + f->qos +
		   ts_prio_offset(f->site) - ts_prio_offset(f->nice);
	size_t i;

	for (i = 0; tres && i < n; i++)
		if (tres[i] != 0.0)
			p += tres[i];
	return p < 1 ? 1 : p;
}

long ts_explain_decisive(const double *ahead, const double *behind, size_t n)
{
	double best = 0.0;
	long k = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		double d = ahead[i] - behind[i];

		if (d > best) {
			best = d;
			k = (long)i;
		}
	}
	return k;
}

/* Seconds until an age term a reaches the full weight w at rate r. */
static double until_full(double a, double w, double r)
{
	return a >= w ? 0.0 : (w - a) / r;
}

double ts_explain_overtake_age(const struct ts_overtake *o)
{
	double gap = o->ahead - o->behind, r, tb, ta, t;

	if (!(gap >= 0.0))
		return isnan(gap) ? -1.0 : 0.0;
	if (!(o->w_age > 0.0) || !o->max_age)
		return -1.0;
	r = o->w_age / (double)o->max_age;
	tb = until_full(o->age_behind, o->w_age, r);
	ta = until_full(o->age_ahead, o->w_age, r);
	/*
	 * Both terms grow alike until the one ahead is full; only then can
	 * the one behind gain, at r a second, until it is full too.
	 */
	if (tb <= ta)
		return -1.0;
	t = ta + gap / r;
	if (t >= tb)
		return -1.0; /* full before it gets ahead: never */
	/* strictly ahead: the next instant after equality */
	return nextafter(t, INFINITY);
}

double ts_explain_decay_below(double usage, double cap, double hl)
{
	if (!isfinite(usage) || !isfinite(cap) || !isfinite(hl))
		return -1.0;
	if (usage < cap)
		return 0.0;
	if (cap <= 0.0 || hl <= 0.0)
		return -1.0;
	/* "at or over" holds: strictly below only just after */
	return nextafter(hl * log2(usage / cap), INFINITY);
}

size_t ts_explain_path(const struct ts_tree *t, size_t i, long *path,
		       size_t cap)
{
	size_t n = 0, k;
	long x;

	if (i >= t->n)
		return 0;
	for (x = (long)i; x >= 0; x = t->parent[x])
		if (++n > cap)
			return 0;
	k = n;
	for (x = (long)i; x >= 0; x = t->parent[x])
		path[--k] = x;
	return n;
}
