/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PBS PP-718 fairshare_perc / fairshare_tree_usage / fairshare_factor
 * (seed 000) on the seed's own worked examples.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fs_trees.h"

/* Rounded as the seed prints it: "%.<digits>f". */
static void assert_prints(double v, int digits, const char *want)
{
	char got[32];

	snprintf(got, sizeof(got), "%.*f", digits, v);
	ck_assert_str_eq(got, want);
}

/*
 * Bob:  100/1200 + (200/1200 - 100/1200) * 50/100 = 0.125, perc .4 * .5
 * Suzy: 0 + (1000/1200 - 0) * 60/100 = 0.5, perc .6 * .6 = .36
 */
START_TEST(pbs_tree_usage_adds_share_of_group_usage)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };

	seed000_tree(&t, 0);
	compute(&t, TS_FS_CLASSIC, 1, &fs);
	ck_assert_double_eq_tol(fs.pbs_tree_usage[node(&t, "bob", 1)], 0.125,
				1e-12);
	ck_assert_double_eq_tol(fs.pbs_tree_usage[node(&t, "suzy", 1)], 0.5,
				1e-12);
	ck_assert_double_eq_tol(fs.pbs_perc[node(&t, "bob", 1)], 0.2, 1e-15);
	ck_assert_double_eq_tol(fs.pbs_perc[node(&t, "suzy", 1)], 0.36, 1e-15);
	ck_assert_double_eq_tol(fs.pbs_perc[node(&t, "group2", 0)], 0.6, 1e-15);
	/* root's children use their actual usage: 1000/1200 */
	ck_assert_double_eq_tol(fs.pbs_tree_usage[node(&t, "group2", 0)],
				1000.0 / 1200.0, 1e-15);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* Bob 2^-(0.125/0.2) = 0.648, Suzy 2^-(0.5/0.36) = 0.382, as printed. */
START_TEST(pbs_factor_matches_seed_worked_example_digits)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long bob, suzy;

	seed000_tree(&t, 0);
	compute(&t, TS_FS_FAIR_TREE, 1, &fs);
	bob = node(&t, "bob", 1);
	suzy = node(&t, "suzy", 1);
	assert_prints(fs.pbs_tree_usage[bob], 3, "0.125");
	assert_prints(fs.pbs_factor[bob], 3, "0.648");
	assert_prints(fs.pbs_tree_usage[suzy], 1, "0.5");
	assert_prints(fs.pbs_factor[suzy], 3, "0.382");
	ck_assert_double_eq_tol(fs.pbs_factor[bob], pow(2, -(0.125 / 0.2)),
				1e-12);
	ck_assert_double_eq_tol(fs.pbs_factor[suzy], pow(2, -(0.5 / 0.36)),
				1e-12);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* The seed's point: Suzy has more shares and less usage, yet ranks lower. */
START_TEST(pbs_factor_ranks_suzy_below_bob_despite_less_usage)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };

	seed000_tree(&t, 0);
	compute(&t, TS_FS_PBS, 1, &fs);
	ck_assert_double_lt(fs.pbs_factor[node(&t, "suzy", 1)],
			    fs.pbs_factor[node(&t, "bob", 1)]);
	ck_assert_double_gt(fs.pbs_perc[node(&t, "suzy", 1)],
			    fs.pbs_perc[node(&t, "bob", 1)]);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * pbsfs -g scott: TREEROOT 1201, group2 1001, scott 1000.
 * 1000/1201 + (1001/1201 - 1000/1201) * 40/100 = 1000.4/1201 = 0.832973
 */
