/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maui_fs_dir.h - the FS.<EPOCH> files of a Maui or Moab statistics
 * directory, read and parsed (maui_fs_file.h), for an import
 * (maui_fs_history.h).  Other names in the directory (Maui keeps its
 * other statistics there) are left alone.  With a trust (file_trust.h)
 * the directory and every file must be owned by root or SlurmUser and
 * writable by no one else.  All or nothing: a file that cannot be read
 * or parsed is an error naming it, with the parser's line and column.
 */
#ifndef TS_MAUI_FS_DIR_H
#define TS_MAUI_FS_DIR_H

#include <stddef.h>

#include "error.h"
#include "file_trust.h"
#include "maui_fs_history.h"

#define TS_MAUI_FS_DIR_FILES_MAX 4096 /* files taken from one directory */

struct ts_maui_fs_dir {
	size_t n;
	struct ts_maui_fs_window *win; /* newest first; paths owned here */
};

/*
 * ts_maui_fs_dir_read() - every FS.<EPOCH> file of dir (absolute) into
 * *out, checked against trust (NULL: not checked).  RET TS_OK, TS_ENOENT
 * (no such directory, or no FS file in it), TS_EINVAL (trust), TS_EIO,
 * TS_ESYNTAX or TS_ERANGE ("PATH: line N, column C: ..."), TS_ENOMEM;
 * on error *out is empty.
 */
int ts_maui_fs_dir_read(const char *dir, const struct ts_trust *trust,
			struct ts_maui_fs_dir *out, struct ts_error *err);

/* ts_maui_fs_dir_free() - release *d and leave it empty. */
void ts_maui_fs_dir_free(struct ts_maui_fs_dir *d);

#endif /* TS_MAUI_FS_DIR_H */
