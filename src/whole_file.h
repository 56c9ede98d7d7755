/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * whole_file.h - read a small regular file into memory in one call, for
 * the parsers and state readers that need all of it (targets file,
 * window state file).
 */
#ifndef TS_WHOLE_FILE_H
#define TS_WHOLE_FILE_H

#include <stddef.h>

#include "error.h"

/*
 * ts_whole_file_read() - the bytes of the regular file at path, at most
 * max of them.  OUT *buf (malloc'ed, NUL-terminated after *len bytes; the
 * caller frees it), *len.  A file that shrinks while read gives what was
 * there.  On error *buf is NULL and err->msg is the reason alone
 * ("No such file or directory", "not a regular file", "larger than 1024
 * bytes"): the caller adds the path.
 * RET TS_OK, TS_ENOENT, TS_EIO or TS_ENOMEM.
 */
int ts_whole_file_read(const char *path, size_t max, char **buf, size_t *len,
		       struct ts_error *err);

/*
 * ts_whole_file_read_fd() - the same from fd, open for reading (not
 * closed): the file checked is the file read (file_trust.h).
 */
int ts_whole_file_read_fd(int fd, size_t max, char **buf, size_t *len,
			  struct ts_error *err);

#endif /* TS_WHOLE_FILE_H */
