/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_bytes.h - the fields of treeshare's binary state files
 * (window_store.h, usage_state.h): little-endian integers, and usage
 * values stored exactly.
 *
 * A value (TS_VALUE_BYTES) is a long double >= 0 as uint64 m and int32 e,
 * meaning m * 2^(e - 64): exact for x86-64's 64-bit significand.  Zero is
 * m = 0, e = 0; any other value has m >= 2^63 and is a normal number
 * (LDBL_MIN_EXP <= e <= LDBL_MAX_EXP; a subnormal, below 3.4e-4932, is
 * stored as 0).  ts_get_value() refuses every other bit pattern, so what
 * it accepts reads back bit for bit.
 */
#ifndef TS_STATE_BYTES_H
#define TS_STATE_BYTES_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "error.h"

#define TS_VALUE_BYTES 12

/*
 * x86's 80-bit long double: the significand m (integer bit 63 explicit)
 * in bytes 0-7, then sign and a biased exponent E (bias 16383).  Its
 * value is m x 2^(E - 16382 - 64), so (m, E - 16382) is the stored
 * value as it is, where frexpl() and ldexpl() take some 40 instructions;
 * ts_put_value_frexp() is the portable definition it equals.
 */
#if (defined(__x86_64__) || defined(__i386__)) && LDBL_MANT_DIG == 64 &&       \
	LDBL_MAX_EXP == 16384
#define TS_VALUE_BITS 1
#endif

/*
 * A little-endian host stores the value as it is, in one move; any other
 * host writes it byte by byte.  The bytes are the same.  Inline: the
 * state commit writes two per value.
 */
static inline void ts_put32(unsigned char *p, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, sizeof(v));
#else
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
#endif
}

static inline void ts_put64(unsigned char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, sizeof(v));
#else
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
#endif
}

uint32_t ts_get32(const unsigned char *p);
uint64_t ts_get64(const unsigned char *p);

/*
 * ts_value_split_frexp() - v's stored (m, e) by frexpl(), on every host.
 * RET 1 when v is a value (v >= 0 && v - v == 0: finite, >= 0), else 0
 * with (m, e) = (0, 0).  A subnormal is (0, 0) and 1.
 */
int ts_value_split_frexp(long double v, uint64_t *m, int32_t *e);

#ifdef TS_VALUE_BITS
/*
 * ts_value_ok() - *v is a value (finite, >= 0), from its bits in memory:
 * no NaN or infinity (E all ones), no unnormal (E not 0, integer bit 0:
 * x87 refuses it as an operand), not negative (-0 is 0).
 */
static inline int ts_value_ok(const long double *v)
{
	uint64_t m;
	uint16_t se;

	memcpy(&m, v, 8);
	memcpy(&se, (const unsigned char *)v + 8, 2);
	if (se >> 15)
		return !(se & 0x7fff) && !m;
	if (!(se & 0x7fff))
		return 1; /* zero, subnormal */
	return (se & 0x7fff) != 0x7fff && (m >> 63);
}

/*
 * ts_value_split() - ts_value_split_frexp() from *v's bits, the usual
 * zero first (most TRES of most records: one test, not four).
 */
static inline int ts_value_split(const long double *v, uint64_t *m, int32_t *e)
{
	uint64_t bits;
	uint16_t se;
	int biased;

	memcpy(&bits, v, 8);
	memcpy(&se, (const unsigned char *)v + 8, 2);
	*m = 0;
	*e = 0;
	if (!(bits | se))
		return 1; /* +0 */
	biased = se & 0x7fff;
	if (se >> 15)
		return !biased && !bits; /* -0 */
	if (!(bits >> 63))
		return !biased; /* zero or subnormal: 0; else an unnormal */
	if (biased == 0x7fff)
		return 0;
	/* a pseudo-denormal (E 0, integer bit set) has E 1's scale */
	*m = bits;
	*e = (biased ? biased : 1) - 16382;
	return 1;
}

/* ts_put_value() - v (finite, >= 0; anything else is stored as 0). */
static inline void ts_put_value(unsigned char *p, long double v)
{
	uint64_t m;
	int32_t e;

	(void)ts_value_split(&v, &m, &e);
	ts_put64(p, m);
	ts_put32(p + 8, (uint32_t)e);
}
#else
static inline int ts_value_ok(const long double *v)
{
	return *v >= 0 && *v - *v == 0;
}

static inline int ts_value_split(const long double *v, uint64_t *m, int32_t *e)
{
	return ts_value_split_frexp(*v, m, e);
}

void ts_put_value(unsigned char *p, long double v);
#endif

/* ts_get_value() - RET 1 with *v set, or 0 for a pattern not a value. */
int ts_get_value(const unsigned char *p, long double *v);

/*
 * ts_state_image_check() - is b[0 .. len) a whole state file of the kind
 * magic names (8 bytes at offset 0; what: its name in the message)?  The
 * header is header_bytes long and holds the body's length as a uint64 at
 * offset 16; a CRC-32 of everything before it closes the file.  The one
 * check of usage_state.c and window_store.c.
 * RET TS_OK, or TS_ECORRUPT with the first problem: "zero length", "not a
 * treeshare WHAT (bad magic)", "truncated: ...", "torn or truncated: ..."
 * or "trailing bytes: ..." (the length the header says), "CRC mismatch".
 */
int ts_state_image_check(const unsigned char *b, size_t len, const char *magic,
			 const char *what, size_t header_bytes,
			 struct ts_error *err);

#endif /* TS_STATE_BYTES_H */
