/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * windows.c - Maui fair-share usage windows (seed 003, section 6.3.2.3).
 *
 *   Usage = sum_k D^k U[k] / sum_k D^k T[k]      k = 0 .. depth - 1
 *
 * Seed 003's John: FSINTERVAL 12:00:00, FSDEPTH 4, FSDECAY 0.5, John
 * 60, 0, 10, 50 of totals 110, 125, 100, 150:
 *   (60 + .5*0 + .25*10 + .125*50) / (110 + .5*125 + .25*100 + .125*150)
 *   = 68.75 / 216.25 = 0.3179190751...
 *
 * Edge cases: a zero weighted total gives usage 0, not 0/0; decay 0
 * counts window 0 only (0^0 = 1); decay 1 is the plain sum; downtime
 * longer than depth windows empties every window (that usage has aged
 * out, exactly as if the controller had been up); a clock stepped back
 * charges window 0 and rolls nothing (ts_windows_add_at(): the kept
 * window holding the time, window 0 if none).
 *
 * Storage: one row of depth values per association slot, slots found by
 * id through an id_map.h map (room for every slot allocated), so the
 * per-cycle path (add, roll, sums) only reads, writes and memmoves.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "id_map.h"
#include "utc_time.h"
#include "windows.h"

static int check_params(uint32_t interval, uint32_t depth, double decay,
			int64_t now, struct ts_error *err)
{
	if (interval < 1)
		return ts_error_set(err, TS_ERANGE, -1,
				    "usage_window %u s out of range (>= 1 s)",
				    interval);
	if (depth < 1 || depth > TS_WINDOWS_DEPTH_MAX)
		return ts_error_set(err, TS_ERANGE, -1,
				    "usage_depth %u out of range 1..%u", depth,
				    TS_WINDOWS_DEPTH_MAX);
	if (!(decay >= 0.0 && decay <= 1.0))
		return ts_error_set(err, TS_ERANGE, -1,
				    "usage_decay %g out of range 0..1", decay);
	if (now < 0 || now >= TS_WINDOWS_TIME_MAX)
		return ts_error_set(err, TS_ERANGE, -1,
				    "time %lld out of range", (long long)now);
	return TS_OK;
}

static void set_weights(struct ts_windows *w)
{
	long double d = 1.0L;
	uint32_t k;

	for (k = 0; k < w->depth; k++) {
		w->weight[k] = d;
		d *= w->decay;
	}
}

/* Largest multiple of interval <= t, for t >= 0. */
static int64_t align_down(int64_t t, uint32_t interval)
{
	return t - t % (int64_t)interval;
}

/* Room for cap associations: rows, ids and their index. */
static int grow(struct ts_windows *w, size_t cap, struct ts_error *err)
{
	struct ts_error map_err = TS_ERROR_INIT; /* ours names the windows */
	uint32_t *id;
	long double *usage;

	if (cap <= w->cap)
		return TS_OK;
	if (cap > UINT32_MAX - 1 ||
	    cap > SIZE_MAX / 4 / w->depth / sizeof(long double))
		return ts_error_set(err, TS_ENOMEM, -1,
				    "too many associations (%zu)", cap);
	id = realloc(w->id, cap * sizeof(*id));
	if (id)
		w->id = id;
	usage = realloc(w->usage, cap * w->depth * sizeof(*usage));
	if (usage)
		w->usage = usage;
	if (!id || !usage || ts_id_map_reserve(&w->index, cap, &map_err))
		return ts_error_set(
			err, TS_ENOMEM, -1,
			"cannot grow usage windows to %zu associations", cap);
	w->cap = cap;
	return TS_OK;
}

int ts_windows_init(struct ts_windows *w, uint32_t interval, uint32_t depth,
		    double decay, int64_t now, size_t cap_hint,
		    struct ts_error *err)
{
	int64_t end;
	uint32_t k;
	int rc;

	memset(w, 0, sizeof(*w));
	rc = check_params(interval, depth, decay, now, err);
	if (rc)
		return rc;
	w->interval = interval;
	w->depth = depth;
	w->decay = decay;
	w->bound = malloc((depth + 1) * sizeof(*w->bound));
	w->weight = malloc(depth * sizeof(*w->weight));
	w->total = calloc(depth, sizeof(*w->total));
	if (!w->bound || !w->weight || !w->total) {
		ts_windows_free(w);
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot allocate %u usage windows", depth);
	}
	end = align_down(now, interval) + interval;
	for (k = 0; k <= depth; k++)
		w->bound[k] = end - (int64_t)k * interval;
	set_weights(w);
	if (grow(w, cap_hint ? cap_hint : 16, err)) {
		ts_windows_free(w);
		return TS_ENOMEM;
	}
	return TS_OK;
}

