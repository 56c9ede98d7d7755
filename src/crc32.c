/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crc32.c - CRC-32, reflected polynomial 0xEDB88320, four bits at a time:
 * entry i of the table is the CRC register after shifting nibble i
 * through 4 rounds.  Small and fast enough for state files of a few MB.
 */
#include "crc32.h"

static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
	0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t ts_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	crc = ~crc;
	for (i = 0; i < len; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
	}
	return ~crc;
}
