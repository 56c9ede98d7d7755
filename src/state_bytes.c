/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_bytes.c - little-endian fields and exact values (state_bytes.h).
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "crc32.h"
#include "state_bytes.h"

uint32_t ts_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint64_t ts_get64(const unsigned char *p)
{
	return (uint64_t)ts_get32(p) | (uint64_t)ts_get32(p + 4) << 32;
}

int ts_value_split_frexp(long double v, uint64_t *m, int32_t *e)
{
	int exp = 0;

	*m = 0;
	*e = 0;
	/* x - x is 0 only for a finite x */
	if (!(v >= 0 && v - v == 0))
		return 0;
	if (v > 0) {
		long double f = frexpl(v, &exp); /* [0.5, 1) */

		/* a subnormal is stored as 0 */
		if (exp >= LDBL_MIN_EXP) {
			*m = (uint64_t)ldexpl(f, 64);
			*e = exp;
		}
	}
	return 1;
}

#ifndef TS_VALUE_BITS
void ts_put_value(unsigned char *p, long double v)
{
	uint64_t m;
	int32_t e;

	(void)ts_value_split_frexp(v, &m, &e);
	ts_put64(p, m);
	ts_put32(p + 8, (uint32_t)e);
}
#endif

int ts_get_value(const unsigned char *p, long double *v)
{
	uint64_t m = ts_get64(p);
	int32_t e = (int32_t)ts_get32(p + 8);

	if (m == 0) {
		*v = 0;
		return e == 0;
	}
	/* normal numbers only: a subnormal would not read back the same */
	if (!(m >> 63) || e > LDBL_MAX_EXP || e < LDBL_MIN_EXP)
		return 0;
	*v = ldexpl((long double)m, e - 64);
	return *v - *v == 0 && *v >= 0;
}

int ts_state_image_check(const unsigned char *b, size_t len, const char *magic,
			 const char *what, size_t header_bytes,
			 struct ts_error *err)
{
	const size_t crc_bytes = 4;
	uint64_t body;
	uint32_t stored, crc;

	if (len == 0)
		return ts_error_set(err, TS_ECORRUPT, -1, "zero length");
	if (len < 8 || memcmp(b, magic, 8))
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "not a treeshare %s (bad magic)", what);
	if (len < header_bytes + crc_bytes)
		return ts_error_set(
			err, TS_ECORRUPT, -1,
			"truncated: %zu bytes, the header alone needs %zu", len,
			header_bytes + crc_bytes);
	body = ts_get64(b + 16);
	if (body != len - header_bytes - crc_bytes)
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "%s: %zu bytes, the header says %" PRIu64,
				    body > len - header_bytes - crc_bytes
					    ? "torn or truncated"
					    : "trailing bytes",
				    len, body + header_bytes + crc_bytes);
	stored = ts_get32(b + len - crc_bytes);
	crc = ts_crc32(0, b, len - crc_bytes);
	if (crc != stored)
		return ts_error_set(
			err, TS_ECORRUPT, -1,
			"CRC mismatch (stored 0x%08x, computed 0x%08x)", stored,
			crc);
	return TS_OK;
}
