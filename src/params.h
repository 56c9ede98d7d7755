/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * params.h - a "key=value,key=value" list such as PriorityParameters.
 *
 *   fairshare=pbs, usage_window=12h ,formula="pow(2, -(a / b))"
 *
 * Items are separated by commas; blanks (space, tab) around keys, "=" and
 * values are ignored; empty items (",,", a leading or trailing comma) are
 * skipped.  A key is [A-Za-z0-9_]+ and matched without regard to case; a
 * key may appear once.  A value runs to the next comma, inner blanks
 * kept, unless it starts with a double or a single quote: then it runs to
 * the matching quote and may hold commas, blanks and the other quote.
 * Inside quotes a backslash escapes the quote character and itself
 * (\" \' \\); any other backslash is an error.  Nothing but blanks may
 * follow the closing quote before the next comma.  "key=" gives an empty
 * value; a key without "=" is an error.
 *
 * Single quotes exist because slurm.conf cannot carry a double quote
 * inside a value that has blanks: its parser ends an unquoted value at
 * the first blank and a double-quoted one at the next double quote, and
 * removes every backslash.  So a formula with blanks and commas is
 * written PriorityParameters="formula='pow(2, -(a / b))'".
 */
#ifndef TS_PARAMS_H
#define TS_PARAMS_H

#include <stddef.h>

#include "error.h"

struct ts_param {
	const char *key;   /* as written; NUL-terminated */
	const char *value; /* quotes removed, escapes applied */
	long key_col;	   /* 1-based column of the key */
	long value_col;	   /* column of the value (its opening quote) */
	char quote;	   /* '"', '\'' or 0 if unquoted */
};

/* An owned list: item[] and every string live until ts_params_free(). */
struct ts_params {
	struct ts_param *item;
	size_t n;
	char *strings; /* one block for all keys and values */
};

/*
 * ts_params_parse() - split text (NULL or "" give an empty list) into
 * *out, items in written order.
 * RET TS_OK, or TS_ESYNTAX (err->msg names the key where there is one and
 * the column; err->index is the column) or TS_ENOMEM; *out is then empty
 * and needs no free.
 */
int ts_params_parse(const char *text, struct ts_params *out,
		    struct ts_error *err);

/* ts_params_find() - the item with key (any case), or NULL.  No alloc. */
const struct ts_param *ts_params_find(const struct ts_params *p,
				      const char *key);

/* ts_params_free() - release the list and empty it. */
void ts_params_free(struct ts_params *p);

/*
 * ts_params_quote() - value as ts_params_parse() reads it back: as is when
 * it is not empty and has no comma, quote, backslash or blank, else in
 * double quotes with \" and \\ escaped.
 * RET the length snprintf() would give; buf NUL-terminated if size > 0.
 */
int ts_params_quote(const char *value, char *buf, size_t size);

#endif /* TS_PARAMS_H */
