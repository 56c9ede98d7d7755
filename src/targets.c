/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * targets.c - Maui fair-share targets, caps and floors mapped into a
 * factor in [0,1] (seed 003, 6.3.2.1 and 6.3.3.1), and the targets file.
 *
 * Maui's fair-share priority component is T - U (FSPOLICY, percentage
 * points) or 1 - U/T (FSPOLICY ending in '%'); it is positive under
 * target, 0 on target, negative over.  A factor must sit in [0,1], so
 * with 0.5 standing for Maui's 0 (PBS's "on target", seed 000):
 *
 *   difference  f = 0.5 + (T - U) / 200      T, U in 0..100, f in [0,1]
 *   ratio       f = 2^-(U / T) = 2^((1 - U/T) - 1)
 *               a monotone map of Maui's 1 - U/T that is PBS's
 *               fairshare_factor with T as fairshare_perc: 1 at U = 0,
 *               0.5 at U = T, 0.25 at U = 2T, -> 0.
 *   cap         min(f, 0.5)      only lowers
 *   floor       max(f, 0.5)      only raises
 *
 * Edge cases: T = 0 under ratio gives 0.5 at U = 0 (on target) and 0 for
 * any U > 0 (no 0/0); U outside 0..100 is clamped, NaN counts as 0.
 *
 * Targets file, one entry a line, '#' to end of line is a comment:
 *   account NAME [TARGET] [fscap=CAP]
 *   user    NAME[@ACCOUNT] [TARGET] [fscap=CAP]
 *   user    NAME@* [TARGET] [fscap=CAP]      Maui's user credential
 *   group | qos | class  NAME [TARGET] [fscap=CAP]
 * (at least one of the two).  TARGET is a decimal percentage 0..100
 * (digits, optional fraction), optionally followed by '-' (cap) or '+'
 * (floor).  CAP is a decimal amount of usage, or a percentage with '%'.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "file_trust.h"
#include "id_hash.h"
#include "targets.h"
#include "whole_file.h"

#define MAX_FILE_BYTES (16L << 20) /* a targets file is small */

/*
 * An entry's kind, its key's first byte: the association tree's account
 * and user entries, and the credentials of Maui's other types (a Maui
 * account is the tree's account entry).
 */
#define KIND_ACCOUNT	'a'
#define KIND_ASSOC_USER 'u' /* user NAME, user NAME@ACCOUNT */
#define KIND_CRED_USER	'U' /* user NAME@*: all of NAME's accounts */
#define KIND_GROUP	'g'
#define KIND_QOS	'q'
#define KIND_CLASS	'c'

/* The kind of each credential type's entries. */
static const char cred_kind[TS_CRED_N] = {
	[TS_CRED_USER] = KIND_CRED_USER,  [TS_CRED_GROUP] = KIND_GROUP,
	[TS_CRED_ACCOUNT] = KIND_ACCOUNT, [TS_CRED_QOS] = KIND_QOS,
	[TS_CRED_CLASS] = KIND_CLASS,
};

/* The credential type of a kind other than KIND_ASSOC_USER. */
static enum ts_cred kind_cred(char kind)
{
	int c;

	for (c = 0; c < TS_CRED_N; c++)
		if (cred_kind[c] == kind)
			return (enum ts_cred)c;
	return TS_CRED_ACCOUNT;
}

/* The string after "user NAME@" that makes Maui's user credential. */
#define ALL_ACCOUNTS "*"

struct entry {
	struct ts_target target;
	int has_target;
	struct ts_fscap fscap; /* kind TS_FSCAP_NONE: none */
	char kind;	       /* KIND_* */
	size_t name;	       /* offset in strings */
	size_t account;	       /* offset in strings; SIZE_MAX if none */
};

struct ts_targets {
	struct entry *entry;
	size_t n, cap;
	size_t n_fscap, n_target;
	size_t n_tree_fscap;	  /* of accounts and associations' users */
	size_t n_cred[TS_CRED_N]; /* entries of each credential type */
	size_t n_assoc_user;	  /* user NAME and user NAME@ACCOUNT entries */
	char *strings;
	size_t strings_len, strings_cap;
	size_t *index;	   /* entry + 1; 0 is empty */
	size_t index_size; /* power of two, > 2 * n */
	uint64_t serial;   /* ts_targets_serial() */
};

