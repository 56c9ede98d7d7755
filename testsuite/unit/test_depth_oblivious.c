/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DEPTH_OBLIVIOUS (seed 002): F = 2^-R, R = r = U/S for a first-level
 * account, R = Rparent * rl^k below, k by the rule Slurm runs.
 *
 * Hand-worked tree, shares then [usage], root [100]:
 *   A 50 [80] - a1 1 [10], a2 1 [70]
 *   B 50 [20] - b1 3 [20], b2 1 [0]
 * A: S .5, U .8, R = r = 1.6;  B: S .5, U .2, R = .4
 * a1: S .25, r = .1/.25 = .4, siblings' ratio (.1 + .7)/.5 = 1.6,
 *     rl = .4/1.6 = .25; ln 1.6 > 0 > ln .25, so
 *     k = 1/(1 + (5 ln 1.6)^2) = 0.153313441818915
 *     R = 1.6 * .25^k = 1.293647915944630, F = 0.407918285377545
 * a2: r = 2.8, rl = 1.75: both logs > 0, k = 1, R = 2.8 = r
 * b1: S .375, r = .2/.375, siblings' ratio .2/.5 = .4, rl = 4/3;
 *     ln .4 < 0 < ln 4/3: k = 1/(1 + (5 ln .4)^2) = 0.045475799948474
 *     R = .4 * (4/3)^k = 0.405267409455109, F = 0.755096319603330
 * b2: no usage: Slurm's fallback, EffectvUsage = NormUsage = 0, F = 1
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "fs_trees.h"

enum { A, A1, A2, B, B1, B2, N_DO };

/* The tree above and its DO results, built fresh for each test. */
static struct ts_tree t;
static struct ts_fs fs;
static long idx[N_DO];

static void do_setup(void)
{
	const struct spec s[N_DO] = {
		{ "A", "root", 0, 50, 80 }, { "a1", "A", 1, 1, 10 },
		{ "a2", "A", 1, 1, 70 },    { "B", "root", 0, 50, 20 },
		{ "b1", "B", 1, 3, 20 },    { "b2", "B", 1, 1, 0 },
	};

	memset(&fs, 0, sizeof(fs));
	build_tree(&t, 1, 100, s, N_DO, idx);
	compute(&t, TS_FS_DEPTH_OBLIVIOUS, 1, &fs);
}

static void do_teardown(void)
{
	ts_fs_free(&fs);
	ts_tree_free(&t);
}

/* R (EffectvUsage / NormShares) of node i. */
static double ratio(const struct ts_fs *r, long i)
{
	return (double)(r->usage_efctv[i] / r->shares_norm[i]);
}

START_TEST(do_first_level_account_has_r_equal_usage_over_shares)
{
	ck_assert_double_eq_tol(ratio(&fs, idx[A]), 1.6, 1e-15);
	ck_assert_double_eq_tol(ratio(&fs, idx[B]), 0.4, 1e-15);
	ck_assert_double_eq_tol(fs.fs_factor[idx[A]], pow(2, -1.6), 1e-15);
	ck_assert_double_eq_tol(fs.fs_factor[idx[B]], pow(2, -0.4), 1e-15);
}
END_TEST

START_TEST(do_child_below_target_of_overusing_parent_gets_k_below_one)
{
	ck_assert_double_eq_tol(ratio(&fs, idx[A1]), 1.293647915944630, 1e-12);
	ck_assert_double_eq_tol(fs.fs_factor[idx[A1]], 0.407918285377545,
				1e-12);
	/* pulled towards the parent's 1.6, away from its own r = .4 */
	ck_assert_double_gt(ratio(&fs, idx[A1]), 0.4);
	ck_assert_double_lt(ratio(&fs, idx[A1]), 1.6);
}
END_TEST

START_TEST(do_child_above_target_of_underusing_parent_gets_k_below_one)
{
	ck_assert_double_eq_tol(ratio(&fs, idx[B1]), 0.405267409455109, 1e-12);
	ck_assert_double_eq_tol(fs.fs_factor[idx[B1]], 0.755096319603330,
				1e-12);
}
END_TEST

