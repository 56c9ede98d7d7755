/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kept_file.h - a state file kept with its previous copy: PATH and
 * PATH<prev_suffix> (ts_atomic_file_write() keeps the replaced copy
 * there, and only a good one).  Reading takes PATH, else the previous
 * copy, and says what was wrong with each, so that the caller can log
 * the file, the defect and what the older copy loses, or refuse to
 * start naming both.
 *
 * Which outcome for which files (PATH, then the previous copy):
 *   good,   -         PATH                         TS_OK
 *   absent, good      the previous copy, logged    TS_OK, used_prev
 *   bad,    good      the previous copy, logged    TS_OK, used_prev
 *   absent, absent    nothing: a first start       TS_ENOENT
 *   bad,    absent    nothing usable               PATH's code
 *   any,    bad       nothing usable               PATH's code, or
 *                                                  the previous copy's
 *                                                  when PATH is absent
 * "bad" is any defect decode() finds (zero length, truncated, trailing
 * bytes, CRC, version, a value out of range) or a read error other than
 * "no such file".  Only "both absent" is a first start: anything else
 * with no usable copy is a loss the caller must not hide.
 */
#ifndef TS_KEPT_FILE_H
#define TS_KEPT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/*
 * Seconds a time in a state file may lie after "now" (the clock of the
 * reader) before the file counts as damaged: an NTP correction passes,
 * a clock stepped back by more (or a corrupt value) does not, since
 * charging from a future "last decay" double-counts.
 */
#define TS_STATE_CLOCK_SKEW 300

/*
 * The copy a save wrote, as stat() saw it after the rename: while PATH is
 * still that file, the next save keeps it without reading it again (it
 * was complete when written and nobody replaced or rewrote it since).
 */
struct ts_kept_written {
	int valid;
	uint64_t dev, ino, size;
	int64_t mtime_ns, ctime_ns;
};

struct ts_kept_file {
	const char *prev_suffix; /* ".prev", ".old" */
	/*
	 * NULL, or the memo of the last save (one writer at a time, as
	 * atomic_file's ".new" already requires): spares a whole read and
	 * check of a large file each save.
	 */
	struct ts_kept_written *written;
	size_t max_bytes; /* larger files are refused unread */
	/*
	 * Check and decode a whole file image into out.  On error out
	 * holds nothing to free and err->msg is the defect alone ("CRC
	 * mismatch ..."), without the path.
	 */
	int (*decode)(const void *buf, size_t len, void *out, void *arg,
		      struct ts_error *err);
	void *arg; /* passed to decode() */
	/*
	 * Is a file image complete and ours (magic, length, CRC)?  A save
	 * keeps the copy it replaces only if so, so that the previous copy
	 * is always the last complete one.
	 */
	int (*complete)(const void *buf, size_t len);
};

struct ts_kept_status {
	int used_prev; /* 1: PATH unusable, previous copy used */
	int path_code; /* TS_OK, TS_ENOENT or PATH's defect */
	char problem[TS_ERROR_MSG_MAX]; /* "PATH: defect"; "" if PATH used */
};

/*
 * ts_kept_file_load() - decode path, else path<prev_suffix>, into out as
 * in the table above.  st may be NULL.
 * RET TS_OK; TS_ENOENT when neither file exists; TS_ENOMEM; otherwise the
 * defect's code (TS_ECORRUPT, TS_EIO) with err->msg naming both files and
 * both reasons: "PATH: why; PREV: why".
 */
int ts_kept_file_load(const char *path, const struct ts_kept_file *how,
		      void *out, struct ts_kept_status *st,
		      struct ts_error *err);

/*
 * ts_kept_file_save() - replace path by image[0 .. len) atomically
 * (atomic_file.h: PATH.new, fsync, rename, fsync of the directory), the
 * current copy kept as path<prev_suffix> if how->complete() accepts it.
 * On error the files are as they were and err names the file and the
 * reason.  RET TS_OK, TS_EIO or TS_ENOMEM.
 */
int ts_kept_file_save(const char *path, const void *image, size_t len,
		      const struct ts_kept_file *how, struct ts_error *err);

/*
 * ts_kept_time_check() - t, a time read from a state file, is neither
 * negative nor more than TS_STATE_CLOCK_SKEW seconds after now.
 * RET TS_OK, or TS_ECORRUPT with err->msg "WHAT T is negative" / "WHAT
 * 2031-05-01T00:00:00Z is 99 s after now (2023-...)".
 */
int ts_kept_time_check(const char *what, int64_t t, int64_t now,
		       struct ts_error *err);

#endif /* TS_KEPT_FILE_H */
