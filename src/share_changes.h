/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * share_changes.h - associations' share changes over time, as
 * "sacctmgr -P list transactions" prints them, for the replay
 * (replay.h, ts-replay(1) --transactions).
 *
 * The first line is the header, Time|Action|Actor|Where|Info (any order
 * and case; extra fields allowed).  Read:
 *   Add Associations      Where "id_assoc=N", Info "... acct='A',
 *                         user='U', ..." (user '' for an account): which
 *                         association id N is, for the lines below it
 *   Modify Associations   Where naming one or more "id_assoc=N", Info
 *                         with "shares=V": from Time on, their raw
 *                         shares are V (2147483647, Slurm's
 *                         SLURMDB_FS_USE_PARENT: Fairshare=parent)
 * Every other action is counted and passed over.  A Modify line whose id
 * no Add line above named, whose association the tree lacks, or whose
 * shares are not a whole number is reported with its line and counted
 * (struct ts_share_summary); nothing is dropped unseen.  Times are local,
 * as sacctmgr prints them (TZ).
 */
#ifndef TS_SHARE_CHANGES_H
#define TS_SHARE_CHANGES_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct ts_share_change {
	int64_t time;
	long node;	 /* the association's tree node */
	uint32_t shares; /* its raw shares from time on */
	long line;	 /* 1-based line in the input */
};

struct ts_share_changes {
	struct ts_share_change *c; /* in input order (sacctmgr's: by time) */
	size_t n, cap;
};

struct ts_share_summary {
	size_t lines;	      /* the header included */
	size_t changes;	      /* kept */
	size_t other;	      /* other actions and Modify without shares= */
	size_t unknown_id;    /* an id no Add line named */
	size_t unknown_assoc; /* named, not in the tree */
	size_t bad;	      /* truncated line, bad time or shares */
};

/*
 * The caller's hooks: resolve() gives the tree node of (account, user),
 * user "" for an account (negative: not in the tree); report() hears of
 * each line skipped.
 */
struct ts_share_hooks {
	long (*resolve)(void *arg, const char *account, const char *user);
	void (*report)(void *arg, long line, const char *msg);
	void *arg;
};

/*
 * ts_share_changes_parse_in_place() - text[0 .. len) (overwritten;
 * text[len] must exist) appended to *out (zeroed or from an earlier
 * call); *sum added to.
 * RET TS_OK; TS_EINVAL with err->index 1 when the header lacks Time,
 * Action, Where or Info; TS_ENOMEM.
 */
int ts_share_changes_parse_in_place(char *text, size_t len,
				    const struct ts_share_hooks *h,
				    struct ts_share_changes *out,
				    struct ts_share_summary *sum,
				    struct ts_error *err);

void ts_share_changes_free(struct ts_share_changes *c);

#endif /* TS_SHARE_CHANGES_H */
