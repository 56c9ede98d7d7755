/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crc32.h - CRC-32 (IEEE 802.3, the polynomial of zlib's crc32()), the
 * check value of every treeshare state file.
 */
#ifndef TS_CRC32_H
#define TS_CRC32_H

#include <stddef.h>
#include <stdint.h>

/*
 * ts_crc32() - crc continued over buf[0 .. len): ts_crc32(0, "123456789",
 * 9) is 0xcbf43926, and ts_crc32(ts_crc32(0, a, n), b, m) is the CRC of
 * a then b, as zlib's crc32(crc, buf, len).
 */
uint32_t ts_crc32(uint32_t crc, const void *buf, size_t len);

#endif /* TS_CRC32_H */
