/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cred_shares.h - a cycle's table of Maui's credentials (seed 003,
 * 6.3.3; issue 27): for each credential type, each credential's share of
 * delivered usage (credential_usage.h) beside its target (targets.h),
 * looked up by id for every pending job, whose fair-share component
 * credential_fs.h then computes.  The usage is kept by id and the targets
 * file names credentials; the names are resolved to ids once a cycle,
 * through the caller's callback (the plugin: getpwnam, getgrnam, the
 * account's association, the QOS id, ts_cred_class_id()), so a job costs
 * five lookups by id (an array or a hash) and no allocation.
 *
 * The rows of a type, in strictly rising id order (one row an id):
 *   every id the usage keeps, at ts_cred_usage_pct() (its share may have
 *   decayed to 0 %), with its target if one resolves to it (unless
 *   entries_only: then only those with a target or a cap);
 *   every credential with a target (ts_targets_cred_each()) whose name
 *   resolves, with its usage: 0 % for one that has none (idle).
 * A name the callback does not know (TS_CRED_ID_NONE) is skipped and
 * counted in unresolved; it is no error.  Two names of one type that
 * resolve to one id: the first in the file gives the target.
 * usage_pct is in 0..100, never NaN (NaN counts as 0).  A row's target
 * points into the targets given: the table is valid while they are.
 *
 * Feasibility caps (fscap= on a user NAME@*, group, qos or class entry;
 * an account's is the association tree's, caps.h): an entry with one
 * gets a row like a target (its name resolved; idle at usage 0), the
 * row holds the cap, its decay-weighted usage in usage units, and
 * whether it is capped: usage at or over an absolute cap, usage_pct at
 * or over a percentage (0 % when nothing was delivered, so fscap=0%
 * caps at once), as caps.h says of associations.
 *
 * A job's credential with no row has usage 0 and no target: delta 0.
 * cu and tg may each be NULL: no usage rows, no target rows; both NULL
 * give an empty table, and every job the factor 0.5, component 0.
 * Not thread-safe: the caller serialises a take with the lookups.
 */
#ifndef TS_CRED_SHARES_H
#define TS_CRED_SHARES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "credential_fs.h"
#include "credential_usage.h"
#include "error.h"
#include "id_hash.h"
#include "targets.h"

/* One credential of one type. */
struct ts_cred_share {
	uint32_t id;
	double usage_pct;		/* share of delivered usage, 0..100 */
	const struct ts_target *target; /* NULL: none */
	const struct ts_fscap *fscap;	/* feasibility cap; NULL: none */
	const char *name; /* its name in the targets file, or NULL */
	double usage;	  /* decay-weighted usage, usage units */
	bool capped;	  /* at or over its fscap (caps.h's rule) */
	/* with a target: its part of a job's sum, by enum ts_fs_policy */
	struct ts_cred_part part[2];
};

/* A hash slot of a type's index: an id with a target and its row. */
struct ts_cred_slot {
	uint32_t id;
	uint32_t row; /* its index in row[c], + 1; 0: the slot is empty */
};

/*
 * A row's terms of a job's factor under the weights last weighed: with
 * a target and a weight > 0, weight x factor and the weight; else 0.
 */
struct ts_cred_terms {
	double mean_term;
	double weight;
};

/* Ids below this are indexed directly (4 bytes an id, at most 256 KiB). */
#define TS_CRED_DIRECT_IDS 65536