double ts_targets_factor(const struct ts_target *tg, double usage_pct,
			 enum ts_fs_policy policy)
{
	double t = tg->percent, u = usage_pct, f;

	if (!(u > 0)) /* NaN too */
		u = 0;
	if (u > 100)
		u = 100;
	if (!(t > 0))
		t = 0;
	if (t > 100)
		t = 100;

	if (policy == TS_FS_POLICY_RATIO) {
		if (t == 0)
			f = u == 0 ? 0.5 : 0.0;
		else
			f = exp2(-(u / t));
	} else {
		f = 0.5 + (t - u) / 200.0;
	}
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	if (tg->kind == TS_TARGET_CAP && f > 0.5)
		f = 0.5;
	if (tg->kind == TS_TARGET_FLOOR && f < 0.5)
		f = 0.5;
	return f;
}

/* FNV-1a over (kind, name, account). */
static size_t key_hash(char kind, const char *name, size_t name_len,
		       const char *account, size_t account_len)
{
	uint64_t h = TS_FNV1A_BASIS;

	h = ts_fnv1a(h, &kind, 1);
	h = ts_fnv1a(h, name, name_len);
	if (account) {
		h = ts_fnv1a(h, "@", 1);
		h = ts_fnv1a(h, account, account_len);
	}
	return (size_t)h;
}

static int key_equal(const struct ts_targets *tg, const struct entry *e,
		     char kind, const char *name, size_t name_len,
		     const char *account, size_t account_len)
{
	const char *en = tg->strings + e->name;

	if (e->kind != kind || strlen(en) != name_len ||
	    memcmp(en, name, name_len))
		return 0;
	if (!account)
		return e->account == SIZE_MAX;
	if (e->account == SIZE_MAX)
		return 0;
	en = tg->strings + e->account;
	return strlen(en) == account_len && !memcmp(en, account, account_len);
}

static const struct entry *find_entry(const struct ts_targets *tg, char kind,
				      const char *name, size_t name_len,
				      const char *account, size_t account_len)
{
	size_t h;

	if (!tg || !tg->index_size)
		return NULL;
	h = key_hash(kind, name, name_len, account, account_len) &
	    (tg->index_size - 1);
	for (; tg->index[h]; h = (h + 1) & (tg->index_size - 1)) {
		const struct entry *e = &tg->entry[tg->index[h] - 1];

		if (key_equal(tg, e, kind, name, name_len, account,
			      account_len))
			return e;
	}
	return NULL;
}

static void index_insert(struct ts_targets *tg, size_t i)
{
	const struct entry *e = &tg->entry[i];
	const char *name = tg->strings + e->name;
	const char *acct =
		e->account == SIZE_MAX ? NULL : tg->strings + e->account;
	size_t h = key_hash(e->kind, name, strlen(name), acct,
			    acct ? strlen(acct) : 0) &
		   (tg->index_size - 1);

	while (tg->index[h])
		h = (h + 1) & (tg->index_size - 1);
	tg->index[h] = i + 1;
}

static int grow_index(struct ts_targets *tg, struct ts_error *err)
{
	size_t size = tg->index_size ? tg->index_size : 16, i;
	size_t *index;

	if (2 * (tg->n + 1) < tg->index_size)
		return TS_OK;
	while (2 * (tg->n + 1) >= size)
		size *= 2;
	index = calloc(size, sizeof(*index));
	if (!index)
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot grow the targets index");
	free(tg->index);
	tg->index = index;
	tg->index_size = size;
	for (i = 0; i < tg->n; i++)
		index_insert(tg, i);
	return TS_OK;
}

static int add_string(struct ts_targets *tg, const char *s, size_t len,
		      size_t *off, struct ts_error *err)
{
	if (tg->strings_len + len + 1 > tg->strings_cap) {
		size_t cap = tg->strings_cap ? tg->strings_cap : 256;
		char *tmp;

		while (cap < tg->strings_len + len + 1)
			cap *= 2;
		tmp = realloc(tg->strings, cap);
		if (!tmp)
			return ts_error_set(err, TS_ENOMEM, -1,
					    "cannot grow the targets names");
		tg->strings = tmp;
		tg->strings_cap = cap;
	}
	memcpy(tg->strings + tg->strings_len, s, len);
	tg->strings[tg->strings_len + len] = '\0';
	*off = tg->strings_len;
	tg->strings_len += len + 1;
	return TS_OK;
}

