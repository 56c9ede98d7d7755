/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Classic fair share (Slurm 22.05 priority/multifactor, NO_FAIR_TREE):
 * NormShares, EffectvUsage, FairShare with the dampening factor, and
 * Fairshare=parent, against hand-worked trees and seed 000 (whose math
 * PP-718 credits to Slurm's fair-share documentation).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "fs_trees.h"
#include "normalise.h"

/* Seed 000: classic EffectvUsage is PBS's tree usage, FairShare with
   damp 1 its fairshare_factor (Bob 0.125 / 0.648, Suzy 0.5 / 0.382). */
START_TEST(classic_effective_usage_equals_pbs_tree_usage_on_seed000)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	size_t i;

	seed000_tree(&t, 0);
	compute(&t, TS_FS_CLASSIC, 1, &fs);
	for (i = 1; i < t.n; i++) {
		ck_assert_double_eq_tol((double)fs.usage_efctv[i],
					fs.pbs_tree_usage[i], 1e-15);
		ck_assert_double_eq_tol(fs.shares_norm[i], fs.pbs_perc[i],
					1e-15);
		ck_assert_double_eq_tol(fs.fs_factor[i], fs.pbs_factor[i],
					1e-15);
	}
	ck_assert_double_eq_tol((double)fs.usage_efctv[node(&t, "bob", 1)],
				0.125, 1e-15);
	ck_assert_double_eq_tol(fs.fs_factor[node(&t, "suzy", 1)],
				pow(2, -(0.5 / 0.36)), 1e-12);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* FairShareDampeningFactor=3: 2^(-(0.125/0.2)/3) for Bob; PBS unmoved. */
START_TEST(classic_damp_3_changes_classic_factor_not_pbs)
{
	struct ts_tree t;
	struct ts_fs fs1 = { 0 }, fs3 = { 0 };
	long bob;
	size_t i;

	seed000_tree(&t, 0);
	compute(&t, TS_FS_CLASSIC, 1, &fs1);
	compute(&t, TS_FS_CLASSIC, 3, &fs3);
	bob = node(&t, "bob", 1);
	ck_assert_double_eq_tol(fs3.fs_factor[bob], pow(2, -(0.125 / 0.2) / 3),
				1e-12);
	ck_assert_double_gt(fs3.fs_factor[bob], fs1.fs_factor[bob]);
	for (i = 0; i < t.n; i++) {
		ck_assert_double_eq(fs3.pbs_factor[i], fs1.pbs_factor[i]);
		ck_assert(fs3.usage_efctv[i] == fs1.usage_efctv[i]);
	}
	ts_fs_free(&fs1);
	ts_fs_free(&fs3);
	ts_tree_free(&t);
}
END_TEST

/*
 * Three levels, shares then [usage], root [100]:
 *   A 3 [80] - B 1 [60] - u 1 [60], v 1 [0]
 *            \ w 1 [20]
 *   C 1 [20] - z 1 [20]
 * NormShares: A 3/4, B 1/2 * 3/4, u 1/2 * 1/2 * 3/4 = .1875, z 1/4
 * EffectvUsage: A .8 (first level: NormUsage), B .6 + (.8 - .6)/2 = .7,
 *   w .2 + (.8 - .2)/2 = .5, u .6 + (.7 - .6)/2 = .65, v 0 + .7/2 = .35,
 *   z .2 + (.2 - .2) * 1 = .2
 * FairShare u 2^-(.65/.1875), v 2^-(.35/.1875)
 */
START_TEST(classic_three_levels_match_hand_worked_values)
{
	const struct spec s[] = {
		{ "A", "root", 0, 3, 80 }, { "B", "A", 0, 1, 60 },
		{ "u", "B", 1, 1, 60 },	   { "v", "B", 1, 1, 0 },
		{ "w", "A", 1, 1, 20 },	   { "C", "root", 0, 1, 20 },
		{ "z", "C", 1, 1, 20 },
	};
	const double sn[] = { .75, .375, .1875, .1875, .375, .25, .25 };
	const double ue[] = { .8, .7, .65, .35, .5, .2, .2 };
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[7];
	int k;

	build_tree(&t, 1, 100, s, 7, idx);
	compute(&t, TS_FS_CLASSIC, 1, &fs);
	for (k = 0; k < 7; k++) {
		ck_assert_double_eq_tol(fs.shares_norm[idx[k]], sn[k], 1e-15);
		ck_assert_double_eq_tol((double)fs.usage_efctv[idx[k]], ue[k],
					1e-15);
		ck_assert_double_eq_tol(fs.fs_factor[idx[k]],
					pow(2, -(ue[k] / sn[k])), 1e-12);
	}
	ck_assert(fs.usage_norm[idx[0]] == 80.0L / 100.0L);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * The worked example of Slurm 22.05's classic_fair_share.html (Figure 3;
 * seed 000 credits Slurm's documentation for its math), shares [usage
 * as a fraction of the machine]:
 *   A 40 [.45] - B 30 [.2] - user1 1 [.2]
 *              \ C 10 [.25] - user2 1 [.25], user3 1 [0]
 *   D 60 [.25] - E 25 [.25] - user4 1 [.25]
 *              \ F 35 [0] - user5 1 [0]
 * (root 1: .3 of the machine's usage is nobody's here).  Printed
 * factors: 0.408479, 0.022097, 0.125000, 0.500000, 0.749154.
 */
START_TEST(classic_slurm_doc_example_matches_printed_factors)
{
	const struct spec s[] = {
		{ "A", "root", 0, 40, 45 }, { "B", "A", 0, 30, 20 },
		{ "user1", "B", 1, 1, 20 }, { "C", "A", 0, 10, 25 },
		{ "user2", "C", 1, 1, 25 }, { "user3", "C", 1, 1, 0 },
		{ "D", "root", 0, 60, 25 }, { "E", "D", 0, 25, 25 },
		{ "user4", "E", 1, 1, 25 }, { "F", "D", 0, 35, 0 },
		{ "user5", "F", 1, 1, 0 },
	};
	const int user[] = { 2, 4, 5, 8, 10 };
	const char *const printed[] = { "0.408479", "0.022097", "0.125000",
					"0.500000", "0.749154" };
	const double sn[] = { .3, .05, .05, .25, .35 };
	const double ue[] = { .3875, .275, .15, .25, .25 * 35 / 60 };
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[11];
	char got[16];
	int k;

	build_tree(&t, 1, 100, s, 11, idx);
	compute(&t, TS_FS_CLASSIC, 1, &fs);
	for (k = 0; k < 5; k++) {
		long u = idx[user[k]];

		ck_assert_double_eq_tol(fs.shares_norm[u], sn[k], 1e-15);
		ck_assert_double_eq_tol((double)fs.usage_efctv[u], ue[k],
					1e-15);
		snprintf(got, sizeof(got), "%f", fs.fs_factor[u]);
		ck_assert_str_eq(got, printed[k]);
	}
	ck_assert_double_eq_tol((double)fs.usage_efctv[idx[1]], 0.3875, 1e-15);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * The root as Slurm keeps it: NormShares 1, EffectvUsage 1.0 (init()
 * sets it), NormUsage never computed (NO_VAL), FairShare as sshare
 * prints it: 2^(-(1/1)/damp).
 */
START_TEST(classic_root_keeps_slurm_values)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };

	seed000_tree(&t, 0);
	compute(&t, TS_FS_CLASSIC, 2, &fs);
	ck_assert_double_eq(fs.shares_norm[0], 1.0);
	ck_assert(fs.usage_efctv[0] == 1.0L);
	ck_assert(fs.usage_norm[0] == TS_USAGE_NO_VAL);
	ck_assert_double_eq_tol(fs.fs_factor[0], pow(2, -0.5), 1e-15);
	ck_assert(fs.level_fs[0] == 0.0L);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* A level whose shares are all 0: Slurm passes the parent's EffectvUsage
   down instead of dividing by zero; NormShares 0 gives FairShare 0. */
START_TEST(classic_zero_level_shares_passes_parent_usage_down)
{
	const struct spec s[] = {
		{ "A", "root", 0, 1, 30 }, { "u", "A", 1, 0, 10 },
		{ "v", "A", 1, 0, 20 },	   { "B", "root", 0, 1, 70 },
		{ "x", "B", 1, 1, 70 },
	};
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[5];

	build_tree(&t, 1, 100, s, 5, idx);
	compute(&t, TS_FS_CLASSIC, 1, &fs);
	ck_assert(fs.usage_efctv[idx[1]] == fs.usage_efctv[idx[0]]);
	ck_assert(fs.usage_efctv[idx[2]] == fs.usage_efctv[idx[0]]);
	ck_assert_double_eq(fs.shares_norm[idx[1]], 0.0);
	ck_assert_double_eq(fs.fs_factor[idx[1]], 0.0);
	ck_assert_double_eq(fs.fs_factor[idx[2]], 0.0);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Fairshare=parent user q under A: Slurm stores A's NormShares and A's
 * EffectvUsage for it, and charges its jobs A's factor.  One directly
 * under the root keeps its own NormUsage as EffectvUsage (the root test
 * comes first in _set_assoc_usage_efctv()), NormShares 1, and its jobs
 * get the root's factor, 2^-1.
 */
START_TEST(classic_fairshare_parent_user_uses_fs_parent_values)
{
	const struct spec s[] = {
		{ "A", "root", 0, 1, 60 },
		{ "a", "A", 1, 1, 40 },
		{ "q", "A", 1, PARENT, 20 },
		{ "r", "root", 1, PARENT, 40 },
	};
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	long idx[4];

	build_tree(&t, 1, 100, s, 4, idx);
	compute(&t, TS_FS_CLASSIC, 1, &fs);
	ck_assert_double_eq(fs.shares_norm[idx[2]], fs.shares_norm[idx[0]]);
	ck_assert(fs.usage_efctv[idx[2]] == fs.usage_efctv[idx[0]]);
	ck_assert_double_eq(fs.fs_factor[idx[2]], fs.fs_factor[idx[0]]);
	/* a is alone at its level: shares 1 of 1 */
	ck_assert_double_eq(fs.shares_norm[idx[1]], 1.0);
	ck_assert_double_eq(fs.shares_norm[idx[3]], 1.0);
	ck_assert(fs.usage_efctv[idx[3]] == 40.0L / 100.0L);
	ck_assert_int_eq(t.fs_parent[idx[3]], 0);
	ck_assert_double_eq(fs.fs_factor[t.fs_parent[idx[3]]], 0.5);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/* priority_p_calc_fs_factor(): NO_VAL (within 1e-5) and NormShares <= 0
   give 0; no usage gives 1; damp below 1 counts as 1. */
START_TEST(classic_factor_defined_for_no_val_zero_and_bad_damp)
{
	ck_assert_double_eq(ts_classic_factor(TS_USAGE_NO_VAL, 0.5, 1), 0.0);
	ck_assert_double_eq(
		ts_classic_factor(TS_USAGE_NO_VAL + 0.000001L, 0.5, 1), 0.0);
	ck_assert_double_gt(
		ts_classic_factor(TS_USAGE_NO_VAL + 0.0001L, 1e12L, 1), 0.0);
	ck_assert_double_eq(ts_classic_factor(0.25, 0, 1), 0.0);
	ck_assert_double_eq(ts_classic_factor(0.25, -1, 1), 0.0);
	ck_assert_double_eq(ts_classic_factor(0, 0.5, 1), 1.0);
	ck_assert_double_eq(ts_classic_factor(0.5, 0.5, 1), 0.5);
	ck_assert_double_eq(ts_classic_factor(0.5, 0.5, 0), 0.5);
	ck_assert_double_eq(ts_classic_factor(0.5, 0.5, NAN), 0.5);
	ck_assert_double_eq_tol(ts_classic_factor(0.5, 0.5, 2), sqrt(0.5),
				1e-15);
}
END_TEST

/*
 * The per-node EffectvUsage (what Slurm computes on demand for a user)
 * is bit for bit the value the whole-tree pass gives, on seed 000 (both
 * variants) and on a random tree with Fairshare=parent and zero shares; and its edge cases: fs parent the root, a
 * level without shares, Fairshare=parent.
 */
START_TEST(classic_node_efctv_equals_whole_tree_pass)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	size_t i;
	int variant;

	for (variant = 0; variant < 3; variant++) {
		if (variant < 2)
			seed000_tree(&t, variant);
		else
			random_tree(&t, 2026, 300, 1); /* Fairshare=parent */
		compute(&t, TS_FS_CLASSIC, 1, &fs);
		for (i = 1; i < t.n; i++) {
			long p = t.fs_parent[i];
			long double norm =
				ts_normalise_node_usage(t.usage[i], t.usage[0]);

			ck_assert(norm == fs.usage_norm[i]);
			ck_assert(ts_classic_node_efctv(
					  norm, p == 0, fs.usage_efctv[p],
					  t.shares[i], t.level_shares[i]) ==
				  fs.usage_efctv[i]);
		}
		ts_fs_free(&fs);
		ts_tree_free(&t);
	}
	ck_assert(ts_classic_node_efctv(0.25L, 1, 0.9L, 5, 10) == 0.25L);
	ck_assert(ts_classic_node_efctv(0.25L, 0, 0.9L, 5, 0) == 0.9L);
	ck_assert(ts_classic_node_efctv(0.25L, 0, 0.9L, TS_SHARES_PARENT, 10) ==
		  0.9L);
	ck_assert(ts_classic_node_efctv(0.25L, 0, 0.75L, 5, 10) == 0.5L);
	ck_assert(ts_normalise_node_usage(5, 0) == 0);
	ck_assert(ts_normalise_node_usage(30, 20) == 1);
	ck_assert(ts_normalise_node_usage(100, 1200) == 100 / 1200.0L);
}
END_TEST

Suite *suite_classic(void)
{
	Suite *s = suite_create("classic");
	TCase *tc = tcase_create("classic");

	tcase_add_test(
		tc, classic_effective_usage_equals_pbs_tree_usage_on_seed000);
	tcase_add_test(tc, classic_damp_3_changes_classic_factor_not_pbs);
	tcase_add_test(tc, classic_three_levels_match_hand_worked_values);
	tcase_add_test(tc, classic_slurm_doc_example_matches_printed_factors);
	tcase_add_test(tc, classic_root_keeps_slurm_values);
	tcase_add_test(tc, classic_zero_level_shares_passes_parent_usage_down);
	tcase_add_test(tc, classic_fairshare_parent_user_uses_fs_parent_values);
	tcase_add_test(tc, classic_factor_defined_for_no_val_zero_and_bad_damp);
	tcase_add_test(tc, classic_node_efctv_equals_whole_tree_pass);
	suite_add_tcase(s, tc);
	return s;
}