struct ts_cred_shares {
	struct ts_cred_share *row[TS_CRED_N]; /* n[c] rows of type c */
	size_t n[TS_CRED_N];
	size_t cap[TS_CRED_N]; /* rows allocated; kept across takes */
	/*
	 * Set by the caller before a take: rows for the targets file's
	 * entries alone (those with a target or an fscap), all that a
	 * job's factor and caps read, and none for the credentials that
	 * only have usage (the controller has tens of thousands of those
	 * and takes a table every cycle).  false: every row (the views).
	 */
	bool entries_only;
	size_t unresolved; /* target names id_of did not know */
	size_t n_capped;   /* rows capped, accounts left out */
	/*
	 * Per type, the rows with a target, all a job's sum looks up, by
	 * id: direct[c][id] (row + 1; 0: none) for ids below direct_n[c]
	 * when every such id is below TS_CRED_DIRECT_IDS, else slots[c]
	 * hash slots (a power of two; 0: no row has a target).
	 */
	uint32_t *direct[TS_CRED_N];
	size_t direct_n[TS_CRED_N], direct_cap[TS_CRED_N];
	struct ts_cred_slot *slot[TS_CRED_N];
	size_t slots[TS_CRED_N], slot_cap[TS_CRED_N];
	/* terms[c][row + 1]; terms[c][0], no row, is 0 */
	struct ts_cred_terms *terms[TS_CRED_N];
	size_t terms_cap[TS_CRED_N];
	/* the weights and policy the terms are of (0: none yet) */
	double weighed[TS_CRED_N];
	enum ts_fs_policy weighed_policy;
	unsigned weighed_types; /* bit c: weighed[c] > 0, terms[c] held */
};

/* Every array NULL, every count 0, weighed with weights 0. */
#define TS_CRED_SHARES_INIT                                                    \
	{                                                                      \
		.n_capped = 0                                                  \
	}

/*
 * The id of credential name of type c (the id its usage is kept under),
 * or TS_CRED_ID_NONE when the name is unknown (no such user or group, an
 * account, QOS or partition not in Slurm).
 */
typedef uint32_t (*ts_cred_id_of)(enum ts_cred c, const char *name, void *arg);

/*
 * ts_cred_shares_take() - replace s's rows with those of cu and tg (both
 * may be NULL), names resolved with id_of(c, name, arg).  s starts as
 * TS_CRED_SHARES_INIT (or zeroed); its arrays are reused, grown when a
 * type has more rows than ever before; id_of NULL resolves no name.
 * All or nothing: on error s is as it was.  RET TS_OK or TS_ENOMEM
 * (*err set).
 */
int ts_cred_shares_take(struct ts_cred_shares *s,
			const struct ts_cred_usage *cu,
			const struct ts_targets *tg, ts_cred_id_of id_of,
			void *arg, struct ts_error *err);

/*
 * ts_cred_shares_weigh() - the weights (FS<TYPE>WEIGHT) and policy of
 * the jobs' factors ts_cred_shares_factor() gives, until the next weigh;
 * a take keeps them.  Allocates nothing.
 */
void ts_cred_shares_weigh(struct ts_cred_shares *s,
			  const double weight[TS_CRED_N],
			  enum ts_fs_policy policy);

/*
 * ts_cred_shares_row() - the row of id among type c's rows with a target,
 * + 1; 0: none.  Inline, as the next two: a job's priority calls them.
 */
static inline uint32_t ts_cred_shares_row(const struct ts_cred_shares *s, int c,
					  uint32_t id)
{
	size_t size = s->slots[c], h;

	if (s->direct_n[c])
		return id < s->direct_n[c] ? s->direct[c][id] : 0;
	if (!size)
		return 0;
	for (h = ts_id_slot(id, size); s->slot[c][h].row;
	     h = (h + 1) & (size - 1))
		if (s->slot[c][h].id == id)
			return s->slot[c][h].row;
	return 0;
}

/* The terms of a credential without a target or weight: 0. */
extern const struct ts_cred_terms ts_cred_no_terms;

/*
 * ts_cred_shares_terms() - the terms of credential id of type c under the
 * weights s was last weighed with: its row's when it has a target and
 * the type a weight > 0, else ts_cred_no_terms.  Never NULL; valid until
 * the next take, weigh or free of s.  Allocates nothing.
 */
