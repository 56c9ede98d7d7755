/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * window_store.h - the usage windows (windows.h) kept across restarts in
 * one file, normally StateSaveLocation/treeshare_windows.
 *
 * A save writes PATH.new, fsyncs it, keeps the current PATH as PATH.prev
 * (only if PATH passes its checks, so PATH.prev is always the last good
 * copy), renames PATH.new to PATH and fsyncs the directory: a crash at
 * any point leaves a complete PATH or PATH.prev.  A load checks magic,
 * format version, length and CRC-32 and the structure behind them; when
 * PATH fails, PATH.prev is used and the reason returned so the caller can
 * log it.  When both fail the load fails and says why for each: usage is
 * never silently zeroed, the caller decides.
 *
 * File layout (little-endian; version 1):
 *   off  size
 *     0     8  magic "TSWINDOW"
 *     8     4  format version (1)
 *    12     4  flags (0)
 *    16     8  body length B in bytes (from offset 56 to the CRC)
 *    24     8  saved_at: the caller's now, seconds since the epoch
 *    32     8  decay, IEEE-754 binary64
 *    40     4  interval, seconds
 *    44     4  depth D (1 .. TS_WINDOWS_DEPTH_MAX)
 *    48     4  N associations
 *    52     4  reserved (0)
 *    56        body: bound[0 .. D]      (D + 1) x int64, strictly falling,
 *                                       bound[0] a multiple of interval
 *                    total[0 .. D - 1]  D x value
 *                    N x (uint32 id, D x value), ids unique
 *  56+B     4  CRC-32 (IEEE 802.3, zlib's crc32()) of bytes 0 .. 56+B-1
 *   value: uint64 m, int32 e; m * 2^(e - 64), finite, >= 0; zero is
 *   m = 0, e = 0; otherwise m >= 2^63 (exact for x86-64 long double).
 *   B = 8 (D + 1) + 12 D + N (4 + 12 D); the file is 60 + B bytes.
 */
#ifndef TS_WINDOW_STORE_H
#define TS_WINDOW_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "windows.h"

#define TS_WINDOW_STORE_VERSION	  1
#define TS_WINDOW_STORE_MAX_BYTES (1L << 30) /* refuse larger files */

struct ts_window_store_status {
	int used_prev;	   /* 1: PATH was unusable, PATH.prev used */
	int64_t saved_at;  /* when the copy used was written */
	char problem[256]; /* why PATH was not used; "" if it was */
};

/* ts_window_store_crc32() - CRC-32 as zlib's crc32(crc, buf, len). */
uint32_t ts_window_store_crc32(uint32_t crc, const void *buf, size_t len);

/*
 * ts_window_store_encode() - w as a file image, saved_at = now.
 * OUT *buf (malloc'ed; the caller frees it), *len.
 * RET TS_OK or TS_ENOMEM.
 */
int ts_window_store_encode(const struct ts_windows *w, int64_t now,
			   unsigned char **buf, size_t *len,
			   struct ts_error *err);

/*
 * ts_window_store_decode() - check and decode a file image into *w (not
 * initialised on entry; on success free it with ts_windows_free()).
 * Hostile input is fine: every count is checked against len before any
 * allocation.  OUT *saved_at (may be NULL).  On error *w is empty and
 * err->msg says why ("CRC mismatch ...", "truncated ...").
 * RET TS_OK, TS_ECORRUPT or TS_ENOMEM.
 */
int ts_window_store_decode(const void *buf, size_t len, struct ts_windows *w,
			   int64_t *saved_at, struct ts_error *err);

/*
 * ts_window_store_save() - write w to path atomically as described above.
 * On error path and path.prev are as they were and err names the file
 * and the reason.  RET TS_OK, TS_EIO or TS_ENOMEM.
 */
int ts_window_store_save(const char *path, const struct ts_windows *w,
			 int64_t now, struct ts_error *err);

/*
 * ts_window_store_save_image() - the same for an image made earlier by
 * ts_window_store_encode(), so that a caller can encode while it holds
 * the lock guarding its windows and write after releasing it.
 * RET TS_OK, TS_EIO or TS_ENOMEM; on error the files are as they were.
 */
int ts_window_store_save_image(const char *path, const void *image, size_t len,
			       struct ts_error *err);

/*
 * ts_window_store_load() - read path, or path.prev when path is missing
 * or fails its checks, into *w (not initialised on entry).  *st (may be
 * NULL) says which copy was used and why path was not.
 * RET TS_OK; TS_ENOENT when neither file exists (a first start: nothing
 * to lose); TS_ECORRUPT or TS_EIO when no copy is usable, err->msg giving
 * both reasons ("PATH: CRC mismatch ...; PATH.prev: ...").  On error *w
 * is empty.
 */
int ts_window_store_load(const char *path, struct ts_windows *w,
			 struct ts_window_store_status *st,
			 struct ts_error *err);

#endif /* TS_WINDOW_STORE_H */
