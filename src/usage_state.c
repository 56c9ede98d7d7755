/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_state.c - treeshare_state: encode, decode with every check, load
 * with fallback to the previous copy, atomic save (layout and guarantees
 * in usage_state.h).
 *
 * Why each check: magic (not our file), length (a torn or truncated
 * write, trailing bytes), CRC-32 (bit rot, a partial overwrite), version
 * and flags (a newer build's file), then the structure: counts bounded
 * by the length before anything is allocated (a hostile header must not
 * become a 10^9-element allocation), ids rising (a writer bug, and what
 * lookups rely on), values finite and >= 0 (no NaN into usage), times in
 * range (a negative or future "last decay" double-counts or wipes usage),
 * and the windows and credential images through their own modules'
 * checks (window_store.h, credential_store.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "credential_store.h"
#include "state_bytes.h"
#include "usage_state.h"
#include "utc_time.h"
#include "window_store.h"

#define MAGIC	     "TSSTATE" /* and its NUL: 8 bytes */
#define HEADER_BYTES 72
#define CRC_BYTES    4
#define FLAG_WINDOWS 1u
#define KEY_BYTES    12 /* uint32 job id, int64 submit time */

static void set_free(struct ts_usage_set *set)
{
	free(set->id);
	free(set->val);
	memset(set, 0, sizeof(*set));
}

void ts_usage_state_free(struct ts_usage_state *s)
{
	free(s->tres_id);
	set_free(&s->assoc);
	set_free(&s->leaf);
	set_free(&s->qos);
	free(s->windows);
	free(s->cred);
	free(s->held.key);
	free(s->exempt.key);
	memset(s, 0, sizeof(*s));
}

int ts_usage_state_keys(struct ts_job_keys *keys, const struct ts_job_set *set,
			struct ts_error *err)
{
	struct ts_job_key k;
	size_t pos = 0;

	free(keys->key);
	keys->n = 0;
	keys->key = malloc((set->n ? set->n : 1) * sizeof(*keys->key));
	if (!keys->key)
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot allocate %zu job keys", set->n);
	while (keys->n < set->n && ts_job_set_next(set, &pos, &k))
		keys->key[keys->n++] = k;
	return TS_OK;
}

static int set_alloc(struct ts_usage_set *set, size_t n, size_t v)
{
	set->n = n;
	set->cap = n;
	set->id = calloc(n ? n : 1, sizeof(*set->id));
	set->val = calloc(n ? n * v : 1, sizeof(*set->val));
	return set->id && set->val ? 0 : -1;
}

int ts_usage_state_alloc(struct ts_usage_state *s, uint32_t n_tres,
			 size_t n_assoc, size_t n_leaf, size_t n_qos,
			 struct ts_error *err)
{
	size_t v = 2 + (size_t)n_tres;

	memset(s, 0, sizeof(*s));
	s->n_tres = n_tres;
	s->tres_cap = n_tres;
	s->tres_id = calloc(n_tres ? n_tres : 1, sizeof(*s->tres_id));
	if (!s->tres_id || set_alloc(&s->assoc, n_assoc, v) ||
	    set_alloc(&s->leaf, n_leaf, v) || set_alloc(&s->qos, n_qos, v)) {
		ts_usage_state_free(s);
		return ts_error_set(
			err, TS_ENOMEM, -1,
			"cannot allocate the usage of %zu associations and %zu QOS",
			n_assoc, n_qos);
	}
	return TS_OK;
}

/* set's room for n records of v values: RET 0 or -1 (cap as it was). */
static int set_reserve(struct ts_usage_set *set, size_t n, size_t v)
{
	uint32_t *id;
	long double *val;

	if (set->id && set->val && n <= set->cap)
		return 0;
	id = realloc(set->id, (n ? n : 1) * sizeof(*id));
	if (!id)
		return -1;
	set->id = id;
	val = realloc(set->val, (n ? n * v : 1) * sizeof(*val));
	if (!val)
		return -1;
	set->val = val;
	set->cap = n;
	return 0;
}

long ts_usage_state_add_leaf(struct ts_usage_state *s)
{
	size_t n = s->leaf.n;

	if (n == s->leaf.cap &&
	    set_reserve(&s->leaf, n + n / 2 + 16, ts_usage_state_values(s)))
		return -1;
	s->leaf.n = n + 1;
	return (long)n;
}

int ts_usage_state_reserve(struct ts_usage_state *s, uint32_t n_tres,
			   size_t n_assoc, size_t n_leaf, size_t n_qos,
			   struct ts_error *err)
{
	size_t v = 2 + (size_t)n_tres;
	uint32_t *tres_id;

	s->assoc.n = s->leaf.n = s->qos.n = 0;
	if (n_tres != s->n_tres) /* records of another size: room anew */
		s->assoc.cap = s->leaf.cap = s->qos.cap = 0;
	s->n_tres = n_tres;
	if (!s->tres_id || n_tres > s->tres_cap) {
		tres_id = realloc(s->tres_id,
				  (n_tres ? n_tres : 1) * sizeof(*tres_id));
		if (!tres_id)
			goto nomem;
		s->tres_id = tres_id;
		s->tres_cap = n_tres;
	}
	if (set_reserve(&s->assoc, n_assoc, v) ||
	    set_reserve(&s->leaf, n_leaf, v) || set_reserve(&s->qos, n_qos, v))
		goto nomem;
	s->assoc.n = n_assoc;
	s->leaf.n = n_leaf;
	s->qos.n = n_qos;
	return TS_OK;
nomem:
	return ts_error_set(
		err, TS_ENOMEM, -1,
		"cannot allocate the usage of %zu associations and %zu QOS",
		n_assoc, n_qos);
}

/* ----------------------------------------------------------- sorting */

struct order {
	uint32_t id;
	size_t at;
};

static int cmp_order(const void *x, const void *y)
{
	const struct order *a = x, *b = y;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

static void order_free(struct ts_usage_order *o);

/* o's room for n records of v values; RET 0 or -1 (o emptied). */
static int order_reserve(struct ts_usage_order *o, size_t n, size_t v)
{
	if (o->given && n <= o->cap && v == o->v)
		return 0;
	order_free(o);
	o->given = malloc(n * sizeof(*o->given));
	o->from = malloc(n * sizeof(*o->from));
	o->id = malloc(n * sizeof(*o->id));
	o->val = malloc(n * v * sizeof(*o->val));
	if (!o->given || !o->from || !o->id || !o->val) {
		order_free(o);
		return -1;
	}
	o->cap = n;
	o->v = v;
	return 0;
}

/*
 * The rising order of set's ids into o->from, by a stable sort (equal
 * ids keep their order, so the duplicate is named), and the ids as given
 * into o->given.  RET TS_OK, TS_EINVAL for an id given twice, or
 * TS_ENOMEM.
 */
static int find_order(const struct ts_usage_set *set, struct ts_usage_order *o,
		      const char *what, struct ts_error *err)
{
	struct order *ord = malloc(set->n * sizeof(*ord));
	size_t i;

	if (!ord)
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot sort %zu %s records", set->n, what);
	for (i = 0; i < set->n; i++) {
		ord[i].id = set->id[i];
		ord[i].at = i;
	}
	qsort(ord, set->n, sizeof(*ord), cmp_order);
	for (i = 0; i < set->n; i++) {
		if (i && ord[i].id == ord[i - 1].id) {
			uint32_t twice = ord[i].id;

			free(ord);
			return ts_error_set(err, TS_EINVAL, -1,
					    "%s %u appears twice", what, twice);
		}
		o->from[i] = ord[i].at;
	}
	free(ord);
	memcpy(o->given, set->id, set->n * sizeof(*o->given));
	o->n = set->n;
	return TS_OK;
}

/*
 * One set's records in rising id order, values moved with their id: by
 * the order o kept when the ids come as they came then, else by a sort
 * whose order o keeps.  RET TS_OK, TS_EINVAL for an id given twice, or
 * TS_ENOMEM.
 */
static int sort_set(struct ts_usage_set *set, size_t v,
		    struct ts_usage_order *o, const char *what,
		    struct ts_error *err)
{
	uint32_t *id;
	long double *val;
	size_t i, cap;
	int rc;

	if (set->n < 2)
		return TS_OK;
	/* Strictly increasing already: nothing to do. */
	for (i = 1; i < set->n && set->id[i - 1] < set->id[i]; i++)
		;
	if (i == set->n)
		return TS_OK;
	if (order_reserve(o, set->n, v))
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot sort %zu %s records", set->n, what);
	if (o->n != set->n ||
	    memcmp(o->given, set->id, set->n * sizeof(*set->id))) {
		o->n = 0;
		rc = find_order(set, o, what, err);
		if (rc)
			return rc;
	}
	for (i = 0; i < set->n; i++) {
		o->id[i] = set->id[o->from[i]];
		memcpy(o->val + i * v, set->val + o->from[i] * v,
		       v * sizeof(*val));
	}
	/* the sorted records are the set's, its old arrays the spares */
	id = set->id;
	val = set->val;
	cap = set->cap;
	set->id = o->id;
	set->val = o->val;
	set->cap = o->cap;
	o->id = id;
	o->val = val;
	o->cap = cap < o->cap ? cap : o->cap;
	return TS_OK;
}

static int cmp_key(const void *x, const void *y)
{
	const struct ts_job_key *a = x, *b = y;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->submit < b->submit ? -1 : a->submit > b->submit;
}

static void key_order_free(struct ts_key_order *ko);

static bool same_keys(const struct ts_job_key *a, const struct ts_job_key *b,
		      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].id != b[i].id || a[i].submit != b[i].submit)
			return false;
	return true;
}

/* ko's room for n keys; RET 0 or -1 (ko emptied: no memo, still sorts). */
static int key_order_reserve(struct ts_key_order *ko, size_t n)
{
	if (ko->given && n <= ko->cap)
		return 0;
	key_order_free(ko);
	ko->given = malloc(n * sizeof(*ko->given));
	ko->sorted = malloc(n * sizeof(*ko->sorted));
	if (!ko->given || !ko->sorted) {
		key_order_free(ko);
		return -1;
	}
	ko->cap = n;
	return 0;
}

/*
 * A job key list in rising order: the order ko kept when the keys come
 * as they came then, else qsort (whose result ko keeps).  RET TS_OK or
 * TS_EINVAL for a key given twice.
 */
static int sort_keys(struct ts_job_keys *keys, const char *what,
		     struct ts_key_order *ko, struct ts_error *err)
{
	size_t i, n = keys->n;
	bool memo;

	if (n < 2)
		return TS_OK;
	if (ko->n == n && same_keys(ko->given, keys->key, n)) {
		memcpy(keys->key, ko->sorted, n * sizeof(*keys->key));
		return TS_OK;
	}
	ko->n = 0;
	memo = !key_order_reserve(ko, n);
	if (memo)
		memcpy(ko->given, keys->key, n * sizeof(*keys->key));
	qsort(keys->key, n, sizeof(*keys->key), cmp_key);
	for (i = 1; i < n; i++)
		if (!cmp_key(&keys->key[i - 1], &keys->key[i]))
			/* clang-format off */
			return ts_error_set(err, TS_EINVAL, -1,
					    "%s job %u submitted at %" PRId64 " appears twice",
					    what, keys->key[i].id,
					    keys->key[i].submit);
	/* clang-format on */
	if (memo) {
		memcpy(ko->sorted, keys->key, n * sizeof(*keys->key));
		ko->n = n;
	}
	return TS_OK;
}

int ts_usage_state_sort_again(struct ts_usage_state *s,
			      struct ts_usage_sort_memo *memo,
			      struct ts_error *err)
{
	size_t v = ts_usage_state_values(s);
	int rc = sort_set(&s->assoc, v, &memo->assoc, "association", err);

	if (!rc)
		rc = sort_set(&s->leaf, v, &memo->leaf,
			      "leaf usage of association", err);
	if (!rc)
		rc = sort_set(&s->qos, v, &memo->qos, "QOS", err);
	if (!rc)
		rc = sort_keys(&s->held, "held", &memo->held, err);
	if (!rc)
		rc = sort_keys(&s->exempt, "exempt", &memo->exempt, err);
	return rc;
}

static void order_free(struct ts_usage_order *o)
{
	free(o->given);
	free(o->from);
	free(o->id);
	free(o->val);
	memset(o, 0, sizeof(*o));
}

static void key_order_free(struct ts_key_order *ko)
{
	free(ko->given);
	free(ko->sorted);
	memset(ko, 0, sizeof(*ko));
}

void ts_usage_sort_memo_free(struct ts_usage_sort_memo *memo)
{
	order_free(&memo->assoc);
	order_free(&memo->leaf);
	order_free(&memo->qos);
	key_order_free(&memo->held);
	key_order_free(&memo->exempt);
}

int ts_usage_state_sort(struct ts_usage_state *s, struct ts_error *err)
{
	struct ts_usage_sort_memo memo = { 0 };
	int rc = ts_usage_state_sort_again(s, &memo, err);

	ts_usage_sort_memo_free(&memo);
	return rc;
}

static size_t sanitize_set(struct ts_usage_set *set, size_t v)
{
	size_t i, bad = 0;

	for (i = 0; i < set->n * v; i++)
		if (!ts_value_ok(&set->val[i])) {
			set->val[i] = 0;
			bad++;
		}
	return bad;
}

size_t ts_usage_state_sanitize(struct ts_usage_state *s)
{
	size_t v = ts_usage_state_values(s);

	return sanitize_set(&s->assoc, v) + sanitize_set(&s->leaf, v) +
	       sanitize_set(&s->qos, v);
}

long ts_usage_state_find(const struct ts_usage_set *set, uint32_t id)
{
	size_t lo = 0, hi = set->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (set->id[mid] == id)
			return (long)mid;
		if (set->id[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* ---------------------------------------------------------- encoding */

static uint64_t record_bytes(uint64_t n_tres)
{
	return 4 + TS_VALUE_BYTES * (2 + n_tres);
}

/* Value k of a record by its name: RawUsage, grp_used_wall, a TRES's. */
static const char *value_name(size_t k, const uint32_t *tres_id, char *buf,
			      size_t len)
{
	if (k == 0)
		return "RawUsage";
	if (k == 1)
		return "grp_used_wall";
	snprintf(buf, len, "usage of TRES %u", tres_id[k - 2]);
	return buf;
}

/* A job key list rising by (id, submit), no id 0. */
static int check_keys(const struct ts_job_keys *keys, const char *what,
		      struct ts_error *err)
{
	size_t i;

	for (i = 0; i < keys->n; i++) {
		const struct ts_job_key *k = &keys->key[i];

		if (!k->id || k->submit < 0 ||
		    (i && cmp_key(&keys->key[i - 1], k) >= 0))
			/* clang-format off */
			return ts_error_set(err, TS_EINVAL, -1,
					    "%s job keys: job %u submitted at %" PRId64 " is not rising or not a job",
					    what, k->id, k->submit);
		/* clang-format on */
	}
	return TS_OK;
}

static unsigned char *put_keys(unsigned char *p, const struct ts_job_keys *keys)
{
	size_t i;

	for (i = 0; i < keys->n; i++, p += KEY_BYTES) {
		ts_put32(p, keys->key[i].id);
		ts_put64(p + 4, (uint64_t)keys->key[i].submit);
	}
	return p;
}

/*
 * A record set, checked as it is written: ids rising, every value finite
 * and >= 0 (a caller bug, refused rather than saved).  RET past it, or
 * NULL with err set.
 */
static unsigned char *put_set(unsigned char *p, const struct ts_usage_set *set,
			      size_t v, const uint32_t *tres_id,
			      const char *what, struct ts_error *err)
{
	const long double *val = set->val;
	char name[32];
	uint64_t m;
	int32_t e;
	size_t i, k;

	for (i = 0; i < set->n; i++) {
		if (i && set->id[i] <= set->id[i - 1]) {
			ts_error_set(err, TS_EINVAL, -1,
				     "%s ids not rising at %u", what,
				     set->id[i]);
			return NULL;
		}
		ts_put32(p, set->id[i]);
		p += 4;
		for (k = 0; k < v; k++, p += TS_VALUE_BYTES, val++) {
			if (!ts_value_split(val, &m, &e)) {
				ts_error_set(
					err, TS_EINVAL, -1,
					"%s %u: %s is %Lg, not a finite number >= 0",
					what, set->id[i],
					value_name(k, tres_id, name,
						   sizeof(name)),
					*val);
				return NULL;
			}
			ts_put64(p, m);
			ts_put32(p + 8, (uint32_t)e);
		}
	}
	return p;
}

int ts_usage_state_encode_into(const struct ts_usage_state *s,
			       struct ts_state_image *img, struct ts_error *err)
{
	size_t v = ts_usage_state_values(s), total;
	uint64_t body;
	unsigned char *b, *p;
	uint32_t t;
	bool cred = s->cred_len != 0;
	bool since = s->consumed_since != 0 || cred;
	bool keys = s->held.n || s->exempt.n || since;

	img->len = 0;
	/* clang-format off */
	if (s->consumed_since < 0)
		return ts_error_set(err, TS_EINVAL, -1,
				    "usage_metric=consumed since %" PRId64 " is negative",
				    s->consumed_since);
	/* clang-format on */
	body = 4 * (uint64_t)s->n_tres +
	       (s->assoc.n + s->leaf.n + s->qos.n) * record_bytes(s->n_tres) +
	       s->windows_len;
	if (keys)
		body += 8 + KEY_BYTES * (uint64_t)(s->held.n + s->exempt.n);
	if (since)
		body += 8;
	if (cred)
		body += 8 + (uint64_t)s->cred_len;
	total = HEADER_BYTES + (size_t)body + CRC_BYTES;
	/* every byte is written below: the buffer needs no zeroing */
	if (total > img->cap) {
		b = realloc(img->buf, total);
		if (!b)
			return ts_error_set(
				err, TS_ENOMEM, -1,
				"cannot allocate %zu bytes for the usage state",
				total);
		img->buf = b;
		img->cap = total;
	}
	b = img->buf;
	memcpy(b, MAGIC, 8);
	ts_put32(b + 8, cred ? 4 : since ? 3 : keys ? 2 : 1);
	ts_put32(b + 12,
		 s->windows_active && s->windows_len ? FLAG_WINDOWS : 0);
	ts_put64(b + 16, body);
	ts_put64(b + 24, (uint64_t)s->saved_at);
	ts_put64(b + 32, (uint64_t)s->last_ran);
	ts_put64(b + 40, (uint64_t)s->last_reset);
	ts_put32(b + 48, s->n_tres);
	ts_put32(b + 52, (uint32_t)s->assoc.n);
	ts_put32(b + 56, (uint32_t)s->leaf.n);
	ts_put32(b + 60, (uint32_t)s->qos.n);
	ts_put64(b + 64, (uint64_t)s->windows_len);
	p = b + HEADER_BYTES;
	for (t = 0; t < s->n_tres; t++, p += 4)
		ts_put32(p, s->tres_id[t]);
	p = put_set(p, &s->assoc, v, s->tres_id, "association", err);
	if (p)
		p = put_set(p, &s->leaf, v, s->tres_id,
			    "leaf usage of association", err);
	if (p)
		p = put_set(p, &s->qos, v, s->tres_id, "QOS", err);
	if (!p || check_keys(&s->held, "held", err) ||
	    check_keys(&s->exempt, "exempt", err))
		return TS_EINVAL;
	if (s->windows_len)
		memcpy(p, s->windows, s->windows_len);
	p += s->windows_len;
	if (keys) {
		ts_put32(p, (uint32_t)s->held.n);
		ts_put32(p + 4, (uint32_t)s->exempt.n);
		p = put_keys(p + 8, &s->held);
		p = put_keys(p, &s->exempt);
	}
	if (since) {
		ts_put64(p, (uint64_t)s->consumed_since);
		p += 8;
	}
	if (cred) {
		ts_put64(p, (uint64_t)s->cred_len);
		memcpy(p + 8, s->cred, s->cred_len);
		p += 8 + s->cred_len;
	}
	ts_put32(p, ts_crc32(0, b, total - CRC_BYTES));
	img->len = total;
	return TS_OK;
}

int ts_usage_state_encode(const struct ts_usage_state *s, unsigned char **buf,
			  size_t *len, struct ts_error *err)
{
	struct ts_state_image img = { 0 };
	int rc = ts_usage_state_encode_into(s, &img, err);

	if (rc) {
		free(img.buf);
		img.buf = NULL;
	}
	*buf = img.buf;
	*len = img.len;
	return rc;
}

/* ---------------------------------------------------------- decoding */

/* Magic, length and CRC: is this a complete file of ours? */
static int check_state_image(const unsigned char *b, size_t len,
			     struct ts_error *err)
{
	return ts_state_image_check(b, len, MAGIC, "state file", HEADER_BYTES,
				    err);
}

/*
 * Read a record set from p, checking ids rising and every value a value;
 * a refused value is named and shown as stored.  RET past it, or NULL.
 */
static const unsigned char *get_set(const unsigned char *p,
				    struct ts_usage_set *set, size_t v,
				    const uint32_t *tres_id, const char *what,
				    struct ts_error *err)
{
	char name[32];
	size_t i, k;

	for (i = 0; i < set->n; i++) {
		set->id[i] = ts_get32(p);
		p += 4;
		if (i && set->id[i] <= set->id[i - 1]) {
			ts_error_set(err, TS_ECORRUPT, -1,
				     "%s ids not rising: %u after %u", what,
				     set->id[i], set->id[i - 1]);
			return NULL;
		}
		for (k = 0; k < v; k++, p += TS_VALUE_BYTES)
			if (!ts_get_value(p, &set->val[i * v + k])) {
				/* the pattern as stored: it is no number */
				/* clang-format off */
				ts_error_set(
					err, TS_ECORRUPT, -1,
					"%s %u: %s is stored as m 0x%016" PRIx64 ", e %" PRId32 " (m x 2^(e - 64)): not a finite number >= 0",
					what, set->id[i],
					value_name(k, tres_id, name, sizeof(name)),
					ts_get64(p), (int32_t)ts_get32(p + 8));
				/* clang-format on */
				return NULL;
			}
	}
	return p;
}

/* n job keys from p into *keys: rising, no id 0.  RET past them, or NULL. */
static const unsigned char *get_keys(const unsigned char *p, size_t n,
				     struct ts_job_keys *keys, const char *what,
				     struct ts_error *err)
{
	size_t i;

	keys->key = malloc((n ? n : 1) * sizeof(*keys->key));
	if (!keys->key) {
		ts_error_set(err, TS_ENOMEM, -1, "cannot allocate %zu job keys",
			     n);
		return NULL;
	}
	for (i = 0; i < n; i++, p += KEY_BYTES) {
		struct ts_job_key *k = &keys->key[i];

		k->id = ts_get32(p);
		k->submit = (int64_t)ts_get64(p + 4);
		keys->n = i + 1;
		if (!k->id || k->submit < 0 ||
		    (i && cmp_key(&keys->key[i - 1], k) >= 0)) {
			/* clang-format off */
			ts_error_set(err, TS_ECORRUPT, -1,
				     "%s job keys: job %u submitted at %" PRId64 " is not rising or not a job",
				     what, k->id, k->submit);
			/* clang-format on */
			return NULL;
		}
	}
	return p;
}

static int check_times(const struct ts_usage_state *s, int64_t now,
		       struct ts_error *err)
{
	char a[32], b[32];
	int rc;

	rc = ts_kept_time_check("save time", s->saved_at, now, err);
	if (!rc)
		rc = ts_kept_time_check("last decay time", s->last_ran, now,
					err);
	if (!rc)
		rc = ts_kept_time_check("last reset time", s->last_reset, now,
					err);
	if (!rc && s->saved_at == 0)
		rc = ts_error_set(err, TS_ECORRUPT, -1, "save time is 0");
	if (!rc && s->last_ran > s->saved_at)
		rc = ts_error_set(
			err, TS_ECORRUPT, -1,
			"last decay time %s is after the save time %s",
			ts_utc_time(s->last_ran, a, sizeof(a)),
			ts_utc_time(s->saved_at, b, sizeof(b)));
	return rc;
}

/* The windows image: window_store.h's checks, and its save time. */
static int check_windows(const struct ts_usage_state *s, int64_t now,
			 struct ts_error *err)
{
	struct ts_error why = TS_ERROR_INIT;
	struct ts_windows w;
	int64_t saved = 0;
	int rc;

	if (!s->windows_len)
		return TS_OK;
	rc = ts_window_store_decode(s->windows, s->windows_len, &w, &saved,
				    &why);
	if (rc == TS_ENOMEM)
		return ts_error_set(err, rc, -1, "usage windows: %s", why.msg);
	if (rc)
		return ts_error_set(err, TS_ECORRUPT, -1, "usage windows: %s",
				    why.msg);
	ts_windows_free(&w);
	return ts_kept_time_check("usage windows' save time", saved, now, err);
}

/* The credential image: credential_store.h's checks. */
static int check_cred(const struct ts_usage_state *s, struct ts_error *err)
{
	struct ts_error why = TS_ERROR_INIT;
	struct ts_cred_usage cu;
	int rc;

	rc = ts_credential_store_decode(s->cred, s->cred_len, &cu, &why);
	if (rc == TS_ENOMEM)
		return ts_error_set(err, rc, -1, "credential usage: %s",
				    why.msg);
	if (rc)
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "credential usage: %s", why.msg);
	ts_cred_usage_free(&cu);
	return TS_OK;
}

/*
 * Version 4's tail after the fixed part (need bytes of body): key counts
 * and keys, consumed_since, then C and C bytes, read forwards.  RET the
 * body bytes it takes, or UINT64_MAX when they do not fit.
 */
static uint64_t v4_tail(const unsigned char *b, uint64_t need, uint64_t body,
			uint64_t *n_held, uint64_t *n_exempt, uint64_t *c_len)
{
	uint64_t keys;

	if (need > body || body - need < 8)
		return UINT64_MAX;
	*n_held = ts_get32(b + HEADER_BYTES + need);
	*n_exempt = ts_get32(b + HEADER_BYTES + need + 4);
	keys = KEY_BYTES * (*n_held + *n_exempt); /* < 2^37: no overflow */
	if (body - need - 8 < keys + 16)
		return UINT64_MAX;
	*c_len = ts_get64(b + HEADER_BYTES + need + 8 + keys + 8);
	if (*c_len > body - need - 8 - keys - 16)
		return UINT64_MAX;
	return 8 + keys + 16 + *c_len;
}

int ts_usage_state_decode(const void *buf, size_t len, int64_t now,
			  struct ts_usage_state *s, struct ts_error *err)
{
	const unsigned char *b = buf, *p;
	uint64_t body, need, n_tres, n_assoc, n_leaf, n_qos, n_rec, w_len;
	uint64_t n_held = 0, n_exempt = 0, since_bytes, c_len = 0, tail;
	uint32_t version, flags, t, u;
	size_t v, i;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = check_state_image(b, len, err);
	if (rc)
		return rc;
	version = ts_get32(b + 8);
	if (version < 1 || version > 4)
		return ts_error_set(
			err, TS_ECORRUPT, -1,
			"format version %u, this build reads 1 to 4", version);
	flags = ts_get32(b + 12);
	if (flags & ~FLAG_WINDOWS)
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "unknown flags 0x%08x", flags);
	body = ts_get64(b + 16);
	n_tres = ts_get32(b + 48);
	n_assoc = ts_get32(b + 52);
	n_leaf = ts_get32(b + 56);
	n_qos = ts_get32(b + 60);
	w_len = ts_get64(b + 64);
	/* Bound each count by body before multiplying: no overflow. */
	n_rec = n_assoc + n_leaf + n_qos;
	if (w_len > body || n_tres > body / 4 ||
	    (n_rec && (record_bytes(n_tres) > body ||
		       n_rec > body / record_bytes(n_tres))))
		need = UINT64_MAX;
	else
		need = 4 * n_tres + n_rec * record_bytes(n_tres) + w_len;
	/*
	 * version 2: the job keys' counts follow, then the keys; version 3
	 * (usage_metric=consumed's start): the same, then 8 bytes.
	 */
	since_bytes = version == 3 ? 8 : 0;
	if (version == 4) {
		tail = v4_tail(b, need, body, &n_held, &n_exempt, &c_len);
		/* clang-format off */
		if (tail == UINT64_MAX)
			return ts_error_set(err, TS_ECORRUPT, -1,
					    "job keys, usage_metric=consumed's start and credential usage do not fit the %" PRIu64 " bytes after the usage windows",
					    need <= body ? body - need : 0);
		/* clang-format on */
		if (!c_len)
			return ts_error_set(
				err, TS_ECORRUPT, -1,
				"format version 4 without credential usage");
		need += tail;
	} else if (version >= 2 && need <= body &&
		   body - need >= 8 + since_bytes) {
		uint64_t room = body - need - 8 - since_bytes;

		n_held = ts_get32(b + HEADER_BYTES + need);
		n_exempt = ts_get32(b + HEADER_BYTES + need + 4);
		/* clang-format off */
		if (n_held + n_exempt != room / KEY_BYTES ||
		    room % KEY_BYTES)
			return ts_error_set(err, TS_ECORRUPT, -1,
					    "%" PRIu64 " held and %" PRIu64 " exempt job keys do not fill the %" PRIu64 " bytes after the usage windows",
					    n_held, n_exempt, room);
		/* clang-format on */
		/* the writer makes version 1 of a state without keys */
		if (!n_held && !n_exempt && version == 2)
			return ts_error_set(
				err, TS_ECORRUPT, -1,
				"format version 2 without job keys");
		need += 8 + room + since_bytes;
	} else if (version >= 2) {
		need = UINT64_MAX;
	}
	/* clang-format off */
	if (need != body)
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "%" PRIu64 " associations, %" PRIu64 " leaf usages, %" PRIu64 " QOS of %" PRIu64 " TRES and %" PRIu64 " bytes of windows do not fill the %" PRIu64 " bytes of the file's body",
				    n_assoc, n_leaf, n_qos, n_tres, w_len,
				    body);
	/* clang-format on */
	if ((flags & FLAG_WINDOWS) && !w_len)
		return ts_error_set(
			err, TS_ECORRUPT, -1,
			"flags say usage windows in use, but there are none");
	/* Every count is now bounded by len, so the allocations are too. */
	rc = ts_usage_state_alloc(s, (uint32_t)n_tres, n_assoc, n_leaf, n_qos,
				  err);
	if (rc)
		return rc;
	s->saved_at = (int64_t)ts_get64(b + 24);
	s->last_ran = (int64_t)ts_get64(b + 32);
	s->last_reset = (int64_t)ts_get64(b + 40);
	s->windows_active = (flags & FLAG_WINDOWS) != 0;
	rc = check_times(s, now, err);
	if (rc)
		goto fail;
	v = ts_usage_state_values(s);
	p = b + HEADER_BYTES;
	for (t = 0; t < s->n_tres; t++, p += 4) {
		s->tres_id[t] = ts_get32(p);
		for (u = 0; u < t; u++)
			if (s->tres_id[u] == s->tres_id[t]) {
				rc = ts_error_set(err, TS_ECORRUPT, -1,
						  "TRES %u appears twice",
						  s->tres_id[t]);
				goto fail;
			}
	}
	p = get_set(p, &s->assoc, v, s->tres_id, "association", err);
	if (p)
		p = get_set(p, &s->leaf, v, s->tres_id,
			    "leaf usage of association", err);
	if (p)
		p = get_set(p, &s->qos, v, s->tres_id, "QOS", err);
	if (!p) {
		rc = TS_ECORRUPT;
		goto fail;
	}
	for (i = 0; i < s->leaf.n; i++)
		if (ts_usage_state_find(&s->assoc, s->leaf.id[i]) < 0) {
			rc = ts_error_set(
				err, TS_ECORRUPT, -1,
				"leaf usage of association %u, which has no record",
				s->leaf.id[i]);
			goto fail;
		}
	if (w_len) {
		s->windows = malloc(w_len);
		if (!s->windows) {
			/* clang-format off */
			rc = ts_error_set(err, TS_ENOMEM, -1,
					  "cannot allocate %" PRIu64 " bytes of usage windows",
					  w_len);
			/* clang-format on */
			goto fail;
		}
		memcpy(s->windows, p, w_len);
		s->windows_len = w_len;
		rc = check_windows(s, now, err);
		if (rc)
			goto fail;
	}
	if (version >= 2) {
		/* every count is bounded by the body's bytes (above) */
		p += w_len + 8;
		p = get_keys(p, (size_t)n_held, &s->held, "held", err);
		if (p)
			p = get_keys(p, (size_t)n_exempt, &s->exempt, "exempt",
				     err);
		if (!p) {
			rc = err->code ? err->code : TS_ECORRUPT;
			goto fail;
		}
	}
	if (version >= 3) {
		s->consumed_since = (int64_t)ts_get64(p);
		p += 8;
		rc = ts_kept_time_check("usage_metric=consumed's start",
					s->consumed_since, now, err);
		if (!rc && !s->consumed_since && version == 3)
			rc = ts_error_set(
				err, TS_ECORRUPT, -1,
				"format version 3 with usage_metric=consumed's start 0");
		if (rc)
			goto fail;
	}
	if (version == 4) {
		s->cred = malloc(c_len);
		if (!s->cred) {
			/* clang-format off */
			rc = ts_error_set(err, TS_ENOMEM, -1,
					  "cannot allocate %" PRIu64 " bytes of credential usage",
					  c_len);
			/* clang-format on */
			goto fail;
		}
		memcpy(s->cred, p + 8, c_len);
		s->cred_len = c_len;
		rc = check_cred(s, err);
		if (rc)
			goto fail;
	}
	return TS_OK;
fail:
	ts_usage_state_free(s);
	return rc;
}

/* ------------------------------------------------------ load and save */

static int decode_state_file(const void *buf, size_t len, void *out, void *arg,
			     struct ts_error *err)
{
	return ts_usage_state_decode(buf, len, *(const int64_t *)arg, out, err);
}

static int state_complete(const void *buf, size_t len)
{
	struct ts_error ignored = TS_ERROR_INIT;

	return check_state_image(buf, len, &ignored) == TS_OK;
}

/* The decay thread is the one writer of the usage state. */
static struct ts_kept_written written;

static const struct ts_kept_file kept = {
	.prev_suffix = ".prev",
	.written = &written,
	.max_bytes = TS_USAGE_STATE_MAX_BYTES,
	.decode = decode_state_file,
	.complete = state_complete,
};

int ts_usage_state_load(const char *path, int64_t now, struct ts_usage_state *s,
			struct ts_kept_status *st, struct ts_error *err)
{
	struct ts_kept_file how = kept;

	/* a start (or restart) trusts no earlier save: check the files */
	written.valid = 0;
	how.arg = &now;
	memset(s, 0, sizeof(*s));
	return ts_kept_file_load(path, &how, s, st, err);
}

int ts_usage_state_save_image(const char *path, const void *image, size_t len,
			      struct ts_error *err)
{
	return ts_kept_file_save(path, image, len, &kept, err);
}

int ts_usage_state_peek_keys(const void *buf, size_t len, uint64_t *held,
			     uint64_t *exempt)
{
	const unsigned char *b = buf;
	uint64_t body, n_tres, n_rec, w_len, need, since, c_len;
	uint32_t version;

	*held = *exempt = 0;
	if (len < HEADER_BYTES + CRC_BYTES || memcmp(b, MAGIC, 8))
		return 0;
	body = ts_get64(b + 16);
	if (body != len - HEADER_BYTES - CRC_BYTES)
		return 0;
	version = ts_get32(b + 8);
	if (version == 1)
		return 1;
	if (version < 2 || version > 4)
		return 0;
	since = version == 3 ? 8 : 0; /* consumed_since after the keys */
	n_tres = ts_get32(b + 48);
	n_rec = (uint64_t)ts_get32(b + 52) + ts_get32(b + 56) +
		ts_get32(b + 60);
	w_len = ts_get64(b + 64);
	if (w_len > body || n_tres > body / 4 ||
	    (n_rec && (record_bytes(n_tres) > body ||
		       n_rec > body / record_bytes(n_tres))))
		return 0;
	need = 4 * n_tres + n_rec * record_bytes(n_tres) + w_len;
	if (version == 4) {
		if (v4_tail(b, need, body, held, exempt, &c_len) !=
		    body - need) {
			*held = *exempt = 0;
			return 0;
		}
		return 1;
	}
	if (need > body || body - need < 8 + since)
		return 0;
	*held = ts_get32(b + HEADER_BYTES + need);
	*exempt = ts_get32(b + HEADER_BYTES + need + 4);
	if ((*held + *exempt) * KEY_BYTES != body - need - 8 - since) {
		*held = *exempt = 0;
		return 0;
	}
	return 1;
}

/* a and b the same usage, but for rounding */
static bool near(long double a, long double b)
{
	long double m = fabsl(a) > fabsl(b) ? fabsl(a) : fabsl(b);

	return fabsl(a - b) <= 1e-9L * m;
}

long ts_usage_sum_children(size_t n, size_t v, const long *parent,
			   const long double *own, const long double *val,
			   long double *sum)
{
	size_t i, k, steps;
	long p, differ = 0;

	memcpy(sum, own, n * v * sizeof(*sum));
	for (i = 0; i < n; i++)
		for (p = parent[i], steps = 0; p >= 0; p = parent[p]) {
			if (++steps > n || (size_t)p >= n)
				return -1;
			for (k = 0; k < v; k++)
				sum[(size_t)p * v + k] += own[i * v + k];
		}
	for (i = 0; i < n; i++)
		for (k = 0; k < v; k++)
			if (!near(val[i * v + k], sum[i * v + k])) {
				differ++;
				break;
			}
	return differ;
}
