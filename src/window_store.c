/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * window_store.c - the usage windows' state file: encode, decode with
 * every check, atomic save, load with fallback to the previous good copy
 * (layout and guarantees in window_store.h).
 *
 * Why each check: magic (not our file), length (torn or truncated write),
 * CRC-32 (bit rot, a partial overwrite), version (a newer build's file),
 * then the structure (a writer bug must not become NaN or a 10^9-element
 * allocation): depth and counts bounded and matching the length, bounds
 * strictly falling, values finite and >= 0, ids unique.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "kept_file.h"
#include "crc32.h"
#include "state_bytes.h"
#include "whole_file.h"
#include "window_store.h"

#define MAGIC	     "TSWINDOW"
#define HEADER_BYTES 56
#define CRC_BYTES    4
#define VALUE_BYTES  TS_VALUE_BYTES

uint32_t ts_window_store_crc32(uint32_t crc, const void *buf, size_t len)
{
	return ts_crc32(crc, buf, len);
}

static uint64_t body_bytes(uint64_t depth, uint64_t n)
{
	return 8 * (depth + 1) + VALUE_BYTES * depth +
	       n * (4 + VALUE_BYTES * depth);
}

int ts_window_store_encode(const struct ts_windows *w, int64_t now,
			   unsigned char **buf, size_t *len,
			   struct ts_error *err)
{
	uint64_t body = body_bytes(w->depth, w->n), decay_bits;
	size_t total = HEADER_BYTES + (size_t)body + CRC_BYTES, s;
	unsigned char *p, *b;
	double decay = w->decay;
	uint32_t k;

	*buf = NULL;
	*len = 0;
	b = calloc(1, total);
	if (!b)
		return ts_error_set(
			err, TS_ENOMEM, -1,
			"cannot allocate %zu bytes for the usage windows",
			total);
	memcpy(b, MAGIC, 8);
	ts_put32(b + 8, TS_WINDOW_STORE_VERSION);
	ts_put32(b + 12, 0);
	ts_put64(b + 16, body);
	ts_put64(b + 24, (uint64_t)now);
	memcpy(&decay_bits, &decay, 8);
	ts_put64(b + 32, decay_bits);
	ts_put32(b + 40, w->interval);
	ts_put32(b + 44, w->depth);
	ts_put32(b + 48, (uint32_t)w->n);
	ts_put32(b + 52, 0);
	p = b + HEADER_BYTES;
	for (k = 0; k <= w->depth; k++, p += 8)
		ts_put64(p, (uint64_t)w->bound[k]);
	for (k = 0; k < w->depth; k++, p += VALUE_BYTES)
		ts_put_value(p, w->total[k]);
	for (s = 0; s < w->n; s++) {
		ts_put32(p, w->id[s]);
		p += 4;
		for (k = 0; k < w->depth; k++, p += VALUE_BYTES)
			ts_put_value(p, w->usage[s * w->depth + k]);
	}
	ts_put32(p, ts_window_store_crc32(0, b, total - CRC_BYTES));
	*buf = b;
	*len = total;
	return TS_OK;
}

/* Magic, length and CRC: is this a complete file of ours? */
static int check_image(const unsigned char *b, size_t len, struct ts_error *err)
{
	return ts_state_image_check(b, len, MAGIC, "window state file",
				    HEADER_BYTES, err);
}

/*
 * The checked buffer's body into w (initialised from its header): window
 * bounds, totals, then each association's row.  RET TS_OK, TS_ECORRUPT
 * naming the bad value, or TS_ENOMEM.
 */
static int decode_body(const unsigned char *b, struct ts_windows *w,
		       struct ts_error *err)
{
	const unsigned char *p = b + HEADER_BYTES;
	uint32_t depth = w->depth, k, n = ts_get32(b + 48);
	const int64_t lo = -TS_WINDOWS_TIME_MAX;
	const int64_t hi = TS_WINDOWS_TIME_MAX + (int64_t)UINT32_MAX;
	size_t s;

	for (k = 0; k <= depth; k++, p += 8) {
		int64_t v = (int64_t)ts_get64(p);

		if (v <= lo || v > hi || (k && v >= w->bound[k - 1]))
			return ts_error_set(
				err, TS_ECORRUPT, -1,
				"window bound %u (%lld) out of order or range",
				k, (long long)v);
		w->bound[k] = v;
	}
	if (w->bound[0] <= 0 || w->bound[0] % w->interval)
		return ts_error_set(
			err, TS_ECORRUPT, -1,
			"end of the current window %lld is not a positive multiple of %u s",
			(long long)w->bound[0], w->interval);
	for (k = 0; k < depth; k++, p += VALUE_BYTES)
		if (!ts_get_value(p, &w->total[k]))
			return ts_error_set(
				err, TS_ECORRUPT, -1,
				"total of window %u is not a finite number >= 0",
				k);
	for (s = 0; s < n; s++) {
		uint32_t id = ts_get32(p);
		long slot;

		p += 4;
		slot = ts_windows_add_assoc(w, id, err);
		if (slot < 0)
			return TS_ENOMEM;
		if ((size_t)slot != s)
			return ts_error_set(err, TS_ECORRUPT, -1,
					    "association %u appears twice", id);
		for (k = 0; k < depth; k++, p += VALUE_BYTES)
			if (!ts_get_value(p, &w->usage[s * depth + k]))
				return ts_error_set(
					err, TS_ECORRUPT, -1,
					"association %u: usage of window %u is not a finite number >= 0",
					id, k);
	}
	return TS_OK;
}

int ts_window_store_decode(const void *buf, size_t len, struct ts_windows *w,
			   int64_t *saved_at, struct ts_error *err)
{
	const unsigned char *b = buf;
	uint32_t version, interval, depth, n;
	uint64_t decay_bits;
	double decay;
	int rc;

	memset(w, 0, sizeof(*w));
	rc = check_image(b, len, err);
	if (rc)
		return rc;
	version = ts_get32(b + 8);
	if (version != TS_WINDOW_STORE_VERSION)
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "format version %u, this build reads %d",
				    version, TS_WINDOW_STORE_VERSION);
	if (ts_get32(b + 12) || ts_get32(b + 52))
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "unknown flags 0x%08x or reserved 0x%08x",
				    ts_get32(b + 12), ts_get32(b + 52));
	decay_bits = ts_get64(b + 32);
	memcpy(&decay, &decay_bits, 8);
	interval = ts_get32(b + 40);
	depth = ts_get32(b + 44);
	n = ts_get32(b + 48);
	if (depth < 1 || depth > TS_WINDOWS_DEPTH_MAX || interval < 1 ||
	    !(decay >= 0 && decay <= 1))
		return ts_error_set(
			err, TS_ECORRUPT, -1,
			"depth %u, interval %u s or decay %g out of range",
			depth, interval, decay);
	if (body_bytes(depth, n) != len - HEADER_BYTES - CRC_BYTES)
		return ts_error_set(
			err, TS_ECORRUPT, -1,
			"%u associations of %u windows do not fit in %zu bytes",
			n, depth, len);
	/* n is now bounded by len, so this allocation is too. */
	rc = ts_windows_init(w, interval, depth, decay, 0, n, err);
	if (rc)
		return rc;
	rc = decode_body(b, w, err);
	if (rc) {
		ts_windows_free(w);
		return rc;
	}
	if (saved_at)
		*saved_at = (int64_t)ts_get64(b + 24);
	return TS_OK;
}

