/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cred_shares.c - a cycle's table of Maui's credentials, their usage and
 * their targets, looked up per job (see cred_shares.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "cred_shares.h"
#include "id_hash.h"

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
	const struct ts_targets *tg;
};

/*
 * A row for an entry (its target or its cap) whose name resolves; a
 * name that does not is counted once, at its target if it has one.
 */
static void add_share_row(struct share_fill *f, const char *name,
			  const struct ts_target *target,
			  const struct ts_fscap *fscap)
{
	uint32_t id = f->id_of ? f->id_of(f->c, name, f->arg) : TS_CRED_ID_NONE;

	if (id == TS_CRED_ID_NONE) {
		if (target || !ts_targets_find_cred(f->tg, f->c, name))
			f->unresolved++;
		return;
	}
	f->row[f->n] = (struct ts_cred_share){
		.id = id, .target = target, .fscap = fscap, .name = name
	};
	f->n++;
}

/* ts_targets_cred_fn: a row for a target. */
static void add_target_row(const char *name, const struct ts_target *target,
			   void *arg)
{
	add_share_row(arg, name, target, NULL);
}

/* ts_targets_fscap_fn: a row for a feasibility cap. */
static void add_fscap_row(const char *name, const struct ts_fscap *fscap,
			  void *arg)
{
	add_share_row(arg, name, NULL, fscap);
}

/* The line of the targets file a row comes from; 0: the usage's. */
static long row_line(const struct ts_cred_share *r)
{
	if (r->target)
		return r->target->line;
	return r->fscap ? r->fscap->line : 0;
}

/* By id, then the usage's row, then entries in the file's order. */
static int cmp_share(const void *a, const void *b)
{
	const struct ts_cred_share *x = a, *y = b;
	long lx = row_line(x), ly = row_line(y);

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (lx > ly) - (lx < ly);
}

/*
 * One row an id, in cmp_share() order: the first row of each id, with
 * the first target, cap and name among them.  RET the rows kept.
 */
static size_t merge_same_ids(struct ts_cred_share *row, size_t n)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		struct ts_cred_share *last = kept ? &row[kept - 1] : NULL;

		if (last && last->id == row[i].id) {
			if (!last->target)
				last->target = row[i].target;
			if (!last->fscap)
				last->fscap = row[i].fscap;
			if (!last->name)
				last->name = row[i].name;
			continue;
		}
		row[kept++] = row[i];
	}
	return kept;
}

/* caps.h's rule for a credential: at or over its cap. */
static bool over_cap(const struct ts_cred_share *r)
{
	if (!r->fscap)
		return false;
	if (r->fscap->kind == TS_FSCAP_PERCENT)
		return r->usage_pct >= r->fscap->value;
	return r->fscap->kind == TS_FSCAP_ABSOLUTE &&
	       r->usage >= r->fscap->value;
}

/* Each row's usage, and whether it is capped.  RET rows capped. */
static size_t fill_usage(struct ts_cred_share *row, size_t n, enum ts_cred c,
			 const struct ts_cred_usage *cu)
{
	size_t i, capped = 0;

	for (i = 0; i < n; i++) {
		long double u =
			cu ? ts_windows_weighted(&cu->w[c], row[i].id) : 0;

		row[i].usage_pct = kept_pct(cu, c, row[i].id);
		row[i].usage = u > 0 && isfinite((double)u) ? (double)u : 0.0;
		row[i].capped = over_cap(&row[i]);
		capped += row[i].capped;
		if (row[i].target) {
			ts_cred_part_of(row[i].target, row[i].usage_pct,
					TS_FS_POLICY_DIFFERENCE,
					&row[i].part[TS_FS_POLICY_DIFFERENCE]);
			ts_cred_part_of(row[i].target, row[i].usage_pct,
					TS_FS_POLICY_RATIO,
					&row[i].part[TS_FS_POLICY_RATIO]);
		}
	}
	return capped;
}

/*
 * The hash slots for targets rows: a power of two, at least 8 a row (a
 * probe for an id with no target, most of a job's, meets an empty slot
 * first 7 times in 8), 2 a row beyond 1024 rows; 0 for none.
 */
static size_t slot_count(size_t targets)
{
	size_t size = 8;

	if (!targets)
		return 0;
	while (size < (targets > 1024 ? 2 : 8) * targets)
		size *= 2;
	return size;
}

/* Type c's rows with a target by id, n ids from 0: false if no memory. */
static bool index_direct(struct ts_cred_shares *s, enum ts_cred c, size_t n)
{
	uint32_t *direct = s->direct[c];
	size_t i;

	if (n > s->direct_cap[c]) {
		if (!(direct = realloc(direct, n * sizeof(*direct))))
			return false;
		s->direct[c] = direct;
		s->direct_cap[c] = n;
	}
	memset(direct, 0, n * sizeof(*direct));
	for (i = 0; i < s->n[c]; i++)
		if (s->row[c][i].target)
			direct[s->row[c][i].id] = (uint32_t)(i + 1);
	s->direct_n[c] = n;
	return true;
}

