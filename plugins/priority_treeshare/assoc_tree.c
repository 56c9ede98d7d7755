/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assoc_tree.c - copy in, write back (see assoc_tree.h).
 */
#include "assoc_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/slurm_protocol_defs.h"
#include "src/id_map.h"
#include "src/normalise.h"

#include "fs_cache.h"

int assoc_tree_init(struct assoc_tree *at)
{
	struct ts_error err = TS_ERROR_INIT;

	memset(at, 0, sizeof(*at));
	if (ts_tree_init(&at->tree, 0, &err)) {
		error("%s: %s", plugin_type, err.msg);
		return -1;
	}
	return 0;
}

void assoc_tree_free(struct assoc_tree *at)
{
	ts_tree_free(&at->tree);
	ts_fs_free(&at->fs);
	free(at->target_from);
	free(at->slurm_shares);
	free(at->queue);
	ts_id_map_free(&at->id_node);
	memset(at, 0, sizeof(*at));
}

/* Room for n entries in the walk queue and the per-node arrays. */
static int reserve(struct assoc_tree *at, size_t n)
{
	size_t cap = at->queue_cap ? at->queue_cap : 64;
	void *q, *s, *t;

	if (n <= at->queue_cap)
		return 0;
	while (cap < n)
		cap *= 2;
	/* Each array keeps its old block until its own realloc succeeds. */
	if ((q = realloc(at->queue, cap * sizeof(*at->queue))))
		at->queue = q;
	if ((s = realloc(at->slurm_shares, cap * sizeof(*at->slurm_shares))))
		at->slurm_shares = s;
	if ((t = realloc(at->target_from, cap * sizeof(*at->target_from))))
		at->target_from = t;
	if (!q || !s || !t) {
		error("%s: no memory for %zu associations", plugin_type, cap);
		return -1;
	}
	at->queue_cap = cap;
	return 0;
}

static uint32_t tree_shares(uint32_t shares_raw)
{
	return shares_raw == SLURMDB_FS_USE_PARENT ? TS_SHARES_PARENT
						   : shares_raw;
}

/* Raw usage as the tree accepts it: a finite number >= 0. */
static long double clean_usage(const slurmdb_assoc_rec_t *a)
{
	long double u = a->usage->usage_raw;

	if (isfinite(u) && u >= 0)
		return u;
	debug("%s: association %u has raw usage %Lg, counted as 0", plugin_type,
	      a->id, u);
	return 0;
}

static long add_node(struct assoc_tree *at, slurmdb_assoc_rec_t *a, long parent)
{
	struct ts_error err;
	const char *name = a->user ? a->user : a->acct;
	long i;

	/* Not TS_ERROR_INIT: it zeroes all of msg (1 KiB) per association. */
	ts_error_clear(&err);
	i = ts_tree_add(&at->tree, parent, name, a->user ? 1 : 0,
			tree_shares(a->shares_raw), clean_usage(a), a->id,
			&err);
	if (i < 0) {
		error("%s: association %u: %s", plugin_type, a->id, err.msg);
		return -1;
	}
	at->slurm_shares[i] = a->shares_raw;
	at->queue[i] = a;
	return i;
}

/*
 * The node of a's direct parent: the fs parent p, or (Fairshare=parent
 * in between) an earlier node of the same children list.
 */
static long direct_parent(struct assoc_tree *at, slurmdb_assoc_rec_t *a, long p,
			  long first, long *memo_node)
{
	slurmdb_assoc_rec_t *d = a->usage->parent_assoc_ptr;
	long i;

	if (!d || d == at->queue[p])
		return p;
	if (*memo_node >= 0 && at->queue[*memo_node] == d)
		return *memo_node;
	for (i = first; i < (long)at->tree.n; i++) {
		if (at->queue[i] == d) {
			*memo_node = i;
			return i;
		}
	}
	debug("%s: association %u: parent %u not found before it; using %u",
	      plugin_type, a->id, d->id, at->queue[p]->id);
	return p;
}

/* ------------------------------------------------------ id lookup table */

/*
 * (Re)build the map from association id to tree node; a node's id is
 * found at its first node.  RET 0, or -1 out of memory.
 */
static int build_id_table(struct assoc_tree *at)
{
	struct ts_error err = TS_ERROR_INIT;
	size_t i;

	ts_id_map_clear(&at->id_node);
	if (ts_id_map_reserve(&at->id_node, at->tree.n, &err))
		return -1;
	for (i = 0; i < at->tree.n; i++)
		(void)ts_id_map_insert(&at->id_node, at->tree.id[i],
				       (uint32_t)i);
	at->id_ready = 1;
	return 0;
}

