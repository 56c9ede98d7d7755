/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fair Tree (seed 004) as Slurm 22.05's fair_tree.c runs it: Level FS,
 * ranking, the tie cases, and where the running code departs from the
 * documented tie rules.
 */
#include <check.h>
#include <math.h>

#include "fs_trees.h"

static struct ts_fs ft(const struct ts_tree *t, int flags)
{
	struct ts_fs fs = { 0 };
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_fs_alloc(&fs, t->n, &err), TS_OK);
	ck_assert_int_eq(ts_fair_tree_opt(t, flags, &fs, &err), TS_OK);
	return fs;
}

/*
 * Seed 000's tree under Fair Tree.  Level FS = S / U with U the usage
 * within the parent: group1 .4/(200/1200) = 2.4 > group2 .6/(1000/1200)
 * = .72; bob, cathy .5/.5 = 1 (tied); suzy .6/0 = inf; scott .4/1 = .4.
 * Ranks from 4 users: bob 4, cathy 4 (tie), suzy 2 (rank skips the tie,
 * as "rank, no ties" does), scott 1.
 */
START_TEST(ft_seed000_ranks_group1_users_above_group2_users)
{
	struct ts_tree t;
	struct ts_fs fs;
	long bob, cathy, suzy, scott, g1, g2;

	seed000_tree(&t, 0);
	fs = ft(&t, TS_FT_AS_RUN);
	bob = node(&t, "bob", 1);
	cathy = node(&t, "cathy", 1);
	suzy = node(&t, "suzy", 1);
	scott = node(&t, "scott", 1);
	g1 = node(&t, "group1", 0);
	g2 = node(&t, "group2", 0);
	ck_assert_double_eq_tol((double)fs.level_fs[g1], 2.4, 1e-15);
	ck_assert_double_eq_tol((double)fs.level_fs[g2], 0.72, 1e-15);
	ck_assert_double_eq_tol((double)fs.level_fs[bob], 1.0, 1e-15);
	/* == INFINITY, not isinf(): valgrind makes long double inf LDBL_MAX */
	ck_assert(fs.level_fs[suzy] == INFINITY);
	ck_assert_double_eq_tol((double)fs.level_fs[scott], 0.4, 1e-15);
	ck_assert(fs.usage_efctv[g2] == 1000.0L / 1200.0L);
	ck_assert(fs.usage_efctv[scott] == 1.0L);
	ck_assert_uint_eq(fs.rank[bob], 4);
	ck_assert_uint_eq(fs.rank[cathy], 4);
	ck_assert_uint_eq(fs.rank[suzy], 2);
	ck_assert_uint_eq(fs.rank[scott], 1);
	ck_assert_double_eq(fs.fs_factor[bob], 1.0);
	ck_assert_double_eq(fs.fs_factor[suzy], 0.5);
	ck_assert_double_eq(fs.fs_factor[scott], 0.25);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Rule 3 (a user tied with a sibling account), shares [usage], root [100]:
 *   u0 1 [20]            Level FS (1/4)/.2 = 1.25
 *   A 1 [20] - a1 1 [0], a2 1 [20]   (1/4)/.2 = 1.25: tied with u0
 *   B 2 [60] - b1 1 [60]             (2/4)/.6 = .833
 * Sorted u0, A (users first on a tie), B.  u0 rank 4; A starts tied, so
 * its first user a1 (inf) keeps rank 4; a2 gets rnt = 2; b1 1.
 */
START_TEST(ft_account_tied_with_user_gives_its_first_user_that_rank)
{
	const struct spec s[] = {
		{ "A", "root", 0, 1, 20 }, { "a1", "A", 1, 1, 0 },
		{ "a2", "A", 1, 1, 20 },   { "u0", "root", 1, 1, 20 },
		{ "B", "root", 0, 2, 60 }, { "b1", "B", 1, 1, 60 },
	};
	struct ts_tree t;
	struct ts_fs fs;
	long idx[6];

	build_tree(&t, 1, 100, s, 6, idx);
	fs = ft(&t, TS_FT_AS_RUN);
	ck_assert(fs.level_fs[idx[0]] == fs.level_fs[idx[3]]);
	ck_assert_uint_eq(fs.rank[idx[3]], 4);
	ck_assert_uint_eq(fs.rank[idx[1]], 4);
	ck_assert_uint_eq(fs.rank[idx[2]], 2);
	ck_assert_uint_eq(fs.rank[idx[5]], 1);
	ck_assert_double_eq(fs.fs_factor[idx[1]], 1.0);
	ck_assert_double_eq(fs.fs_factor[idx[2]], 0.5);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Rule 2 (tied sibling accounts), root [100]:
 *   A 1 [50] - a1 1 [10] (LF 2.5), a2 1 [40] (.625)
 *   B 1 [50] - b1 1 [40] (.625),   b2 1 [10] (2.5)
 * A and B tie at 1.  Slurm 22.05 does not merge (_count_tied_accounts()
 * stops at the next account): A's users rank 4, 3; B starts tied, so b2
 * keeps a2's rank 3, and b1 gets rnt = 1.  Factors 1, .75, .75, .25.
 * The documented merge sorts a1, b2 (2.5) then a2, b1 (.625): 1, 1,
 * .5, .5.
 */
static void tied_accounts_tree(struct ts_tree *t, long *idx)
{
	const struct spec s[] = {
		{ "A", "root", 0, 1, 50 }, { "a1", "A", 1, 1, 10 },
		{ "a2", "A", 1, 1, 40 },   { "B", "root", 0, 1, 50 },
		{ "b1", "B", 1, 1, 40 },   { "b2", "B", 1, 1, 10 },
	};

	build_tree(t, 1, 100, s, 6, idx);
}

START_TEST(ft_tied_sibling_accounts_are_not_merged_as_slurm_runs)
{
	struct ts_tree t;
	struct ts_fs fs;
	long idx[6];

	tied_accounts_tree(&t, idx);
	fs = ft(&t, TS_FT_AS_RUN);
	ck_assert(fs.level_fs[idx[0]] == fs.level_fs[idx[3]]);
	ck_assert_double_eq(fs.fs_factor[idx[1]], 1.0);
	ck_assert_double_eq(fs.fs_factor[idx[2]], 0.75);
	ck_assert_double_eq(fs.fs_factor[idx[5]], 0.75);
	ck_assert_double_eq(fs.fs_factor[idx[4]], 0.25);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

START_TEST(ft_merge_option_merges_tied_accounts_as_documented)
{
	struct ts_tree t;
	struct ts_fs fs;
	long idx[6];

	tied_accounts_tree(&t, idx);
	fs = ft(&t, TS_FT_MERGE_TIED);
	ck_assert_double_eq(fs.fs_factor[idx[1]], 1.0);
	ck_assert_double_eq(fs.fs_factor[idx[5]], 1.0);
	ck_assert_double_eq(fs.fs_factor[idx[2]], 0.5);
	ck_assert_double_eq(fs.fs_factor[idx[4]], 0.5);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Where even the guarantee bends in Slurm 22.05: an account with no
 * users (Z) tied with its next sibling (Y) makes Y start tied, so Y's
 * first user takes the rank of the last user ranked, under X.
 *   X 1 [10] - x1 1 [10]   LF (1/3)/.1
 *   Z 1 [45]               LF (1/3)/.45  (usage of deleted children)
 *   Y 1 [45] - y1 1 [45]   LF (1/3)/.45
 */
START_TEST(ft_empty_account_tied_with_next_lets_it_share_previous_rank)
{
	const struct spec s[] = {
		{ "X", "root", 0, 1, 10 }, { "x1", "X", 1, 1, 10 },
		{ "Z", "root", 0, 1, 45 }, { "Y", "root", 0, 1, 45 },
		{ "y1", "Y", 1, 1, 45 },
	};
	struct ts_tree t;
	struct ts_fs fs;
	long idx[5];

	build_tree(&t, 1, 100, s, 5, idx);
	fs = ft(&t, TS_FT_AS_RUN);
	ck_assert(fs.level_fs[idx[0]] > fs.level_fs[idx[3]]);
	ck_assert(fs.level_fs[idx[2]] == fs.level_fs[idx[3]]);
	ck_assert_uint_eq(fs.rank[idx[1]], 2);
	ck_assert_uint_eq(fs.rank[idx[4]], 2);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * A quirk kept from the running code: the first sibling of a level is
 * compared with NO_VAL (4294967294), so one whose Level FS is exactly
 * that counts as tied and keeps the previous user's rank.
 *   X 2 [1] - x1 1 [1]                  x1 LF 1/1: rank 2
 *   Y 1 [4294967294] - y1 1 [1]         y1 LF 1/(1/4294967294) = NO_VAL
 * y1 keeps rank 2 (FairShare 1.0) where rnt would give 1.
 */
START_TEST(ft_first_sibling_with_level_fs_no_val_counts_as_tied)
{
	const struct spec s[] = {
		{ "X", "root", 0, 2, 1 },
		{ "x1", "X", 1, 1, 1 },
		{ "Y", "root", 0, 1, 4294967294.0L },
		{ "y1", "Y", 1, 1, 1 },
	};
	struct ts_tree t;
	struct ts_fs fs;
	long idx[4];

	build_tree(&t, 1, 4294967295.0L, s, 4, idx);
	fs = ft(&t, TS_FT_AS_RUN);
	ck_assert(fs.level_fs[idx[3]] == TS_USAGE_NO_VAL);
	ck_assert_uint_eq(fs.rank[idx[1]], 2);
	ck_assert_uint_eq(fs.rank[idx[3]], 2);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Fairshare=parent: a "parent" user gets Level FS +inf (first in its fs
 * parent's level), a "parent" account NO_VAL and no kids of its own:
 * its users are ranked among its fs parent's kids.
 *   A 1 [100] - P parent [60] - p1 1 [60]  (a kid of A: LF .5/.6)
 *             | a1 1 [40]                  (LF .5/.4)
 *             \ q parent-user [0]          (LF inf)
 */
START_TEST(ft_fairshare_parent_user_ranks_first_in_fs_parent)
{
	const struct spec s[] = {
		{ "A", "root", 0, 1, 100 }, { "P", "A", 0, PARENT, 60 },
		{ "p1", "P", 1, 1, 60 },    { "a1", "A", 1, 1, 40 },
		{ "q", "A", 1, PARENT, 0 },
	};
	struct ts_tree t;
	struct ts_fs fs;
	long idx[5];

	build_tree(&t, 1, 100, s, 5, idx);
	fs = ft(&t, TS_FT_AS_RUN);
	ck_assert(fs.level_fs[idx[4]] == INFINITY);
	ck_assert(fs.level_fs[idx[1]] == TS_USAGE_NO_VAL);
	ck_assert_uint_eq(fs.rank[idx[4]], 3);
	ck_assert_uint_eq(fs.rank[idx[3]], 2);
	ck_assert_uint_eq(fs.rank[idx[2]], 1);
	/* q's NormShares is A's: 1 of root's 1 */
	ck_assert_double_eq(fs.shares_norm[idx[4]], 1.0);
	ck_assert_double_eq(fs.shares_norm[idx[2]], 0.5);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * What Slurm keeps outside users: accounts' FairShare 0 (sshare prints
 * nothing), the root's Level FS NO_VAL, its NormShares its shares over
 * its never-set level_shares (NO_VAL), its EffectvUsage 1.0 from init().
 */
START_TEST(ft_root_and_accounts_keep_slurm_values)
{
	struct ts_tree t;
	struct ts_fs fs;

	seed000_tree(&t, 0);
	fs = ft(&t, TS_FT_AS_RUN);
	ck_assert(fs.level_fs[0] == TS_USAGE_NO_VAL);
	ck_assert_double_eq(fs.shares_norm[0], 1.0 / 4294967294.0);
	ck_assert(fs.usage_efctv[0] == 1.0L);
	ck_assert(fs.usage_norm[0] == TS_USAGE_NO_VAL);
	ck_assert_double_eq(fs.fs_factor[0], 0.0);
	ck_assert_double_eq(fs.fs_factor[node(&t, "group1", 0)], 0.0);
	ck_assert_uint_eq(fs.rank[node(&t, "group1", 0)], 0);
	ck_assert(fs.usage_norm[node(&t, "bob", 1)] == 100.0L / 1200.0L);
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

/*
 * Equal keys keep kid order (glibc 2.36's qsort is a stable merge sort);
 * it shows with tied accounts, whose order decides who ranks first.
 * Root [400]: 20 users 1 [0] (LF inf) interleaved with 40 accounts
 * 1 [10] (all tied), each with hi 1 [2] (LF 2.5) and lo 1 [8] (.625).
 * The 20 idle users tie at rank 100; account k (in node order) then
 * ranks hi_k 80 (k = 0) or 81 - 2k (tied with lo_(k-1)), lo_k 79 - 2k.
 */
START_TEST(ft_equal_level_fs_keeps_kid_order)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_fs fs;
	long hi[40], lo[40], idle[20], a;
	int k;

	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	ck_assert_int_eq(
		ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 400, 0, &err), 0);
	for (k = 0; k < 40; k++) {
		if (k % 2 == 0)
			idle[k / 2] = ts_tree_add(&t, 0, "idle", 1, 1, 0,
						  (uint32_t)k, &err);
		a = ts_tree_add(&t, 0, "acct", 0, 1, 10, (uint32_t)k, &err);
		hi[k] = ts_tree_add(&t, a, "hi", 1, 1, 2, (uint32_t)k, &err);
		lo[k] = ts_tree_add(&t, a, "lo", 1, 1, 8, (uint32_t)k, &err);
		ck_assert_int_ge(lo[k], 0);
	}
	ck_assert_int_eq(ts_tree_finish(&t, &err), TS_OK);
	fs = ft(&t, TS_FT_AS_RUN);
	for (k = 0; k < 20; k++)
		ck_assert_uint_eq(fs.rank[idle[k]], 100);
	for (k = 0; k < 40; k++) {
		ck_assert_uint_eq(fs.rank[hi[k]], k ? 81 - 2 * k : 80);
		ck_assert_uint_eq(fs.rank[lo[k]], 79 - 2 * k);
	}
	ts_fs_free(&fs);
	ts_tree_free(&t);
}
END_TEST

Suite *suite_fair_tree(void)
{
	Suite *s = suite_create("fair_tree");
	TCase *tc = tcase_create("seed004");

	tcase_add_test(tc, ft_seed000_ranks_group1_users_above_group2_users);
	tcase_add_test(
		tc, ft_account_tied_with_user_gives_its_first_user_that_rank);
	tcase_add_test(tc,
		       ft_tied_sibling_accounts_are_not_merged_as_slurm_runs);
	tcase_add_test(tc, ft_merge_option_merges_tied_accounts_as_documented);
	tcase_add_test(
		tc,
		ft_empty_account_tied_with_next_lets_it_share_previous_rank);
	tcase_add_test(tc,
		       ft_first_sibling_with_level_fs_no_val_counts_as_tied);
	tcase_add_test(tc, ft_fairshare_parent_user_ranks_first_in_fs_parent);
	tcase_add_test(tc, ft_root_and_accounts_keep_slurm_values);
	tcase_add_test(tc, ft_equal_level_fs_keeps_kid_order);
	suite_add_tcase(s, tc);
	return s;
}
