/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crc32.c - CRC-32, reflected polynomial 0xEDB88320, sliced by 8: eight
 * bytes per step through eight 256-entry tables (8 KiB), about 2.5
 * instructions a byte where a bit or nibble at a time costs 10 to 40.
 * The state commit checksums the whole state every cycle.  Same values
 * as one bit at a time: the tables only regroup the same division.
 */
#include "crc32.h"

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

uint32_t ts_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t lo, hi;

	crc = ~crc;
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
	return ~crc;
}