/* Type c's rows with a target in its hash slots (room made before). */
static void index_hash(struct ts_cred_shares *s, enum ts_cred c, size_t targets)
{
	size_t i, size = slot_count(targets), h;

	s->slots[c] = size;
	if (!size)
		return;
	memset(s->slot[c], 0, size * sizeof(*s->slot[c]));
	for (i = 0; i < s->n[c]; i++) {
		if (!s->row[c][i].target)
			continue;
		h = ts_id_slot(s->row[c][i].id, size);
		while (s->slot[c][h].row)
			h = (h + 1) & (size - 1);
		s->slot[c][h].id = s->row[c][i].id;
		s->slot[c][h].row = (uint32_t)(i + 1);
	}
}

/*
 * The index of type c's rows with a target: direct when their ids are
 * small (uids, gids, QOS and association ids mostly are) and memory is
 * there, else hashed.
 */
static void index_targets(struct ts_cred_shares *s, enum ts_cred c)
{
	size_t i, targets = 0;
	uint32_t max = 0;

	s->direct_n[c] = 0;
	s->slots[c] = 0;
	for (i = 0; i < s->n[c]; i++) {
		if (!s->row[c][i].target)
			continue;
		targets++;
		if (s->row[c][i].id > max)
			max = s->row[c][i].id;
	}
	if (targets && max < TS_CRED_DIRECT_IDS &&
	    index_direct(s, c, (size_t)max + 1))
		return;
	index_hash(s, c, targets);
}

/* Every row's terms under s->weighed and s->weighed_policy. */
static void weigh_terms(struct ts_cred_shares *s)
{
	size_t i;
	int c;

	s->weighed_types = 0;
	for (c = 0; c < TS_CRED_N; c++) {
		double w = ts_cred_weight(s->weighed[c]);
		struct ts_cred_terms *t = s->terms[c];

		if (!t)
			continue;
		if (w > 0)
			s->weighed_types |= 1u << c;
		t[0] = (struct ts_cred_terms){ 0.0, 0.0 };
		for (i = 0; i < s->n[c]; i++) {
			const struct ts_cred_share *r = &s->row[c][i];

			t[i + 1] = (struct ts_cred_terms){ 0.0, 0.0 };
			if (r->target && w > 0)
				t[i + 1] = (struct ts_cred_terms){
					w * r->part[s->weighed_policy].factor, w
				};
		}
	}
}

/*
 * Room for need rows of type c, targets of them with a target; the rows
 * held are kept.
 */
static int grow_rows(struct ts_cred_shares *s, enum ts_cred c, size_t need,
		     size_t targets, struct ts_error *err)
{
	struct ts_cred_share *tmp;
	struct ts_cred_slot *slot;
	struct ts_cred_terms *terms;
	size_t slots = slot_count(targets);

	if (need >= UINT32_MAX)
		goto nomem;
	if (need > s->cap[c]) {
		tmp = realloc(s->row[c], need * sizeof(*tmp));
		if (!tmp)
			goto nomem;
		s->row[c] = tmp;
		s->cap[c] = need;
	}
	if (slots > s->slot_cap[c]) {
		slot = realloc(s->slot[c], slots * sizeof(*slot));
		if (!slot)
			goto nomem;
		s->slot[c] = slot;
		s->slot_cap[c] = slots;
	}
	if (need + 1 > s->terms_cap[c]) {
		terms = realloc(s->terms[c], (need + 1) * sizeof(*terms));
		if (!terms)
			goto nomem;
		s->terms[c] = terms;
		s->terms_cap[c] = need + 1;
	}
	return TS_OK;
nomem:
	return ts_error_set(err, TS_ENOMEM, -1, "cannot allocate %zu %s rows",
			    need, ts_cred_name(c));
}

