/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.h - the columns sshare-ext can print, and turning a --format
 * list into columns with sshare's rules:
 *   - items are separated by commas; empty items are skipped, but a list
 *     with no item at all gives one empty item (which, like any prefix,
 *     matches the first field: Account);
 *   - a repeated item (case-insensitive) moves to its last place;
 *   - "NAME%LEN" sets the field's width to LEN (negative: left-justified)
 *     for every column showing that field; LEN 0 or not a number keeps
 *     the width;
 *   - NAME matches the first field, in table order, that it is a
 *     case-insensitive prefix of.  sshare's fields come first, so its
 *     abbreviations ("A", "Eff", "P", "T") keep their meaning.
 */
#ifndef SSHARE_EXT_FIELDS_H
#define SSHARE_EXT_FIELDS_H

#include <stddef.h>

enum field_id {
	/* sshare's, in its table order */
	F_ACCOUNT,
	F_CLUSTER,
	F_EFFECTV_USAGE,
	F_FAIRSHARE,
	F_GRP_TRES_MINS,
	F_GRP_TRES_RAW,
	F_ID,
	F_LEVEL_FS,
	F_NORM_SHARES,
	F_NORM_USAGE,
	F_PARTITION,
	F_RAW_SHARES,
	F_RAW_USAGE,
	F_TRES_RUN_MINS,
	F_USER,
	/* sshare-ext's */
	F_TREE_USAGE,
	F_PERC,
	F_PBS_FACTOR,
	F_RANK,
	F_CLASSIC_FS,
	F_DO_FS,
	F_FAIR_TREE_FS,
	F_FS_CAP, /* --targets: cap_cells.h */
	F_CAP_USAGE,
	F_CAPPED_BY,
	F_COUNT
};

#define F_FIRST_EXTENDED F_TREE_USAGE

struct field {
	const char *name;
	int len;
};

/* The table; widths start as sshare's and --format may change them. */
extern struct field fields[F_COUNT];

#define FIELDS_MAX 128

struct field_list {
	enum field_id id[FIELDS_MAX];
	int n;
};

/*
 * fields_parse() - spec ("A,User%12,...") into list.  RET 0, or -1 with
 * bad (size badlen) set to the item that names no field, as sshare
 * reports it (lower-cased, cut at '%').
 */
int fields_parse(const char *spec, struct field_list *list, char *bad,
		 size_t badlen);

/*
 * fields_default() - sshare's default list for the mode, and with
 * extended (-l) sshare-ext's columns after it.
 */
const char *fields_default(int fair_tree, int long_flag, int partitions);

/* fields_extended_spec() - the extended columns, as a --format list. */
const char *fields_extended_spec(void);

/* fields_any_extended() - does the list show a column from src/? */
int fields_any_extended(const struct field_list *list);

/* fields_help() - sshare -e: the names, four per line. */
void fields_help(void);

#endif /* SSHARE_EXT_FIELDS_H */
