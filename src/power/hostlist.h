/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostlist.h - Slurm-style host list expressions and plain name lists.
 *
 * slurmctld hands SuspendProgram/ResumeProgram one expression such as
 * "n[1-4,7]" or "nid000[24-25]"; node_power's config names node sets the
 * same way.  The planner works on plain names only, so every expression
 * is expanded here, and lists are compressed back for log lines.
 *
 * Grammar (Slurm's, one dimension):
 *   list  := item { (',' | blank) item }
 *   item  := { text | '[' range { ',' range } ']' }   at least one char
 *   range := digits [ '-' digits ]
 * A range keeps the width of its first number: "nid000[08-10]" gives
 * nid00008 nid00009 nid00010; "n[8-10]" gives n8 n9 n10.  Several bracket
 * groups in one item expand to their product, left group outermost.
 */
#ifndef TS_POWER_HOSTLIST_H
#define TS_POWER_HOSTLIST_H

#include <stddef.h>

#include "error.h"

/*
 * Most names one expression may expand to (guards against
 * "n[0-9999999]"): the most nodes node_power handles, which is also the
 * upper bound of max_concurrent_nodes (config.c), so that any number of
 * nodes it may move at once can be named in one request.
 */
#define TS_HOSTLIST_MAX 100000

struct ts_hostlist {
	size_t n;    /* names in use */
	size_t cap;  /* slots allocated */
	char **name; /* owned, NUL-terminated */
};

/* kernel style; clang-format would break the braces over 4 lines */
/* clang-format off */
#define TS_HOSTLIST_INIT { 0, 0, NULL }
/* clang-format on */

/* ts_hostlist_free() - release all names; hl is empty and reusable. */
void ts_hostlist_free(struct ts_hostlist *hl);

/* ts_hostlist_add() - append a copy of name.  RET TS_OK or TS_ENOMEM. */
int ts_hostlist_add(struct ts_hostlist *hl, const char *name,
		    struct ts_error *err);

/*
 * ts_hostlist_expand() - append every name of expr to hl, in expression
 * order, duplicates kept.  An empty or blank expr appends nothing.
 * RET TS_OK, or TS_ESYNTAX / TS_ERANGE with err->index the 1-based column
 * of the offending character; hl then holds what was appended before it.
 */
int ts_hostlist_expand(struct ts_hostlist *hl, const char *expr,
		       struct ts_error *err);

/* ts_hostlist_find() - index of name in hl, or -1. */
long ts_hostlist_find(const struct ts_hostlist *hl, const char *name);

/* ts_hostlist_uniq() - sort hl (by prefix, then number) and drop repeats. */
void ts_hostlist_uniq(struct ts_hostlist *hl);

/*
 * ts_hostlist_ranged() - the shortest expression this module writes for
 * hl's names: sorted, repeats dropped, runs merged ("n[1-3,5],login1").
 * Expanding it gives the same set of names.  hl is not changed.
 * RET a malloc()ed string the caller frees ("" for an empty list), or
 * NULL with *err set (TS_ENOMEM).
 */
char *ts_hostlist_ranged(const struct ts_hostlist *hl, struct ts_error *err);

#endif /* TS_POWER_HOSTLIST_H */
