/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * share_changes.c - share changes from sacctmgr's transactions
 * (share_changes.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bar_table.h"
#include "sacct_jobs.h"
#include "share_changes.h"
#include "tree.h"

/* slurmdb.h's SLURMDB_FS_USE_PARENT: how Fairshare=parent is stored. */
#define SHARES_PARENT_STORED 0x7fffffffUL

enum { C_TIME, C_ACTION, C_WHERE, C_INFO, C_COUNT };

static const char *const col_name[C_COUNT] = { "Time", "Action", "Where",
					       "Info" };

/* Association ids met on Add lines: id -> tree node (or negative). */
struct id_node {
	unsigned long id;
	long node;
};

struct ctx {
	const struct ts_share_hooks *h;
	struct ts_share_summary *sum;
	struct ts_share_changes *out;
	struct id_node *ids;
	size_t n_ids, cap_ids;
	long line;
};

static void report_line(struct ctx *c, const char *fmt, unsigned long id)
{
	char msg[160];

	if (!c->h->report)
		return;
	snprintf(msg, sizeof(msg), fmt, id);
	c->h->report(c->h->arg, c->line, msg);
}

/*
 * The value of key in s, as "key=VALUE" at its start or after ", ":
 * VALUE up to the next ',' or the end, quotes ('...') dropped, into
 * buf.  RET buf, or NULL when key is not there.
 */
static const char *info_value(const char *s, const char *key, char *buf,
			      size_t size)
{
	size_t kl = strlen(key), n;
	const char *p = s;

	for (; (p = strstr(p, key)); p += kl) {
		const char *v = p + kl;

		if ((p != s && (p < s + 2 || p[-1] != ' ' || p[-2] != ',')) ||
		    *v != '=')
			continue;
		v++;
		if (*v == '\'')
			v++;
		n = strcspn(v, ",'");
		if (n >= size)
			n = size - 1;
		memcpy(buf, v, n);
		buf[n] = 0;
		return buf;
	}
	return NULL;
}

/* The next "id_assoc=N" of *p (moved past it); RET 1 with *id, or 0. */
static int next_id(const char **p, unsigned long *id)
{
	const char *m = strstr(*p, "id_assoc=");
	char *end;

	if (!m)
		return 0;
	*id = strtoul(m + 9, &end, 10);
	*p = end;
	return end > m + 9;
}

static long node_of_id(const struct ctx *c, unsigned long id, int *known)
{
	size_t i;

	/* The last Add of an id wins (an id reused after a removal). */
	for (i = c->n_ids; i-- > 0;)
		if (c->ids[i].id == id) {
			*known = 1;
			return c->ids[i].node;
		}
	*known = 0;
	return -1;
}

/* Twice the room in *p (64 at first) of elements of size bytes. */
static int grow_room(void **p, size_t *cap, size_t size, struct ts_error *err)
{
	size_t n = *cap ? 2 * *cap : 64;
	void *q = realloc(*p, n * size);

	if (!q)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	*p = q;
	*cap = n;
	return TS_OK;
}

/* An Add Associations line: which association its id is. */
static int add_line(struct ctx *c, const char *where, const char *info,
		    struct ts_error *err)
{
	char acct[256], user[256];
	const char *p = where;
	unsigned long id;

	if (!next_id(&p, &id) || !info_value(info, "acct", acct, sizeof(acct)))
		return TS_OK; /* not an association of ours to follow */
	if (!info_value(info, "user", user, sizeof(user)))
		user[0] = 0;
	if (c->n_ids == c->cap_ids &&
	    grow_room((void **)&c->ids, &c->cap_ids, sizeof(*c->ids), err))
		return TS_ENOMEM;
	c->ids[c->n_ids].id = id;
	c->ids[c->n_ids++].node = c->h->resolve(c->h->arg, acct, user);
	return TS_OK;
}

static int push(struct ctx *c, const struct ts_share_change *ch,
		struct ts_error *err)
{
	struct ts_share_changes *o = c->out;

	if (o->n == o->cap &&
	    grow_room((void **)&o->c, &o->cap, sizeof(*o->c), err))
		return TS_ENOMEM;
	o->c[o->n++] = *ch;
	c->sum->changes++;
	return TS_OK;
}

/*
 * A Modify Associations line: with shares= in its Info, one change for
 * each id_assoc its Where names (those not known reported).
 */
static int modify_line(struct ctx *c, int64_t t, const char *where,
		       const char *info, struct ts_error *err)
{
	struct ts_share_change ch = { .time = t, .line = c->line };
	const char *p = where;
	char v[32], *end;
	unsigned long id, shares;
	int rc;

	if (!info_value(info, "shares", v, sizeof(v))) {
		c->sum->other++;
		return TS_OK;
	}
	shares = strtoul(v, &end, 10);
	if (!*v || *end || *v == '-' || shares > SHARES_PARENT_STORED) {
		c->sum->bad++;
		report_line(c,
			    "shares are not a whole number up to %lu: skipped",
			    SHARES_PARENT_STORED);
		return TS_OK;
	}
	ch.shares = shares == SHARES_PARENT_STORED ? TS_SHARES_PARENT
						   : (uint32_t)shares;
	while (next_id(&p, &id)) {
		int known;

		ch.node = node_of_id(c, id, &known);
		if (!known) {
			c->sum->unknown_id++;
			report_line(
				c,
				"id_assoc=%lu: no Add Associations line above names it: skipped",
				id);
			continue;
		}
		if (ch.node < 0) {
			c->sum->unknown_assoc++;
			report_line(c, "id_assoc=%lu: not in the tree: skipped",
				    id);
			continue;
		}
		if ((rc = push(c, &ch, err)))
			return rc;
	}
	return TS_OK;
}

int ts_share_changes_parse_in_place(char *text, size_t len,
				    const struct ts_share_hooks *h,
				    struct ts_share_changes *out,
				    struct ts_share_summary *sum,
				    struct ts_error *err)
{
	struct ctx c = { .h = h, .sum = sum, .out = out };
	char *p = text, *end = text + len, *line, **f = NULL;
	int col[C_COUNT];
	size_t nf = 0, k;
	int rc = TS_OK;

	text[len] = 0;
	while (!rc && (line = ts_bar_next_line(&p, end))) {
		int64_t t;

		c.line++;
		sum->lines++;
		if (c.line == 1) {
			nf = ts_bar_header(line, col_name, C_COUNT, col);
			for (k = 0; k < C_COUNT; k++)
				if (col[k] < 0)
					rc = ts_error_set(
						err, TS_EINVAL, 1,
						"line 1: no field %s in the header (sacctmgr -P list transactions)",
						col_name[k]);
			if (!rc && !(f = malloc(nf * sizeof(*f))))
				rc = ts_error_set(err, TS_ENOMEM, -1,
						  "out of memory");
			continue;
		}
		if (ts_bar_split(line, f, nf) != nf) {
			sum->bad++;
			report_line(
				&c,
				"field count differs from the header: skipped",
				0);
			continue;
		}
		if (!strcmp(f[col[C_ACTION]], "Add Associations")) {
			rc = add_line(&c, f[col[C_WHERE]], f[col[C_INFO]], err);
			sum->other++;
			continue;
		}
		if (strcmp(f[col[C_ACTION]], "Modify Associations")) {
			sum->other++;
			continue;
		}
		t = ts_sacct_time(f[col[C_TIME]]);
		if (t <= 0) {
			sum->bad++;
			report_line(&c, "Time is not a time: skipped", 0);
			continue;
		}
		rc = modify_line(&c, t, f[col[C_WHERE]], f[col[C_INFO]], err);
	}
	if (!c.line && !rc)
		rc = ts_error_set(err, TS_EINVAL, 1,
				  "line 1: empty, no header");
	free(f);
	free(c.ids);
	return rc;
}

void ts_share_changes_free(struct ts_share_changes *c)
{
	free(c->c);
	memset(c, 0, sizeof(*c));
}
