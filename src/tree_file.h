/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_file.h - reading an association tree from text, in either of the
 * two formats treeshare accepts (docs/sshare-ext.1, FILES):
 *
 *   the tree file     one association per line, parents first:
 *                       root     USAGE
 *                       account  NAME PARENT SHARES [USAGE]
 *                       user     NAME PARENT SHARES [USAGE]
 *                     '#' starts a comment; SHARES is 0..2147483646 or
 *                     "parent"; an account without USAGE gets the sum of
 *                     its children's, the root likewise; a given account
 *                     usage must not be below that sum.  At most
 *                     TS_TREE_FILE_MAX_DEPTH levels.
 *
 *   sshare output     saved "sshare -a -l -P" (or -p): a '|'-separated
 *                     header naming at least Account, User, RawShares and
 *                     RawUsage, then the rows in sshare's order.  The
 *                     Account column's leading blanks (which sshare keeps
 *                     in parsable output) give each row's depth; when
 *                     they were stripped, an account's parent is inferred
 *                     (see tree_file.c): users come right after their
 *                     account, sub-accounts after the users in name order,
 *                     and siblings share one RawShares/NormShares ratio.
 *
 * The parser reads a buffer (no I/O), allocates only temporaries, and
 * fills a struct ts_tree the caller initialised (a tree file is read
 * straight into it, sized to the file's line count): node 0 is the root
 * "root", the others follow in file order, each usage includes its
 * subtree, and the tree is finished (ts_tree_finish).  Node ids are the
 * node index for a tree file and sshare's ID column when present.
 *
 * Every error names its 1-based line: err->index is the line and err->msg
 * starts with "line N: ".  On error *t holds no usable tree.
 */
#ifndef TS_TREE_FILE_H
#define TS_TREE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "tree.h"

/* Largest share count a file may give; 0x7fffffff is Slurm's "parent". */
#define TS_TREE_FILE_MAX_SHARES 2147483646U

/*
 * Deepest association a file may hold (the root is depth 0).  Real trees
 * have a handful of levels; the bound keeps a hostile file from making
 * sshare's indentation (one blank per level per row) quadratic.
 */
#define TS_TREE_FILE_MAX_DEPTH 1000

enum ts_tree_format {
	TS_TREE_FORMAT_AUTO = 0, /* sshare if the first line has a '|' */
	TS_TREE_FORMAT_TREE,	 /* the treeshare tree file */
	TS_TREE_FORMAT_SSHARE,	 /* saved "sshare -P" or "sshare -p" output */
};

struct ts_tree_file_info {
	enum ts_tree_format format; /* the format that was read */
	/*
	 * sshare input only: 1 when the accounts' FairShare is empty (the
	 * cluster ran Fair Tree), 0 when it is not, -1 when the output has
	 * no FairShare column or no account.  -1 for a tree file.
	 */
	int fair_tree;
	size_t lines; /* lines read */
};

/*
 * ts_tree_file_parse() - parse text[0 .. len-1] into t.
 * IN format: the expected format or TS_TREE_FORMAT_AUTO.
 * OUT *t: reset, then filled and finished.  OUT *info (may be NULL).
 * RET TS_OK, or TS_ESYNTAX / TS_EINVAL / TS_ERANGE / TS_ENOMEM with *err
 * naming the line.
 */
int ts_tree_file_parse(const char *text, size_t len, enum ts_tree_format format,
		       struct ts_tree *t, struct ts_tree_file_info *info,
		       struct ts_error *err);

/*
 * ts_tree_file_parse_in_place() - the same on a buffer the caller gives
 * up: text[0 .. len) is read and overwritten (lines are cut in place)
 * and text[len] must exist (a NUL goes there); no copy of the text is
 * made, so a large file costs its own size once.  The tree keeps copies
 * of the names: text may be freed afterwards.
 */
int ts_tree_file_parse_in_place(char *text, size_t len,
				enum ts_tree_format format, struct ts_tree *t,
				struct ts_tree_file_info *info,
				struct ts_error *err);

/*
 * The two field syntaxes, for other inputs that take the same values
 * (sshare-ext's --set and --usage): SHARES is 0..TS_TREE_FILE_MAX_SHARES
 * or "parent" (TS_SHARES_PARENT); USAGE a decimal number 0..DBL_MAX.
 * RET 0, or -1 (nothing stored).
 */
int ts_tree_file_shares(const char *s, uint32_t *out);
int ts_tree_file_usage(const char *s, long double *out);

#endif /* TS_TREE_FILE_H */
