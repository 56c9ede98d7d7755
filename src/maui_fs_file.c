// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maui_fs_file.c - Maui's fair-share data file FS.<EPOCHTIME>, read and
 * written (maui_fs_file.h).
 */
#include "maui_fs_file.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decimal.h"
#include "utc_time.h"

/* the keyword of each type in the file, in enum ts_cred order */
static const char *const mfs_keyword[TS_CRED_N] = {
	"User", "Group", "Account", "QOS", "Class",
};

/* One line of the text being read. */
struct mfs_line {
	const char *s;
	size_t len;
	long no; /* 1-based */
};

static int mfs_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* the next field of l from *pos: its start and length (0: none left) */
static size_t mfs_field(const struct mfs_line *l, size_t *pos, size_t *start)
{
	size_t i = *pos;

	while (i < l->len && mfs_blank(l->s[i]))
		i++;
	*start = i;
	while (i < l->len && !mfs_blank(l->s[i]))
		i++;
	*pos = i;
	return i - *start;
}

static int mfs_syntax(struct ts_error *err, const struct mfs_line *l,
		      size_t col, const char *what)
{
	char q[TS_QUOTE_SIZE];

	ts_quote(q, sizeof(q), l->s + col, l->len - col);
	return ts_error_set(err, TS_ESYNTAX, l->no,
			    "line %ld, column %zu: %s at '%s'", l->no, col + 1,
			    what, q);
}

/*
 * The window length of a header comment "... (Duration: N Seconds) ...";
 * a comment without "Duration:" leaves *duration as it is.
 */
static int mfs_header(const struct mfs_line *l, uint32_t *duration,
		      struct ts_error *err)
{
	static const char key[] = "Duration:";
	const size_t klen = sizeof(key) - 1;
	uint64_t v = 0;
	size_t i, d;

	for (i = 0; i + klen <= l->len; i++)
		if (!memcmp(l->s + i, key, klen))
			break;
	if (i + klen > l->len)
		return TS_OK;
	i += klen;
	while (i < l->len && mfs_blank(l->s[i]))
		i++;
	for (d = i; d < l->len && l->s[d] >= '0' && l->s[d] <= '9'; d++) {
		v = v * 10 + (uint64_t)(l->s[d] - '0');
		if (v > UINT32_MAX)
			return mfs_syntax(
				err, l, i,
				"a window length above 4294967295 seconds");
	}
	if (d == i)
		return mfs_syntax(
			err, l, i,
			"no window length in seconds after \"Duration:\"");
	*duration = (uint32_t)v;
	return TS_OK;
}

/* the amount in field [start, start + n) of l, finite and >= 0 */
static int mfs_amount(const struct mfs_line *l, size_t start, size_t n,
		      double *out, struct ts_error *err)
{
	long double v;
	int rc = ts_decimal_read(l->s + start, n, 0, &v);

	if (rc == TS_DECIMAL_NOMEM)
		return ts_error_set(err, TS_ENOMEM, l->no,
				    "line %ld: no memory", l->no);
	if (rc == TS_DECIMAL_RANGE || (rc == TS_DECIMAL_OK && v > DBL_MAX))
		return ts_error_set(
			err, TS_ERANGE, l->no,
			"line %ld, column %zu: an amount above the largest double",
			l->no, start + 1);
	if (rc != TS_DECIMAL_OK)
		return mfs_syntax(
			err, l, start,
			"an amount must be an unsigned decimal number");
	*out = (double)v;
	return TS_OK;
}

/* a data line's type keyword: its enum ts_cred, -1 for TOTAL, -2 unknown */
static int mfs_type(const char *s, size_t n)
{
	int c;

	if (n == 5 && !strncasecmp(s, "TOTAL", 5))
		return -1;
	for (c = 0; c < TS_CRED_N; c++)
		if (strlen(mfs_keyword[c]) == n &&
		    !strncasecmp(s, mfs_keyword[c], n))
			return c;
	return -2;
}

static int mfs_push(struct ts_maui_fs_file *f, size_t *cap, int type,
		    const char *name, size_t n, double amount, long line)
{
	struct ts_maui_fs_entry *e;

	if (f->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;

		e = realloc(f->entry, nc * sizeof(*e));
		if (!e)
			return TS_ENOMEM;
		f->entry = e;
		*cap = nc;
	}
	e = &f->entry[f->n];
	e->name = malloc(n + 1);
	if (!e->name)
		return TS_ENOMEM;
	memcpy(e->name, name, n);
	e->name[n] = '\0';
	e->type = (enum ts_cred)type;
	e->amount = amount;
	e->line = line;
	f->n++;
	return TS_OK;
}

/*
 * One "TYPE NAME AMOUNT" or "TOTAL AMOUNT" line into f; *total_line is
 * the line of the TOTAL read so far (0: none).
 */
