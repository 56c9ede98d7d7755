/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The level that orders two users under Fair Tree (src/ft_decide.c):
 * seed 000 by hand, and on random trees the decision agrees with the
 * ranking Fair Tree gave (fair_tree.c), pair by pair.
 */
#include <check.h>
#include <math.h>

#include "fs_trees.h"
#include "ft_decide.h"

enum { ROOT, GROUP1, BOB, CATHY, GROUP2, SUZY, SCOTT };

/*
 * Seed 000 with its usage (group1 200 = bob 100 + cathy 100, group2 1000
 * = suzy 0 + scott 1000, of 1200): Level FS group1 0.4 / (200/1200) = 2.4,
 * group2 0.6 / (1000/1200) = 0.72, so bob and scott part at the root,
 * group1 first; bob and cathy tie at group1 (0.5 / 0.5 each), kid order
 * puts bob first; suzy (no usage, +inf) goes before scott (0.4).
 */
START_TEST(ft_decide_seed000_by_hand)
{
	struct ts_tree t;
	struct ts_fs fs = { 0 };
	struct ts_ft_decision d;
	struct ts_error err = TS_ERROR_INIT;

	seed000_tree(&t, 0);
	compute(&t, TS_FS_FAIR_TREE, 1, &fs);
	ck_assert_int_eq(ts_ft_decide(&t, &fs, SCOTT, BOB, &d, &err), TS_OK);
	ck_assert_int_eq(d.ancestor, ROOT);
	ck_assert_int_eq(d.side_a, GROUP2);
	ck_assert_int_eq(d.side_b, GROUP1);
	ck_assert(!d.a_first && !d.tied);
	ck_assert_double_eq_tol((double)fs.level_fs[GROUP1], 2.4, 1e-12);
	ck_assert_double_eq_tol((double)fs.level_fs[GROUP2], 0.72, 1e-12);
	ck_assert_int_eq(ts_ft_decide(&t, &fs, BOB, CATHY, &d, &err), TS_OK);
	ck_assert_int_eq(d.ancestor, GROUP1);
	ck_assert(d.a_first && d.tied);
	ck_assert_double_eq(fs.fs_factor[BOB], fs.fs_factor[CATHY]);
	ck_assert_int_eq(ts_ft_decide(&t, &fs, SCOTT, SUZY, &d, &err), TS_OK);
	ck_assert(!d.a_first && !d.tied);
	ck_assert(isinf((double)fs.level_fs[SUZY]));
	ck_assert_int_eq(ts_ft_decide(&t, &fs, BOB, GROUP1, &d, &err),
			 TS_EINVAL);
	ck_assert_int_eq(ts_ft_decide(&t, &fs, BOB, BOB, &d, &err), TS_EINVAL);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Every pair of users of 40 random trees (Fairshare=parent, zero shares
 * and zero usage included): when the two sides' Level FS differ, the
 * side that sorts first has the higher FairShare (equal Level FS may
 * share a rank, even between a user and an account).  Fails if the ancestor were taken in
 * the plain tree instead of the fs tree, or the sides compared reversed.
 */
START_TEST(ft_decide_agrees_with_the_ranking)
{
	uint64_t seed;
	size_t decided = 0;

	for (seed = 1; seed <= 40; seed++) {
		struct ts_tree t;
		struct ts_fs fs = { 0 };
		struct ts_error err = TS_ERROR_INIT;
		size_t a, b;

		random_tree(&t, seed, 60, 1);
		compute(&t, TS_FS_FAIR_TREE, 1, &fs);
		for (a = 1; a < t.n; a++)
			for (b = 1; b < t.n; b++) {
				struct ts_ft_decision d;

				if (a == b || !t.is_user[a] || !t.is_user[b])
					continue;
				ck_assert_msg(ts_ft_decide(&t, &fs, a, b, &d,
							   &err) == TS_OK,
					      "seed %llu: %s",
					      (unsigned long long)seed,
					      err.msg);
				ck_assert_int_eq(t.fs_parent[d.side_a],
						 d.ancestor);
				ck_assert_int_eq(t.fs_parent[d.side_b],
						 d.ancestor);
				if (d.tied)
					continue;
				decided++;
				ck_assert_msg(d.a_first == (fs.fs_factor[a] >
							    fs.fs_factor[b]),
					      "seed %llu: users %zu and %zu",
					      (unsigned long long)seed, a, b);
				ck_assert(fs.fs_factor[a] != fs.fs_factor[b]);
			}
		ts_fs_free(&fs);
		ts_tree_free(&t);
	}
	ck_assert_uint_gt(decided, 1000);
}
END_TEST

Suite *suite_ft_decide(void)
{
	Suite *s = suite_create("ft_decide");
	TCase *tc = tcase_create("ft_decide");

	tcase_add_test(tc, ft_decide_seed000_by_hand);
	tcase_add_test(tc, ft_decide_agrees_with_the_ranking);
	suite_add_tcase(s, tc);
	return s;
}