long assoc_tree_node(const struct assoc_tree *at, uint32_t id)
{
	if (!at->id_ready)
		return -1;
	return ts_id_map_find(&at->id_node, id);
}

/*
 * One children list, walked with list_for_each_ro(): one take of the
 * list's lock for the whole list, where an iterator takes it per record
 * (and allocates).
 */
struct kids_walk {
	struct assoc_tree *at;
	const struct priority_conf *c; /* write back only */
	long k;			       /* the parent's node */
	long first, memo;	       /* copy in: direct_parent()'s */
	size_t pos, n;		       /* write back: position, queue */
	int by_position;	       /* write back: tree unchanged so far */
};

/* Copy in one record (list_for_each_ro() callback); -1 stops. */
static int copy_kid(void *x, void *arg)
{
	struct kids_walk *w = arg;
	slurmdb_assoc_rec_t *a = x;

	if (!a->usage || reserve(w->at, w->at->tree.n + 1))
		return -1;
	return add_node(w->at, a,
			direct_parent(w->at, a, w->k, w->first, &w->memo)) < 0
		       ? -1
		       : 0;
}

int assoc_tree_copy_in(struct assoc_tree *at)
{
	slurmdb_assoc_rec_t *root = assoc_mgr_root_assoc;
	struct ts_error err = TS_ERROR_INIT;
	size_t k;

	ts_tree_reset(&at->tree);
	at->id_ready = 0;
	at->usage_from_windows = false;
	if (!root || !root->usage) {
		error("%s: no root association to compute fair share from",
		      plugin_type);
		return -1;
	}
	if (reserve(at, 1) || add_node(at, root, TS_NO_NODE) < 0)
		return -1;

	/* Breadth first: the tree's node order is the walk queue. */
	for (k = 0; k < at->tree.n; k++) {
		list_t *kids = at->queue[k]->usage->children_list;
		struct kids_walk w = { .at = at,
				       .k = (long)k,
				       .first = (long)at->tree.n,
				       .memo = -1 };

		if (at->tree.is_user[k] || !kids)
			continue;
		if (list_for_each_ro(kids, copy_kid, &w) < 0)
			return -1;
	}

	if (ts_tree_finish(&at->tree, &err)) {
		error("%s: association tree: %s", plugin_type, err.msg);
		return -1;
	}
	if (build_id_table(at)) {
		error("%s: no memory to index %zu associations", plugin_type,
		      at->tree.n);
		return -1;
	}
	return 0;
}

int assoc_tree_compute(struct assoc_tree *at, const struct priority_conf *c)
{
	struct ts_error err = TS_ERROR_INIT;
	size_t i, set;

	/* Outside fairshare=pbs only formula= reads the PBS values. */
	if (ts_fs_alloc(&at->fs, at->tree.n, &err) ||
	    ts_fs_compute_pbs(&at->tree, &c->fs, c->formula != NULL, &at->fs,
			      &err)) {
		/* clang-format off */
		error("%s: fair share not computed, last values kept: %s: %s (node %ld)",
		      plugin_type, ts_strerror(err.code), err.msg, err.index);
		/* clang-format on */
		return -1;
	}
	/* A file of caps alone sets no factor: no lookups. */
	if (!ts_targets_target_count(c->targets)) {
		for (i = 0; i < at->tree.n; i++)
			at->target_from[i] = TS_NO_NODE;
		return 0;
	}
	set = ts_targets_apply(c->targets, &at->tree, at->fs.usage_norm,
			       c->fs_policy, at->fs.fs_factor, at->target_from);
	log_flag(PRIO, "%s: fs_targets: %zu of %zu associations have a target",
		 plugin_type, set, at->tree.n);
	return 0;
}

/* ----------------------------------------------------------- write back */

/*
 * The factor of a's fs association (itself, or its parent's for
 * Fairshare=parent) from the values stored in it (ts_fs_record_factor());
 * NAN while it has no effective usage.
 */
static double record_factor(const slurmdb_assoc_rec_t *a,
			    const struct priority_conf *c)
{
	const slurmdb_assoc_rec_t *f = a;

	if (a->shares_raw == SLURMDB_FS_USE_PARENT && a->usage->fs_assoc_ptr)
		f = a->usage->fs_assoc_ptr;
	if (assoc_usage_is_unset(f))
		return NAN;
	return ts_fs_record_factor(c->fs.algo, f->usage->usage_efctv,
				   (long double)f->usage->shares_norm,
				   c->fs.damp);
}