/* One blank-separated word of a line: [start, start + len). */
struct word {
	const char *start;
	size_t len;
};

static int is_space_not_newline(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * Split line[0 .. len) into at most max words, up to a '#'.
 * RET the number of words found (max + 1 if there are more).
 */
static size_t split(const char *line, size_t len, struct word *w, size_t max)
{
	size_t i = 0, n = 0;

	while (i < len && line[i] != '#') {
		size_t start;

		if (is_space_not_newline(line[i])) {
			i++;
			continue;
		}
		start = i;
		while (i < len && !is_space_not_newline(line[i]) &&
		       line[i] != '#')
			i++;
		if (n == max)
			return max + 1;
		w[n].start = line + start;
		w[n].len = i - start;
		n++;
	}
	return n;
}

static int word_is(const struct word *w, const char *s)
{
	return w->len == strlen(s) && !memcmp(w->start, s, w->len);
}

/*
 * A decimal DIGITS[.DIGITS] or .DIGITS, all of s[0 .. len), no exponent:
 * ts_decimal_read()'s plain numbers.  RET TS_OK with *value; TS_ESYNTAX
 * (not such a number), TS_ERANGE (past any long double: *value set to
 * inf, out of every range), TS_ENOMEM.
 */
static int parse_decimal(const char *s, size_t len, long double *value)
{
	switch (ts_decimal_read(s, len, 1, value)) {
	case TS_DECIMAL_OK:
		return TS_OK;
	case TS_DECIMAL_RANGE:
		*value = INFINITY;
		return TS_ERANGE;
	case TS_DECIMAL_NOMEM:
		return TS_ENOMEM;
	default:
		return TS_ESYNTAX;
	}
}

/* TARGET: a decimal, then '-' or '+' or nothing. */
static int parse_target(const struct word *w, long line, struct ts_target *t,
			struct ts_error *err)
{
	size_t len = w->len;
	char q[TS_QUOTE_SIZE];
	long double value;
	int rc;

	t->kind = TS_TARGET_TARGET;
	if (len && (w->start[len - 1] == '-' || w->start[len - 1] == '+')) {
		t->kind = w->start[len - 1] == '-' ? TS_TARGET_CAP
						   : TS_TARGET_FLOOR;
		len--;
	}
	rc = parse_decimal(w->start, len, &value);
	if (rc == TS_ENOMEM)
		return ts_error_set(err, TS_ENOMEM, line,
				    "line %ld: out of memory", line);
	if (rc == TS_ESYNTAX)
		return ts_error_set(
			err, TS_ESYNTAX, line,
			"line %ld: target '%s' is not a percentage (N, N- or N+)",
			line, ts_quote(q, sizeof(q), w->start, w->len));
	if (value > 100)
		return ts_error_set(err, TS_ERANGE, line,
				    "line %ld: target '%s' out of range 0..100",
				    line,
				    ts_quote(q, sizeof(q), w->start, len));
	t->percent = (double)value;
	t->line = line;
	return TS_OK;
}

#define FSCAP_KEY     "fscap="
#define FSCAP_ABS_MAX 1e18L /* far past any usage; keeps sums finite */

/* fscap=N or fscap=N%; col is the word's column, for the message. */
static int parse_fscap(const struct word *w, long line, long col,
		       struct ts_fscap *c, struct ts_error *err)
{
	size_t key = strlen(FSCAP_KEY), len = w->len - key;
	const char *v = w->start + key;
	char q[TS_QUOTE_SIZE];
	long double value;
	int rc;

	c->kind = TS_FSCAP_ABSOLUTE;
	if (len && v[len - 1] == '%') {
		c->kind = TS_FSCAP_PERCENT;
		len--;
	}
	rc = parse_decimal(v, len, &value);
	ts_quote(q, sizeof(q), v, w->len - key);
	if (rc == TS_ENOMEM)
		return ts_error_set(err, TS_ENOMEM, line,
				    "line %ld: out of memory", line);
	if (rc == TS_ESYNTAX)
		return ts_error_set(
			err, TS_ESYNTAX, line,
			"line %ld column %ld: fscap '%s' is not an amount of usage (N) or a percentage (N%%)",
			line, col, q);
	if (c->kind == TS_FSCAP_PERCENT && value > 100)
		return ts_error_set(
			err, TS_ERANGE, line,
			"line %ld column %ld: fscap '%s' out of range 0..100%%",
			line, col, q);
	if (value > FSCAP_ABS_MAX)
		return ts_error_set(
			err, TS_ERANGE, line,
			"line %ld column %ld: fscap '%s' out of range 0..1e18",
			line, col, q);
	c->value = (double)value;
	c->line = line;
	return TS_OK;
}

/* A target's name: NAME, or NAME@ACCOUNT for a user. */
struct name {
	const char *name, *account; /* account NULL: none given */
	size_t name_len, account_len;
};

/*
 * The entry's NAME in w, for an entry whose first word is kind_word.  A
 * user's NAME@* makes *kind KIND_CRED_USER; '@' is part of no other name.
 */
static int parse_entity_name(const struct word *w, const char *kind_word,
			     long line, char *kind, struct name *nm,
			     struct ts_error *err)
{
	const char *at = memchr(w->start, '@', w->len);
	char q[TS_QUOTE_SIZE];

	nm->name = w->start;
	nm->name_len = w->len;
	nm->account = NULL;
	nm->account_len = 0;
	if (!at)
		return TS_OK;
	if (*kind != KIND_ASSOC_USER)
		return ts_error_set(err, TS_ESYNTAX, line,
				    "line %ld: %s name '%s' contains '@'", line,
				    kind_word,
				    ts_quote(q, sizeof(q), w->start, w->len));
	nm->name_len = (size_t)(at - w->start);
	nm->account = at + 1;
	nm->account_len = w->len - nm->name_len - 1;
	if (!nm->name_len || !nm->account_len ||
	    memchr(nm->account, '@', nm->account_len))
		return ts_error_set(
			err, TS_ESYNTAX, line,
			"line %ld: '%s' is not NAME@ACCOUNT or NAME@" ALL_ACCOUNTS,
			line, ts_quote(q, sizeof(q), w->start, w->len));
	if (nm->account_len == strlen(ALL_ACCOUNTS) &&
	    !memcmp(nm->account, ALL_ACCOUNTS, nm->account_len)) {
		*kind = KIND_CRED_USER;
		nm->account = NULL;
		nm->account_len = 0;
	}
	return TS_OK;
}

/* Append a checked, not yet present target to tg and its index. */
static int add_entry(struct ts_targets *tg, char kind, const struct name *nm,
		     const struct ts_target *t, const struct ts_fscap *c,
		     long line, struct ts_error *err)
{
	struct entry *e;

	if (tg->n == tg->cap) {
		size_t cap = tg->cap ? 2 * tg->cap : 16;
		struct entry *tmp = realloc(tg->entry, cap * sizeof(*tmp));

		if (!tmp)
			return ts_error_set(err, TS_ENOMEM, line,
					    "cannot grow the targets");
		tg->entry = tmp;
		tg->cap = cap;
	}
	if (grow_index(tg, err))
		return TS_ENOMEM;
	e = &tg->entry[tg->n];
	e->target = *t;
	e->has_target = t->line != 0;
	e->fscap = *c;
	tg->n_fscap += c->kind != TS_FSCAP_NONE;
	tg->n_tree_fscap += c->kind != TS_FSCAP_NONE &&
			    (kind == KIND_ACCOUNT || kind == KIND_ASSOC_USER);
	tg->n_target += e->has_target;
	e->kind = kind;
	e->account = SIZE_MAX;
	if (add_string(tg, nm->name, nm->name_len, &e->name, err) ||
	    (nm->account &&
	     add_string(tg, nm->account, nm->account_len, &e->account, err)))
		return TS_ENOMEM;
	index_insert(tg, tg->n++);
	return TS_OK;
}

static int word_has_prefix(const struct word *w, const char *prefix)
{
	size_t n = strlen(prefix);

	return w->len >= n && !memcmp(w->start, prefix, n);
}

/*
 * The fields after NAME: [TARGET] [fscap=CAP], at least one, each once.
 * t->line stays 0 without a target, c->kind TS_FSCAP_NONE without a cap.
 */
static int parse_entry_fields(const char *s, const struct word *w, size_t n,
			      long line, const char *kind_word,
			      struct ts_target *t, struct ts_fscap *c,
			      struct ts_error *err)
{
	char q[TS_QUOTE_SIZE];
	size_t k;
	int rc;

	memset(t, 0, sizeof(*t));
	memset(c, 0, sizeof(*c));
	if (n < 3)
		return ts_error_set(
			err, TS_ESYNTAX, line,
			"line %ld: expected '%s NAME TARGET', '%s NAME fscap=CAP' or both",
			line, kind_word, kind_word);
	for (k = 2; k < n; k++) {
		long col = (long)(w[k].start - s) + 1;

		if (word_has_prefix(&w[k], FSCAP_KEY)) {
			if (c->kind != TS_FSCAP_NONE)
				return ts_error_set(
					err, TS_EINVAL, line,
					"line %ld column %ld: fscap given twice",
					line, col);
			rc = parse_fscap(&w[k], line, col, c, err);
		} else if (memchr(w[k].start, '=', w[k].len)) {
			return ts_error_set(
				err, TS_EKEY, line,
				"line %ld column %ld: unknown key '%s' (the only key is fscap)",
				line, col,
				ts_quote(q, sizeof(q), w[k].start, w[k].len));
		} else if (t->line || c->kind != TS_FSCAP_NONE) {
			return ts_error_set(
				err, TS_ESYNTAX, line,
				"line %ld column %ld: unexpected text '%s' (TARGET comes before fscap=, once)",
				line, col,
				ts_quote(q, sizeof(q), w[k].start, w[k].len));
		} else {
			rc = parse_target(&w[k], line, t, err);
		}
		if (rc)
			return rc;
	}
	return TS_OK;
}

/* The kind of an entry's first word; 0 for none. */
static char kind_of_word(const struct word *w)
{
	static const struct {
		const char *word;
		char kind;
	} kinds[] = {
		{ "account", KIND_ACCOUNT }, { "user", KIND_ASSOC_USER },
		{ "group", KIND_GROUP },     { "qos", KIND_QOS },
		{ "class", KIND_CLASS },
	};
	size_t k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (word_is(w, kinds[k].word))
			return kinds[k].kind;
	return 0;
}

/* One line: blank, or KIND NAME [TARGET] [fscap=CAP] (targets.h). */
static int parse_target_line(struct ts_targets *tg, const char *s, size_t len,
			     long line, struct ts_error *err)
{
	struct word w[4];
	size_t n = split(s, len, w, 4);
	const struct entry *dup;
	struct ts_target t;
	struct ts_fscap c;
	struct name nm;
	char q[TS_QUOTE_SIZE], kind_word[8];
	char kind;
	int rc;

	if (memchr(s, '\0', len))
		return ts_error_set(err, TS_ESYNTAX, line,
				    "line %ld: NUL byte in the line", line);
	if (n == 0)
		return TS_OK;
	kind = kind_of_word(&w[0]);
	if (!kind)
		return ts_error_set(
			err, TS_EKEY, line,
			"line %ld: unknown kind '%s' (expected account, user, group, qos or class)",
			line, ts_quote(q, sizeof(q), w[0].start, w[0].len));
	memcpy(kind_word, w[0].start, w[0].len);
	kind_word[w[0].len] = '\0';
	if (n > 4)
		return ts_error_set(
			err, TS_ESYNTAX, line,
			"line %ld: unexpected text after the target", line);
	rc = parse_entry_fields(s, w, n, line, kind_word, &t, &c, err);
	if (rc)
		return rc;
	rc = parse_entity_name(&w[1], kind_word, line, &kind, &nm, err);
	if (rc)
		return rc;
	if (kind == KIND_ACCOUNT && word_is(&w[1], "root"))
		return ts_error_set(
			err, TS_EINVAL, line,
			"line %ld: account root always has 100%% of the usage; a target there means nothing",
			line);
	dup = find_entry(tg, kind, nm.name, nm.name_len, nm.account,
			 nm.account_len);
	if (dup)
		return ts_error_set(
			err, TS_EINVAL, line,
			"line %ld: duplicate target for %s %s (first on line %ld)",
			line, kind_word,
			ts_quote(q, sizeof(q), w[1].start, w[1].len),
			dup->target.line ? dup->target.line : dup->fscap.line);
	if (kind != KIND_ASSOC_USER)
		tg->n_cred[kind_cred(kind)]++;
	else
		tg->n_assoc_user++;
	return add_entry(tg, kind, &nm, &t, &c, line, err);
}

int ts_targets_parse(const char *text, size_t len, struct ts_targets **out,
		     struct ts_error *err)
{
	static uint64_t parsed; /* serials handed out */
	struct ts_targets *tg = calloc(1, sizeof(*tg));
	size_t pos = 0;
	long line = 0;

	*out = NULL;
	if (!tg)
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot allocate targets");
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		int rc = parse_target_line(tg, text + pos, end - pos, ++line,
					   err);

		if (rc) {
			ts_targets_free(tg);
			return rc;
		}
		pos = end + 1;
	}
	tg->serial = __atomic_add_fetch(&parsed, 1, __ATOMIC_RELAXED);
	*out = tg;
	return TS_OK;
}

