/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assoc_tree.h - Slurm's association records to src/'s flat tree and the
 * fair-share results back.
 *
 *   copy in    under { .assoc = READ_LOCK }: walk assoc_mgr_root_assoc's
 *              children lists breadth first, one ts_tree node per record
 *              (shares, raw usage, id, name, direct parent).  Each fs
 *              parent's kids come out in its children_list order, which
 *              Fair Tree's tie rules depend on.
 *   compute    no lock: ts_fs_compute() over the snapshot.
 *   write back under { .assoc = WRITE_LOCK }: the same walk; a record
 *              gets the values of the node with its id (by position while
 *              the tree is unchanged, else by an id lookup); records added
 *              since the copy are left alone, vanished ones are not
 *              touched.  usage_raw is never written here.
 *
 * The memory (tree, results, walk queue, id table) is kept from cycle to
 * cycle: a tree of unchanged size allocates nothing.
 */
#ifndef PT_ASSOC_TREE_H
#define PT_ASSOC_TREE_H

#include "slurmctld_api.h"

#include "src/fairshare.h"
#include "src/id_map.h"
#include "src/tree.h"

#include "priority_conf.h"

struct assoc_tree {
	struct ts_tree tree;
	struct ts_fs fs;
	long *target_from;	     /* fs_targets=: whose target, per node */
	uint32_t *slurm_shares;	     /* shares_raw as copied, per node */
	slurmdb_assoc_rec_t **queue; /* walk queue; valid under lock */
	size_t queue_cap;
	struct ts_id_map id_node; /* association id -> node */
	int id_ready;		  /* the map matches the tree */
	/* usage_window=: tree.usage is the windows' (set after copy in) */
	bool usage_from_windows;
};

/* assoc_tree_init() - empty, owning nothing.  RET 0 or -1 (logged). */
int assoc_tree_init(struct assoc_tree *at);
void assoc_tree_free(struct assoc_tree *at);

/*
 * assoc_tree_copy_in() - snapshot the associations.  Caller holds
 * { .assoc = READ_LOCK }.  RET 0, or -1 after logging (no root, no memory).
 */
int assoc_tree_copy_in(struct assoc_tree *at);

/*
 * assoc_tree_compute() - run the algorithm of c->fs over the snapshot,
 * then, with fs_targets=, replace the factor of every association a
 * target applies to (src/targets.h, compared with usage_norm); no lock
 * needed or taken.  RET 0, or -1 after logging (the previous values then
 * stay in the records).
 */
int assoc_tree_compute(struct assoc_tree *at, const struct priority_conf *c);

/*
 * assoc_tree_write_back() - store the results in the records, as
 * priority/multifactor stores them for c->fs.algo:
 *   classic          accounts' usage_norm and usage_efctv; users'
 *                    usage_efctv set to NO_VAL, computed on demand
 *                    (assoc_usage_on_demand()) from live usage as Slurm
 *                    does;
 *   depth_oblivious  usage_norm, usage_efctv of every association;
 *   fair_tree        usage_norm, usage_efctv, level_fs of every
 *                    association, fs_factor of users; the root's
 *                    level_fs NO_VAL;
 *   pbs              usage_norm, usage_efctv (fairshare_tree_usage) of
 *                    every association, shares_norm fairshare_perc;
 * and shares_norm where the record's shares and level shares are still
 * those copied.  Whatever the algorithm, when PriorityFlags has Fair
 * Tree's bit (sshare then prints users' stored fs_factor and every
 * LevelFS) users get their job factor as fs_factor and every
 * association the algorithm's level_fs (0 outside Fair Tree).  When the
 * snapshot's usage came from the usage windows (usage_from_windows)
 * every record gets its decay-weighted window usage as usage_raw.  Then
 * every user's job factor (a target's where one applies) and, with
 * formula=, its PBS values go to fs_cache.h's cache (classic users'
 * factor only once computed).  From 25.11, outside Fair Tree's bit, every
 * record's fs_factor is that factor (TS_STORES_FS_FACTOR; 0 for a user
 * computed on demand).  Caller holds { .assoc = WRITE_LOCK }.
 */
void assoc_tree_write_back(struct assoc_tree *at,
			   const struct priority_conf *c);

/* assoc_tree_node() - the node of association id, or -1.  No lock. */
long assoc_tree_node(const struct assoc_tree *at, uint32_t id);

/*
 * assoc_usage_on_demand() - usage_norm and usage_efctv of one association
 * from live usage (Slurm's priority_p_set_assoc_usage()): usage_raw over
 * the root's, and the classic effective usage from its fs parent's
 * stored one.  Slurm calls this for users whose usage_efctv is NO_VAL.
 * Its FairShare too, where the release stores it (with c:
 * assoc_fs_factor_on_demand()).  Caller holds { .assoc = WRITE_LOCK }, or
 * READ_LOCK when Slurm calls priority_p_set_assoc_usage() so (its
 * contract).
 */
void assoc_usage_on_demand(slurmdb_assoc_rec_t *assoc,
			   const struct priority_conf *c);

/*
 * assoc_fs_factor_on_demand() - from 25.11 (TS_STORES_FS_FACTOR), outside
 * Fair Tree: store in the association's fs_factor the factor its jobs get
 * under c (the cached one: a target's, or one computed this cycle; else
 * PBS's or the classic one of its fs association, 0 while that has no
 * effective usage), as multifactor's _set_assoc_fs_factor().  Locks as
 * assoc_usage_on_demand().
 */
void assoc_fs_factor_on_demand(slurmdb_assoc_rec_t *assoc,
			       const struct priority_conf *c);

/* assoc_usage_is_unset() - usage_efctv is NO_VAL (Slurm's fuzzy test). */
bool assoc_usage_is_unset(const slurmdb_assoc_rec_t *assoc);

#endif /* PT_ASSOC_TREE_H */
