/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential_store.c - the credential usage image: five window_store.h
 * images framed as one state image.
 */
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "credential_store.h"
#include "state_bytes.h"
#include "window_store.h"

#define MAGIC  "TSCREDUS"
#define HEADER 24
#define CRC    4

int ts_credential_store_encode(const struct ts_cred_usage *cu, int64_t now,
			       unsigned char **buf, size_t *len,
			       struct ts_error *err)
{
	unsigned char *img[TS_CRED_N] = { NULL };
	size_t n[TS_CRED_N], body = 0, off;
	unsigned char *b = NULL;
	int c, rc = TS_OK;

	for (c = 0; c < TS_CRED_N && rc == TS_OK; c++) {
		rc = ts_window_store_encode(&cu->w[c], now, &img[c], &n[c],
					    err);
		if (rc == TS_OK)
			body += 8 + n[c];
	}
	if (rc == TS_OK && !(b = malloc(HEADER + body + CRC)))
		rc = ts_error_set(err, TS_ENOMEM, -1,
				  "credential usage image: out of memory");
	if (rc == TS_OK) {
		memcpy(b, MAGIC, 8);
		ts_put32(b + 8, TS_CREDENTIAL_STORE_VERSION);
		ts_put32(b + 12, TS_CRED_N);
		ts_put64(b + 16, body);
		off = HEADER;
		for (c = 0; c < TS_CRED_N; c++) {
			ts_put64(b + off, n[c]);
			memcpy(b + off + 8, img[c], n[c]);
			off += 8 + n[c];
		}
		ts_put32(b + off, ts_crc32(0, b, off));
		*buf = b;
		*len = off + CRC;
	}
	for (c = 0; c < TS_CRED_N; c++)
		free(img[c]);
	return rc;
}

/* All types are charged together: one interval, depth and decay. */
static int same_parameters(const struct ts_cred_usage *cu, struct ts_error *err)
{
	const struct ts_windows *a = &cu->w[0];
	int c;

	for (c = 1; c < TS_CRED_N; c++) {
		const struct ts_windows *w = &cu->w[c];

		if (w->interval != a->interval || w->depth != a->depth ||
		    w->decay != a->decay)
			return ts_error_set(
				err, TS_ECORRUPT, -1,
				"%s: windows of %u s x %u, decay %g, unlike user's %u s x %u, decay %g",
				ts_cred_name((enum ts_cred)c), w->interval,
				w->depth, w->decay, a->interval, a->depth,
				a->decay);
	}
	return TS_OK;
}

int ts_credential_store_decode(const void *buf, size_t len,
			       struct ts_cred_usage *cu, struct ts_error *err)
{
	const unsigned char *b = buf;
	size_t off = HEADER, end;
	uint32_t version, types;
	int c = 0, rc;

	rc = ts_state_image_check(b, len, MAGIC, "credential usage image",
				  HEADER, err);
	if (rc != TS_OK)
		return rc;
	version = ts_get32(b + 8);
	types = ts_get32(b + 12);
	if (version != TS_CREDENTIAL_STORE_VERSION)
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "format version %u, this build reads %d",
				    version, TS_CREDENTIAL_STORE_VERSION);
	if (types != TS_CRED_N)
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "%u credential types, this build has %d",
				    types, TS_CRED_N);
	end = len - CRC;
	for (c = 0; c < TS_CRED_N; c++) {
		struct ts_error why = TS_ERROR_INIT;
		uint64_t n;

		if (end - off < 8) {
			rc = ts_error_set(err, TS_ECORRUPT, -1,
					  "%s: truncated before its length",
					  ts_cred_name((enum ts_cred)c));
			break;
		}
		n = ts_get64(b + off);
		if (n > end - off - 8) {
			rc = ts_error_set(
				err, TS_ECORRUPT, -1,
				"%s: %llu bytes, %zu left in the body",
				ts_cred_name((enum ts_cred)c),
				(unsigned long long)n, end - off - 8);
			break;
		}
		rc = ts_window_store_decode(b + off + 8, (size_t)n, &cu->w[c],
					    NULL, &why);
		if (rc != TS_OK) {
			ts_error_set(err, rc, -1, "%s: %s",
				     ts_cred_name((enum ts_cred)c), why.msg);
			break;
		}
		off += 8 + (size_t)n;
	}
	if (rc == TS_OK && off != end)
		rc = ts_error_set(err, TS_ECORRUPT, -1,
				  "%zu bytes after the last credential type",
				  end - off);
	if (rc == TS_OK)
		rc = same_parameters(cu, err);
	if (rc != TS_OK) {
		/* the types decoded before the defect (all after the loop) */
		while (c-- > 0)
			ts_windows_free(&cu->w[c]);
	}
	return rc;
}