/*
 * The fair-share factor a job of user association a gets, as Slurm's
 * _get_fairshare_priority() reads it after the write back: Fair Tree's
 * fs_factor, else 2^(-usage_efctv/shares_norm/damp) of the association
 * (its fs parent for Fairshare=parent), cached.  RET it, or NAN when not
 * known yet: a classic user, whose usage Slurm computes at its first
 * pending job (or on demand).
 */
static double cache_job_factor(struct assoc_tree *at, slurmdb_assoc_rec_t *a,
			       size_t i, const struct priority_conf *c)
{
	const struct ts_fs_config *cfg = &c->fs;
	double factor;

	/* Only a formula reads a job's PBS values (computed only then). */
	if (c->formula) {
		struct fs_pbs pbs = { .perc = at->fs.pbs_perc[i],
				      .tree_usage = at->fs.pbs_tree_usage[i],
				      .factor = at->fs.pbs_factor[i] };

		fs_cache_put_pbs(a->id, &pbs);
	}
	if (ts_fs_stored(cfg->algo)) {
		/* Maui's factors (cred_fs) are every job's: none reads it */
		if (!c->cred_fs)
			fs_cache_put(a->id, a->usage->fs_factor);
		return a->usage->fs_factor;
	}
	/* A target's factor, or PBS's: known now, nothing on demand. */
	if (ts_fs_from_cycle(cfg->algo, at->target_from[i] != TS_NO_NODE)) {
		fs_cache_put(a->id, at->fs.fs_factor[i]);
		return at->fs.fs_factor[i];
	}
	factor = record_factor(a, c);
	if (!isnan(factor))
		fs_cache_put(a->id, factor);
	return factor;
}

/*
 * From 25.11 slurmctld reads every algorithm's FairShare from the
 * record's fs_factor (sshare, slurmrestd, QOS UsageThreshold), as
 * multifactor stores it outside Fair Tree's bit (under it, write_node()
 * stores the algorithm's own).
 */
static bool stores_fs_factor(const struct priority_conf *c)
{
	return TS_STORES_FS_FACTOR && !(c->flags & PRIORITY_FLAGS_FAIR_TREE);
}

/*
 * Write node i's results into association a's usage record, as Slurm's
 * own decay cycle would leave it (see assoc_tree.h); assoc lock held.
 */
static void write_node(struct assoc_tree *at, slurmdb_assoc_rec_t *a, size_t i,
		       const struct priority_conf *c)
{
	const struct ts_fs_config *cfg = &c->fs;
	slurmdb_assoc_usage_t *u = a->usage;
	const struct ts_fs *fs = &at->fs;

	/* shares_norm only from the shares it was computed from. */
	if (a->shares_raw == at->slurm_shares[i] &&
	    u->level_shares == at->tree.level_shares[i])
		u->shares_norm = fs->shares_norm[i];
	/* usage_window=: RawUsage is the decay-weighted window usage. */
	if (at->usage_from_windows)
		u->usage_raw = at->tree.usage[i];

	if (ts_fs_users_on_demand(cfg->algo) && a->user) {
		/* Slurm computes users on demand, from live usage. */
		u->usage_efctv = (long double)NO_VAL;
	} else {
		u->usage_norm = fs->usage_norm[i];
		u->usage_efctv = fs->usage_efctv[i];
		if (ts_fs_stored(cfg->algo)) {
			u->level_fs = fs->level_fs[i];
			if (a->user)
				u->fs_factor = fs->fs_factor[i];
		}
	}
	/* Under Fair Tree's bit sshare prints users' stored fs_factor and
	 * every LevelFS: this algorithm's, not a Fair Tree cycle's. */
	if (!ts_fs_stored(cfg->algo) && (c->flags & PRIORITY_FLAGS_FAIR_TREE)) {
		if (a->user)
			u->fs_factor = fs->fs_factor[i];
		u->level_fs = fs->level_fs[i];
	}
	if (a->user) {
		double factor = cache_job_factor(at, a, i, c);

		/* Unknown: every reader computes it on demand first. */
		if (stores_fs_factor(c))
			ts_assoc_set_fs_factor(a, isnan(factor) ? 0.0 : factor);
	} else if (stores_fs_factor(c) && !ts_fs_stored(cfg->algo)) {
		/* Accounts too, as multifactor's cycle (slurmrestd shows
		 * them; sshare does not): a target's, else the record's. */
		double factor = at->target_from[i] != TS_NO_NODE
					? fs->fs_factor[i]
					: record_factor(a, c);

		ts_assoc_set_fs_factor(a, isnan(factor) ? 0.0 : factor);
	}
}

