/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential_store.h - Maui's usage per credential (credential_usage.h)
 * as one image, for the state file to carry across restarts (issue 27).
 *
 * Image layout (little-endian; version 1):
 *   off  size
 *     0     8  magic "TSCREDUS"
 *     8     4  format version (1)
 *    12     4  credential types C (TS_CRED_N, 5)
 *    16     8  body length B in bytes (from offset 24 to the CRC)
 *    24        body: C x (uint64 L, L bytes: a window_store.h image),
 *              in enum ts_cred order (user, group, account, QOS, class)
 *  24+B     4  CRC-32 (crc32.h) of bytes 0 .. 24+B-1
 * Checks on decoding, each a named defect: the frame (magic, length,
 * CRC: ts_state_image_check()), version, C, every L within the body and
 * the body used exactly, every window image passing window_store.h's
 * checks, and all types with one interval, depth and decay (they are
 * charged together).  Hostile input is fine.
 */
#ifndef TS_CREDENTIAL_STORE_H
#define TS_CREDENTIAL_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "credential_usage.h"
#include "error.h"

#define TS_CREDENTIAL_STORE_VERSION 1

/*
 * ts_credential_store_encode() - cu as an image, every window image
 * saved at now.  OUT *buf (malloc'ed; the caller frees it), *len.
 * RET TS_OK or TS_ENOMEM.
 */
int ts_credential_store_encode(const struct ts_cred_usage *cu, int64_t now,
			       unsigned char **buf, size_t *len,
			       struct ts_error *err);

/*
 * ts_credential_store_decode() - check and decode an image into *cu (not
 * initialised on entry; on success free it with ts_cred_usage_free()).
 * On error nothing is left allocated and err->msg names the defect and,
 * for a window image, its credential type ("group: CRC mismatch ...").
 * RET TS_OK, TS_ECORRUPT or TS_ENOMEM.
 */
int ts_credential_store_decode(const void *buf, size_t len,
			       struct ts_cred_usage *cu, struct ts_error *err);

#endif /* TS_CREDENTIAL_STORE_H */