int ts_targets_load(const char *path, const struct ts_trust *trust,
		    struct ts_targets **out, struct ts_error *err)
{
	struct ts_error why = TS_ERROR_INIT;
	char *buf;
	size_t len;
	int rc;

	*out = NULL;
	if (trust) {
		rc = ts_trust_read("", path, trust, MAX_FILE_BYTES, &buf, &len,
				   &why);
		if (rc)
			return ts_error_set(err, rc, -1,
					    rc == TS_EINVAL ? "%s"
							    : "cannot read %s",
					    why.msg);
	} else {
		rc = ts_whole_file_read(path, MAX_FILE_BYTES, &buf, &len, &why);
		if (rc)
			return ts_error_set(err, rc, -1, "cannot read %s: %s",
					    path, why.msg);
	}
	rc = ts_targets_parse(buf, len, out, err);
	free(buf);
	return rc;
}

void ts_targets_free(struct ts_targets *tg)
{
	if (!tg)
		return;
	free(tg->entry);
	free(tg->strings);
	free(tg->index);
	free(tg);
}

size_t ts_targets_count(const struct ts_targets *tg)
{
	return tg ? tg->n : 0;
}

size_t ts_targets_fscap_count(const struct ts_targets *tg)
{
	return tg ? tg->n_fscap : 0;
}