void ts_windows_free(struct ts_windows *w)
{
	free(w->bound);
	free(w->weight);
	free(w->total);
	free(w->id);
	free(w->usage);
	ts_id_map_free(&w->index);
	memset(w, 0, sizeof(*w));
}

long ts_windows_slot(const struct ts_windows *w, uint32_t id)
{
	return ts_id_map_find(&w->index, id);
}

long ts_windows_add_assoc(struct ts_windows *w, uint32_t id,
			  struct ts_error *err)
{
	long slot = ts_windows_slot(w, id);
	size_t s;

	if (slot >= 0)
		return slot;
	if (w->n == w->cap && grow(w, w->cap ? 2 * w->cap : 16, err))
		return -1;
	s = w->n++;
	w->id[s] = id;
	memset(&w->usage[s * w->depth], 0, w->depth * sizeof(*w->usage));
	return ts_id_map_insert(&w->index, id, (uint32_t)s);
}

int ts_windows_remove_assoc(struct ts_windows *w, uint32_t id)
{
	long slot = ts_windows_slot(w, id);
	size_t last;

	if (slot < 0)
		return 0;
	/* Move the last slot into the hole and re-index it. */
	(void)ts_id_map_remove(&w->index, id);
	last = w->n - 1;
	if ((size_t)slot != last) {
		w->id[slot] = w->id[last];
		memcpy(&w->usage[(size_t)slot * w->depth],
		       &w->usage[last * w->depth],
		       w->depth * sizeof(*w->usage));
		(void)ts_id_map_remove(&w->index, w->id[slot]);
		(void)ts_id_map_insert(&w->index, w->id[slot], (uint32_t)slot);
	}
	w->n--;
	return 1;
}

int64_t ts_windows_roll(struct ts_windows *w, int64_t now)
{
	int64_t start, shifts, k;
	uint32_t keep, d = w->depth;
	size_t s;

	if (now < w->bound[0])
		return 0;
	/* bound[0] is a multiple of interval, so is the new window start. */
	start = align_down(now, w->interval);
	shifts = (start - w->bound[0]) / w->interval + 1;
	keep = shifts >= d ? 0 : d - (uint32_t)shifts;
	for (s = 0; s < w->n; s++) {
		long double *row = &w->usage[s * d];

		memmove(row + (d - keep), row, keep * sizeof(*row));
		memset(row, 0, (d - keep) * sizeof(*row));
	}
	memmove(w->total + (d - keep), w->total, keep * sizeof(*w->total));
	memset(w->total, 0, (d - keep) * sizeof(*w->total));
	/* Kept windows keep their bounds; the new ones are aligned. */
	memmove(w->bound + (d - keep), w->bound,
		(keep + 1) * sizeof(*w->bound));
	for (k = 0; k < (int64_t)(d - keep); k++)
		w->bound[k] = start + w->interval - k * w->interval;
	if (!keep)
		w->bound[d] = start + w->interval - (int64_t)d * w->interval;
	return shifts;
}

int ts_windows_check_amount(long double amount, struct ts_error *err)
{
	/*
	 * x - x is 0 only for finite x.  Not isfinite(): valgrind runs long
	 * double at double precision, so its LDBL_MAX test lets inf pass.
	 */
	if (amount - amount != 0 || amount < 0)
		return ts_error_set(err, TS_EINVAL, -1,
				    "usage %Lg is not a finite number >= 0",
				    amount);
	return TS_OK;
}

/* The kept window holding t (bound[k + 1] <= t < bound[k]), else 0. */
static uint32_t window_of(const struct ts_windows *w, int64_t t)
{
	uint32_t k;

	for (k = 0; k < w->depth; k++)
		if (t >= w->bound[k + 1])
			return t < w->bound[k] ? k : 0;
	return 0;
}

/*
 * Charge amount to id's row (id_row) or to the total at time t: window
 * 0, or with holding the kept window holding t.
 */
