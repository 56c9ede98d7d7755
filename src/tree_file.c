/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_file.c - the two text forms of an association tree (tree_file.h):
 * the treeshare tree file, and saved "sshare -P" output.
 *
 * Both readers first turn lines into records (one per association, the
 * root is record 0) and give each its parent; the tree file's usage is
 * then filled and checked bottom-up; last the records are appended to
 * the struct ts_tree in order.  Names are looked up through a small hash
 * table, so a hostile file with many lines stays linear.
 *
 * Rebuilding the hierarchy from "sshare -P": sshare keeps the Account
 * column's indentation in parsable output (one more leading blank per
 * level; a user row shows its account one blank deeper than the
 * account), so the depth of each row gives its parent.  When the blanks
 * were lost (trimmed by a script), the parent is inferred:
 *   - Slurm sorts each account's children users first, then accounts,
 *     each by name (slurmdb_sort_hierarchical_assoc_list), and lists the
 *     tree depth-first.  So a user row belongs to the last account row,
 *     and an account row's parent is one of the accounts on the path to
 *     the last account row (the "stack").
 *   - A candidate P on the stack qualifies when
 *       (a) B sorts after P's previous account child (the stack entry
 *           above P), as sshare's order requires;
 *       (b) P's usage can hold its children's usage plus B's
 *           (RawUsage is truncated: sum of children <= parent);
 *       (c) siblings share one RawShares/NormShares ratio (Fair Tree:
 *           NormShares = raw / level_shares; classic: NormShares =
 *           NormShares(parent) * raw / level_shares), B's ratio must
 *           match the one of P's level, and B's shares must fit in the
 *           level_shares that ratio implies.
 *     The deepest qualifying candidate wins.  An account with zero
 *     shares and zero usage that sorts after its uncle can fit both
 *     places; it then goes to the deeper one (documented limit).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "tree_file.h"

#define NO_REC	   (-1L)
#define HALF_ULP_6 5e-7 /* "%f" prints 6 decimals */

struct rec {
	long line;
	unsigned char is_user;
	unsigned char has_usage; /* usage given (tree file) */
	const char *name;
	const char *acct; /* sshare user row: its Account */
	size_t indent;	  /* sshare: leading blanks of Account */
	long parent;	  /* record index; NO_REC for the root */
	unsigned depth;	  /* root 0 */
	uint32_t shares;  /* raw shares or TS_SHARES_PARENT */
	uint32_t id;
	long double usage;
	long double kids_usage; /* sum of direct children's usage */
	/* sshare hierarchy inference */
	double norm;		   /* NormShares printed; < 0 when unknown */
	long last_account_kid;	   /* NO_REC or the latest account child */
	double ratio_lo, ratio_hi; /* raw/NormShares of this level's kids */
	int ratio_known;
	uint64_t level_raw; /* raw shares of this level's kids so far */
};

#define NO_SLOT UINT32_MAX

/*
 * Open-addressing map from (name, parent) to a record index (sshare
 * output) or a node index (tree file); 4 bytes a slot, at most half full.
 */
struct name_map {
	size_t cap; /* power of two */
	size_t n;
	uint32_t *slot; /* index or NO_SLOT */
};

struct reader {
	char *buf; /* the text, NUL-terminated line by line in place */
	size_t len;
	struct rec *recs; /* sshare output: one per row */
	size_t n, cap;
	/* tree file: nodes go straight into the tree */
	struct ts_tree *tree;
	uint32_t *line_of;	  /* node -> its line */
	unsigned char *has_usage; /* node -> USAGE given */
	struct name_map accounts; /* key (name, -2) */
	struct name_map users;	  /* key (name, parent) */
	struct ts_error *err;
	char q[3][TS_QUOTE_SIZE]; /* qs()'s buffers, one per "%s" */
};

/* ---------------------------------------------------------------- */
/* Records and names                                                */
/* ---------------------------------------------------------------- */

/* Bytes of the file for a message, quoted (error.h); k: which buffer. */
static const char *qs(struct reader *r, int k, const char *s)
{
	return ts_quote(r->q[k], sizeof(r->q[k]), s, strlen(s));
}

static uint64_t hash_key(const char *name, long parent)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ULL;
	return (h ^ (uint64_t)parent) * 1099511628211ULL;
}

/* The key of index x: its name and, for a user, its parent (else -2). */
static const char *key_of(const struct reader *r, uint32_t x, long *parent)
{
	if (r->tree) {
		*parent = r->tree->is_user[x] ? r->tree->parent[x] : -2;
		return ts_tree_name(r->tree, x);
	}
	*parent = r->recs[x].is_user ? r->recs[x].parent : -2;
	return r->recs[x].name;
}