/* Write back one record (list_for_each_ro() callback); -1 stops. */
static int write_kid(void *x, void *arg)
{
	struct kids_walk *w = arg;
	struct assoc_tree *at = w->at;
	slurmdb_assoc_rec_t *a = x;
	long i;

	if (reserve(at, w->n + 1))
		return -1;
	w->pos++;
	if (w->by_position && w->pos < at->tree.n &&
	    at->tree.id[w->pos] == a->id) {
		i = (long)w->pos;
	} else {
		w->by_position = 0;
		i = assoc_tree_node(at, a->id);
	}
	if (i > 0 && a->usage)
		write_node(at, a, (size_t)i, w->c);
	at->queue[w->n++] = a;
	return 0;
}

void assoc_tree_write_back(struct assoc_tree *at, const struct priority_conf *c)
{
	const struct ts_fs_config *cfg = &c->fs;
	slurmdb_assoc_rec_t *root = assoc_mgr_root_assoc;
	struct kids_walk w = { .at = at, .c = c, .n = 1 };
	size_t k;
	int by_position;

	xassert(verify_assoc_lock(ASSOC_LOCK, WRITE_LOCK));

	if (!root || !at->tree.n)
		return;
	(void)fs_cache_reset(at->tree.n_users, cfg->algo, cfg->damp);
	if (ts_fs_stored(cfg->algo))
		root->usage->level_fs = (long double)NO_VAL;
	by_position = at->tree.id[0] == root->id;
	if (at->usage_from_windows && by_position)
		root->usage->usage_raw = at->tree.usage[0];
	at->queue[0] = root;
	w.by_position = by_position;

	for (k = 0; k < w.n; k++) {
		list_t *kids = at->queue[k]->usage->children_list;

		if (at->queue[k]->user || !kids)
			continue;
		if (list_for_each_ro(kids, write_kid, &w) < 0)
			return;
	}
	if (!w.by_position)
		/* clang-format off */
		log_flag(PRIO,
			 "%s: associations changed during the cycle; matched by id",
			 plugin_type);
	/* clang-format on */
}

/* -------------------------------------------------------------- on demand */

bool assoc_usage_is_unset(const slurmdb_assoc_rec_t *assoc)
{
	return fuzzy_equal(assoc->usage->usage_efctv, NO_VAL);
}

/*
 * One association, from live values (Slurm's set_assoc_usage_norm() and
 * the classic branch of _set_assoc_usage_efctv()), with src/'s per-node
 * classic functions: usage_norm from usage_raw and the root's, then
 * usage_efctv from the fs parent's stored one.
 */
void assoc_usage_on_demand(slurmdb_assoc_rec_t *assoc,
			   const struct priority_conf *c)
{
	slurmdb_assoc_rec_t *root = assoc_mgr_root_assoc;
	slurmdb_assoc_usage_t *u = assoc->usage;
	slurmdb_assoc_rec_t *p = u->fs_assoc_ptr;
	bool top = !p || p == root;

	u->usage_norm = ts_normalise_node_usage(
		u->usage_raw, root ? root->usage->usage_raw : 0.0L);
	u->usage_efctv = ts_classic_node_efctv(
		u->usage_norm, top, top ? 0.0L : p->usage->usage_efctv,
		tree_shares(assoc->shares_raw), u->level_shares);
	if (c)
		assoc_fs_factor_on_demand(assoc, c);
	if (top)
		return;
	log_flag(PRIO, "%s: %s %s: usage %Lf of root, effective %Lf",
		 plugin_type, assoc->user ? "user" : "account",
		 assoc->user ? assoc->user : assoc->acct, u->usage_norm,
		 u->usage_efctv);
}

void assoc_fs_factor_on_demand(slurmdb_assoc_rec_t *assoc,
			       const struct priority_conf *c)
{
	double factor;

	if (!stores_fs_factor(c) || ts_fs_stored(c->fs.algo))
		return;
	/* A target's factor, or one this cycle already gave its jobs. */
	if (!fs_cache_get(assoc->id, c->fs.algo, c->fs.damp, &factor))
		factor = record_factor(assoc, c);
	ts_assoc_set_fs_factor(assoc, isnan(factor) ? 0.0 : factor);
}