static int mfs_data_line(const struct mfs_line *l, struct ts_maui_fs_file *f,
			 size_t *cap, long *total_line, struct ts_error *err)
{
	size_t pos = 0, ts, tn, ns, nn, as, an, xs, i;
	double amount;
	int type, rc;

	for (i = 0; i < l->len; i++) {
		unsigned char b = (unsigned char)l->s[i];

		if ((b < 0x20 && !mfs_blank((char)b)) || b >= 0x7f)
			return mfs_syntax(err, l, i,
					  "a byte that is no printable ASCII");
	}
	tn = mfs_field(l, &pos, &ts);
	type = mfs_type(l->s + ts, tn);
	if (type == -2)
		return mfs_syntax(
			err, l, ts,
			"not User, Group, Account, QOS, Class or TOTAL");
	if (type == -1) {
		an = mfs_field(l, &pos, &as);
		if (!an)
			return mfs_syntax(err, l, pos,
					  "TOTAL without an amount");
		if (mfs_field(l, &pos, &xs))
			return mfs_syntax(err, l, xs,
					  "more than an amount after TOTAL");
		if (*total_line)
			return ts_error_set(
				err, TS_ESYNTAX, l->no,
				"line %ld, column %zu: a second TOTAL (the first on line %ld)",
				l->no, ts + 1, *total_line);
		*total_line = l->no;
		return mfs_amount(l, as, an, &f->total, err);
	}
	nn = mfs_field(l, &pos, &ns);
	an = mfs_field(l, &pos, &as);
	if (!nn || !an)
		return mfs_syntax(err, l, pos, "a line needs TYPE NAME AMOUNT");
	if (mfs_field(l, &pos, &xs))
		return mfs_syntax(err, l, xs, "more than TYPE NAME AMOUNT");
	if (nn > TS_MAUI_FS_NAME_MAX)
		return mfs_syntax(err, l, ns, "a name longer than 255 bytes");
	rc = mfs_amount(l, as, an, &amount, err);
	if (rc != TS_OK)
		return rc;
	if (mfs_push(f, cap, type, l->s + ns, nn, amount, l->no) != TS_OK)
		return ts_error_set(err, TS_ENOMEM, l->no,
				    "line %ld: no memory", l->no);
	return TS_OK;
}

static int mfs_cmp(const void *a, const void *b)
{
	const struct ts_maui_fs_entry *x =
		*(const struct ts_maui_fs_entry *const *)a;
	const struct ts_maui_fs_entry *y =
		*(const struct ts_maui_fs_entry *const *)b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* no credential twice in a type: sorted, a name next to itself */
static int mfs_unique(const struct ts_maui_fs_file *f, struct ts_error *err)
{
	const struct ts_maui_fs_entry **by;
	size_t i;
	int rc = TS_OK;

	if (f->n < 2)
		return TS_OK;
	by = malloc(f->n * sizeof(*by));
	if (!by)
		return ts_error_set(err, TS_ENOMEM, -1, "no memory");
	for (i = 0; i < f->n; i++)
		by[i] = &f->entry[i];
	qsort(by, f->n, sizeof(*by), mfs_cmp);
	for (i = 1; i < f->n && rc == TS_OK; i++) {
		const struct ts_maui_fs_entry *a = by[i - 1], *b = by[i];
		char q[TS_QUOTE_SIZE];

		if (mfs_cmp(&a, &b))
			continue;
		if (a->line > b->line) {
			a = by[i];
			b = by[i - 1];
		}
		ts_quote(q, sizeof(q), b->name, strlen(b->name));
		rc = ts_error_set(
			err, TS_ESYNTAX, b->line,
			"line %ld, column 1: %s '%s' again (first on line %ld)",
			b->line, mfs_keyword[b->type], q, a->line);
	}
	free(by);
	return rc;
}

/* every category at most TOTAL, give or take the file's rounding */
static int mfs_sums(const struct ts_maui_fs_file *f, struct ts_error *err)
{
	int c;

	for (c = 0; c < TS_CRED_N; c++) {
		double sum = 0, slack = 0.001;
		long last = 0;
		size_t i;

		for (i = 0; i < f->n; i++) {
			if (f->entry[i].type != (enum ts_cred)c)
				continue;
			sum += f->entry[i].amount;
			slack += 0.001;
			last = f->entry[i].line;
		}
		if (!(sum <= f->total + slack + f->total * 1e-12)) {
			char s[32], t[32];

			ts_decimal_format(sum, s, sizeof(s));
			ts_decimal_format(f->total, t, sizeof(t));
			return ts_error_set(
				err, TS_ERANGE, last,
				"line %ld: the %s lines sum to %s, more than TOTAL %s",
				last, mfs_keyword[c], s, t);
		}
	}
	return TS_OK;
}

int ts_maui_fs_parse(const char *text, size_t len, struct ts_maui_fs_file *out,
		     struct ts_error *err)
{
	struct ts_maui_fs_file f = { 0 };
	struct mfs_line l = { text, 0, 0 };
	size_t cap = 0, at = 0;
	long total_line = 0;
	int rc = TS_OK;

	memset(out, 0, sizeof(*out));
	while (at < len && rc == TS_OK) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t pos = 0, start;

		l.s = text + at;
		l.len = nl ? (size_t)(nl - l.s) : len - at;
		l.no++;
		at += l.len + 1;
		if (!mfs_field(&l, &pos, &start))
			continue;
		if (l.s[start] == '#') {
			/* comments are Maui's; only the header's length counts */
			if (!f.duration)
				rc = mfs_header(&l, &f.duration, err);
			continue;
		}
		rc = mfs_data_line(&l, &f, &cap, &total_line, err);
	}
	if (rc == TS_OK && !total_line)
		rc = ts_error_set(err, TS_ESYNTAX, l.no ? l.no : 1,
				  "line %ld: no TOTAL line", l.no ? l.no : 1);
	if (rc == TS_OK)
		rc = mfs_unique(&f, err);
	if (rc == TS_OK)
		rc = mfs_sums(&f, err);
	if (rc != TS_OK) {
		ts_maui_fs_free(&f);
		return rc;
	}
	*out = f;
	return TS_OK;
}

