/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic_file.h - write a file so that a crash leaves the old or the new
 * copy, never a torn one (the usage windows' state file, node_power's
 * state file).
 *
 * ts_atomic_file_write() replaces PATH in four steps:
 *   1. write PATH<tmp_suffix> (mode 0600, truncated first, so the stray
 *      copy of an earlier crash is simply overwritten), fsync, close;
 *   2. with a prev_suffix: keep the current PATH as PATH<prev_suffix>,
 *      by a hard link so PATH never goes missing (a rename where the file
 *      system has no hard links), if PATH exists and worth_keeping() says
 *      it is worth it (NULL: any PATH);
 *   3. rename PATH<tmp_suffix> over PATH: atomic, readers see either copy;
 *   4. fsync the directory, so the rename itself survives a power cut
 *      (best effort: the data are safe either way).
 * A crash before step 3 leaves PATH as it was plus a stray temporary
 * copy, which readers ignore; after it, the new PATH.
 *
 * Errors (full disk, unwritable directory, failed rename) leave PATH as
 * it was and remove PATH<tmp_suffix>; PATH<prev_suffix> is as it was too,
 * unless step 2 failed after removing it (PATH is then the last good
 * copy).  err->msg names the call that failed, the file and errno's
 * text ("cannot write /x/state.new: No space left on device", "cannot
 * fsync /x/state.new: Input/output error").
 */
#ifndef TS_ATOMIC_FILE_H
#define TS_ATOMIC_FILE_H

#include <stddef.h>

#include "error.h"

struct ts_atomic_file {
	/* ".new" with one writer at a time; ".new.<pid>" when several
	 * processes may write at once (each then has its own copy). */
	const char *tmp_suffix;
	/* ".prev" to keep the replaced copy; NULL to keep none. */
	const char *prev_suffix;
	/* Is the current PATH (which exists) worth keeping?  A corrupt
	 * one is not: it must not push out the last good previous copy.
	 * NULL: any. */
	int (*worth_keeping)(const char *path, const void *arg);
	const void *arg; /* passed to worth_keeping() */
};

/*
 * ts_atomic_file_write() - replace path by buf[0 .. len) as above.
 * RET TS_OK, TS_EIO (err->msg names the file and the reason) or
 * TS_ENOMEM; on error the files are as they were.
 */
int ts_atomic_file_write(const char *path, const void *buf, size_t len,
			 const struct ts_atomic_file *how,
			 struct ts_error *err);

/*
 * ts_atomic_file_sibling() - path followed by suffix ("/x/state" ".lock"
 * gives "/x/state.lock"): the names of a file's companions.
 * RET a malloc'ed string the caller frees, or NULL when out of memory.
 */
char *ts_atomic_file_sibling(const char *path, const char *suffix);

#endif /* TS_ATOMIC_FILE_H */