/* Imbalance in the parent's direction: k = 1, R = r, U unchanged. */
START_TEST(do_child_on_same_side_as_parent_keeps_k_one)
{
	ck_assert_double_eq_tol(ratio(&fs, idx[A2]), 2.8, 1e-15);
	ck_assert_double_eq_tol((double)fs.usage_efctv[idx[A2]], 0.7, 1e-15);
	ck_assert_double_eq_tol(fs.fs_factor[idx[A2]], pow(2, -2.8), 1e-15);
}
END_TEST

START_TEST(do_child_without_usage_falls_back_to_norm_usage)
{
	ck_assert(fs.usage_efctv[idx[B2]] == 0.0L);
	ck_assert_double_eq(fs.fs_factor[idx[B2]], 1.0);
}
END_TEST

/*
 * root [100] - A 1 [100] - p parent-user [50], x 1 [25], y 1 [25]
 * A: R = 1, so ln R = 0 and k = 1.  Siblings' ratio skips p:
 * (.25 + .25)/1 = .5; x: r = .25/.5 = .5, rl = 1, R = 1, F = .5.
 * (Counting p would give rl .5 and F 2^-.5.)  p itself gets A's values.
 */
START_TEST(do_sibling_sum_skips_fairshare_parent_siblings)
{
	const struct spec s[] = {
		{ "A", "root", 0, 1, 100 },
		{ "p", "A", 1, PARENT, 50 },
		{ "x", "A", 1, 1, 25 },
		{ "y", "A", 1, 1, 25 },
	};
	struct ts_tree own;
	struct ts_fs res = { 0 };
	long n[4];

	build_tree(&own, 1, 100, s, 4, n);
	compute(&own, TS_FS_DEPTH_OBLIVIOUS, 1, &res);
	ck_assert_double_eq_tol(ratio(&res, n[2]), 1.0, 1e-15);
	ck_assert_double_eq_tol(res.fs_factor[n[2]], 0.5, 1e-15);
	ck_assert(res.usage_efctv[n[1]] == res.usage_efctv[n[0]]);
	ck_assert_double_eq(res.shares_norm[n[1]], res.shares_norm[n[0]]);
	ts_fs_free(&res);
	ts_tree_free(&own);
}
END_TEST

/* Outside the DO formula's own branch DO and classic agree: first
   level, Fairshare=parent, and no usage anywhere. */
START_TEST(do_equals_classic_at_first_level_and_without_usage)
{
	struct ts_fs c = { 0 };
	size_t i;

	compute(&t, TS_FS_CLASSIC, 1, &c);
	ck_assert(c.usage_efctv[idx[A]] == fs.usage_efctv[idx[A]]);
	ck_assert(c.usage_efctv[idx[B]] == fs.usage_efctv[idx[B]]);
	for (i = 0; i < t.n; i++)
		t.usage[i] = 0;
	compute(&t, TS_FS_CLASSIC, 1, &c);
	compute(&t, TS_FS_DEPTH_OBLIVIOUS, 1, &fs);
	for (i = 0; i < t.n; i++)
		ck_assert_double_eq(c.fs_factor[i], fs.fs_factor[i]);
	ts_fs_free(&c);
}
END_TEST

Suite *suite_depth_oblivious(void)
{
	Suite *s = suite_create("depth_oblivious");
	TCase *tc = tcase_create("seed002");
	TCase *own = tcase_create("own_trees");

	tcase_add_test(tc,
		       do_first_level_account_has_r_equal_usage_over_shares);
	tcase_add_test(
		tc, do_child_below_target_of_overusing_parent_gets_k_below_one);
	tcase_add_test(
		tc,
		do_child_above_target_of_underusing_parent_gets_k_below_one);
	tcase_add_test(tc, do_child_on_same_side_as_parent_keeps_k_one);
	tcase_add_test(tc, do_child_without_usage_falls_back_to_norm_usage);
	tcase_add_test(tc, do_equals_classic_at_first_level_and_without_usage);
	tcase_add_checked_fixture(tc, do_setup, do_teardown);
	tcase_add_test(own, do_sibling_sum_skips_fairshare_parent_siblings);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, own);
	return s;
}
