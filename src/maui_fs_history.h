/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maui_fs_history.h - a Maui or Moab fair-share history (its FS.<EPOCH>
 * window files, maui_fs_file.h) into the usage per credential
 * (credential_usage.h), and a window of it back out (issue 27,
 * migration).
 *
 * Import.  Each file is one Maui window of `duration` seconds starting
 * at EPOCH.  Maui's windows need not start at multiples of the interval
 * as treeshare's do (windows.h), so a file goes to the window holding
 * its start: less than a window of shift, the same for every file of
 * one history, so their order and count are kept and none lands in the
 * future (the report gives the largest shift).
 * Refused, naming the file and line, with nothing imported:
 *   - a file whose duration (header) is not usage_window;
 *   - a file starting after now;
 *   - two files in one window;
 *   - a name that id_of does not know (edit the line out: the type
 *     then sums to less than TOTAL, which Maui's files allow);
 * and every error maui_fs_file.h's parser names.  Files older than the
 * oldest kept window have rolled out: skipped and counted.  Each type's
 * total is the file's TOTAL and what its members do not cover goes to
 * TS_CRED_ID_NONE, so every category sums to the total as usage charged
 * by jobs does.
 *
 * Export.  Window k as a file: every credential of each type with usage
 * in it, by the name name_of gives (its id in decimal when none), TOTAL
 * the window's delivered total; the file's EPOCH is the window's start.
 *
 * Pure: nothing is opened and no clock read.
 */
#ifndef TS_MAUI_FS_HISTORY_H
#define TS_MAUI_FS_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "credential_usage.h"
#include "error.h"
#include "maui_fs_file.h"

/* One window file read: where from (for messages), its EPOCH, content. */
struct ts_maui_fs_window {
	const char *path;
	int64_t epoch;
	struct ts_maui_fs_file file;
};

/* The id of a credential named in a file; TS_CRED_ID_NONE: not known. */
typedef uint32_t (*ts_maui_fs_id_of)(enum ts_cred type, const char *name,
				     void *arg);

/* A credential's name for export; NULL: none (its id is written). */
typedef const char *(*ts_maui_fs_name_of)(enum ts_cred type, uint32_t id,
					  void *arg);

/* What an import did, for one log line. */
struct ts_maui_fs_import_report {
	size_t files;	   /* imported */
	size_t rolled_out; /* older than the oldest kept window */
	size_t entries;	   /* credential lines charged */
	int64_t shift;	   /* seconds a file's start moved to its window's */
	long double total; /* TOTAL of the imported files */
};

/*
 * ts_maui_fs_import() - charge the n files of win into cu, which the
 * caller initialised empty (ts_cred_usage_init() at now with the
 * settings in force).  RET TS_OK; TS_EINVAL (duration, future, two in a
 * window), TS_ENOENT (a name), TS_ENOMEM, with err->msg "PATH line N:
 * ..." or "PATH: ...".  On error cu may hold part of the files: the
 * caller frees it (nothing reaches the usage in force).
 */
int ts_maui_fs_import(struct ts_cred_usage *cu,
		      const struct ts_maui_fs_window *win, size_t n,
		      ts_maui_fs_id_of id_of, void *arg, int64_t now,
		      struct ts_maui_fs_import_report *rep,
		      struct ts_error *err);

/*
 * ts_maui_fs_export() - window k of cu (k < depth) as *out (emptied
 * first; free with ts_maui_fs_free()) and its start in *epoch.
 * RET TS_OK, TS_ERANGE (k) or TS_ENOMEM.
 */
int ts_maui_fs_export(const struct ts_cred_usage *cu, uint32_t k,
		      ts_maui_fs_name_of name_of, void *arg,
		      struct ts_maui_fs_file *out, int64_t *epoch,
		      struct ts_error *err);

#endif /* TS_MAUI_FS_HISTORY_H */
