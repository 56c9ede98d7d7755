/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential_usage.h - Maui's fair-share usage per credential (seed 003,
 * 6.3.2; issue 27): every job's usage is charged, in the usage windows
 * (windows.h), to its user, its group, its account, its QOS and its class
 * (partition), and to the delivered total.  Maui's data file keeps one
 * line per credential and a TOTAL, and "the sum of the usage of all
 * members of each category should equal the total usage value": here
 * each credential type has its own windows and its own total, charged
 * together, so every category sums to the same total.
 *
 * A credential is a uint32 id of its type, chosen by the caller (uid,
 * gid, the account's association id, the QOS id, an id for the
 * partition).  A job without one (no QOS) is charged to
 * TS_CRED_ID_NONE of that type, so the category still sums to the total.
 *
 * A charge is all or nothing: the ids are made room for first (which may
 * allocate and fail), then every window is charged (which cannot fail).
 * Nothing reads the clock.  Not thread-safe: the caller serialises.
 */
#ifndef TS_CREDENTIAL_USAGE_H
#define TS_CREDENTIAL_USAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "credential_fs.h"
#include "error.h"
#include "windows.h"

#define TS_CRED_ID_NONE UINT32_MAX /* a job with no credential of a type */

struct ts_cred_usage {
	struct ts_windows w[TS_CRED_N]; /* indexed by enum ts_cred */
};

/* A job's credentials: id[c] of type c, or TS_CRED_ID_NONE. */
struct ts_cred_ids {
	uint32_t id[TS_CRED_N];
};

/*
 * ts_cred_usage_init() - empty windows for every credential type, all
 * with interval, depth and decay as ts_windows_init() takes them.
 * RET TS_OK, TS_ERANGE (message names the parameter) or TS_ENOMEM; on
 * error nothing is left allocated.
 */
int ts_cred_usage_init(struct ts_cred_usage *cu, uint32_t interval,
		       uint32_t depth, double decay, int64_t now,
		       struct ts_error *err);

/* ts_cred_usage_free() - release everything; cu may be re-initialised. */
void ts_cred_usage_free(struct ts_cred_usage *cu);

/*
 * ts_cred_usage_charge() - charge amount (finite, >= 0) used at time t
 * to each of the job's credentials and to each type's total, in the
 * window holding t (ts_windows_add_at(): a late charge lands in the
 * older window it was used in).  All or nothing.
 * RET TS_OK, TS_EINVAL (bad amount) or TS_ENOMEM (nothing charged).
 */
int ts_cred_usage_charge(struct ts_cred_usage *cu,
			 const struct ts_cred_ids *ids, long double amount,
			 int64_t t, struct ts_error *err);

/* ts_cred_usage_roll() - roll every type's windows to now. */
void ts_cred_usage_roll(struct ts_cred_usage *cu, int64_t now);

/*
 * ts_cred_usage_pct() - the decay-weighted usage of credential id of
 * type c as a percentage of the weighted total delivered (Maui's
 * fair-share usage, the U of credential_fs.h), 0..100; 0 for an unknown
 * id or when nothing was delivered.  Never NaN.
 */
double ts_cred_usage_pct(const struct ts_cred_usage *cu, enum ts_cred c,
			 uint32_t id);

/*
 * ts_cred_usage_reconfigure() - ts_windows_reconfigure() on every type.
 * All or nothing: the new parameters are checked, and a larger depth
 * allocated, on copies first.  RET TS_OK, TS_ERANGE or TS_ENOMEM.
 */
int ts_cred_usage_reconfigure(struct ts_cred_usage *cu, uint32_t interval,
			      uint32_t depth, double decay, int64_t now,
			      struct ts_error *err);

/*
 * Without usage windows (no usage_window=) the usage per credential
 * decays as Slurm's association usage does, by PriorityDecayHalfLife:
 * one window that never rolls (TS_CRED_HALF_LIFE_INTERVAL seconds from
 * the epoch: it ends in 2106) and decay 1, whose usage and totals the
 * caller scales by each cycle's decay factor (ts_cred_usage_scale()) and
 * charges with the decayed amounts Slurm charges usage_raw.
 */
#define TS_CRED_HALF_LIFE_INTERVAL UINT32_MAX

/* ts_cred_usage_init_half_life() - empty half-life usage at now. */
int ts_cred_usage_init_half_life(struct ts_cred_usage *cu, int64_t now,
				 struct ts_error *err);

/* ts_cred_usage_half_life() - cu is half-life usage, not windows. */
bool ts_cred_usage_half_life(const struct ts_cred_usage *cu);

/*
 * ts_cred_usage_scale() - multiply every usage and total by factor (a
 * decay factor, finite, in [0, 1]; anything else is ignored).
 */
void ts_cred_usage_scale(struct ts_cred_usage *cu, double factor);

/*
 * ts_cred_usage_convert() - cu from windows to half-life (interval
 * TS_CRED_HALF_LIFE_INTERVAL) or back (interval, depth, decay as
 * ts_cred_usage_init()): each credential's decay-weighted usage, and
 * each type's weighted total, become the one value of the new kind (in
 * window 0, at now): the usage fair share saw, as the association tree
 * carries usage_raw into window 0.  All or nothing.
 * RET TS_OK, TS_ERANGE or TS_ENOMEM (cu unchanged).
 */
int ts_cred_usage_convert(struct ts_cred_usage *cu, uint32_t interval,
			  uint32_t depth, double decay, int64_t now,
			  struct ts_error *err);

#endif /* TS_CREDENTIAL_USAGE_H */
