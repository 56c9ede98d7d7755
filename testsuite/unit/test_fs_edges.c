/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Edge cases of the fair-share algorithms, each its own test, each run
 * through all four algorithms: zero shares, zero usage, one user, users
 * under the root, deep chains, 10,000 siblings, huge usage,
 * Fairshare=parent at several levels, bad arguments, no allocation.
 */
#include <check.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>

#include "fs_trees.h"

static const enum ts_fs_algo all_algos[] = { TS_FS_CLASSIC,
					     TS_FS_DEPTH_OBLIVIOUS,
					     TS_FS_FAIR_TREE, TS_FS_PBS };

/* No NaN anywhere, factors and PBS values in [0,1]. */
static void assert_sane(const struct ts_tree *t, const struct ts_fs *fs)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		ck_assert_msg(fs->fs_factor[i] >= 0 && fs->fs_factor[i] <= 1,
			      "node %zu factor %g", i, fs->fs_factor[i]);
		ck_assert(fs->pbs_factor[i] >= 0 && fs->pbs_factor[i] <= 1);
		ck_assert(fs->pbs_tree_usage[i] >= 0 &&
			  fs->pbs_tree_usage[i] <= 1);
		ck_assert(fs->pbs_perc[i] >= 0 && fs->pbs_perc[i] <= 1);
		ck_assert(fs->shares_norm[i] >= 0 && fs->shares_norm[i] <= 1);
		ck_assert(!isnan(fs->usage_efctv[i]));
		ck_assert(!isnan(fs->usage_norm[i]));
		ck_assert(!isnan(fs->level_fs[i]));
	}
}

/*
 * z has 0 shares next to s 1: NormShares 0 and factor 0 in classic, DO
 * and PBS (never 0/0); Level FS 0 in Fair Tree, so z ranks below s even
 * though s used more.  root [10] - A 1 [10] - z 0 [0], s 1 [10]
 */
