/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential_usage.c - Maui's fair-share usage per credential: one set
 * of usage windows per credential type, charged together.
 */
#include "credential_usage.h"

#include <math.h>

int ts_cred_usage_init(struct ts_cred_usage *cu, uint32_t interval,
		       uint32_t depth, double decay, int64_t now,
		       struct ts_error *err)
{
	int c, rc;

	for (c = 0; c < TS_CRED_N; c++) {
		rc = ts_windows_init(&cu->w[c], interval, depth, decay, now, 16,
				     err);
		if (rc != TS_OK) {
			while (c-- > 0)
				ts_windows_free(&cu->w[c]);
			return rc;
		}
	}
	return TS_OK;
}

void ts_cred_usage_free(struct ts_cred_usage *cu)
{
	int c;

	for (c = 0; c < TS_CRED_N; c++)
		ts_windows_free(&cu->w[c]);
}

int ts_cred_usage_charge(struct ts_cred_usage *cu,
			 const struct ts_cred_ids *ids, long double amount,
			 int64_t t, struct ts_error *err)
{
	long slot[TS_CRED_N];
	int c;

	if (ts_windows_check_amount(amount, err) != TS_OK)
		return TS_EINVAL;
	/*
	 * Room first: a slot added and not charged holds zeros, so a
	 * failure here leaves every sum as it was.
	 */
	for (c = 0; c < TS_CRED_N; c++)
		if ((slot[c] = ts_windows_add_assoc(&cu->w[c], ids->id[c],
						    err)) < 0)
			return TS_ENOMEM;
	/* Slots found and a valid amount: these cannot fail. */
	for (c = 0; c < TS_CRED_N; c++)
		ts_windows_charge_slot_at(&cu->w[c], slot[c], amount, t);
	return TS_OK;
}

void ts_cred_usage_roll(struct ts_cred_usage *cu, int64_t now)
{
	int c;

	for (c = 0; c < TS_CRED_N; c++)
		ts_windows_roll(&cu->w[c], now);
}

double ts_cred_usage_pct(const struct ts_cred_usage *cu, enum ts_cred c,
			 uint32_t id)
{
	if ((unsigned)c >= TS_CRED_N)
		return 0;
	return 100.0 * ts_windows_usage(&cu->w[c], id);
}

int ts_cred_usage_reconfigure(struct ts_cred_usage *cu, uint32_t interval,
			      uint32_t depth, double decay, int64_t now,
			      struct ts_error *err)
{
	const struct ts_windows *first = &cu->w[0];
	uint32_t old_interval = first->interval, old_depth = first->depth;
	double old_decay = first->decay;
	int c, rc;

	for (c = 0; c < TS_CRED_N; c++) {
		rc = ts_windows_reconfigure(&cu->w[c], interval, depth, decay,
					    now, NULL, err);
		if (rc == TS_OK)
			continue;
		/*
		 * A range error fails the first type, before any change; a
		 * later one can only fail to grow its depth, and undoing a
		 * growth drops only the empty windows it added.
		 */
		while (c-- > 0)
			ts_windows_reconfigure(&cu->w[c], old_interval,
					       old_depth, old_decay, now, NULL,
					       NULL);
		return rc;
	}
	return TS_OK;
}

int ts_cred_usage_init_half_life(struct ts_cred_usage *cu, int64_t now,
				 struct ts_error *err)
{
	return ts_cred_usage_init(cu, TS_CRED_HALF_LIFE_INTERVAL, 1, 1.0, now,
				  err);
}

bool ts_cred_usage_half_life(const struct ts_cred_usage *cu)
{
	return cu->w[0].interval == TS_CRED_HALF_LIFE_INTERVAL &&
	       cu->w[0].depth == 1;
}

void ts_cred_usage_scale(struct ts_cred_usage *cu, double factor)
{
	int c;

	if (!isfinite(factor) || factor < 0 || factor > 1)
		return;
	for (c = 0; c < TS_CRED_N; c++)
		ts_windows_scale(&cu->w[c], factor);
}

int ts_cred_usage_convert(struct ts_cred_usage *cu, uint32_t interval,
			  uint32_t depth, double decay, int64_t now,
			  struct ts_error *err)
{
	struct ts_cred_usage to;
	size_t s;
	int c, rc;

	rc = ts_cred_usage_init(&to, interval, depth, decay, now, err);
	if (rc != TS_OK)
		return rc;
	for (c = 0; c < TS_CRED_N && rc == TS_OK; c++) {
		const struct ts_windows *w = &cu->w[c];

		for (s = 0; s < w->n && rc == TS_OK; s++) {
			long double u = ts_windows_weighted(w, w->id[s]);

			if (ts_windows_add_assoc(&to.w[c], w->id[s], err) < 0)
				rc = TS_ENOMEM;
			else if (u > 0)
				rc = ts_windows_add(&to.w[c], w->id[s], u, now,
						    err);
		}
		if (rc == TS_OK && ts_windows_weighted_total(w) > 0)
			rc = ts_windows_add_total(&to.w[c],
						  ts_windows_weighted_total(w),
						  now, err);
	}
	if (rc != TS_OK) {
		ts_cred_usage_free(&to);
		return rc;
	}
	ts_cred_usage_free(cu);
	*cu = to;
	return TS_OK;
}