size_t ts_targets_tree_fscap_count(const struct ts_targets *tg)
{
	return tg ? tg->n_tree_fscap : 0;
}

size_t ts_targets_target_count(const struct ts_targets *tg)
{
	return tg ? tg->n_target : 0;
}

uint64_t ts_targets_serial(const struct ts_targets *tg)
{
	return tg ? tg->serial : 0;
}

static const struct entry *find_named(const struct ts_targets *tg, int is_user,
				      const char *name, const char *account)
{
	return find_entry(tg, is_user ? KIND_ASSOC_USER : KIND_ACCOUNT, name,
			  strlen(name), account, account ? strlen(account) : 0);
}

const struct ts_fscap *ts_targets_find_fscap(const struct ts_targets *tg,
					     int is_user, const char *name,
					     const char *account)
{
	const struct entry *e = find_named(tg, is_user, name, account);

	return e && e->fscap.kind != TS_FSCAP_NONE ? &e->fscap : NULL;
}

const struct ts_target *ts_targets_find(const struct ts_targets *tg,
					int is_user, const char *name,
					const char *account)
{
	const struct entry *e = find_named(tg, is_user, name, account);

	return e && e->has_target ? &e->target : NULL;
}

static const struct entry *find_cred(const struct ts_targets *tg,
				     enum ts_cred c, const char *name)
{
	if ((unsigned)c >= TS_CRED_N || !name)
		return NULL;
	return find_entry(tg, cred_kind[c], name, strlen(name), NULL, 0);
}