static long map_find(const struct reader *r, const struct name_map *m,
		     const char *name, long parent)
{
	size_t i;

	if (!m->cap)
		return NO_REC;
	i = hash_key(name, parent) & (m->cap - 1);
	for (; m->slot[i] != NO_SLOT; i = (i + 1) & (m->cap - 1)) {
		long xp;
		const char *xn = key_of(r, m->slot[i], &xp);

		if (xp == parent && !strcmp(xn, name))
			return (long)m->slot[i];
	}
	return NO_REC;
}

/*
 * Insert record idx under key (name, parent) into the open-addressing
 * table m, doubling it (and rehashing) past half full.  RET TS_OK or
 * TS_ENOMEM.
 */
static int map_insert(struct reader *r, struct name_map *m, long idx)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64, k;
		uint32_t *slot = malloc(cap * sizeof(*slot));
		struct name_map bigger = { cap, 0, slot };

		if (!slot)
			return ts_error_set(r->err, TS_ENOMEM, -1,
					    "cannot grow name table to %zu",
					    cap);
		for (k = 0; k < cap; k++)
			slot[k] = NO_SLOT;
		for (k = 0; k < m->cap; k++) {
			uint32_t x = m->slot[k];
			const char *xn;
			long xp;

			if (x == NO_SLOT)
				continue;
			xn = key_of(r, x, &xp);
			i = hash_key(xn, xp) & (cap - 1);
			while (slot[i] != NO_SLOT)
				i = (i + 1) & (cap - 1);
			slot[i] = x;
			bigger.n++;
		}
		free(m->slot);
		*m = bigger;
	}
	{
		long xp;
		const char *xn = key_of(r, (uint32_t)idx, &xp);

		i = hash_key(xn, xp) & (m->cap - 1);
	}
	while (m->slot[i] != NO_SLOT)
		i = (i + 1) & (m->cap - 1);
	m->slot[i] = (uint32_t)idx;
	m->n++;
	return TS_OK;
}

/* Append a record; RET its index or NO_REC with r->err set. */
static long add_rec(struct reader *r, long line, int is_user, const char *name,
		    long parent)
{
	struct rec *x;

	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		struct rec *tmp = realloc(r->recs, cap * sizeof(*tmp));

		if (!tmp) {
			ts_error_set(r->err, TS_ENOMEM, line,
				     "line %ld: out of memory", line);
			return NO_REC;
		}
		r->recs = tmp;
		r->cap = cap;
	}
	x = &r->recs[r->n];
	memset(x, 0, sizeof(*x));
	x->line = line;
	x->is_user = is_user ? 1 : 0;
	x->name = name;
	x->parent = parent;
	x->norm = -1;
	x->last_account_kid = NO_REC;
	x->ratio_hi = INFINITY;
	x->id = (uint32_t)r->n;
	return (long)r->n++;
}

/* ---------------------------------------------------------------- */
/* Lines and numbers                                                */
/* ---------------------------------------------------------------- */

/* Next line of r->buf from *pos, NUL-terminated in place, '\r' dropped. */
static char *next_line(struct reader *r, size_t *pos)
{
	char *line, *end;

	if (*pos > r->len)
		return NULL;
	line = r->buf + *pos;
	end = memchr(line, '\n', r->len - *pos);
	if (!end)
		end = r->buf + r->len;
	*end = '\0';
	*pos = (size_t)(end - r->buf) + 1;
	if (end > line && end[-1] == '\r')
		end[-1] = '\0';
	return line;
}

/* Decimal digits only, value <= max. */
static int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/*
 * A non-negative decimal number: digits, an optional fraction, an
 * optional exponent ("1200", "0.5", "1e3"), read by ts_decimal_read().
 * No sign, hex, inf or nan, nothing above DBL_MAX (several columns are
 * doubles).
 */
static int parse_number(const char *s, long double *out)
{
	long double v;

	if (ts_decimal_read(s, strlen(s), 0, &v) != TS_DECIMAL_OK ||
	    v > DBL_MAX)
		return -1;
	*out = v;
	return 0;
}

/* Relative slack for comparing usage sums computed in long double. */
static long double usage_slack(long double v)
{
	return v * 1e-12L;
}

/* ---------------------------------------------------------------- */
/* Usage sums, then the struct ts_tree                              */
/* ---------------------------------------------------------------- */

/*
 * Tree file: fill missing usage bottom-up and check given ones.  Nodes
 * are parents-first, so one backward pass sees all children first.  A
 * sum above DBL_MAX (the largest usage a line may give, and what Slurm's
 * double usage columns hold) is refused, not printed as inf.
 */
