/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * windows.h - Maui fair-share usage windows (seed 003, FSINTERVAL,
 * FSDEPTH, FSDECAY), per association and in total.
 *
 * Time is cut into windows of `interval` seconds; `depth` of them are
 * kept, window 0 being the current one.  Each association has its usage
 * per window, U[k]; the system has the total delivered usage per window,
 * T[k].  The usage every fair-share algorithm sees is
 *
 *     Usage = sum_k D^k U[k] / sum_k D^k T[k],    D = decay, 0^0 = 1
 *
 * ts_windows_weighted() gives the numerator for one association and
 * ts_windows_weighted_total() the denominator; ts_windows_fill_tree()
 * writes them as the tree's raw usage (root = the total), so the tree's
 * usage_norm is exactly this ratio.
 *
 * Boundaries are multiples of `interval` seconds since the Unix epoch, so
 * a restarted controller lands on the same windows.  Rolling shifts every
 * window one older and drops the oldest; after downtime several windows
 * roll at once, each skipped window empty.  A changed interval ends the
 * current window at the next multiple of the new interval and lets the
 * old-length windows roll out (seed 003: "changes may result in unexpected
 * fairshare status for a period of time").  A changed depth keeps the
 * data: more windows add empty older ones, fewer drop the oldest.
 *
 * Associations are keyed by the caller's uint32 id (Slurm's assoc id).
 * Adding an association may allocate; adding usage, rolling and the
 * weighted sums never do.  Nothing here reads the clock: `now` (seconds
 * since the epoch, >= 0) is always passed in.  Not thread-safe: the
 * caller serialises access.
 */
#ifndef TS_WINDOWS_H
#define TS_WINDOWS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "id_map.h"
#include "tree.h"

#define TS_WINDOWS_DEPTH_MAX 1024u /* bounds every array and the file */
#define TS_WINDOWS_TIME_MAX  (INT64_C(1) << 62) /* no overflow in sums */

struct ts_windows {
	uint32_t interval; /* seconds per window (new windows) */
	uint32_t depth;	   /* windows kept, window 0 current */
	double decay;	   /* D in [0,1] */
	/*
	 * Window k covers [bound[k + 1], bound[k]): bound[0] is the end of
	 * the current window.  bound[0] is always a multiple of interval.
	 * Older windows may have another length after a reconfigure.
	 */
	int64_t *bound;		/* depth + 1 */
	long double *weight;	/* depth: D^k */
	long double *total;	/* depth: T[k] */
	size_t n;		/* associations in use */
	size_t cap;		/* associations allocated */
	uint32_t *id;		/* [slot] association id */
	long double *usage;	/* [slot * depth + k] U[k] */
	struct ts_id_map index; /* id -> slot, room for cap */
};

/* What ts_windows_reconfigure() did, for one log line. */
struct ts_windows_change {
	uint32_t old_interval, new_interval;
	uint32_t old_depth, new_depth;
	double old_decay, new_decay;
	int64_t rolled;	     /* windows rolled to `now` first (old length) */
	uint32_t rollout;    /* windows held that are not new_interval long */
	int64_t rollout_by;  /* when the last of them has rolled out */
	int64_t current_end; /* end of window 0 after the change */
	uint32_t dropped;    /* oldest windows dropped by a smaller depth */
	long double dropped_total; /* total usage that was in them */
};

/*
 * ts_windows_init() - empty windows; window 0 is the aligned window
 * holding now, older windows are the aligned ones before it.
 * interval >= 1, depth 1 .. TS_WINDOWS_DEPTH_MAX, decay in [0,1],
 * now in [0, TS_WINDOWS_TIME_MAX).  cap_hint associations are allocated.
 * RET TS_OK, TS_ERANGE (bad parameter, message names it) or TS_ENOMEM.
 */
int ts_windows_init(struct ts_windows *w, uint32_t interval, uint32_t depth,
		    double decay, int64_t now, size_t cap_hint,
		    struct ts_error *err);

/* ts_windows_free() - release everything; w may be re-initialised. */
void ts_windows_free(struct ts_windows *w);

/*
 * ts_windows_add_assoc() - make room for association id (all windows 0).
 * An id already present is kept as is.  May allocate.
 * RET the association's slot (>= 0), or -1 with *err set (TS_ENOMEM).
 */
long ts_windows_add_assoc(struct ts_windows *w, uint32_t id,
			  struct ts_error *err);

/*
 * ts_windows_remove_assoc() - forget association id and its usage (an
 * association deleted from Slurm).  Totals keep what it used: that usage
 * was delivered.  RET 1 if it was there, 0 if not.  Allocates nothing.
 */
int ts_windows_remove_assoc(struct ts_windows *w, uint32_t id);

/* ts_windows_slot() - slot of association id, or -1 if unknown. */
long ts_windows_slot(const struct ts_windows *w, uint32_t id);

