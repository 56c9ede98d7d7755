/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * columns.h - printing one cell the way Slurm 22.05's sshare does
 * (src/common/print_fields.c is the contract; this is our own code).
 *
 * Fixed width: each cell is |len| characters then one blank; a negative
 * len left-justifies.  A string longer than the cell is cut to |len|-1
 * characters and a '+'.  A number is never cut: a double that does not
 * fit "%*f" goes to "%e" with a precision that makes it fit when it can.
 * Blank cells are spaces.  Slurm's NO_VAL / INFINITE markers (32 and 64
 * bit, and as doubles) print blank.
 *
 * Parsable (-p): every cell ends with '|'.  Parsable2 (-P): all but the
 * last of the line.  No padding, no cutting, blank cells empty.
 */
#ifndef SSHARE_EXT_COLUMNS_H
#define SSHARE_EXT_COLUMNS_H

#include <stdint.h>
#include <stdio.h>

enum col_mode {
	COL_FIXED,     /* sshare's default */
	COL_PARSABLE,  /* -p */
	COL_PARSABLE2, /* -P */
};

struct col_out {
	FILE *f;
	enum col_mode mode;
};

/* col_header() - the header line(s) for n columns (names, widths). */
void col_header(const struct col_out *o, const char *const *names,
		const int *lens, int n);

/* Cells; last is 1 for the line's last cell.  v NULL: a blank cell. */
void col_str(const struct col_out *o, int len, const char *v, int last);
void col_uint32(const struct col_out *o, int len, uint32_t v, int last);
void col_uint64(const struct col_out *o, int len, uint64_t v, int last);
void col_double(const struct col_out *o, int len, double v, int last);
/* A TRES list ("" when none): cut like a string, never "blank". */
void col_tres(const struct col_out *o, int len, const char *v, int last);

#endif /* SSHARE_EXT_COLUMNS_H */