START_TEST(pbsfs_example_gives_scott_tree_usage_0_832973)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long scott;

	seed000_tree(&t, 1);
	compute(&t, TS_FS_CLASSIC, 1, &fs);
	scott = node(&t, "scott", 1);
	assert_prints(fs.pbs_tree_usage[scott], 6, "0.832973");
	ck_assert_double_eq_tol(fs.pbs_tree_usage[scott], 1000.4 / 1201, 1e-12);
	/* pbsfs: "Percentage : 24.000000%" */
	assert_prints(fs.pbs_perc[scott] * 100, 6, "24.000000");
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* A formula computing pow(2, -(fairshare_tree_usage/fairshare_perc)). */
START_TEST(pbs_factor_is_bit_identical_to_formula_pow)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	size_t i;

	random_tree(&t, 0x5eed000, 300, 1);
	compute(&t, TS_FS_PBS, 1, &fs);
	for (i = 0; i < t.n; i++) {
		double f = fs.pbs_perc[i] > 0 ? pow(2, -(fs.pbs_tree_usage[i] /
							 fs.pbs_perc[i]))
					      : 0.0;

		ck_assert_msg(fs.pbs_factor[i] == f,
			      "seed 0x5eed000 node %zu: %.17g != %.17g", i,
			      fs.pbs_factor[i], f);
		ck_assert(fs.pbs_factor[i] ==
			  ts_pbs_factor(fs.pbs_tree_usage[i], fs.pbs_perc[i]));
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* PP-718: "If any job's entity has 0 shares, this keyword will resolve
   to 0"; the formula would divide by zero. */
START_TEST(pbs_zero_shares_gives_factor_zero_not_nan)
{
	const struct spec s[] = {
		{ "a", "root", 0, 0, 10 }, { "u1", "a", 1, 5, 10 },
		{ "b", "root", 0, 10, 0 }, { "u2", "b", 1, 0, 0 },
		{ "u3", "b", 1, 0, 0 },	   { "u4", "root", 1, 3, 0 },
	};
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[6];
	const int zero[] = { 0, 1, 3, 4 }; /* a, u1 under it, u2, u3 */
	int k;

	build_tree(&t, 1, 10, s, 6, idx);
	compute(&t, TS_FS_PBS, 1, &fs);
	for (k = 0; k < 4; k++) {
		ck_assert_double_eq(fs.pbs_perc[idx[zero[k]]], 0.0);
		ck_assert_double_eq(fs.pbs_factor[idx[zero[k]]], 0.0);
		ck_assert(!isnan(fs.pbs_tree_usage[idx[zero[k]]]));
	}
	/* u1: 10/10 + (1 - 1) * 1 = 1; u2, u3: no shares among siblings */
	ck_assert_double_eq(fs.pbs_tree_usage[idx[1]], 1.0);
	ck_assert_double_eq(fs.pbs_tree_usage[idx[3]], 0.0);
	ck_assert_double_eq(fs.pbs_factor[idx[5]], 1.0);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* The targets of all entities add up to 100% (seed 000). */
START_TEST(pbs_user_targets_sum_to_one)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	double sum = 0;
	size_t i;

	seed000_tree(&t, 0);
	compute(&t, TS_FS_PBS, 1, &fs);
	for (i = 0; i < t.n; i++)
		if (t.is_user[i])
			sum += fs.pbs_perc[i];
	ck_assert_double_eq_tol(sum, 1.0, 1e-15);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* Root: target 1, usage all of it (1) or nothing (0). */
START_TEST(pbs_root_has_whole_target_and_usage)
{
	const struct spec s[] = { { "u", "root", 1, 1, 0 } };
	struct ts_tree t;
	struct ts_fs fs = { 0 };

	seed000_tree(&t, 0);
	compute(&t, TS_FS_PBS, 1, &fs);
	ck_assert_double_eq(fs.pbs_perc[0], 1.0);
	ck_assert_double_eq(fs.pbs_tree_usage[0], 1.0);
	ck_assert_double_eq(fs.pbs_factor[0], 0.5);
	ts_tree_free(&t);
	build_tree(&t, 1, 0, s, 1, NULL);
	compute(&t, TS_FS_PBS, 1, &fs);
	ck_assert_double_eq(fs.pbs_tree_usage[0], 0.0);
	ck_assert_double_eq(fs.pbs_factor[0], 1.0);
	ck_assert_double_eq(fs.pbs_factor[1], 1.0);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Fairshare=parent: the user takes its fs parent's three values; the
 * lifted kids of a "parent" account share the fs parent's level.
 *   root [100] - g 1 [100] - p parent [60] - x 1 [60]
 *                          | y 3 [40]
 *                          \ q parent-user [0]
 * x, y are g's kids with shares 1 + 3: x perc 1/4, tree usage
 * .6 + (1 - .6) * 1/4 = .7
 */
START_TEST(pbs_fairshare_parent_takes_fs_parent_values)
{
	const struct spec s[] = {
		{ "g", "root", 0, 1, 100 }, { "p", "g", 0, PARENT, 60 },
		{ "x", "p", 1, 1, 60 },	    { "y", "g", 1, 3, 40 },
		{ "q", "g", 1, PARENT, 0 },
	};
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[5];
	int k;

	build_tree(&t, 1, 100, s, 5, idx);
	compute(&t, TS_FS_PBS, 1, &fs);
	ck_assert_double_eq_tol(fs.pbs_perc[idx[2]], 0.25, 1e-15);
	ck_assert_double_eq_tol(fs.pbs_tree_usage[idx[2]], 0.7, 1e-15);
	for (k = 1; k < 5; k += 3) {
		ck_assert_double_eq(fs.pbs_perc[idx[k]], fs.pbs_perc[idx[0]]);
		ck_assert_double_eq(fs.pbs_tree_usage[idx[k]],
				    fs.pbs_tree_usage[idx[0]]);
		ck_assert_double_eq(fs.pbs_factor[idx[k]],
				    fs.pbs_factor[idx[0]]);
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* fairshare=pbs: sshare's columns show perc, tree usage, factor. */
START_TEST(pbs_as_algorithm_fills_sshare_columns_whatever_damp)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 }, fs3 = { 0 };
	size_t i;

	seed000_tree(&t, 0);
	compute(&t, TS_FS_PBS, 1, &fs);
	compute(&t, TS_FS_PBS, 3, &fs3);
	for (i = 0; i < t.n; i++) {
		ck_assert_double_eq(fs.shares_norm[i], fs.pbs_perc[i]);
		ck_assert(fs.usage_efctv[i] == fs.pbs_tree_usage[i]);
		ck_assert_double_eq(fs.fs_factor[i], fs.pbs_factor[i]);
		ck_assert_double_eq(fs3.fs_factor[i], fs.fs_factor[i]);
	}
	ck_assert(fs.usage_norm[1] == 200.0L / 1200.0L);
	ts_fs_free(&fs);
	ts_fs_free(&fs3);
	ts_tree_free(&t);
}
END_TEST

Suite *suite_pbs(void)
{
	Suite *s = suite_create("pbs");
	TCase *tc = tcase_create("seed000");

	tcase_add_test(tc, pbs_tree_usage_adds_share_of_group_usage);
	tcase_add_test(tc, pbs_factor_matches_seed_worked_example_digits);
	tcase_add_test(tc, pbs_factor_ranks_suzy_below_bob_despite_less_usage);
	tcase_add_test(tc, pbsfs_example_gives_scott_tree_usage_0_832973);
	tcase_add_test(tc, pbs_factor_is_bit_identical_to_formula_pow);
	tcase_add_test(tc, pbs_zero_shares_gives_factor_zero_not_nan);
	tcase_add_test(tc, pbs_user_targets_sum_to_one);
	tcase_add_test(tc, pbs_root_has_whole_target_and_usage);
	tcase_add_test(tc, pbs_fairshare_parent_takes_fs_parent_values);
	tcase_add_test(tc, pbs_as_algorithm_fills_sshare_columns_whatever_damp);
	suite_add_tcase(s, tc);
	return s;
}
