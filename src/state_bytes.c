/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_bytes.c - little-endian fields and exact values (state_bytes.h).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "state_bytes.h"

/*
 * A little-endian host stores the value as it is, in one move; any other
 * host writes it byte by byte.  The bytes are the same.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
void ts_put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

void ts_put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}
#else
void ts_put32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

void ts_put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}
#endif

uint32_t ts_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint64_t ts_get64(const unsigned char *p)
{
	return (uint64_t)ts_get32(p) | (uint64_t)ts_get32(p + 4) << 32;
}

void ts_put_value(unsigned char *p, long double v)
{
	uint64_t m = 0;
	int e = 0;

	/* x - x is 0 only for a finite x; a subnormal is stored as 0 */
	if (v > 0 && v - v == 0) {
		long double f = frexpl(v, &e); /* [0.5, 1) */

		m = (uint64_t)ldexpl(f, 64);
		if (e < LDBL_MIN_EXP) {
			m = 0;
			e = 0;
		}
	}
	ts_put64(p, m);
	ts_put32(p + 8, (uint32_t)e);
}

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
