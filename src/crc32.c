/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crc32.c - CRC-32, reflected polynomial 0xEDB88320, sliced by 8: eight
 * bytes per step through eight 256-entry tables (8 KiB), about 2.5
 * instructions a byte where a bit or nibble at a time costs 10 to 40.
 * The state commit checksums the whole state every cycle.  Same values
 * as one bit at a time: the tables only regroup the same division.
 *
 * On x86-64 with PCLMULQDQ (carry-less multiply; Westmere, 2010, and
 * later), long buffers are first folded 64 bytes a step, about 0.4
 * instructions a byte: four 128-bit lanes, each multiplied by x^512 mod P
 * and added to the next 64 bytes, then the lanes into one by x^128 mod
 * P, which leaves 16 bytes with the same CRC as everything folded; the
 * tables finish those and the tail.  The same values again: folding is
 * arithmetic modulo P (Gopal et al., "Fast CRC Computation for Generic
 * Polynomials Using PCLMULQDQ Instruction", Intel, 2009).
 */
#include "crc32.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CRC_FOLD 1
#endif

#define POLY 0xedb88320u

/* slice[k][b]: register after byte b then k zero bytes went through. */
static uint32_t slice[8][256];

/* Filled when the library is loaded, before any thread can call in. */
__attribute__((constructor)) static void crc_tables(void)
{
	uint32_t c;
	int b, k, bit;

	for (b = 0; b < 256; b++) {
		c = (uint32_t)b;
		for (bit = 0; bit < 8; bit++)
			c = c & 1 ? (c >> 1) ^ POLY : c >> 1;
		slice[0][b] = c;
	}
	for (b = 0; b < 256; b++)
		for (k = 1; k < 8; k++)
			slice[k][b] = (slice[k - 1][b] >> 8) ^
				      slice[0][slice[k - 1][b] & 0xff];
}

/* Little-endian 32-bit word at p, whatever the host's byte order. */
static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The register crc (not inverted) continued over p[0 .. len). */
static uint32_t sliced(uint32_t crc, const unsigned char *p, size_t len)
{
	uint32_t lo, hi;

	for (; len >= 8; len -= 8, p += 8) {
		lo = le32(p) ^ crc;
		hi = le32(p + 4);
		crc = slice[7][lo & 0xff] ^ slice[6][(lo >> 8) & 0xff] ^
		      slice[5][(lo >> 16) & 0xff] ^ slice[4][lo >> 24] ^
		      slice[3][hi & 0xff] ^ slice[2][(hi >> 8) & 0xff] ^
		      slice[1][(hi >> 16) & 0xff] ^ slice[0][hi >> 24];
	}
	while (len--)
		crc = (crc >> 8) ^ slice[0][(crc ^ *p++) & 0xff];
	return crc;
}

#ifdef CRC_FOLD
/*
 * x^(512 + 32) and x^(512 - 32) mod P, and x^(128 + 32) and
 * x^(128 - 32) mod P, bit-reflected and shifted left by one, as the
 * Intel paper gives them for this polynomial (Linux's crc32-pclmul
 * uses the same): a lane's low and high 64 bits times these move it
 * 512 or 128 bits on.
 */
#define K512_LO 0x154442bd4ull
#define K512_HI 0x1c6e41596ull
#define K128_LO 0x1751997d0ull
#define K128_HI 0x0ccaa009eull

/* x moved on by the distance of k, plus the 16 bytes at p. */
__attribute__((target("pclmul,sse2"))) static inline __m128i
fold(__m128i x, __m128i k, const unsigned char *p)
{
	__m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
	__m128i hi = _mm_clmulepi64_si128(x, k, 0x11);

	return _mm_xor_si128(_mm_xor_si128(lo, hi),
			     _mm_loadu_si128((const __m128i *)p));
}

/* Same, the 16 bytes in a lane. */
__attribute__((target("pclmul,sse2"))) static inline __m128i
fold_lane(__m128i x, __m128i k, __m128i y)
{
	return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
					   _mm_clmulepi64_si128(x, k, 0x11)),
			     y);
}

/*
 * The register crc continued over p[0 .. len), len >= 64: the whole
 * 16-byte blocks folded into one, its bytes and the tail through the
 * tables.
 */
__attribute__((target("pclmul,sse2"))) static uint32_t
folded(uint32_t crc, const unsigned char *p, size_t len)
{
	const __m128i k512 =
		_mm_set_epi64x((long long)K512_HI, (long long)K512_LO);
	const __m128i k128 =
		_mm_set_epi64x((long long)K128_HI, (long long)K128_LO);
	__m128i x0, x1, x2, x3;
	unsigned char last[16];

	/* the register goes into the first 4 bytes: then start from 0 */
	x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p),
			   _mm_cvtsi32_si128((int)crc));
	x1 = _mm_loadu_si128((const __m128i *)(p + 16));
	x2 = _mm_loadu_si128((const __m128i *)(p + 32));
	x3 = _mm_loadu_si128((const __m128i *)(p + 48));
	for (p += 64, len -= 64; len >= 64; p += 64, len -= 64) {
		x0 = fold(x0, k512, p);
		x1 = fold(x1, k512, p + 16);
		x2 = fold(x2, k512, p + 32);
		x3 = fold(x3, k512, p + 48);
	}
	x0 = fold_lane(x0, k128, x1);
	x0 = fold_lane(x0, k128, x2);
	x0 = fold_lane(x0, k128, x3);
	for (; len >= 16; p += 16, len -= 16)
		x0 = fold(x0, k128, p);
	_mm_storeu_si128((__m128i *)last, x0);
	return sliced(sliced(0, last, 16), p, len);
}

static int have_clmul;

__attribute__((constructor)) static void crc_cpu(void)
{
	__builtin_cpu_init();
	have_clmul = __builtin_cpu_supports("pclmul") &&
		     __builtin_cpu_supports("sse2");
}
#endif

uint32_t ts_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

#ifdef CRC_FOLD
	if (len >= 64 && have_clmul)
		return ~folded(~crc, p, len);
#endif
	return ~sliced(~crc, p, len);
}