const struct ts_target *ts_targets_find_cred(const struct ts_targets *tg,
					     enum ts_cred c, const char *name)
{
	const struct entry *e = find_cred(tg, c, name);

	return e && e->has_target ? &e->target : NULL;
}

const struct ts_fscap *ts_targets_find_cred_fscap(const struct ts_targets *tg,
						  enum ts_cred c,
						  const char *name)
{
	const struct entry *e = find_cred(tg, c, name);

	return e && e->fscap.kind != TS_FSCAP_NONE ? &e->fscap : NULL;
}

size_t ts_targets_cred_count(const struct ts_targets *tg, enum ts_cred c)
{
	return tg && (unsigned)c < TS_CRED_N ? tg->n_cred[c] : 0;
}

size_t ts_targets_cred_each(const struct ts_targets *tg, enum ts_cred c,
			    ts_targets_cred_fn fn, void *arg)
{
	size_t i, calls = 0;

	if (!tg || (unsigned)c >= TS_CRED_N)
		return 0;
	for (i = 0; i < tg->n; i++) {
		const struct entry *e = &tg->entry[i];

		if (e->kind != cred_kind[c] || !e->has_target)
			continue;
		fn(tg->strings + e->name, &e->target, arg);
		calls++;
	}
	return calls;
}

size_t ts_targets_cred_each_fscap(const struct ts_targets *tg, enum ts_cred c,
				  ts_targets_fscap_fn fn, void *arg)
{
	size_t i, calls = 0;

	if (!tg || (unsigned)c >= TS_CRED_N)
		return 0;
	for (i = 0; i < tg->n; i++) {
		const struct entry *e = &tg->entry[i];

		if (e->kind != cred_kind[c] || e->fscap.kind == TS_FSCAP_NONE)
			continue;
		fn(tg->strings + e->name, &e->fscap, arg);
		calls++;
	}
	return calls;
}

