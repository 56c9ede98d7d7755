/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ts_fs_compute_pbs(): the plugin's cycle skips the PBS columns when
 * nothing reads them (no formula=, another algorithm), a pow() a node.
 * Properties: every other column is bit-identical to ts_fs_compute()'s;
 * the PBS columns are left exactly as they were; fairshare=pbs computes
 * them anyway.  Trees: fs_trees.h's random ones (shares 0 and
 * Fairshare=parent included).
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "fs_trees.h"

#define SENTINEL (-7.25)

static void run(const struct ts_tree *t, enum ts_fs_algo algo, int pbs,
		struct ts_fs *fs)
{
	struct ts_fs_config cfg = { .algo = algo, .damp = 1 };
	struct ts_error err = TS_ERROR_INIT;
	size_t i;

	ck_assert_int_eq(ts_fs_alloc(fs, t->n, &err), TS_OK);
	for (i = 0; i < t->n; i++)
		fs->pbs_perc[i] = fs->pbs_tree_usage[i] = fs->pbs_factor[i] =
			SENTINEL;
	ck_assert_msg(ts_fs_compute_pbs(t, &cfg, pbs, fs, &err) == TS_OK, "%s",
		      err.msg);
}

/* Bitwise for doubles: -0.0 and 0.0 told apart, two NaNs matched. */
#define SAME(a, b) ck_assert_mem_eq(&(a), &(b), sizeof(a))
/* long double has padding bytes: equal values, same sign, or both NaN. */
#define SAME_LD(a, b)                                                          \
	ck_assert(((a) == (b) && !signbit(a) == !signbit(b)) ||                \
		  (isnan(a) && isnan(b)))

START_TEST(fs_without_pbs_leaves_pbs_columns_and_changes_no_other_bit)
{
	static const enum ts_fs_algo algos[] = { TS_FS_CLASSIC,
						 TS_FS_DEPTH_OBLIVIOUS,
						 TS_FS_FAIR_TREE };
	uint64_t seed;
	size_t a, i;

	for (seed = 1; seed <= 40; seed++) {
		struct ts_tree t;

		random_tree(&t, seed, 60 + seed * 7, (int)(seed & 1));
		for (a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
			struct ts_fs with = { 0 }, without = { 0 };

			run(&t, algos[a], 1, &with);
			run(&t, algos[a], 0, &without);
			for (i = 0; i < t.n; i++) {
				SAME(with.shares_norm[i],
				     without.shares_norm[i]);
				SAME_LD(with.usage_norm[i],
					without.usage_norm[i]);
				SAME_LD(with.usage_efctv[i],
					without.usage_efctv[i]);
				SAME_LD(with.level_fs[i], without.level_fs[i]);
				SAME(with.fs_factor[i], without.fs_factor[i]);
				SAME(with.rank[i], without.rank[i]);
				ck_assert(with.pbs_perc[i] != SENTINEL);
				ck_assert(without.pbs_perc[i] == SENTINEL);
				ck_assert(without.pbs_tree_usage[i] ==
					  SENTINEL);
				ck_assert(without.pbs_factor[i] == SENTINEL);
			}
			ts_fs_free(&with);
			ts_fs_free(&without);
		}
		ts_tree_free(&t);
	}
}
END_TEST

/* Seed 000: Bob's fairshare_factor 0.648 whether asked for or not. */
START_TEST(fs_pbs_algorithm_computes_pbs_columns_even_when_not_asked)
{
	struct ts_tree t;
	struct ts_fs with = { 0 }, without = { 0 };
	long bob;
	size_t i;

	seed000_tree(&t, 0);
	run(&t, TS_FS_PBS, 1, &with);
	run(&t, TS_FS_PBS, 0, &without);
	bob = node(&t, "bob", 1);
	ck_assert_double_eq_tol(without.pbs_factor[bob], 0.6484197773, 1e-9);
	for (i = 0; i < t.n; i++) {
		SAME(with.pbs_factor[i], without.pbs_factor[i]);
		SAME(with.fs_factor[i], without.fs_factor[i]);
	}
	ts_fs_free(&with);
	ts_fs_free(&without);
	ts_tree_free(&t);
}
END_TEST

Suite *suite_fs_compute_pbs(void)
{
	Suite *s = suite_create("fs_compute_pbs");
	TCase *tc = tcase_create("columns");

	tcase_add_test(
		tc, fs_without_pbs_leaves_pbs_columns_and_changes_no_other_bit);
	tcase_add_test(
		tc, fs_pbs_algorithm_computes_pbs_columns_even_when_not_asked);
	suite_add_tcase(s, tc);
	return s;
}
