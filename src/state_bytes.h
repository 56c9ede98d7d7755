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

#include <stdint.h>

#define TS_VALUE_BYTES 12

void ts_put32(unsigned char *p, uint32_t v);
void ts_put64(unsigned char *p, uint64_t v);
uint32_t ts_get32(const unsigned char *p);
uint64_t ts_get64(const unsigned char *p);

/* ts_put_value() - v (finite, >= 0; anything else is stored as 0). */
void ts_put_value(unsigned char *p, long double v);

/* ts_get_value() - RET 1 with *v set, or 0 for a pattern not a value. */
int ts_get_value(const unsigned char *p, long double *v);

#endif /* TS_STATE_BYTES_H */