static int sum_usage(struct reader *r)
{
	struct ts_tree *t = r->tree;
	long double *kids = calloc(t->n, sizeof(*kids));
	size_t i;
	int rc = TS_OK;

	if (!kids)
		return ts_error_set(r->err, TS_ENOMEM, -1, "out of memory");
	for (i = t->n; i-- > 0 && rc == TS_OK;) {
		long line = (long)r->line_of[i];
		const char *name = ts_tree_name(t, i);

		if (t->is_user[i]) {
			/* given or 0: as ts_tree_add() stored it */
		} else if (!r->has_usage[i]) {
			t->usage[i] = kids[i];
		} else if (t->usage[i] + usage_slack(kids[i]) < kids[i]) {
			if (i == 0)
				rc = ts_error_set(
					r->err, TS_EINVAL, line,
					"line %ld: root usage %.6Lg is less than its children's sum %.6Lg",
					line, t->usage[i], kids[i]);
			else
				rc = ts_error_set(
					r->err, TS_EINVAL, line,
					"line %ld: account \"%s\" usage %.6Lg is less than its children's sum %.6Lg",
					line, qs(r, 0, name), t->usage[i],
					kids[i]);
			break;
		}
		if (t->usage[i] > DBL_MAX) {
			rc = ts_error_set(
				r->err, TS_ERANGE, line,
				"line %ld: usage of %s \"%s\" adds up to %.6Lg, above 1.8e308 (the largest usage a line may give)",
				line, i ? "account" : "the",
				qs(r, 0, i ? name : "root"), t->usage[i]);
			break;
		}
		if (i)
			kids[t->parent[i]] += t->usage[i];
	}
	free(kids);
	return rc;
}

static int tree_from_records(struct reader *r, struct ts_tree *t)
{
	struct ts_error terr = TS_ERROR_INIT;
	size_t i;

	ts_tree_reset(t);
	for (i = 0; i < r->n; i++) {
		const struct rec *x = &r->recs[i];
		long p = x->parent == NO_REC ? TS_NO_NODE : x->parent;

		if (ts_tree_add(t, p, x->name, x->is_user, x->shares, x->usage,
				x->id, &terr) < 0)
			return ts_error_set(r->err, terr.code, x->line,
					    "line %ld: %s", x->line, terr.msg);
	}
	if (ts_tree_finish(t, &terr))
		return ts_error_set(r->err, terr.code, -1, "%s", terr.msg);
	return TS_OK;
}

/* ---------------------------------------------------------------- */
/* The tree file                                                    */
/* ---------------------------------------------------------------- */

#define MAX_TOKENS 6

