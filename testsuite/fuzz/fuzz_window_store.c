/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the usage-window state file reader
 * (src/window_store.c).  Any input must be refused with TS_ECORRUPT (or
 * TS_ENOMEM) leaving the windows empty, or decode to windows that encode
 * and decode again to the same values and keep working: roll, add,
 * weighted sums without NaN, reconfigure.
 *
 * A mutated file almost never passes the CRC, so each input is also tried
 * with its length field and CRC made right: that exercises the checks
 * behind them (bounds, counts, values, duplicate ids).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "window_store.h"

static void same_or_abort(const struct ts_windows *a,
			  const struct ts_windows *b)
{
	uint32_t k;
	size_t s;

	if (a->interval != b->interval || a->depth != b->depth ||
	    a->n != b->n || a->decay != b->decay)
		abort();
	for (k = 0; k <= a->depth; k++)
		if (a->bound[k] != b->bound[k])
			abort();
	for (k = 0; k < a->depth; k++)
		if (a->total[k] != b->total[k])
			abort();
	for (s = 0; s < a->n; s++)
		for (k = 0; k < a->depth; k++)
			if (ts_windows_get(a, a->id[s], k) !=
			    ts_windows_get(b, a->id[s], k))
				abort();
}

static void check_one(const uint8_t *data, size_t size)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_windows w, again;
	unsigned char *buf;
	size_t len;
	int64_t saved, now;
	double u;
	int rc;

	rc = ts_window_store_decode(data, size, &w, &saved, &err);
	if (rc != TS_OK) {
		if ((rc != TS_ECORRUPT && rc != TS_ENOMEM) || w.n || w.usage)
			abort();
		return;
	}
	if (ts_window_store_encode(&w, saved, &buf, &len, &err) == TS_OK) {
		if (ts_window_store_decode(buf, len, &again, NULL, &err))
			abort();
		same_or_abort(&w, &again);
		ts_windows_free(&again);
		free(buf);
	}
	if (w.n) {
		u = ts_windows_usage(&w, w.id[0]);
		if (u != u || u < 0)
			abort();
	}
	now = w.bound[0] > 0 ? w.bound[0] : 0;
	if (now < TS_WINDOWS_TIME_MAX) {
		ts_windows_roll(&w, now);
		ts_windows_add_total(&w, 1, now, &err);
		if (w.n && ts_windows_add(&w, w.id[0], 1, now, &err))
			abort();
		ts_windows_reconfigure(&w, w.interval / 2 + 1, 3, 0.5, now,
				       NULL, &err);
	}
	ts_windows_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *copy;
	uint64_t body;
	uint32_t crc;
	int i;

	check_one(data, size);
	if (size < 60)
		return 0;
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	body = size - 60;
	for (i = 0; i < 8; i++)
		copy[16 + i] = (unsigned char)(body >> (8 * i));
	crc = ts_window_store_crc32(0, copy, size - 4);
	for (i = 0; i < 4; i++)
		copy[size - 4 + i] = (unsigned char)(crc >> (8 * i));
	check_one(copy, size);
	free(copy);
	return 0;
}