static inline const struct ts_cred_terms *
ts_cred_shares_terms(const struct ts_cred_shares *s, enum ts_cred c,
		     uint32_t id)
{
	if (!(s->weighed_types & (1u << c)))
		return &ts_cred_no_terms;
	return &s->terms[c][ts_cred_shares_row(s, c, id)];
}

/*
 * ts_cred_terms_factor() - a job's factor from its credentials' terms
 * t[c] (ts_cred_shares_terms()), the same double as ts_cred_shares_job()'s
 * factor under the weights they were weighed with (its FSWEIGHT changes
 * no factor): the sums of ts_cred_fs_parts(), in its order.  A credential
 * it leaves out adds +0 here, which changes a sum only if it were -0,
 * and a sum started at +0 never is.  A caller that keeps terms (the
 * plugin, per association) skips their lookups.
 */
static inline double
ts_cred_terms_factor(const struct ts_cred_terms *const t[TS_CRED_N])
{
	_Static_assert(TS_CRED_N == 5, "five terms");
	return ts_cred_factor_of(
		0.0 + t[0]->mean_term + t[1]->mean_term + t[2]->mean_term +
			t[3]->mean_term + t[4]->mean_term,
		0.0 + t[0]->weight + t[1]->weight + t[2]->weight +
			t[3]->weight + t[4]->weight);
}

/*
 * ts_cred_shares_factor() - ts_cred_terms_factor() of the terms of
 * credentials ids[c]: the priority pass's path, no delta, sum or
 * component.
 */
double ts_cred_shares_factor(const struct ts_cred_shares *s,
			     const uint32_t ids[TS_CRED_N]);

/*
 * ts_cred_shares_find() - the row of id of type c (binary search), or
 * NULL: none, a bad c, or s NULL.
 */
const struct ts_cred_share *ts_cred_shares_find(const struct ts_cred_shares *s,
						enum ts_cred c, uint32_t id);

/*
 * ts_cred_shares_job() - a job's fair-share component into *out
 * (ts_cred_fs()): credential ids[c] of each type with its row's usage
 * and target (no row: usage 0, no target), weighted weight[c]
 * (FS<TYPE>WEIGHT), FSWEIGHT fs_weight, compared under policy.  s NULL
 * is an empty table.  Allocates nothing; looks up only the rows with a
 * target, whose parts the take computed.
 */
void ts_cred_shares_job(const struct ts_cred_shares *s,
			const uint32_t ids[TS_CRED_N],
			const double weight[TS_CRED_N], double fs_weight,
			enum ts_fs_policy policy, struct ts_cred_fs *out);

/*
 * ts_cred_shares_capped() - the first of a job's credentials ids[c]
 * (user, group, QOS, class; its account is the tree's) that is capped,
 * its type into *c; NULL when none (or s NULL).  Allocates nothing.
 */
const struct ts_cred_share *
ts_cred_shares_capped(const struct ts_cred_shares *s,
		      const uint32_t ids[TS_CRED_N], enum ts_cred *c);

/*
 * ts_cred_shares_uncap() - no credential of s is capped until the next
 * take (a configuration without fscap= is in force).
 */
void ts_cred_shares_uncap(struct ts_cred_shares *s);

/*
 * ts_cred_shares_describe() - the hold reason for capped row r of type c
 * into buf[len], without blanks: TS_CAPS_REASON_PREFIX, the type, ':',
 * the name, then as caps.h: "FairshareCap:qos:gpu=12.50%>=10%",
 * "FairshareCap:group:physics=5000>=4000" (usage rounded down, the cap
 * up).  A row without a name shows its id ("#42").  Always
 * NUL-terminated.  RET the length it needed.
 */
size_t ts_cred_shares_describe(const struct ts_cred_share *r, enum ts_cred c,
			       char *buf, size_t len);

/*
 * ts_cred_shares_free() - release s's rows (NULL is fine); s is then
 * TS_CRED_SHARES_INIT again.
 */
void ts_cred_shares_free(struct ts_cred_shares *s);

#endif /* TS_CRED_SHARES_H */