static size_t split_blanks(char *line, char **tok)
{
	size_t n = 0;
	char *p = strchr(line, '#');

	if (p)
		*p = '\0';
	p = line;
	for (;;) {
		while (*p && strchr(" \t\v\f\r", *p))
			p++;
		if (!*p)
			return n;
		if (n < MAX_TOKENS)
			tok[n] = p;
		n++;
		while (*p && !strchr(" \t\v\f\r", *p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

int ts_tree_file_shares(const char *s, uint32_t *out)
{
	uint64_t v;

	if (!strcmp(s, "parent")) {
		*out = TS_SHARES_PARENT;
		return 0;
	}
	if (parse_uint(s, TS_TREE_FILE_MAX_SHARES, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int ts_tree_file_usage(const char *s, long double *out)
{
	return parse_number(s, out);
}

static int parse_shares(struct reader *r, long line, const char *s,
			uint32_t *out)
{
	if (ts_tree_file_shares(s, out))
		return ts_error_set(
			r->err, TS_ESYNTAX, line,
			"line %ld: SHARES \"%s\" is not an integer 0..%u or parent",
			line, qs(r, 0, s), TS_TREE_FILE_MAX_SHARES);
	return TS_OK;
}

static int parse_usage(struct reader *r, long line, const char *s,
		       long double *out)
{
	if (parse_number(s, out))
		return ts_error_set(
			r->err, TS_ESYNTAX, line,
			"line %ld: USAGE \"%s\" is not a number 0..1.8e308",
			line, qs(r, 0, s));
	return TS_OK;
}

static int too_deep(struct reader *r, long line)
{
	return ts_error_set(r->err, TS_ERANGE, line,
			    "line %ld: deeper than %d levels", line,
			    TS_TREE_FILE_MAX_DEPTH);
}

/*
 * One line of a tree file, split into tok[0 .. n): root, account or user
 * (tree_file.h), checked and added to the tree.  *root_line is the line
 * that gave the root's usage, 0 until one has.  RET TS_OK or the error.
 */
static int tree_line(struct reader *r, long line, char **tok, size_t n,
		     long *root_line)
{
	struct ts_tree *t = r->tree;
	struct ts_error terr = TS_ERROR_INIT;
	int is_user;
	long parent, idx, dup;
	uint32_t shares;
	long double usage = 0;

	if (!strcmp(tok[0], "root")) {
		if (n != 2)
			return ts_error_set(
				r->err, TS_ESYNTAX, line,
				"line %ld: root takes one field, USAGE", line);
		if (*root_line)
			return ts_error_set(
				r->err, TS_EINVAL, line,
				"line %ld: root usage already given on line %ld",
				line, *root_line);
		*root_line = line;
		r->line_of[0] = (uint32_t)line;
		r->has_usage[0] = 1;
		return parse_usage(r, line, tok[1], &t->usage[0]);
	}
	if (!strcmp(tok[0], "account"))
		is_user = 0;
	else if (!strcmp(tok[0], "user"))
		is_user = 1;
	else
		return ts_error_set(
			r->err, TS_ESYNTAX, line,
			"line %ld: unknown kind \"%s\" (expected account, user or root)",
			line, qs(r, 0, tok[0]));
	if (n < 4)
		return ts_error_set(
			r->err, TS_ESYNTAX, line,
			"line %ld: %s needs NAME PARENT SHARES [USAGE]", line,
			tok[0]);
	if (n > 5)
		return ts_error_set(r->err, TS_ESYNTAX, line,
				    "line %ld: unexpected \"%s\" after USAGE",
				    line, qs(r, 0, tok[5]));
	if (!is_user && !strcmp(tok[1], "root"))
		return ts_error_set(
			r->err, TS_EINVAL, line,
			"line %ld: account name \"root\" is the implicit root",
			line);
	if (!strcmp(tok[2], "root"))
		parent = 0;
	else if ((parent = map_find(r, &r->accounts, tok[2], -2)) == NO_REC)
		return ts_error_set(
			r->err, TS_EINVAL, line,
			"line %ld: parent \"%s\" is not an account defined above",
			line, qs(r, 0, tok[2]));
	dup = is_user ? map_find(r, &r->users, tok[1], parent)
		      : map_find(r, &r->accounts, tok[1], -2);
	if (dup != NO_REC) {
		if (is_user)
			return ts_error_set(
				r->err, TS_EINVAL, line,
				"line %ld: user \"%s\" under \"%s\" already defined on line %ld",
				line, qs(r, 0, tok[1]), qs(r, 1, tok[2]),
				(long)r->line_of[dup]);
		return ts_error_set(
			r->err, TS_EINVAL, line,
			"line %ld: account \"%s\" already defined on line %ld",
			line, qs(r, 0, tok[1]), (long)r->line_of[dup]);
	}
	/* t->depth holds each node's depth until ts_tree_finish() */
	if (t->depth[parent] >= TS_TREE_FILE_MAX_DEPTH)
		return too_deep(r, line);
	if (parse_shares(r, line, tok[3], &shares))
		return r->err->code;
	if (n == 5 && parse_usage(r, line, tok[4], &usage))
		return r->err->code;
	idx = ts_tree_add(t, parent, tok[1], is_user, shares, usage,
			  (uint32_t)t->n, &terr);
	if (idx < 0)
		return ts_error_set(r->err, terr.code, line, "line %ld: %s",
				    line, terr.msg);
	t->depth[idx] = t->depth[parent] + 1;
	r->line_of[idx] = (uint32_t)line;
	r->has_usage[idx] = n == 5;
	return map_insert(r, is_user ? &r->users : &r->accounts, idx);
}

/*
 * The tree file, read straight into the tree: room for one node a line
 * and the names taken from the text, so nothing grows (and no array has
 * room to spare) however large the file.
 */
static int read_tree_file(struct reader *r)
{
	struct ts_error terr = TS_ERROR_INIT;
	struct ts_tree *t = r->tree;
	size_t pos = 0, lines = 0, i;
	long line = 0, root_line = 0;
	char *text, *tok[MAX_TOKENS];

	for (i = 0; i < r->len; i++)
		lines += r->buf[i] == '\n';
	if (r->len && r->buf[r->len - 1] != '\n')
		lines++;
	if (ts_tree_reserve(t, lines + 1, 0, &terr))
		return ts_error_set(r->err, terr.code, -1, "%s", terr.msg);
	r->line_of = calloc(lines + 1, sizeof(*r->line_of));
	r->has_usage = calloc(lines + 1, sizeof(*r->has_usage));
	if (!r->line_of || !r->has_usage)
		return ts_error_set(r->err, TS_ENOMEM, -1, "out of memory");
	if (ts_tree_add(t, TS_NO_NODE, "root", 0, 1, 0, 0, &terr) < 0)
		return ts_error_set(r->err, terr.code, -1, "%s", terr.msg);
	t->depth[0] = 0;
	while ((text = next_line(r, &pos))) {
		size_t n = split_blanks(text, tok);

		line++;
		if (n && tree_line(r, line, tok, n, &root_line))
			return r->err->code;
	}
	if (sum_usage(r))
		return r->err->code;
	ts_tree_trim_names(t);
	if (ts_tree_finish(t, &terr))
		return ts_error_set(r->err, terr.code, -1, "%s", terr.msg);
	return TS_OK;
}

/* ---------------------------------------------------------------- */
/* Saved sshare -P / -p output                                      */
/* ---------------------------------------------------------------- */

enum col {
	COL_ACCOUNT,
	COL_USER,
	COL_RAWSHARES,
	COL_RAWUSAGE,
	COL_NORMSHARES,
	COL_FAIRSHARE,
	COL_ID,
	COL_COUNT
};

static const char *const col_names[COL_COUNT] = {
	"Account",    "User",	   "RawShares", "RawUsage",
	"NormShares", "FairShare", "ID",
};

#define MAX_FIELDS 64

struct header {
	int col[COL_COUNT]; /* field index or -1 */
	size_t fields;	    /* fields per row, without -p's trailing '|' */
};

/*
 * Split at '|' into f[0 .. MAX_FIELDS] (room for -p's trailing empty
 * field); RET the field count, which may exceed what was stored.
 */
static size_t split_bars(char *line, char **f)
{
	size_t n = 0;

	for (;;) {
		char *bar = strchr(line, '|');

		if (n <= MAX_FIELDS)
			f[n] = line;
		n++;
		if (!bar)
			return n;
		*bar = '\0';
		line = bar + 1;
	}
}

/*
 * The sshare header line: which field holds each known column.  RET TS_OK
 * or TS_ESYNTAX (too many fields, a column twice, a needed one missing).
 */
static int read_header(struct reader *r, long line, char *text,
		       struct header *h)
{
	char *f[MAX_FIELDS + 1];
	size_t n = split_bars(text, f), i;
	int c;

	if (n > 1 && n <= MAX_FIELDS + 1 && !*f[n - 1])
		n--; /* -p ends every line with '|' */
	if (n > MAX_FIELDS)
		return ts_error_set(r->err, TS_ESYNTAX, line,
				    "line %ld: %zu header fields, at most %d",
				    line, n, MAX_FIELDS);
	for (c = 0; c < COL_COUNT; c++)
		h->col[c] = -1;
	for (i = 0; i < n; i++) {
		for (c = 0; c < COL_COUNT; c++) {
			if (strcmp(f[i], col_names[c]))
				continue;
			if (h->col[c] >= 0)
				return ts_error_set(
					r->err, TS_ESYNTAX, line,
					"line %ld: column %s appears twice",
					line, col_names[c]);
			h->col[c] = (int)i;
		}
	}
	for (c = 0; c <= COL_RAWUSAGE; c++)
		if (h->col[c] < 0)
			return ts_error_set(
				r->err, TS_ESYNTAX, line,
				"line %ld: sshare header lacks the %s column (save with sshare -a -l -P)",
				line, col_names[c]);
	h->fields = n;
	return TS_OK;
}

static int parse_norm(struct reader *r, long line, const char *s, double *out)
{
	long double v;

	*out = -1;
	if (!*s)
		return TS_OK;
	if (parse_number(s, &v) || v > 1.0L + HALF_ULP_6)
		return ts_error_set(
			r->err, TS_ESYNTAX, line,
			"line %ld: NormShares \"%s\" is not a number 0..1",
			line, qs(r, 0, s));
	*out = (double)v;
	return TS_OK;
}

/* One data row into a record; the account's parent is set later. */
static int sshare_row(struct reader *r, long line, char **f, size_t n,
		      const struct header *h, int *fair_tree)
{
	const char *acct, *user, *raw;
	uint64_t v;
	size_t indent;
	long idx;
	struct rec *x;

	if (n > 1 && n == h->fields + 1 && !*f[n - 1])
		n--;
	if (n != h->fields)
		return ts_error_set(r->err, TS_ESYNTAX, line,
				    "line %ld: %zu fields, the header has %zu",
				    line, n, h->fields);
	acct = f[h->col[COL_ACCOUNT]];
	user = f[h->col[COL_USER]];
	indent = strspn(acct, " ");
	acct += indent;
	if (!*acct)
		return ts_error_set(r->err, TS_ESYNTAX, line,
				    "line %ld: empty Account", line);
	if (r->n == 0 && (*user || strcmp(acct, "root") || indent))
		return ts_error_set(
			r->err, TS_EINVAL, line,
			"line %ld: the first row must be the root account (save with sshare -a -l -P)",
			line);
	if (r->n > 0 && !*user && !strcmp(acct, "root"))
		return ts_error_set(r->err, TS_EINVAL, line,
				    "line %ld: a second root row", line);
	idx = add_rec(r, line, *user != '\0', *user ? user : acct, NO_REC);
	if (idx == NO_REC)
		return r->err->code;
	x = &r->recs[idx];
	x->indent = indent;
	raw = f[h->col[COL_RAWSHARES]];
	if (idx == 0)
		x->shares = 1; /* sshare prints none for the root */
	else if (ts_tree_file_shares(raw, &x->shares))
		return ts_error_set(
			r->err, TS_ESYNTAX, line,
			"line %ld: RawShares \"%s\" is not an integer 0..%u or parent",
			line, qs(r, 0, raw), TS_TREE_FILE_MAX_SHARES);
	if (parse_uint(f[h->col[COL_RAWUSAGE]], UINT64_MAX, &v))
		return ts_error_set(
			r->err, TS_ESYNTAX, line,
			"line %ld: RawUsage \"%s\" is not an integer", line,
			qs(r, 0, f[h->col[COL_RAWUSAGE]]));
	x->usage = (long double)v;
	if (h->col[COL_NORMSHARES] >= 0 &&
	    parse_norm(r, line, f[h->col[COL_NORMSHARES]], &x->norm))
		return r->err->code;
	if (h->col[COL_ID] >= 0) {
		if (parse_uint(f[h->col[COL_ID]], UINT32_MAX, &v))
			return ts_error_set(
				r->err, TS_ESYNTAX, line,
				"line %ld: ID \"%s\" is not an integer", line,
				qs(r, 0, f[h->col[COL_ID]]));
		x->id = (uint32_t)v;
	}
	/* Fair Tree leaves an account's FairShare empty; classic does not. */
	if (idx > 0 && !x->is_user && h->col[COL_FAIRSHARE] >= 0 &&
	    *fair_tree < 0)
		*fair_tree = *f[h->col[COL_FAIRSHARE]] ? 0 : 1;
	if (x->is_user)
		x->acct = acct;
	return TS_OK;
}

/* The level a child of p joins: p, or above a Fairshare=parent p. */
static long level_of(const struct reader *r, long p)
{
	while (p > 0 && r->recs[p].shares == TS_SHARES_PARENT)
		p = r->recs[p].parent;
	return p;
}

/* raw/NormShares interval of one row; 0 when it says nothing. */
static int ratio_of(const struct rec *x, double *lo, double *hi)
{
	if (x->shares == TS_SHARES_PARENT || !x->shares || x->norm <= 0)
		return 0;
	*lo = x->shares / (x->norm + HALF_ULP_6) * (1 - 1e-9);
	*hi = x->norm > HALF_ULP_6
		      ? x->shares / (x->norm - HALF_ULP_6) * (1 + 1e-9)
		      : INFINITY;
	return 1;
}

/*
 * Does row b fit as a child of p (rule (b) and (c) above)?  fair_tree is
 * the input's mode (-1: unknown, then the level_shares bound is skipped).
 */
static int fits_under(const struct reader *r, long p, const struct rec *b,
		      int fair_tree)
{
	const struct rec *pr = &r->recs[p], *lv = &r->recs[level_of(r, p)];
	long double slack = 1 + usage_slack(pr->usage) * 1000;
	double lo, hi;

	if (pr->kids_usage + b->usage > pr->usage + slack)
		return 0;
	if (!ratio_of(b, &lo, &hi) || !lv->ratio_known)
		return 1;
	if (hi < lv->ratio_lo || lo > lv->ratio_hi)
		return 0;
	if (fair_tree >= 0) {
		/* level_shares <= ratio_hi (Fair Tree) or * NormShares */
		double scale = fair_tree      ? 1.0
			       : lv->norm > 0 ? lv->norm + HALF_ULP_6
					      : 1.0;
		double max_level = floor(lv->ratio_hi * scale + 1e-7);

		if (lv == &r->recs[0] && !fair_tree && lv->norm <= 0)
			return 1;
		if ((double)(lv->level_raw + b->shares) > max_level)
			return 0;
	}
	return 1;
}

static void join_level(struct reader *r, long idx)
{
	struct rec *x = &r->recs[idx], *pr = &r->recs[x->parent];
	struct rec *lv = &r->recs[level_of(r, x->parent)];
	double lo, hi;

	pr->kids_usage += x->usage;
	if (x->shares != TS_SHARES_PARENT)
		lv->level_raw += x->shares;
	if (!ratio_of(x, &lo, &hi))
		return;
	if (!lv->ratio_known) {
		lv->ratio_lo = lo;
		lv->ratio_hi = hi;
		lv->ratio_known = 1;
		return;
	}
	if (lo > lv->ratio_lo)
		lv->ratio_lo = lo;
	if (hi < lv->ratio_hi)
		lv->ratio_hi = hi;
}

/*
 * Stack index of the parent of row x: by its indentation, or for a user
 * row without it the last account, or for an account the deepest that
 * fits.  RET the index, or -1 with r->err set.
 */
static long parent_slot(struct reader *r, const struct rec *x,
			const long *stack, size_t depth, int indented,
			int fair_tree)
{
	size_t k;

	if (indented) {
		if (x->indent >= 1 && x->indent <= depth)
			return (long)x->indent - 1;
		ts_error_set(
			r->err, TS_EINVAL, x->line,
			"line %ld: Account indented by %zu blanks, expected 1 to %zu",
			x->line, x->indent, depth);
		return -1;
	}
	if (x->is_user)
		return (long)depth - 1;
	for (k = depth; k-- > 0;) {
		long prev = r->recs[stack[k]].last_account_kid;

		if (prev != NO_REC && strcmp(r->recs[prev].name, x->name) >= 0)
			continue;
		if (fits_under(r, stack[k], x, fair_tree))
			return (long)k;
	}
	ts_error_set(
		r->err, TS_EINVAL, x->line,
		"line %ld: cannot place account \"%s\": no account above it has room for its shares and usage in sshare's order",
		x->line, qs(r, 0, x->name));
	return -1;
}

/* Give every row its parent; accounts go on the stack of the path. */
static int place_rows(struct reader *r, int fair_tree)
{
	long *stack = malloc(r->n * sizeof(*stack));
	size_t depth = 1, i;
	int indented = 0;

	if (!stack)
		return ts_error_set(r->err, TS_ENOMEM, -1, "out of memory");
	for (i = 1; i < r->n; i++)
		indented |= r->recs[i].indent > 0;
	stack[0] = 0;
	for (i = 1; i < r->n; i++) {
		struct rec *x = &r->recs[i];
		long k = parent_slot(r, x, stack, depth, indented, fair_tree);
		long p, dup;

		if (k < 0)
			break;
		if (k + 1 > TS_TREE_FILE_MAX_DEPTH) {
			too_deep(r, x->line);
			break;
		}
		p = stack[k];
		if (x->is_user && strcmp(x->acct, r->recs[p].name)) {
			if (indented)
				ts_error_set(
					r->err, TS_EINVAL, x->line,
					"line %ld: user \"%s\" of account \"%s\" is indented under \"%s\"",
					x->line, qs(r, 0, x->name),
					qs(r, 1, x->acct),
					qs(r, 2, r->recs[p].name));
			else
				ts_error_set(
					r->err, TS_EINVAL, x->line,
					"line %ld: user \"%s\" of account \"%s\" does not follow that account's row (rows must stay in sshare's order)",
					x->line, qs(r, 0, x->name),
					qs(r, 1, x->acct));
			break;
		}
		x->parent = p;
		join_level(r, (long)i);
		if (x->is_user)
			continue;
		dup = map_find(r, &r->accounts, x->name, -2);
		if (dup != NO_REC) {
			ts_error_set(
				r->err, TS_EINVAL, x->line,
				"line %ld: account \"%s\" appears twice (first on line %ld)",
				x->line, qs(r, 0, x->name), r->recs[dup].line);
			break;
		}
		r->recs[p].last_account_kid = (long)i;
		depth = (size_t)k + 1;
		stack[depth++] = (long)i;
		if (map_insert(r, &r->accounts, (long)i))
			break;
	}
	free(stack);
	return r->err->code;
}

/*
 * Saved sshare output: the header, then every row as a record, then the
 * rows placed in the tree (place_rows()).  OUT *fair_tree as the first
 * account row tells: 1 (FairShare empty: Fair Tree), 0, or -1 when no
 * row does.  RET TS_OK or the first error.
 */
static int read_sshare(struct reader *r, int *fair_tree)
{
	size_t pos = 0, nf;
	long line = 0;
	char *text, *f[MAX_FIELDS + 1];
	struct header h;
	long header_line = 0;

	*fair_tree = -1;
	while ((text = next_line(r, &pos))) {
		line++;
		if (!*text)
			continue;
		if (!header_line) {
			if (read_header(r, line, text, &h))
				return r->err->code;
			header_line = line;
			continue;
		}
		nf = split_bars(text, f);
		if (nf > MAX_FIELDS + 1)
			return ts_error_set(
				r->err, TS_ESYNTAX, line,
				"line %ld: %zu fields, the header has %zu",
				line, nf, h.fields);
		if (sshare_row(r, line, f, nf, &h, fair_tree))
			return r->err->code;
	}
	if (!header_line)
		return ts_error_set(r->err, TS_ESYNTAX, 1,
				    "line 1: no sshare header");
	if (!r->n)
		return ts_error_set(
			r->err, TS_EINVAL, header_line,
			"line %ld: no association rows after the header",
			header_line);
	if (map_insert(r, &r->accounts, 0))
		return r->err->code;
	return place_rows(r, *fair_tree);
}

/* ---------------------------------------------------------------- */
/* Entry point                                                      */
/* ---------------------------------------------------------------- */

static enum ts_tree_format detect(const char *text, size_t len)
{
	size_t i = 0;

	/* The first line that is not blank or a comment decides. */
	while (i < len) {
		size_t end = i;
		int blank = 1;

		while (end < len && text[end] != '\n')
			end++;
		for (; i < end; i++) {
			if (text[i] == '#')
				break;
			if (text[i] == '|')
				return TS_TREE_FORMAT_SSHARE;
			if (!strchr(" \t\v\f\r", text[i]))
				blank = 0;
		}
		if (!blank)
			return TS_TREE_FORMAT_TREE;
		i = end + 1;
	}
	return TS_TREE_FORMAT_TREE;
}

/* Both entry points: buf[0 .. len) is the text, buf[len] writable. */
static int parse(char *buf, size_t len, enum ts_tree_format format,
		 struct ts_tree *t, struct ts_tree_file_info *info,
		 struct ts_error *err)
{
	struct ts_error local = TS_ERROR_INIT;
	struct reader r;
	const char *nul;
	size_t lines = 0, i;
	int fair_tree = -1, rc;

	memset(&r, 0, sizeof(r));
	r.err = err ? err : &local;
	ts_tree_reset(t);
	if (info) {
		info->format = format;
		info->fair_tree = -1;
		info->lines = 0;
	}
	nul = len ? memchr(buf, '\0', len) : NULL;
	if (nul) {
		long line = 1;
		const char *p;

		for (p = buf; p < nul; p++)
			line += *p == '\n';
		return ts_error_set(r.err, TS_ESYNTAX, line,
				    "line %ld: NUL byte in the text", line);
	}
	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	if (len && buf[len - 1] != '\n')
		lines++;
	if (format == TS_TREE_FORMAT_AUTO)
		format = detect(buf, len);
	buf[len] = '\0';
	r.buf = buf;
	r.len = len;
	if (format == TS_TREE_FORMAT_SSHARE) {
		rc = read_sshare(&r, &fair_tree);
		if (rc == TS_OK)
			rc = tree_from_records(&r, t);
	} else {
		format = TS_TREE_FORMAT_TREE;
		r.tree = t;
		rc = read_tree_file(&r);
	}
	if (info) {
		info->format = format;
		info->fair_tree = fair_tree;
		info->lines = lines;
	}
	free(r.accounts.slot);
	free(r.users.slot);
	free(r.recs);
	free(r.line_of);
	free(r.has_usage);
	if (rc != TS_OK)
		ts_tree_reset(t);
	return rc;
}

int ts_tree_file_parse(const char *text, size_t len, enum ts_tree_format format,
		       struct ts_tree *t, struct ts_tree_file_info *info,
		       struct ts_error *err)
{
	char *buf = malloc(len + 1);
	int rc;

	ts_tree_reset(t);
	if (!buf)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	if (len)
		memcpy(buf, text, len);
	rc = parse(buf, len, format, t, info, err);
	free(buf);
	return rc;
}

int ts_tree_file_parse_in_place(char *text, size_t len,
				enum ts_tree_format format, struct ts_tree *t,
				struct ts_tree_file_info *info,
				struct ts_error *err)
{
	return parse(text, len, format, t, info, err);
}