START_TEST(edge_zero_shares_gives_lowest_factor_not_nan)
{
	const struct spec s[] = {
		{ "A", "root", 0, 1, 10 },
		{ "z", "A", 1, 0, 0 },
		{ "s", "A", 1, 1, 10 },
	};
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[3];
	int a;

	build_tree(&t, 1, 10, s, 3, idx);
	for (a = 0; a < 4; a++) {
		compute(&t, all_algos[a], 1, &fs);
		assert_sane(&t, &fs);
		ck_assert_double_eq(fs.pbs_factor[idx[1]], 0.0);
		if (all_algos[a] == TS_FS_FAIR_TREE) {
			ck_assert(fs.level_fs[idx[1]] == 0.0L);
			ck_assert_uint_lt(fs.rank[idx[1]], fs.rank[idx[2]]);
		} else {
			ck_assert_double_eq(fs.shares_norm[idx[1]], 0.0);
			ck_assert_double_eq(fs.fs_factor[idx[1]], 0.0);
		}
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* Nothing used: classic/DO/PBS factor 1 for every entity with shares,
   Fair Tree Level FS +inf for all, every user tied at the top rank. */
START_TEST(edge_zero_usage_everywhere_gives_top_factor_to_all)
{
	const struct spec s[] = {
		{ "A", "root", 0, 1, 0 }, { "a1", "A", 1, 1, 0 },
		{ "a2", "A", 1, 4, 0 },	  { "B", "root", 0, 3, 0 },
		{ "C", "B", 0, 1, 0 },	  { "c1", "C", 1, 1, 0 },
		{ "u", "root", 1, 2, 0 },
	};
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	size_t i;
	int a;

	build_tree(&t, 1, 0, s, 7, NULL);
	for (a = 0; a < 4; a++) {
		compute(&t, all_algos[a], 1, &fs);
		assert_sane(&t, &fs);
		for (i = 1; i < t.n; i++) {
			ck_assert(fs.usage_norm[i] == 0.0L);
			ck_assert_double_eq(fs.pbs_factor[i], 1.0);
			if (all_algos[a] != TS_FS_FAIR_TREE) {
				ck_assert_double_eq(fs.fs_factor[i], 1.0);
				continue;
			}
			ck_assert(fs.level_fs[i] == INFINITY);
			if (t.is_user[i])
				ck_assert_double_eq(fs.fs_factor[i], 1.0);
		}
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* One user (root - A - u): it has all shares; Fair Tree rank 1 of 1. */
START_TEST(edge_one_user_has_all_shares_and_rank_one)
{
	const struct spec s[] = {
		{ "A", "root", 0, 7, 50 },
		{ "u", "A", 1, 3, 50 },
	};
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[2];
	int a;

	build_tree(&t, 1, 50, s, 2, idx);
	for (a = 0; a < 4; a++) {
		compute(&t, all_algos[a], 1, &fs);
		assert_sane(&t, &fs);
		ck_assert_double_eq(fs.shares_norm[idx[1]], 1.0);
		if (all_algos[a] == TS_FS_FAIR_TREE) {
			ck_assert_uint_eq(fs.rank[idx[1]], 1);
			ck_assert_double_eq(fs.fs_factor[idx[1]], 1.0);
		} else {
			/* all usage on all shares: 2^-1 */
			ck_assert_double_eq(fs.fs_factor[idx[1]], 0.5);
		}
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Users directly under the root next to an account, root [100]:
 *   u1 1 [30], A 1 [70] - a 1 [70], u2 2 [0]
 * Root's kids use their NormUsage: u1 EffectvUsage .3, NormShares 1/4,
 * factor 2^-1.2.  Fair Tree: u2 (inf) 3, u1 (.25/.3) 2, a 1 (A .25/.7).
 */
START_TEST(edge_users_under_root_sit_beside_accounts)
{
	const struct spec s[] = {
		{ "u1", "root", 1, 1, 30 },
		{ "A", "root", 0, 1, 70 },
		{ "a", "A", 1, 1, 70 },
		{ "u2", "root", 1, 2, 0 },
	};
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[4];
	int a;

	build_tree(&t, 1, 100, s, 4, idx);
	for (a = 0; a < 4; a++) {
		compute(&t, all_algos[a], 1, &fs);
		assert_sane(&t, &fs);
		if (all_algos[a] == TS_FS_FAIR_TREE) {
			ck_assert_uint_eq(fs.rank[idx[3]], 3);
			ck_assert_uint_eq(fs.rank[idx[0]], 2);
			ck_assert_uint_eq(fs.rank[idx[2]], 1);
			continue;
		}
		ck_assert_double_eq_tol((double)fs.usage_efctv[idx[0]], 0.3,
					1e-15);
		ck_assert_double_eq_tol(fs.fs_factor[idx[0]], pow(2, -1.2),
					1e-15);
		ck_assert_double_eq(fs.fs_factor[idx[3]], 1.0);
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * A chain 50 deep: account a_k under a_(k-1) (a_0 the root) beside an
 * idle user i_k, k = 1..49, and the only busy user d under a_49.  All
 * shares 1, all usage (1000) d's.  NormShares of i_k and a_k .5^k,
 * d .5^49.  Classic/PBS: EffectvUsage a_k 1, i_1 0 (a first-level
 * entity), i_k .5 below, so i_k's factor 2^-(.5/.5^k) = 2^-(2^(k-1)),
 * d's 2^-(2^49) = 0.  Fair Tree: i_k rank 51 - k, d rank 1, of 50.
 */
START_TEST(edge_chain_50_deep_ranks_and_factors_down_the_levels)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_fs fs = { 0 };
	long acct = 0, idle[50], d;
	int k, a;

	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 1000, 0, &err);
	for (k = 1; k < 50; k++) {
		idle[k] = ts_tree_add(&t, acct, "i", 1, 1, 0, 0, &err);
		acct = ts_tree_add(&t, acct, "a", 0, 1, 1000, 0, &err);
		ck_assert_int_gt(acct, 0);
	}
	d = ts_tree_add(&t, acct, "d", 1, 1, 1000, 0, &err);
	ck_assert_int_eq(ts_tree_finish(&t, &err), TS_OK);
	ck_assert_uint_eq(t.depth[d], 50);
	for (a = 0; a < 4; a++) {
		compute(&t, all_algos[a], 1, &fs);
		assert_sane(&t, &fs);
		if (all_algos[a] == TS_FS_FAIR_TREE) {
			for (k = 1; k < 50; k++)
				ck_assert_uint_eq(fs.rank[idle[k]],
						  (uint32_t)(51 - k));
			ck_assert_uint_eq(fs.rank[d], 1);
			ck_assert_double_eq(fs.fs_factor[d], 1.0 / 50);
			continue;
		}
		ck_assert_double_eq(fs.shares_norm[d], ldexp(1, -49));
		ck_assert_double_eq(fs.shares_norm[idle[30]], ldexp(1, -30));
		ck_assert_double_eq(fs.fs_factor[d], 0.0);
		if (all_algos[a] == TS_FS_DEPTH_OBLIVIOUS)
			continue;
		ck_assert_double_eq(fs.fs_factor[idle[1]], 1.0);
		ck_assert_double_eq_tol(fs.fs_factor[idle[2]], 0.25, 1e-15);
		ck_assert_double_eq_tol(fs.fs_factor[idle[4]], ldexp(1, -8),
					1e-15);
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * 5,000 deep, past the depth where NormShares stops being multiplied
 * from the node up: still a product of the level ratios (1/2 per level
 * here: an idle user beside each account), no stack overflow in Fair
 * Tree's walk, no NaN.
 */
START_TEST(edge_chain_5000_deep_walks_without_recursion)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_fs fs = { 0 };
	long acct = 0, d, i100 = 0;
	int k, a;

	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 5, 0, &err);
	for (k = 1; k < 5000; k++) {
		long i = ts_tree_add(&t, acct, "i", 1, 1, 0, 0, &err);

		if (k == 100)
			i100 = i;
		acct = ts_tree_add(&t, acct, "a", 0, 1, 5, 0, &err);
	}
	d = ts_tree_add(&t, acct, "d", 1, 1, 5, 0, &err);
	ck_assert_int_eq(ts_tree_finish(&t, &err), TS_OK);
	for (a = 0; a < 4; a++) {
		compute(&t, all_algos[a], 1, &fs);
		assert_sane(&t, &fs);
		if (all_algos[a] == TS_FS_FAIR_TREE) {
			ck_assert_uint_eq(fs.rank[i100], 5000 - 99);
			ck_assert_uint_eq(fs.rank[d], 1);
		} else if (all_algos[a] != TS_FS_PBS) {
			ck_assert_double_eq(fs.shares_norm[i100],
					    ldexp(1, -100));
		}
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * 10,000 users under one account A (A alone under the root), shares 1,
 * usage k mod 7 for user k: classes 0..3 hold 1429 users, 4..6 1428;
 * total 29994.  Fair Tree: Level FS falls with usage, equal usage ties,
 * so a user of usage c ranks 10000 - (users with usage below c).
 * Classic: EffectvUsage u + (1 - u)/10000, idle users 2^-1.  DO: A on
 * target (R 1, k 1), so EffectvUsage = NormUsage.
 */
START_TEST(edge_10000_siblings_rank_by_usage_class)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_fs fs = { 0 };
	uint32_t below[8] = { 0 };
	long first = 0;
	int k, c;

	ck_assert_int_eq(ts_tree_init(&t, 10002, &err), TS_OK);
	ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 29994, 0, &err);
	ts_tree_add(&t, 0, "A", 0, 1, 29994, 0, &err);
	for (k = 0; k < 10000; k++) {
		long u =
			ts_tree_add(&t, 1, "u", 1, 1, k % 7, (uint32_t)k, &err);

		if (!k)
			first = u;
	}
	ck_assert_int_eq(ts_tree_finish(&t, &err), TS_OK);
	for (c = 1; c < 8; c++)
		below[c] = below[c - 1] + (c - 1 < 4 ? 1429 : 1428);

	compute(&t, TS_FS_FAIR_TREE, 1, &fs);
	assert_sane(&t, &fs);
	for (k = 0; k < 10000; k++)
		ck_assert_uint_eq(fs.rank[first + k], 10000 - below[k % 7]);

	compute(&t, TS_FS_CLASSIC, 1, &fs);
	assert_sane(&t, &fs);
	ck_assert_double_eq_tol(fs.fs_factor[first], 0.5, 1e-12);
	ck_assert_double_eq_tol((double)fs.usage_efctv[first + 6],
				6.0 / 29994 + (1 - 6.0 / 29994) / 10000, 1e-15);

	compute(&t, TS_FS_DEPTH_OBLIVIOUS, 1, &fs);
	assert_sane(&t, &fs);
	for (k = 0; k < 10000; k += 997)
		ck_assert_double_eq_tol((double)fs.usage_efctv[first + k],
					(k % 7) / 29994.0, 1e-15);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Usage 1e30 (long double, as Slurm's): no overflow, no NaN.  The heavy
 * user has all but 1e-28 of the usage: classic factor 2^-(~1/.5).
 *   root - A 1 - big 1 [1e30], small 1 [100]
 */
START_TEST(edge_usage_1e30_stays_finite)
{
	const struct spec s[] = {
		{ "A", "root", 0, 1, 1e30L + 100 },
		{ "big", "A", 1, 1, 1e30L },
		{ "small", "A", 1, 1, 100 },
	};
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[3];
	int a;

	build_tree(&t, 1, 1e30L + 100, s, 3, idx);
	for (a = 0; a < 4; a++) {
		compute(&t, all_algos[a], 1, &fs);
		assert_sane(&t, &fs);
		ck_assert(isfinite(fs.usage_efctv[idx[1]]));
		if (all_algos[a] == TS_FS_FAIR_TREE) {
			ck_assert_uint_eq(fs.rank[idx[2]], 2);
			ck_assert_uint_eq(fs.rank[idx[1]], 1);
		} else if (all_algos[a] == TS_FS_CLASSIC) {
			ck_assert_double_eq_tol(fs.fs_factor[idx[1]], 0.25,
						1e-15);
			ck_assert_double_eq_tol(fs.fs_factor[idx[2]],
						pow(2, -1.0), 1e-15);
		}
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Fairshare=parent at several levels, shares [usage], root [80]:
 *   A 10 [80] - P1 parent [70] - P2 parent [70] - u1 5 [60]
 *             |                               | u2 3 [10]
 *             |                               \ q parent-user [0]
 *             \ a 2 [10]
 *   B 30 [0]  - b 1 [0]
 * P1, P2 are skipped: u1, u2, q, a (and P1, P2) are A's fs kids, level
 * shares 5 + 3 + 2.  Classic: NormShares u1 5/10 * 10/40 = .125, q and
 * P1, P2 A's .25; EffectvUsage u1 .75 + (1 - .75) * .5 = .875, q A's 1,
 * and q's jobs get A's factor 2^-(1/.25).  Fair Tree: B (inf) first,
 * b rank 5; then q (inf) 4, P1, P2 (NO_VAL, no kids), u2 (.3/.125 = 2.4)
 * 3, a (.2/.125 = 1.6) 2, u1 (.5/.75) 1.
 */
START_TEST(edge_fairshare_parent_at_several_levels)
{
	const struct spec s[] = {
		{ "A", "root", 0, 10, 80 },    { "P1", "A", 0, PARENT, 70 },
		{ "P2", "P1", 0, PARENT, 70 }, { "u1", "P2", 1, 5, 60 },
		{ "u2", "P2", 1, 3, 10 },      { "q", "P2", 1, PARENT, 0 },
		{ "a", "A", 1, 2, 10 },	       { "B", "root", 0, 30, 0 },
		{ "b", "B", 1, 1, 0 },
	};
	enum { A, P1, P2, U1, U2, Q, AU, B, BU };
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[9];
	int a, k;

	build_tree(&t, 1, 80, s, 9, idx);
	for (k = P1; k <= AU; k++)
		ck_assert_int_eq(t.fs_parent[idx[k]], idx[A]);
	ck_assert_uint_eq(t.level_shares[idx[U1]], 10);

	compute(&t, TS_FS_CLASSIC, 1, &fs);
	assert_sane(&t, &fs);
	ck_assert_double_eq_tol(fs.shares_norm[idx[U1]], 0.125, 1e-16);
	ck_assert_double_eq_tol((double)fs.usage_efctv[idx[U1]], 0.875, 1e-15);
	for (k = 0; k < 3; k++) {
		long p = idx[k < 2 ? P1 + k : Q]; /* P1, P2, q */

		ck_assert_double_eq(fs.shares_norm[p], 0.25);
		ck_assert(fs.usage_efctv[p] == fs.usage_efctv[idx[A]]);
	}
	ck_assert_double_eq(fs.fs_factor[t.fs_parent[idx[Q]]], pow(2, -4));

	compute(&t, TS_FS_FAIR_TREE, 1, &fs);
	assert_sane(&t, &fs);
	ck_assert_uint_eq(fs.rank[idx[BU]], 5);
	ck_assert_uint_eq(fs.rank[idx[Q]], 4);
	ck_assert_uint_eq(fs.rank[idx[U2]], 3);
	ck_assert_uint_eq(fs.rank[idx[AU]], 2);
	ck_assert_uint_eq(fs.rank[idx[U1]], 1);
	ck_assert(fs.level_fs[idx[P1]] == TS_USAGE_NO_VAL);
	ck_assert(fs.level_fs[idx[P2]] == TS_USAGE_NO_VAL);

	for (a = 0; a < 4; a++) {
		compute(&t, all_algos[a], 1, &fs);
		assert_sane(&t, &fs);
		ck_assert_double_eq(fs.pbs_factor[idx[Q]],
				    fs.pbs_factor[idx[A]]);
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* Bad calls fail with a message and touch nothing they cannot. */
START_TEST(edge_compute_rejects_unfinished_tree_small_results_bad_damp)
{
	struct ts_fs_config cfg = { .algo = TS_FS_CLASSIC, .damp = 1 };
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree t;
	struct ts_fs fs = { 0 };

	seed000_tree(&t, 0);
	ck_assert_int_eq(ts_fs_alloc(&fs, 3, &err), TS_OK);
	ck_assert_int_eq(ts_fs_compute(&t, &cfg, &fs, &err), TS_EINVAL);
	ck_assert_str_eq(err.msg,
			 "fair-share: results sized for 3 nodes, tree has 7");
	ts_error_clear(&err);
	ck_assert_int_eq(ts_fs_alloc(&fs, t.n, &err), TS_OK);
	cfg.damp = 0.5;
	ck_assert_int_eq(ts_fs_compute(&t, &cfg, &fs, &err), TS_ERANGE);
	ts_error_clear(&err);
	cfg.damp = NAN;
	ck_assert_int_eq(ts_fs_compute(&t, &cfg, &fs, &err), TS_ERANGE);
	ts_error_clear(&err);
	cfg.damp = 1;
	cfg.algo = (enum ts_fs_algo)42;
	ck_assert_int_eq(ts_fs_compute(&t, &cfg, &fs, &err), TS_EINVAL);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_fair_tree_opt(&t, 8, &fs, &err), TS_EINVAL);
	ts_error_clear(&err);
	ts_tree_add(&t, 1, "late", 1, 1, 0, 99, &err);
	ck_assert_int_eq(ts_pbs(&t, &fs, &err), TS_EINVAL);
	ck_assert_str_eq(err.msg, "pbs: tree is not finished");
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* After ts_fs_alloc(), cycles of every algorithm allocate nothing. */
START_TEST(edge_compute_allocates_nothing_after_alloc)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	size_t before;
	int a, round;

	random_tree(&t, 0xa110c, 400, 1);
	compute(&t, TS_FS_FAIR_TREE, 1, &fs);
	before = mallinfo2().uordblks;
	for (round = 0; round < 3; round++)
		for (a = 0; a < 4; a++) {
			struct ts_fs_config cfg = { .algo = all_algos[a],
						    .damp = 2,
						    .ft_flags = round == 1 };
			struct ts_error err = TS_ERROR_INIT;

			ck_assert_int_eq(ts_fs_compute(&t, &cfg, &fs, &err),
					 TS_OK);
		}
	ck_assert_uint_eq(mallinfo2().uordblks, before);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* Every column is rewritten: no value survives from another algorithm. */
START_TEST(edge_results_do_not_depend_on_previous_algorithm)
{
	struct ts_tree t;
	size_t i;
	int a, b;

	random_tree(&t, 0xc0105, 200, 1);
	for (a = 0; a < 4; a++) {
		struct ts_fs fresh = { 0 };

		compute(&t, all_algos[a], 2, &fresh);
		for (b = 0; b < 4; b++) {
			struct ts_fs fs = { 0 };

			compute(&t, all_algos[b], 1, &fs);
			compute(&t, all_algos[a], 2, &fs);
			for (i = 0; i < t.n; i++) {
				ck_assert(fs.shares_norm[i] ==
					  fresh.shares_norm[i]);
				ck_assert(fs.usage_norm[i] ==
					  fresh.usage_norm[i]);
				ck_assert(fs.usage_efctv[i] ==
					  fresh.usage_efctv[i]);
				ck_assert(fs.level_fs[i] == fresh.level_fs[i]);
				ck_assert(fs.fs_factor[i] ==
					  fresh.fs_factor[i]);
				ck_assert(fs.rank[i] == fresh.rank[i]);
			}
			ts_fs_free(&fs);
		}
		ts_fs_free(&fresh);
	}
	ts_tree_free(&t);
}
END_TEST

Suite *suite_fs_edges(void)
{
	Suite *s = suite_create("fs_edges");
	TCase *tc = tcase_create("edges");

	tcase_add_test(tc, edge_zero_shares_gives_lowest_factor_not_nan);
	tcase_add_test(tc, edge_zero_usage_everywhere_gives_top_factor_to_all);
	tcase_add_test(tc, edge_one_user_has_all_shares_and_rank_one);
	tcase_add_test(tc, edge_users_under_root_sit_beside_accounts);
	tcase_add_test(tc,
		       edge_chain_50_deep_ranks_and_factors_down_the_levels);
	tcase_add_test(tc, edge_chain_5000_deep_walks_without_recursion);
	tcase_add_test(tc, edge_10000_siblings_rank_by_usage_class);
	tcase_add_test(tc, edge_usage_1e30_stays_finite);
	tcase_add_test(tc, edge_fairshare_parent_at_several_levels);
	tcase_add_test(
		tc,
		edge_compute_rejects_unfinished_tree_small_results_bad_damp);
	tcase_add_test(tc, edge_compute_allocates_nothing_after_alloc);
	tcase_add_test(tc, edge_results_do_not_depend_on_previous_algorithm);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
