/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decay_record.c - priority_last_decay_ran, multifactor's 16 bytes and
 * treeshare's trailer (layout and checks in decay_record.h).
 */
#include <string.h>

#include "crc32.h"
#include "decay_record.h"
#include "state_bytes.h"

#define MAGIC "TSLD"

static void put_be64(unsigned char *p, int64_t v)
{
	uint64_t u = (uint64_t)v;
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = (unsigned char)(u & 0xff);
		u >>= 8;
	}
}

static int64_t get_be64(const unsigned char *p)
{
	uint64_t u = 0;
	int i;

	for (i = 0; i < 8; i++)
		u = (u << 8) | p[i];
	return (int64_t)u;
}

void ts_decay_record_encode(const struct ts_decay_record *r,
			    unsigned char out[TS_DECAY_RECORD_BYTES])
{
	put_be64(out, r->last_ran);
	put_be64(out + 8, r->last_reset);
	memcpy(out + 16, MAGIC, 4);
	ts_put32(out + 20, TS_DECAY_RECORD_VERSION);
	ts_put32(out + 24, ts_crc32(0, out, 24));
}

int ts_decay_record_decode(const void *buf, size_t len, int64_t now,
			   struct ts_decay_record *r, struct ts_error *err)
{
	const unsigned char *b = buf;
	uint32_t stored, crc;
	int rc;

	memset(r, 0, sizeof(*r));
	if (len == 0)
		return ts_error_set(err, TS_ECORRUPT, -1, "zero length");
	if (len != TS_DECAY_RECORD_FOREIGN_BYTES &&
	    len != TS_DECAY_RECORD_BYTES)
		return ts_error_set(
			err, TS_ECORRUPT, -1,
			"%zu bytes: neither multifactor's %d nor treeshare's %d (%s)",
			len, TS_DECAY_RECORD_FOREIGN_BYTES,
			TS_DECAY_RECORD_BYTES,
			len < TS_DECAY_RECORD_BYTES ? "torn or truncated"
						    : "trailing bytes");
	if (len == TS_DECAY_RECORD_BYTES) {
		if (memcmp(b + 16, MAGIC, 4))
			return ts_error_set(
				err, TS_ECORRUPT, -1,
				"bytes 16..19 are not treeshare's trailer (bad magic)");
		stored = ts_get32(b + 24);
		crc = ts_crc32(0, b, 24);
		if (stored != crc)
			return ts_error_set(
				err, TS_ECORRUPT, -1,
				"CRC mismatch (stored 0x%08x, computed 0x%08x)",
				stored, crc);
		if (ts_get32(b + 20) != TS_DECAY_RECORD_VERSION)
			return ts_error_set(
				err, TS_ECORRUPT, -1,
				"trailer version %u, this build reads %d",
				ts_get32(b + 20), TS_DECAY_RECORD_VERSION);
	}
	r->last_ran = get_be64(b);
	r->last_reset = get_be64(b + 8);
	r->origin = len == TS_DECAY_RECORD_BYTES ? TS_DECAY_RECORD_OURS
						 : TS_DECAY_RECORD_FOREIGN;
	rc = ts_kept_time_check("last decay time", r->last_ran, now, err);
	if (!rc)
		rc = ts_kept_time_check("last reset time", r->last_reset, now,
					err);
	if (rc)
		memset(r, 0, sizeof(*r));
	return rc;
}

static int decode_record_file(const void *buf, size_t len, void *out, void *arg,
			      struct ts_error *err)
{
	return ts_decay_record_decode(buf, len, *(const int64_t *)arg, out,
				      err);
}

/* Multifactor's 16 bytes, or ours with a good trailer. */
static int record_complete(const void *buf, size_t len)
{
	const unsigned char *b = buf;

	return len == TS_DECAY_RECORD_FOREIGN_BYTES ||
	       (len == TS_DECAY_RECORD_BYTES && !memcmp(b + 16, MAGIC, 4) &&
		ts_get32(b + 24) == ts_crc32(0, b, 24));
}

static const struct ts_kept_file kept = {
	.prev_suffix = ".old",
	.max_bytes = 4096, /* a defect beyond that is "trailing" too */
	.decode = decode_record_file,
	.complete = record_complete,
};

int ts_decay_record_load(const char *path, int64_t now,
			 struct ts_decay_record *r, struct ts_kept_status *st,
			 struct ts_error *err)
{
	struct ts_kept_file how = kept;

	how.arg = &now;
	memset(r, 0, sizeof(*r));
	return ts_kept_file_load(path, &how, r, st, err);
}

int ts_decay_record_save(const char *path, const struct ts_decay_record *r,
			 struct ts_error *err)
{
	unsigned char rec[TS_DECAY_RECORD_BYTES];

	ts_decay_record_encode(r, rec);
	return ts_kept_file_save(path, rec, sizeof(rec), &kept, err);
}