/* The rows of type c into s->row[c], which has room for them all. */
static size_t fill_type_rows(struct ts_cred_shares *s, enum ts_cred c,
			     const struct ts_cred_usage *cu,
			     const struct ts_targets *tg, ts_cred_id_of id_of,
			     void *arg)
{
	struct share_fill f = { s->row[c], 0, c, cu, id_of, arg, 0, tg };
	size_t i, capped;

	for (i = 0; cu && !s->entries_only && i < cu->w[c].n; i++)
		f.row[f.n++] = (struct ts_cred_share){ .id = cu->w[c].id[i] };
	ts_targets_cred_each(tg, c, add_target_row, &f);
	ts_targets_cred_each_fscap(tg, c, add_fscap_row, &f);
	if (f.n)
		qsort(f.row, f.n, sizeof(*f.row), cmp_share);
	s->n[c] = merge_same_ids(f.row, f.n);
	capped = fill_usage(f.row, s->n[c], c, cu);
	index_targets(s, c);
	/* An account's cap is the tree's (caps.h), not counted twice. */
	if (c != TS_CRED_ACCOUNT)
		s->n_capped += capped;
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
		/* an entry may give a target row and a cap row */
		size_t entries = ts_targets_cred_count(tg, (enum ts_cred)c);
		size_t need =
			(cu && !s->entries_only ? cu->w[c].n : 0) + 2 * entries;

		if (grow_rows(s, (enum ts_cred)c, need, entries, err) != TS_OK)
			return TS_ENOMEM;
	}
	s->n_capped = 0;
	for (c = 0; c < TS_CRED_N; c++)
		unresolved +=
			fill_type_rows(s, (enum ts_cred)c, cu, tg, id_of, arg);
	s->unresolved = unresolved;
	weigh_terms(s);
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
	const struct ts_cred_part *part[TS_CRED_N];
	int p = policy == TS_FS_POLICY_RATIO;
	int c;

	for (c = 0; c < TS_CRED_N; c++) {
		uint32_t r = s ? ts_cred_shares_row(s, c, ids[c]) : 0;

		part[c] = r ? &s->row[c][r - 1].part[p] : NULL;
	}
	ts_cred_fs_parts(part, weight, fs_weight, out);
}

void ts_cred_shares_weigh(struct ts_cred_shares *s,
			  const double weight[TS_CRED_N],
			  enum ts_fs_policy policy)
{
	int c;

	s->weighed_policy = policy == TS_FS_POLICY_RATIO
				    ? TS_FS_POLICY_RATIO
				    : TS_FS_POLICY_DIFFERENCE;
	for (c = 0; c < TS_CRED_N; c++)
		s->weighed[c] = weight[c];
	weigh_terms(s);
}

const struct ts_cred_terms ts_cred_no_terms = { 0.0, 0.0 };

double ts_cred_shares_factor(const struct ts_cred_shares *s,
			     const uint32_t ids[TS_CRED_N])
{
	const struct ts_cred_terms *t[TS_CRED_N];
	int c;

	for (c = 0; c < TS_CRED_N; c++)
		t[c] = ts_cred_shares_terms(s, (enum ts_cred)c, ids[c]);
	return ts_cred_terms_factor(t);
}

const struct ts_cred_share *
ts_cred_shares_capped(const struct ts_cred_shares *s,
		      const uint32_t ids[TS_CRED_N], enum ts_cred *c)
{
	static const enum ts_cred order[] = { TS_CRED_USER, TS_CRED_GROUP,
					      TS_CRED_QOS, TS_CRED_CLASS };
	size_t k;

	if (!s || !s->n_capped)
		return NULL;
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		const struct ts_cred_share *r =
			ts_cred_shares_find(s, order[k], ids[order[k]]);

		if (r && r->capped) {
			*c = order[k];
			return r;
		}
	}
	return NULL;
}

void ts_cred_shares_uncap(struct ts_cred_shares *s)
{
	size_t i;
	int c;

	for (c = 0; c < TS_CRED_N; c++)
		for (i = 0; i < s->n[c]; i++)
			s->row[c][i].capped = false;
	s->n_capped = 0;
}

size_t ts_cred_shares_describe(const struct ts_cred_share *r, enum ts_cred c,
			       char *buf, size_t len)
{
	char id[16];
	const char *name = r->name;
	int n;

	if (len)
		buf[0] = '\0';
	if (!r->fscap)
		return 0;
	if (!name) {
		snprintf(id, sizeof(id), "#%u", (unsigned)r->id);
		name = id;
	}
	if (r->fscap->kind == TS_FSCAP_PERCENT)
		n = snprintf(buf, len, "%s%s:%s=%.2f%%>=%g%%",
			     TS_CAPS_REASON_PREFIX, ts_cred_name(c), name,
			     floor(100 * r->usage_pct) / 100, r->fscap->value);
	else
		n = snprintf(buf, len, "%s%s:%s=%.0f>=%.0f",
			     TS_CAPS_REASON_PREFIX, ts_cred_name(c), name,
			     floor(r->usage), ceil(r->fscap->value));
	return n < 0 ? 0 : (size_t)n;
}

void ts_cred_shares_free(struct ts_cred_shares *s)
{
	int c;

	if (!s)
		return;
	for (c = 0; c < TS_CRED_N; c++) {
		free(s->row[c]);
		free(s->slot[c]);
		free(s->direct[c]);
		free(s->terms[c]);
		s->row[c] = NULL;
		s->slot[c] = NULL;
		s->direct[c] = NULL;
		s->terms[c] = NULL;
		s->n[c] = s->cap[c] = s->slots[c] = s->slot_cap[c] = 0;
		s->direct_n[c] = s->direct_cap[c] = s->terms_cap[c] = 0;
		s->weighed[c] = 0.0;
	}
	s->weighed_policy = TS_FS_POLICY_DIFFERENCE;
	s->weighed_types = 0;
	s->unresolved = 0;
	s->n_capped = 0;
}