static int load_one(const char *path, struct ts_windows *w, int64_t *saved_at,
		    struct ts_error *err)
{
	char *buf;
	size_t len;
	int rc;

	memset(w, 0, sizeof(*w));
	rc = ts_whole_file_read(path, TS_WINDOW_STORE_MAX_BYTES, &buf, &len,
				err);
	if (rc)
		return rc;
	rc = ts_window_store_decode(buf, len, w, saved_at, err);
	free(buf);
	return rc;
}

int ts_window_store_load(const char *path, struct ts_windows *w,
			 struct ts_window_store_status *st,
			 struct ts_error *err)
{
	struct ts_error e1 = TS_ERROR_INIT, e2 = TS_ERROR_INIT;
	struct ts_window_store_status local;
	char *prev;
	int rc;

	if (!st)
		st = &local;
	memset(st, 0, sizeof(*st));
	rc = load_one(path, w, &st->saved_at, &e1);
	if (rc == TS_OK)
		return TS_OK;
	if (rc == TS_ENOMEM)
		return ts_error_set(err, rc, -1, "%s: %s", path, e1.msg);
	if (snprintf(st->problem, sizeof(st->problem), "%s: %s", path,
		     e1.msg) >= (int)sizeof(st->problem))
		strcpy(st->problem + sizeof(st->problem) - 4, "...");

	prev = ts_atomic_file_sibling(path, ".prev");
	if (!prev)
		return ts_error_set(err, TS_ENOMEM, -1, "%s", st->problem);
	rc = load_one(prev, w, &st->saved_at, &e2);
	if (rc == TS_OK) {
		st->used_prev = 1;
		free(prev);
		return TS_OK;
	}
	/* Only "no file at all" is a first start; anything else is loss. */
	if (e1.code == TS_ENOENT && e2.code == TS_ENOENT)
		rc = TS_ENOENT;
	else if (e1.code != TS_ENOENT)
		rc = e1.code;
	rc = ts_error_set(err, rc, -1, "%s; %s: %s", st->problem, prev, e2.msg);
	free(prev);
	return rc;
}

/* A complete file of ours: the copy a save keeps as PATH.prev. */
static int complete(const void *buf, size_t len)
{
	struct ts_error ignored = TS_ERROR_INIT;

	return check_image(buf, len, &ignored) == TS_OK;
}

int ts_window_store_save(const char *path, const struct ts_windows *w,
			 int64_t now, struct ts_error *err)
{
	unsigned char *buf = NULL;
	size_t len;
	int rc;

	rc = ts_window_store_encode(w, now, &buf, &len, err);
	if (!rc)
		rc = ts_window_store_save_image(path, buf, len, err);
	free(buf);
	return rc;
}

int ts_window_store_save_image(const char *path, const void *image, size_t len,
			       struct ts_error *err)
{
	static const struct ts_kept_file how = {
		.prev_suffix = ".prev",
		.max_bytes = TS_WINDOW_STORE_MAX_BYTES,
		.complete = complete,
	};

	return ts_kept_file_save(path, image, len, &how, err);
}
