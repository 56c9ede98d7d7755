/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cred_shares.c - a cycle's table of Maui's credentials, their usage and
 * their targets, looked up per job (see cred_shares.h).
 */
#include <stdlib.h>

#include "cred_shares.h"

/* A row's usage: ts_cred_usage_pct() into 0..100, NaN as 0. */
static double kept_pct(const struct ts_cred_usage *cu, enum ts_cred c,
		       uint32_t id)
{
	double u = cu ? ts_cred_usage_pct(cu, c, id) : 0.0;

	if (!(u > 0))
		return 0.0;
	return u > 100 ? 100.0 : u;
}

/* Rows of one type being filled; room for every row was made first. */
struct share_fill {
	struct ts_cred_share *row;
	size_t n;
	enum ts_cred c;
	const struct ts_cred_usage *cu;
	ts_cred_id_of id_of;
	void *arg;
	size_t unresolved;
};

/* ts_targets_cred_fn: a row for a target whose name resolves. */
static void add_target_row(const char *name, const struct ts_target *target,
			   void *arg)
{
	struct share_fill *f = arg;
	uint32_t id = f->id_of ? f->id_of(f->c, name, f->arg) : TS_CRED_ID_NONE;

	if (id == TS_CRED_ID_NONE) {
		f->unresolved++;
		return;
	}
	f->row[f->n].id = id;
	f->row[f->n].usage_pct = kept_pct(f->cu, f->c, id);
	f->row[f->n].target = target;
	f->n++;
}

/* By id, then rows without a target, then targets in the file's order. */
static int cmp_share(const void *a, const void *b)
{
	const struct ts_cred_share *x = a, *y = b;
	long lx = x->target ? x->target->line : 0;
	long ly = y->target ? y->target->line : 0;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (lx > ly) - (lx < ly);
}

/*
 * One row an id, in cmp_share() order: the first row of each id, with
 * the first target among them.  RET the rows kept.
 */
static size_t merge_same_ids(struct ts_cred_share *row, size_t n)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		struct ts_cred_share *last = kept ? &row[kept - 1] : NULL;

		if (last && last->id == row[i].id) {
			if (!last->target)
				last->target = row[i].target;
			continue;
		}
		row[kept++] = row[i];
	}
	return kept;
}

/* Room for need rows of type c; the rows held are kept. */
static int grow_rows(struct ts_cred_shares *s, enum ts_cred c, size_t need,
		     struct ts_error *err)
{
	struct ts_cred_share *tmp;

	if (need <= s->cap[c])
		return TS_OK;
	tmp = realloc(s->row[c], need * sizeof(*tmp));
	if (!tmp)
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot allocate %zu %s rows", need,
				    ts_cred_name(c));
	s->row[c] = tmp;
	s->cap[c] = need;
	return TS_OK;
}

/* The rows of type c into s->row[c], which has room for them all. */
static size_t fill_type_rows(struct ts_cred_shares *s, enum ts_cred c,
			     const struct ts_cred_usage *cu,
			     const struct ts_targets *tg, ts_cred_id_of id_of,
			     void *arg)
{
	struct share_fill f = { s->row[c], 0, c, cu, id_of, arg, 0 };
	size_t i;

	for (i = 0; cu && i < cu->w[c].n; i++) {
		f.row[f.n].id = cu->w[c].id[i];
		f.row[f.n].usage_pct = kept_pct(cu, c, cu->w[c].id[i]);
		f.row[f.n].target = NULL;
		f.n++;
	}
	ts_targets_cred_each(tg, c, add_target_row, &f);
	if (f.n)
		qsort(f.row, f.n, sizeof(*f.row), cmp_share);
	s->n[c] = merge_same_ids(f.row, f.n);
	return f.unresolved;
}

int ts_cred_shares_take(struct ts_cred_shares *s,
			const struct ts_cred_usage *cu,
			const struct ts_targets *tg, ts_cred_id_of id_of,
			void *arg, struct ts_error *err)
{
	size_t unresolved = 0;
	int c;

	/* Room first: growing keeps the rows, so a failure changes none. */
	for (c = 0; c < TS_CRED_N; c++) {
		size_t need = (cu ? cu->w[c].n : 0) +
			      ts_targets_cred_count(tg, (enum ts_cred)c);

		if (grow_rows(s, (enum ts_cred)c, need, err) != TS_OK)
			return TS_ENOMEM;
	}
	for (c = 0; c < TS_CRED_N; c++)
		unresolved +=
			fill_type_rows(s, (enum ts_cred)c, cu, tg, id_of, arg);
	s->unresolved = unresolved;
	return TS_OK;
}

const struct ts_cred_share *ts_cred_shares_find(const struct ts_cred_shares *s,
						enum ts_cred c, uint32_t id)
{
	size_t lo = 0, hi;

	if (!s || (unsigned)c >= TS_CRED_N)
		return NULL;
	hi = s->n[c];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ts_cred_share *r = &s->row[c][mid];

		if (r->id == id)
			return r;
		if (r->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void ts_cred_shares_job(const struct ts_cred_shares *s,
			const uint32_t ids[TS_CRED_N],
			const double weight[TS_CRED_N], double fs_weight,
			enum ts_fs_policy policy, struct ts_cred_fs *out)
{
	struct ts_cred_term term[TS_CRED_N];
	int c;

	for (c = 0; c < TS_CRED_N; c++) {
		const struct ts_cred_share *r =
			ts_cred_shares_find(s, (enum ts_cred)c, ids[c]);

		term[c].target = r ? r->target : NULL;
		term[c].policy = policy;
		term[c].usage_pct = r ? r->usage_pct : 0.0;
		term[c].weight = weight[c];
	}
	ts_cred_fs(term, fs_weight, out);
}

void ts_cred_shares_free(struct ts_cred_shares *s)
{
	int c;

	if (!s)
		return;
	for (c = 0; c < TS_CRED_N; c++) {
		free(s->row[c]);
		s->row[c] = NULL;
		s->n[c] = 0;
		s->cap[c] = 0;
	}
	s->unresolved = 0;
}