static int charge(struct ts_windows *w, int id_row, uint32_t id,
		  long double amount, int64_t t, int holding,
		  struct ts_error *err)
{
	uint32_t k;
	long slot = 0;

	if (ts_windows_check_amount(amount, err))
		return TS_EINVAL;
	if (id_row && (slot = ts_windows_slot(w, id)) < 0)
		return ts_error_set(err, TS_ENOENT, -1,
				    "association %u has no usage windows", id);
	ts_windows_roll(w, t);
	k = holding ? window_of(w, t) : 0;
	if (id_row)
		w->usage[(size_t)slot * w->depth + k] += amount;
	else
		w->total[k] += amount;
	return TS_OK;
}

int ts_windows_add(struct ts_windows *w, uint32_t id, long double amount,
		   int64_t now, struct ts_error *err)
{
	return charge(w, 1, id, amount, now, 0, err);
}

int ts_windows_add_total(struct ts_windows *w, long double amount, int64_t now,
			 struct ts_error *err)
{
	return charge(w, 0, 0, amount, now, 0, err);
}

int ts_windows_add_at(struct ts_windows *w, uint32_t id, long double amount,
		      int64_t t, struct ts_error *err)
{
	return charge(w, 1, id, amount, t, 1, err);
}

int ts_windows_add_total_at(struct ts_windows *w, long double amount, int64_t t,
			    struct ts_error *err)
{
	return charge(w, 0, 0, amount, t, 1, err);
}

void ts_windows_charge_slot_at(struct ts_windows *w, long slot,
			       long double amount, int64_t t)
{
	uint32_t k;

	ts_windows_roll(w, t);
	k = window_of(w, t);
	w->usage[(size_t)slot * w->depth + k] += amount;
	w->total[k] += amount;
}

void ts_windows_scale(struct ts_windows *w, long double factor)
{
	size_t i, n = w->n * (size_t)w->depth;

	for (i = 0; i < n; i++)
		w->usage[i] *= factor;
	for (i = 0; i < w->depth; i++)
		w->total[i] *= factor;
}

long double ts_windows_get(const struct ts_windows *w, uint32_t id, uint32_t k)
{
	long slot = ts_windows_slot(w, id);

	if (slot < 0 || k >= w->depth)
		return 0;
	return w->usage[(size_t)slot * w->depth + k];
}

long double ts_windows_get_total(const struct ts_windows *w, uint32_t k)
{
	return k < w->depth ? w->total[k] : 0;
}

static long double weighted_row(const struct ts_windows *w,
				const long double *row)
{
	long double sum = 0;
	uint32_t k;

	for (k = 0; k < w->depth; k++)
		sum += w->weight[k] * row[k];
	return sum;
}

long double ts_windows_weighted(const struct ts_windows *w, uint32_t id)
{
	long slot = ts_windows_slot(w, id);

	if (slot < 0)
		return 0;
	return weighted_row(w, &w->usage[(size_t)slot * w->depth]);
}

long double ts_windows_weighted_total(const struct ts_windows *w)
{
	return weighted_row(w, w->total);
}

double ts_windows_usage(const struct ts_windows *w, uint32_t id)
{
	long double total = ts_windows_weighted_total(w);

	if (!(total > 0))
		return 0.0;
	return (double)(ts_windows_weighted(w, id) / total);
}

void ts_windows_fill_tree(const struct ts_windows *w, struct ts_tree *t)
{
	size_t i;

	if (!t->n)
		return;
	t->usage[0] = ts_windows_weighted_total(w);
	for (i = 1; i < t->n; i++)
		t->usage[i] = ts_windows_weighted(w, t->id[i]);
}

/*
 * Resize every row to depth values, keeping the newest min(old, new)
 * windows; new older windows are empty and `interval` long.
 */
static int set_depth(struct ts_windows *w, uint32_t depth, uint32_t interval,
		     struct ts_windows_change *chg, struct ts_error *err)
{
	uint32_t old = w->depth, keep = old < depth ? old : depth, k;
	size_t rows = w->cap ? w->cap : 1, s;
	long double *usage, *total, *weight;
	int64_t *bound;