void ts_maui_fs_free(struct ts_maui_fs_file *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->entry[i].name);
	free(f->entry);
	memset(f, 0, sizeof(*f));
}

int ts_maui_fs_epoch(const char *path, int64_t *epoch, struct ts_error *err)
{
	const char *base = strrchr(path, '/'), *p;
	char q[TS_QUOTE_SIZE];
	int64_t v = 0;

	base = base ? base + 1 : path;
	if (!strncmp(base, "FS.", 3) && base[3] && strlen(base + 3) <= 12) {
		for (p = base + 3; *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (*p - '0');
		if (!*p) {
			*epoch = v;
			return TS_OK;
		}
	}
	ts_quote(q, sizeof(q), base, strlen(base));
	return ts_error_set(
		err, TS_EINVAL, -1,
		"'%s': not a Maui fair-share file name (FS.<EPOCHTIME>)", q);
}

double ts_maui_fs_sum(const struct ts_maui_fs_file *f, enum ts_cred c)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->entry[i].type == c)
			sum += f->entry[i].amount;
	return sum;
}

/* text being written: grows as needed; a failed append leaves ok 0 */
struct mfs_out {
	char *s;
	size_t len, cap;
	int ok;
};

static void mfs_append(struct mfs_out *o, const char *a, const char *b,
		       const char *c)
{
	const char *part[3] = { a, b, c };
	int i;

	for (i = 0; i < 3 && o->ok; i++) {
		size_t n = strlen(part[i]);

		if (o->len + n + 1 > o->cap) {
			size_t nc = 2 * (o->len + n + 1);
			char *s = realloc(o->s, nc);

			if (!s) {
				o->ok = 0;
				break;
			}
			o->s = s;
			o->cap = nc;
		}
		memcpy(o->s + o->len, part[i], n + 1);
		o->len += n;
	}
}

/* a name the file can carry: 1..255 printable ASCII bytes, no blank */
static int mfs_name_ok(const char *name)
{
	size_t n = strlen(name), i;

	if (!n || n > TS_MAUI_FS_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)name[i] <= 0x20 ||
		    (unsigned char)name[i] >= 0x7f)
			return 0;
	return 1;
}

int ts_maui_fs_format(const struct ts_maui_fs_file *f, int64_t start,
		      char **text, size_t *len, struct ts_error *err)
{
	struct mfs_out o = { NULL, 0, 0, 1 };
	char num[40], when[32], dur[16];
	size_t i;
	int c;

	for (i = 0; i < f->n; i++) {
		const struct ts_maui_fs_entry *e = &f->entry[i];
		char q[TS_QUOTE_SIZE];

		if (!mfs_name_ok(e->name)) {
			ts_quote(q, sizeof(q), e->name, strlen(e->name));
			return ts_error_set(
				err, TS_EINVAL, (long)i + 1,
				"%s '%s': a name must be 1 to 255 printable bytes without blanks",
				mfs_keyword[e->type], q);
		}
		if (!isfinite(e->amount) || e->amount < 0)
			return ts_error_set(
				err, TS_EINVAL, (long)i + 1,
				"%s '%s': amount not finite or negative",
				mfs_keyword[e->type], e->name);
	}
	if (!isfinite(f->total) || f->total < 0)
		return ts_error_set(err, TS_EINVAL, -1,
				    "TOTAL not finite or negative");
	snprintf(dur, sizeof(dur), "%" PRIu32, f->duration);
	mfs_append(&o, "# Fairshare Data File (Duration: ", dur,
		   " Seconds) Starting: ");
	mfs_append(&o, ts_utc_time(start, when, sizeof(when)), "\n", "");
	for (c = 0; c < TS_CRED_N; c++)
		for (i = 0; i < f->n; i++) {
			if (f->entry[i].type != (enum ts_cred)c)
				continue;
			ts_decimal_format(f->entry[i].amount, num, sizeof(num));
			mfs_append(&o, mfs_keyword[c], " ", f->entry[i].name);
			mfs_append(&o, " ", num, "\n");
		}
	ts_decimal_format(f->total, num, sizeof(num));
	mfs_append(&o, "TOTAL ", num, "\n");
	if (!o.ok) {
		free(o.s);
		return ts_error_set(err, TS_ENOMEM, -1, "no memory");
	}
	*text = o.s;
	*len = o.len;
	return TS_OK;
}
