/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bar_table.h - text as Slurm's clients print it with -P ("parsable2"):
 * a header line of '|'-separated field names, then one record a line
 * with as many fields.  Shared by the readers of sacct's jobs
 * (sacct_jobs.c) and sacctmgr's transactions (share_changes.c).  Fields
 * are cut in place; nothing allocates.
 */
#ifndef TS_BAR_TABLE_H
#define TS_BAR_TABLE_H

#include <stddef.h>

/*
 * ts_bar_next_line() - the next line of [*p, end), NUL-terminated in
 * place (a '\r' before the '\n' dropped), *p moved past it; NULL at
 * end.
 */
char *ts_bar_next_line(char **p, char *end);

/*
 * ts_bar_split() - cut line into fields, f[] getting at most max of
 * them.  RET the number of fields the line has (more than max: the
 * rest not kept).
 */
size_t ts_bar_split(char *line, char **f, size_t max);

/*
 * ts_bar_header() - the header line (cut in place): col[k] the column
 * of names[k], matched in any case, first one wins, or -1.  RET the
 * header's field count.
 */
size_t ts_bar_header(char *line, const char *const *names, size_t n_names,
		     int *col);

#endif /* TS_BAR_TABLE_H */