/* User node i's own target: user NAME@ACCOUNT, else user NAME. */
static const struct ts_target *user_own(const struct ts_targets *tg,
					const struct ts_tree *t, size_t i)
{
	const char *account = ts_tree_name(t, (size_t)t->parent[i]);
	const struct ts_target *found =
		ts_targets_find(tg, 1, ts_tree_name(t, i), account);

	return found ? found : ts_targets_find(tg, 1, ts_tree_name(t, i), NULL);
}

const struct ts_target *ts_targets_applicable(const struct ts_targets *tg,
					      const struct ts_tree *t, size_t i,
					      long *from)
{
	const struct ts_target *found = NULL;
	long p;

	if (from)
		*from = TS_NO_NODE;
	if (!tg || i == 0 || i >= t->n)
		return NULL;
	if (t->is_user[i]) {
		found = user_own(tg, t, i);
		p = t->parent[i];
	} else {
		p = (long)i;
	}
	if (found) {
		if (from)
			*from = (long)i;
		return found;
	}
	for (; p > 0; p = t->parent[p]) {
		found = ts_targets_find(tg, 0, ts_tree_name(t, (size_t)p),
					NULL);
		if (found) {
			if (from)
				*from = p;
			return found;
		}
	}
	return NULL;
}

/*
 * ts_targets_applicable() of node i, its parent's done (from[parent]
 * set): its own entry, else its parent's target.  A pass over the tree
 * so looks up each node once, and a user only when an entry names one.
 */
static const struct ts_target *
applicable_after_parent(const struct ts_targets *tg, const struct ts_tree *t,
			size_t i, long *from)
{
	const struct ts_target *own;
	long p = t->parent[i];

	if (t->is_user[i])
		own = tg->n_assoc_user ? user_own(tg, t, i) : NULL;
	else
		own = ts_targets_find(tg, 0, ts_tree_name(t, i), NULL);
	if (own) {
		from[i] = (long)i;
		return own;
	}
	from[i] = p > 0 ? from[p] : TS_NO_NODE;
	if (from[i] == TS_NO_NODE)
		return NULL;
	return ts_targets_find(tg, 0, ts_tree_name(t, (size_t)from[i]), NULL);
}

size_t ts_targets_apply(const struct ts_targets *tg, const struct ts_tree *t,
			const long double *usage_norm, enum ts_fs_policy policy,
			double *fs_factor, long *from)
{
	size_t i, set = 0;

	for (i = 0; i < t->n; i++) {
		long src;
		const struct ts_target *tt;

		if (from && tg && i > 0) {
			tt = applicable_after_parent(tg, t, i, from);
			src = from[i];
		} else {
			tt = ts_targets_applicable(tg, t, i, &src);
			if (from)
				from[i] = src;
		}
		if (!tt)
			continue;
		fs_factor[i] = ts_targets_factor(
			tt, (double)(100.0L * usage_norm[src]), policy);
		set++;
	}
	return set;
}
