/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs_trees.h - trees for the fair-share unit tests: a table-driven
 * builder, the seed 000 trees, a small deterministic PRNG and random
 * trees built from it.  Header-only (static) so each test file is
 * self-contained.
 */
#ifndef TS_TEST_FS_TREES_H
#define TS_TEST_FS_TREES_H

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fairshare.h"
#include "tree.h"

#define PARENT TS_SHARES_PARENT

/* One association: parent is an account's name, "root" or NULL (root). */
struct spec {
	const char *name;
	const char *parent;
	int user;
	uint32_t shares;
	long double usage;
};

/*
 * Build a finished tree: the root (shares root_shares, usage root_usage)
 * then spec[0 .. n).  idx[k] receives spec[k]'s node index (may be NULL).
 */
static inline void build_tree(struct ts_tree *t, uint32_t root_shares,
			      long double root_usage, const struct spec *spec,
			      size_t n, long *idx)
{
	struct ts_error err = TS_ERROR_INIT;
	size_t k;

	ck_assert_int_eq(ts_tree_init(t, n + 1, &err), TS_OK);
	ck_assert_int_eq(ts_tree_add(t, TS_NO_NODE, "root", 0, root_shares,
				     root_usage, 0, &err),
			 0);
	for (k = 0; k < n; k++) {
		long p = 0, i;

		if (spec[k].parent && strcmp(spec[k].parent, "root"))
			p = ts_tree_find(t, spec[k].parent, 0, NULL);
		ck_assert_msg(p >= 0, "no account %s", spec[k].parent);
		i = ts_tree_add(t, p, spec[k].name, spec[k].user,
				spec[k].shares, spec[k].usage, (uint32_t)k + 1,
				&err);
		ck_assert_msg(i >= 0, "%s: %s", spec[k].name, err.msg);
		if (idx)
			idx[k] = i;
	}
	ck_assert_int_eq(ts_tree_finish(t, &err), TS_OK);
}

/* Run one algorithm over t into fs (sized here), asserting success. */
static inline void compute(const struct ts_tree *t, enum ts_fs_algo algo,
			   double damp, struct ts_fs *fs)
{
	struct ts_fs_config cfg = { .algo = algo, .damp = damp };
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_fs_alloc(fs, t->n, &err), TS_OK);
	ck_assert_msg(ts_fs_compute(t, &cfg, fs, &err) == TS_OK, "%s", err.msg);
}

/* Node index of a named node (user 1, account 0), asserting it exists. */
static inline long node(const struct ts_tree *t, const char *name, int user)
{
	long i = ts_tree_find(t, name, user, NULL);

	ck_assert_msg(i >= 0, "no node %s", name);
	return i;
}

/*
 * Seed 000 (PBS PP-718), shares then [usage]:
 *   root [1200] - group1 40 [200]  - bob 50 [100], cathy 50 [100]
 *               \ group2 60 [1000] - suzy 60 [0], scott 40 [1000]
 * The pbsfs -g variant has root 1201, group2 1001 (scott 1000); the seed
 * gives no other usage for it, so the main example's figures are kept.
 */
static inline void seed000_tree(struct ts_tree *t, int pbsfs_variant)
{
	const struct spec s[] = {
		{ "group1", "root", 0, 40, 200 },
		{ "bob", "group1", 1, 50, 100 },
		{ "cathy", "group1", 1, 50, 100 },
		{ "group2", "root", 0, 60, pbsfs_variant ? 1001 : 1000 },
		{ "suzy", "group2", 1, 60, 0 },
		{ "scott", "group2", 1, 40, 1000 },
	};

	build_tree(t, 1, pbsfs_variant ? 1201 : 1200, s, 6, NULL);
}

/* splitmix64: small, deterministic, the seed printed by each test. */
static inline uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint32_t rng_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)(rng_next(state) % n);
}

/*
 * A random tree of about n nodes: accounts and users at any depth, users
 * under the root too, shares 0..20 with some 0 and, when with_parent,
 * some Fairshare=parent; user usage 0..1000 (a quarter 0); every account
 * gets at least one user below it and the sum of its subtree as usage,
 * plus sometimes extra (usage of deleted children, as Slurm keeps it).
 */
static inline void random_tree(struct ts_tree *t, uint64_t seed, size_t n,
			       int with_parent)
{
	struct ts_error err = TS_ERROR_INIT;
	uint64_t st = seed;
	long accounts[512];
	size_t n_acc = 1, k;
	long i;

	ck_assert_int_eq(ts_tree_init(t, n + 1, &err), TS_OK);
	ck_assert_int_eq(ts_tree_add(t, TS_NO_NODE, "root", 0, 1, 0, 0, &err),
			 0);
	accounts[0] = 0;
	for (k = 1; k < n; k++) {
		long p = accounts[rng_below(&st, (uint32_t)n_acc)];
		int user = n_acc >= 512 || rng_below(&st, 3) != 0;
		uint32_t shares = rng_below(&st, 21);
		long double usage = 0;
		char name[32];

		if (with_parent && rng_below(&st, 12) == 0)
			shares = PARENT;
		else if (rng_below(&st, 10) == 0)
			shares = 0;
		if (user && rng_below(&st, 4) != 0)
			usage = rng_below(&st, 1001);
		snprintf(name, sizeof(name), "%c%zu", user ? 'u' : 'a', k);
		i = ts_tree_add(t, p, name, user, shares, usage, (uint32_t)k,
				&err);
		ck_assert_msg(i >= 0, "%s", err.msg);
		if (!user) {
			accounts[n_acc++] = i;
			/* give it a user now: no userless account */
			ck_assert_int_ge(ts_tree_add(t, i, "", 1,
						     rng_below(&st, 21) + 1,
						     rng_below(&st, 1001),
						     (uint32_t)k, &err),
					 0);
			k++;
		}
	}
	/* Accounts' usage: their subtree's (children after parents). */
	for (i = (long)t->n - 1; i > 0; i--) {
		if (!t->is_user[i] && rng_below(&st, 5) == 0)
			t->usage[i] += rng_below(&st, 100);
		t->usage[t->parent[i]] += t->usage[i];
	}
	ck_assert_int_eq(ts_tree_finish(t, &err), TS_OK);
}

#endif /* TS_TEST_FS_TREES_H */
