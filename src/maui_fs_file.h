/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maui_fs_file.h - one window of Maui's fair-share history, its data file
 * FS.<EPOCHTIME> (seed 003, 6.3.2.3; issue 27, migration): read, so that
 * a site switching from Maui or Moab keeps its fair-share state, and
 * written, so that the windows can go back.
 *
 *   # Fairshare Data File (Duration: 172800 Seconds) Starting: ...
 *   User USERA 150000.000
 *   Group GROUPA 350000.000
 *   Account ACCTA 300000.000
 *   QOS 0 50000.000
 *   TOTAL 600000.00
 *
 * A line is blank, a comment ('#'), "TYPE NAME AMOUNT" (TYPE User,
 * Group, Account, QOS or Class, any case; NAME printable bytes without
 * blanks; AMOUNT an unsigned decimal number) or "TOTAL AMOUNT", which
 * must be there once.  The comment of the form above gives the window's
 * length (duration; 0 when the file has none).  A credential named twice
 * in one type, or a type whose members sum to more than TOTAL (beyond the
 * file's own rounding, 0.001 per line), is refused: Maui's invariant is
 * that every category sums to TOTAL, less what jobs without such a
 * credential used.  Every error names the line and column; bytes of the
 * file reach a message quoted (ts_quote()).  Nothing is kept half: on
 * error the result is empty.
 *
 * Pure: no file is opened and no clock read.
 */
#ifndef TS_MAUI_FS_FILE_H
#define TS_MAUI_FS_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "credential_fs.h"
#include "error.h"

#define TS_MAUI_FS_NAME_MAX 255 /* bytes of a credential's name */

struct ts_maui_fs_entry {
	enum ts_cred type;
	char *name;
	double amount; /* finite, >= 0 */
	long line;     /* where the file had it (0: not read from one) */
};

struct ts_maui_fs_file {
	uint32_t duration; /* seconds, from the header; 0: none */
	double total;	   /* TOTAL */
	size_t n;
	struct ts_maui_fs_entry *entry; /* in the file's order */
};

/*
 * ts_maui_fs_parse() - the len bytes of text as one data file into *out
 * (emptied first).  RET TS_OK, TS_ESYNTAX (err->index the line, message
 * "line N, column C: ..."), TS_ERANGE (a category above TOTAL, an amount
 * or duration out of range) or TS_ENOMEM; on error *out is empty.
 */
int ts_maui_fs_parse(const char *text, size_t len, struct ts_maui_fs_file *out,
		     struct ts_error *err);

/* ts_maui_fs_free() - release *f and leave it empty. */
void ts_maui_fs_free(struct ts_maui_fs_file *f);

/*
 * ts_maui_fs_epoch() - the EPOCHTIME of a file's name "FS.<EPOCHTIME>"
 * (the last path component; decimal digits only, at most 12).
 * RET TS_OK or TS_EINVAL (message names the file).
 */
int ts_maui_fs_epoch(const char *path, int64_t *epoch, struct ts_error *err);

/* ts_maui_fs_sum() - the amounts of f's credentials of type c added up. */
double ts_maui_fs_sum(const struct ts_maui_fs_file *f, enum ts_cred c);

/*
 * ts_maui_fs_format() - f as a data file that ts_maui_fs_parse() reads
 * back with every amount exactly (shortest round-trip decimals), the
 * header naming f->duration and start (in UTC, where Maui writes its
 * local time), credentials by type in enum ts_cred order, each type in
 * f's order, then TOTAL.  *text is malloc()ed, NUL-terminated, its
 * length in *len.  RET TS_OK, TS_EINVAL (a name that the file could not
 * carry, an amount not finite or negative) or TS_ENOMEM.
 */
int ts_maui_fs_format(const struct ts_maui_fs_file *f, int64_t start,
		      char **text, size_t *len, struct ts_error *err);

#endif /* TS_MAUI_FS_FILE_H */
