/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree.h - the association tree as flat arrays.
 *
 * Node 0 is the root.  Nodes are added parents-first: parent[0] == -1 and
 * parent[i] < i for every other node, so one forward pass visits every
 * parent before its children and one backward pass every child before its
 * parent.  Accounts and users may sit at any depth; a user may sit directly
 * under the root; users have no children.
 *
 * shares[i] is the raw share count (Slurm's RawShares, PBS's shares) or
 * TS_SHARES_PARENT for Slurm's "Fairshare=parent".  usage[i] is the raw,
 * already decayed usage (Slurm's RawUsage); an account's usage includes
 * its whole subtree, as Slurm and PBS keep it.
 *
 * ts_tree_finish() derives what the algorithms need, following Slurm
 * 22.05's assoc_mgr:
 *   fs_parent[i]     the nearest strict ancestor whose shares are not
 *                    TS_SHARES_PARENT (the root always qualifies): Slurm's
 *                    fs_assoc_ptr.  Children of a Fairshare=parent account
 *                    are thereby lifted to that ancestor's level.
 *   kids of i        the nodes whose fs_parent is i, in node order (Slurm's
 *                    children_list): kids[kid_first[i] .. + kid_count[i]).
 *   level_shares[i]  the sum of raw shares of i's fs siblings, i included,
 *                    TS_SHARES_PARENT ones counting 0 (Slurm's
 *                    level_shares, a uint32_t sum, wrapping as Slurm's).
 *   n_users          number of user nodes (Fair Tree's user count).
 *
 * A tree can be reused cycle after cycle: ts_tree_reset() keeps its
 * memory, so a rebuild of the same size allocates nothing.
 */
#ifndef TS_TREE_H
#define TS_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define TS_SHARES_PARENT UINT32_MAX /* "Fairshare=parent" */
#define TS_NO_NODE	 (-1L)

struct ts_tree {
	size_t n;		/* nodes in use */
	size_t cap;		/* nodes allocated */
	long *parent;		/* direct parent; parent[0] == TS_NO_NODE */
	uint32_t *shares;	/* raw shares or TS_SHARES_PARENT */
	long double *usage;	/* raw decayed usage, subtree included */
	unsigned char *is_user; /* 1 for a user association */
	uint32_t *id;		/* caller's key (Slurm assoc id); opaque */
	size_t *name_off;	/* offset of the name in names[] */
	char *names;		/* NUL-separated names */
	size_t names_len, names_cap;

	/* Derived by ts_tree_finish(); stale after ts_tree_add(). */
	int finished;
	long *fs_parent;
	size_t *kid_first;
	size_t *kid_count;
	long *kids;
	uint32_t *level_shares;
	unsigned *depth; /* root 0 (direct parents) */
	size_t n_users;
};

/* ts_tree_init() - an empty tree with room for cap_hint nodes (may be 0). */
int ts_tree_init(struct ts_tree *t, size_t cap_hint, struct ts_error *err);

/*
 * ts_tree_reserve() - room for nodes nodes and name_bytes bytes of names
 * (NULs included), so that adding that many allocates nothing and no
 * array is larger than asked.  RET TS_OK or TS_ENOMEM.
 */
int ts_tree_reserve(struct ts_tree *t, size_t nodes, size_t name_bytes,
		    struct ts_error *err);

/*
 * ts_tree_trim_names() - give back the name table's unused room (a large
 * tree built once, read many times).  Keeps working if realloc() fails.
 */
void ts_tree_trim_names(struct ts_tree *t);

/*
 * ts_tree_permute() - put the nodes in a new order: new node k is old
 * node order[k] (order a permutation of 0 .. n-1 that keeps every parent
 * before its children, the root first).  One array is copied at a time,
 * so it needs at most the room of one more array; the tree is finished
 * again.  RET TS_OK, TS_EINVAL (a parent after its child) or TS_ENOMEM.
 */
int ts_tree_permute(struct ts_tree *t, const long *order, struct ts_error *err);

/* ts_tree_free() - release everything; t may be reused after init. */
void ts_tree_free(struct ts_tree *t);

/* ts_tree_reset() - empty the tree, keep its memory. */
void ts_tree_reset(struct ts_tree *t);

/*
 * ts_tree_add() - append a node.  parent is TS_NO_NODE for the root (only
 * as the first node) or an existing account's index.  name may be NULL
 * ("").  usage must be finite and >= 0.
 * RET the new node's index, or -1 with *err set.
 */
long ts_tree_add(struct ts_tree *t, long parent, const char *name, int is_user,
		 uint32_t shares, long double usage, uint32_t id,
		 struct ts_error *err);

/* ts_tree_finish() - derive fs_parent, kids, level_shares, depth, n_users. */
int ts_tree_finish(struct ts_tree *t, struct ts_error *err);

/* ts_tree_name() - node i's name ("" if none). */
const char *ts_tree_name(const struct ts_tree *t, size_t i);

/*
 * ts_tree_find() - index of the first node named name that is a user
 * (is_user 1), an account (0) or either (-1), optionally under the account
 * named parent_name (NULL: anywhere).  RET index or TS_NO_NODE.
 */
long ts_tree_find(const struct ts_tree *t, const char *name, int is_user,
		  const char *parent_name);

#endif /* TS_TREE_H */
