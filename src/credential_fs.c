/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential_fs.c - Maui's fair-share component over a job's credentials
 * (see credential_fs.h).
 */
#include "credential_fs.h"

#include <float.h>
#include <math.h>

/* Below any ratio delta of a target of 1% or more (1 - 100 / 1 = -99). */
#define RATIO_ZERO_TARGET_OVER (-100.0)

/* v clamped into lo..hi; NaN is lo. */
static double clamp(double v, double lo, double hi)
{
	if (!(v > lo))
		return lo;
	return v > hi ? hi : v;
}

double ts_cred_delta(const struct ts_target *tg, double usage_pct,
		     enum ts_fs_policy policy)
{
	double t, u = clamp(usage_pct, 0, 100), d;

	if (!tg)
		return 0.0;
	t = clamp(tg->percent, 0, 100);
	if (policy == TS_FS_POLICY_RATIO)
		d = t > 0 ? 1.0 - u / t : (u > 0 ? RATIO_ZERO_TARGET_OVER : 0);
	else
		d = t - u;
	if (tg->kind == TS_TARGET_CAP && d > 0)
		d = 0;
	if (tg->kind == TS_TARGET_FLOOR && d < 0)
		d = 0;
	return d;
}

double ts_cred_weight(double weight)
{
	return isfinite(weight) ? weight : 0.0;
}

/* Huge finite weights can overflow a product: the largest finite. */
static double bounded(double v)
{
	if (isnan(v))
		return 0.0;
	return clamp(v, -DBL_MAX, DBL_MAX);
}

void ts_cred_part_of(const struct ts_target *tg, double usage_pct,
		     enum ts_fs_policy policy, struct ts_cred_part *out)
{
	out->delta = ts_cred_delta(tg, usage_pct, policy);
	out->factor = ts_targets_factor(tg, usage_pct, policy);
}

void ts_cred_fs_parts(const struct ts_cred_part *const part[TS_CRED_N],
		      const double weight[TS_CRED_N], double fs_weight,
		      struct ts_cred_fs *out)
{
	double mean = 0.0, weights = 0.0;
	int c;

	out->sum = 0.0;
	for (c = 0; c < TS_CRED_N; c++) {
		double w;

		out->delta[c] = 0.0;
		if (!part[c])
			continue; /* no target: delta 0, no factor */
		w = ts_cred_weight(weight[c]);
		out->delta[c] = part[c]->delta;
		out->sum += w * out->delta[c];
		if (w > 0) {
			mean += w * part[c]->factor;
			weights += w;
		}
	}
	out->sum = bounded(out->sum);
	out->component = bounded(ts_cred_weight(fs_weight) * out->sum);
	out->factor = ts_cred_factor_of(mean, weights);
}

void ts_cred_fs(const struct ts_cred_term term[TS_CRED_N], double fs_weight,
		struct ts_cred_fs *out)
{
	struct ts_cred_part parts[TS_CRED_N];
	const struct ts_cred_part *part[TS_CRED_N];
	double weight[TS_CRED_N];
	int c;

	for (c = 0; c < TS_CRED_N; c++) {
		part[c] = NULL;
		weight[c] = term[c].weight;
		if (!term[c].target)
			continue;
		ts_cred_part_of(term[c].target, term[c].usage_pct,
				term[c].policy, &parts[c]);
		part[c] = &parts[c];
	}
	ts_cred_fs_parts(part, weight, fs_weight, out);
}