/*
 * ts_windows_roll() - roll so that window 0 holds now.  Nothing happens
 * while now is inside window 0 or before it (a clock stepped back).
 * RET how many windows rolled: 1 at a boundary, more after downtime (all
 * but the last were empty), 0 if none.  Allocates nothing.
 */
int64_t ts_windows_roll(struct ts_windows *w, int64_t now);

/*
 * ts_windows_add() - charge amount (finite, >= 0) to association id in
 * the window holding now; rolls first if now is past window 0 (a time
 * before window 0 charges window 0).  Only that association: charge the
 * job's association and each ancestor, and the total once.
 * RET TS_OK, TS_ENOENT (unknown id) or TS_EINVAL.  Allocates nothing.
 */
int ts_windows_add(struct ts_windows *w, uint32_t id, long double amount,
		   int64_t now, struct ts_error *err);

/*
 * ts_windows_check_amount() - is amount a usage the add functions take
 * (finite, >= 0)?  RET TS_OK or TS_EINVAL with a message naming it.
 */
int ts_windows_check_amount(long double amount, struct ts_error *err);

/* ts_windows_add_total() - the same for the total delivered usage. */
int ts_windows_add_total(struct ts_windows *w, long double amount, int64_t now,
			 struct ts_error *err);

/*
 * ts_windows_add_at(), ts_windows_add_total_at() - as ts_windows_add()
 * and ts_windows_add_total(), but usage of a time t before window 0 that
 * lies in a kept older window is charged to that window: a late charge
 * (a job's usage up to a boundary, reported after another charge rolled
 * past it) lands where it was used.  A t before every kept window
 * charges window 0, as ts_windows_add() does.  Allocates nothing.
 */
int ts_windows_add_at(struct ts_windows *w, uint32_t id, long double amount,
		      int64_t t, struct ts_error *err);
int ts_windows_add_total_at(struct ts_windows *w, long double amount, int64_t t,
			    struct ts_error *err);

/*
 * ts_windows_charge_slot_at() - ts_windows_add_at() and
 * ts_windows_add_total_at() at once, for the slot ts_windows_add_assoc()
 * gave and an amount ts_windows_check_amount() took (so it cannot
 * fail): one roll, one window found.  Allocates nothing.
 */
void ts_windows_charge_slot_at(struct ts_windows *w, long slot,
			       long double amount, int64_t t);

/*
 * ts_windows_scale() - multiply every U[k] and T[k] by factor (finite,
 * >= 0): a half-life decay of usage kept in one window
 * (credential_usage.h).  Allocates nothing.
 */
void ts_windows_scale(struct ts_windows *w, long double factor);

/* ts_windows_get() - U[k] of id (0 if unknown or k >= depth). */
long double ts_windows_get(const struct ts_windows *w, uint32_t id, uint32_t k);

/* ts_windows_get_total() - T[k] (0 if k >= depth). */
long double ts_windows_get_total(const struct ts_windows *w, uint32_t k);

/* ts_windows_weighted() - sum_k D^k U[k] of id; 0 if unknown. */
long double ts_windows_weighted(const struct ts_windows *w, uint32_t id);

/* ts_windows_weighted_total() - sum_k D^k T[k]. */
long double ts_windows_weighted_total(const struct ts_windows *w);

/*
 * ts_windows_usage() - seed 003's Usage of id: weighted / weighted total,
 * in [0,1] when every association's usage is within the total; 0 when
 * the weighted total is 0 (never NaN).
 */
double ts_windows_usage(const struct ts_windows *w, uint32_t id);

/*
 * ts_windows_fill_tree() - set t->usage[i] = ts_windows_weighted(t->id[i])
 * for every node but the root, and t->usage[0] = the weighted total.
 * A node whose id is unknown gets 0.  Allocates nothing.
 */
void ts_windows_fill_tree(const struct ts_windows *w, struct ts_tree *t);

/*
 * ts_windows_reconfigure() - apply new interval, depth and decay at now:
 * roll to now with the old interval; a new depth grows (empty older
 * windows) or drops the oldest; a new interval ends window 0 at the next
 * multiple of it after now and leaves older windows as they are until
 * they roll out.  *chg (may be NULL) says what happened.  Same limits as
 * ts_windows_init(); on error w is unchanged but for the roll to now.
 * RET TS_OK, TS_ERANGE or TS_ENOMEM (a larger depth allocates).
 */
int ts_windows_reconfigure(struct ts_windows *w, uint32_t interval,
			   uint32_t depth, double decay, int64_t now,
			   struct ts_windows_change *chg, struct ts_error *err);

/*
 * ts_windows_describe_change() - *chg as one log line, e.g.
 * "usage_window changed 43200 -> 3600 s: 4 windows of 43200 s roll out
 * by 2024-01-03T01:00:00Z"; parts for depth and decay are joined with
 * "; ".  Times are UTC.  RET 0 if nothing changed (buf ""), else 1.
 */
int ts_windows_describe_change(const struct ts_windows_change *chg, char *buf,
			       size_t len);

#endif /* TS_WINDOWS_H */