	usage = malloc(rows * depth * sizeof(*usage));
	total = calloc(depth, sizeof(*total));
	weight = malloc(depth * sizeof(*weight));
	bound = malloc((depth + 1) * sizeof(*bound));
	if (!usage || !total || !weight || !bound) {
		free(usage);
		free(total);
		free(weight);
		free(bound);
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot allocate %u usage windows", depth);
	}
	for (s = 0; s < w->n; s++) {
		memcpy(&usage[s * depth], &w->usage[s * old],
		       keep * sizeof(*usage));
		memset(&usage[s * depth + keep], 0,
		       (depth - keep) * sizeof(*usage));
	}
	memcpy(total, w->total, keep * sizeof(*total));
	memcpy(bound, w->bound, (keep + 1) * sizeof(*bound));
	for (k = keep + 1; k <= depth; k++)
		bound[k] = bound[k - 1] - interval;
	chg->dropped = old - keep;
	chg->dropped_total = 0;
	for (k = keep; k < old; k++)
		chg->dropped_total += w->total[k];

	free(w->usage);
	free(w->total);
	free(w->weight);
	free(w->bound);
	w->usage = usage;
	w->total = total;
	w->weight = weight;
	w->bound = bound;
	w->depth = depth;
	return TS_OK;
}

int ts_windows_reconfigure(struct ts_windows *w, uint32_t interval,
			   uint32_t depth, double decay, int64_t now,
			   struct ts_windows_change *chg, struct ts_error *err)
{
	struct ts_windows_change local;
	uint32_t k, newest_odd;
	int rc;

	if (!chg)
		chg = &local;
	memset(chg, 0, sizeof(*chg));
	rc = check_params(interval, depth, decay, now, err);
	if (rc)
		return rc;
	chg->old_interval = w->interval;
	chg->old_depth = w->depth;
	chg->old_decay = w->decay;
	chg->new_interval = interval;
	chg->new_depth = depth;
	chg->new_decay = decay;
	chg->rolled = ts_windows_roll(w, now);
	if (depth != w->depth && set_depth(w, depth, interval, chg, err))
		return TS_ENOMEM;

	if (interval != w->interval) {
		/* now may lie before window 0 if the clock stepped back. */
		int64_t from = now > w->bound[1] ? now : w->bound[1];

		w->interval = interval;
		w->bound[0] = align_down(from, interval) + interval;
	}
	w->decay = decay;
	set_weights(w);

	/*
	 * Window p is dropped by the (depth - p)th roll, which happens at
	 * bound[0] + (depth - p - 1) * interval: the newest window of
	 * another length is the last to go.
	 */
	chg->current_end = w->bound[0];
	newest_odd = w->depth;
	for (k = 0; k < w->depth; k++) {
		if (w->bound[k] - w->bound[k + 1] != (int64_t)w->interval) {
			chg->rollout++;
			if (newest_odd == w->depth)
				newest_odd = k;
		}
	}
	if (chg->rollout)
		chg->rollout_by =
			w->bound[0] +
			(int64_t)(w->depth - newest_odd - 1) * w->interval;
	return TS_OK;
}

static void append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*pos >= len)
		return;
	va_start(ap, fmt);
	r = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (r > 0)
		*pos += (size_t)r;
}

int ts_windows_describe_change(const struct ts_windows_change *chg, char *buf,
			       size_t len)
{
	const char *sep = "";
	size_t pos = 0;
	char when[32];

	if (len)
		buf[0] = '\0';
	if (chg->new_interval != chg->old_interval) {
		ts_utc_time(chg->rollout_by, when, sizeof(when));
		append(buf, len, &pos,
		       "usage_window changed %u -> %u s: ", chg->old_interval,
		       chg->new_interval);
		if (chg->rollout)
			append(buf, len, &pos,
			       "%u windows of %u s roll out by %s",
			       chg->rollout, chg->old_interval, when);
		else
			append(buf, len, &pos, "no window of %u s left",
			       chg->old_interval);
		sep = "; ";
	}
	if (chg->new_depth != chg->old_depth) {
		append(buf, len, &pos, "%susage_depth changed %u -> %u", sep,
		       chg->old_depth, chg->new_depth);
		if (chg->dropped)
			append(buf, len, &pos,
			       ": %u oldest windows dropped (total usage %.6Lg)",
			       chg->dropped, chg->dropped_total);
		else
			append(buf, len, &pos, ": %u empty older windows added",
			       chg->new_depth - chg->old_depth);
		sep = "; ";
	}
	if (chg->new_decay != chg->old_decay)
		append(buf, len, &pos, "%susage_decay changed %g -> %g", sep,
		       chg->old_decay, chg->new_decay);
	return pos > 0;
}
