/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decay_record.h - StateSaveLocation/priority_last_decay_ran: when usage
 * was last decayed (running jobs charged up to) and last reset, in
 * priority/multifactor's format so that a site can switch PriorityType
 * either way, plus a trailer only treeshare reads.
 *
 * Layout:
 *   off  size
 *     0     8  last decay time, int64, big-endian (Slurm's pack_time())
 *     8     8  last reset time, the same
 *   --- multifactor reads these 16 bytes and ignores the rest ---
 *    16     4  magic "TSLD"
 *    20     4  trailer version (1), little-endian
 *    24     4  CRC-32 (crc32.h) of bytes 0 .. 23, little-endian
 *
 * A 16-byte file is what multifactor (or treeshare before issue 13)
 * writes: it is read, as TS_DECAY_RECORD_FOREIGN, with the range checks
 * only.  Anything else is a defect: zero length, 1 to 15 or 17 to 27
 * bytes (torn), more than 28 (trailing bytes), a wrong magic, version or
 * CRC, a negative time, or one more than TS_STATE_CLOCK_SKEW seconds
 * after now.  The file is kept with its previous copy, PATH.old
 * (kept_file.h), as multifactor names it.
 */
#ifndef TS_DECAY_RECORD_H
#define TS_DECAY_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "kept_file.h"

#define TS_DECAY_RECORD_BYTES	      28
#define TS_DECAY_RECORD_FOREIGN_BYTES 16
#define TS_DECAY_RECORD_VERSION	      1

enum ts_decay_record_origin {
	TS_DECAY_RECORD_OURS,	 /* with treeshare's trailer */
	TS_DECAY_RECORD_FOREIGN, /* 16 bytes: multifactor's, or older */
};

struct ts_decay_record {
	int64_t last_ran;   /* 0: never */
	int64_t last_reset; /* 0: never */
	enum ts_decay_record_origin origin;
};

/* ts_decay_record_encode() - r as the 28 bytes of the file. */
void ts_decay_record_encode(const struct ts_decay_record *r,
			    unsigned char out[TS_DECAY_RECORD_BYTES]);

/*
 * ts_decay_record_decode() - check a file image (see the layout) and
 * decode it into *r.  now: the reader's clock, for the range checks.
 * RET TS_OK or TS_ECORRUPT (err->msg the defect: "zero length", "17
 * bytes: neither multifactor's 16 nor treeshare's 28", "CRC mismatch
 * ...", "last decay time -1 is negative", ...).
 */
int ts_decay_record_decode(const void *buf, size_t len, int64_t now,
			   struct ts_decay_record *r, struct ts_error *err);

/*
 * ts_decay_record_load() - path, else path.old (kept_file.h's table).
 * RET as ts_kept_file_load().
 */
int ts_decay_record_load(const char *path, int64_t now,
			 struct ts_decay_record *r, struct ts_kept_status *st,
			 struct ts_error *err);

/*
 * ts_decay_record_save() - replace path atomically (atomic_file.h), the
 * current copy kept as path.old if it is a good one.  On error the files
 * are as they were and err names the file and the reason.
 * RET TS_OK, TS_EIO or TS_ENOMEM.
 */
int ts_decay_record_save(const char *path, const struct ts_decay_record *r,
			 struct ts_error *err);

#endif /* TS_DECAY_RECORD_H */
