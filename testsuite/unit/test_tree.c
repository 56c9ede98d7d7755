/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tree building and the Slurm fair-share structure derived from it. */
#include <check.h>
#include <math.h>

#include "tree.h"

/*
 * root ─ A 10 ─ P parent ─ u1 5
 *      │               └ u2 3
 *      └ B 30 ─ u3 1
 * P is Fairshare=parent, so u1 and u2 are lifted to A's level:
 * A's kids are P, u1, u2 (node order) and their level_shares is 0 + 5 + 3.
 */
START_TEST(fairshare_parent_lifts_children_to_first_real_ancestor)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	long root, a, p, u1, u2, b, u3;

	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	root = ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 100, 1, &err);
	a = ts_tree_add(&t, root, "A", 0, 10, 60, 2, &err);
	p = ts_tree_add(&t, a, "P", 0, TS_SHARES_PARENT, 60, 3, &err);
	u1 = ts_tree_add(&t, p, "u1", 1, 5, 40, 4, &err);
	u2 = ts_tree_add(&t, p, "u2", 1, 3, 20, 5, &err);
	b = ts_tree_add(&t, root, "B", 0, 30, 40, 6, &err);
	u3 = ts_tree_add(&t, b, "u3", 1, 1, 40, 7, &err);
	ck_assert_int_eq(ts_tree_finish(&t, &err), TS_OK);

	ck_assert_int_eq(t.fs_parent[p], a);
	ck_assert_int_eq(t.fs_parent[u1], a);
	ck_assert_int_eq(t.fs_parent[u2], a);
	ck_assert_int_eq(t.fs_parent[u3], b);
	ck_assert_uint_eq(t.kid_count[a], 3);
	ck_assert_uint_eq(t.kid_count[p], 0);
	ck_assert_int_eq(t.kids[t.kid_first[a] + 0], p);
	ck_assert_int_eq(t.kids[t.kid_first[a] + 1], u1);
	ck_assert_int_eq(t.kids[t.kid_first[a] + 2], u2);
	ck_assert_uint_eq(t.level_shares[u1], 8);
	ck_assert_uint_eq(t.level_shares[a], 40);
	ck_assert_uint_eq(t.level_shares[root], 0);
	ck_assert_uint_eq(t.n_users, 3);
	ck_assert_uint_eq(t.depth[u1], 3);
	ck_assert_int_eq(ts_tree_find(&t, "u3", 1, "B"), u3);
	ck_assert_int_eq(ts_tree_find(&t, "u3", 1, "A"), TS_NO_NODE);
	ts_tree_free(&t);
}
END_TEST

START_TEST(tree_rejects_parent_after_child_and_user_parent)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	long root, u;

	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	root = ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 0, 1, &err);
	u = ts_tree_add(&t, root, "u", 1, 1, 0, 2, &err);
	ck_assert_int_ge(u, 0);
	ck_assert_int_eq(ts_tree_add(&t, 5, "x", 1, 1, 0, 3, &err), -1);
	ck_assert_int_eq(err.code, TS_EINVAL);
	ck_assert_int_eq(err.index, 2);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_tree_add(&t, u, "y", 1, 1, 0, 3, &err), -1);
	ck_assert_str_eq(err.msg, "node 2: parent 1 is a user");
	ts_error_clear(&err);
	ck_assert_int_eq(ts_tree_add(&t, root, "z", 1, 1, NAN, 3, &err), -1);
	ck_assert_int_eq(err.code, TS_EINVAL);
	ts_tree_free(&t);
}
END_TEST

START_TEST(tree_reset_reuses_memory_for_same_size)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	long *parent_before;
	int round, i;

	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	parent_before = NULL;
	for (round = 0; round < 3; round++) {
		long root;

		ts_tree_reset(&t);
		root = ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 0, 0, &err);
		for (i = 0; i < 100; i++)
			ts_tree_add(&t, root, "user", 1, 1, i, i, &err);
		ck_assert_int_eq(ts_tree_finish(&t, &err), TS_OK);
		if (round > 0)
			ck_assert_ptr_eq(t.parent, parent_before);
		parent_before = t.parent;
	}
	ck_assert_uint_eq(t.n_users, 100);
	ts_tree_free(&t);
}
END_TEST

/*
 * root ─ A (shares 3) ─ u1, u2;  root ─ B (shares 1) ─ u3.  Reversed
 * within each parent by ts_tree_permute(): every field moves with its
 * node, parents are renumbered, the tree is finished again.
 */
START_TEST(tree_permute_moves_every_field_and_renumbers_parents)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	/* old: 0 root, 1 A, 2 u1, 3 u2, 4 B, 5 u3 */
	static const long order[] = { 0, 4, 5, 1, 3, 2 };
	static const long bad[] = { 0, 2, 1, 3, 4, 5 };

	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	ck_assert_int_ge(ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 60, 0, &err),
			 0);
	ck_assert_int_ge(ts_tree_add(&t, 0, "A", 0, 3, 50, 10, &err), 0);
	ck_assert_int_ge(ts_tree_add(&t, 1, "u1", 1, 1, 20, 11, &err), 0);
	ck_assert_int_ge(ts_tree_add(&t, 1, "u2", 1, 2, 30, 12, &err), 0);
	ck_assert_int_ge(ts_tree_add(&t, 0, "B", 0, 1, 10, 20, &err), 0);
	ck_assert_int_ge(ts_tree_add(&t, 4, "u3", 1, 1, 10, 21, &err), 0);
	ck_assert_int_eq(ts_tree_finish(&t, &err), TS_OK);

	ck_assert_int_eq(ts_tree_permute(&t, bad, &err), TS_EINVAL);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_tree_permute(&t, order, &err), TS_OK);
	ck_assert_str_eq(ts_tree_name(&t, 1), "B");
	ck_assert_str_eq(ts_tree_name(&t, 2), "u3");
	ck_assert_str_eq(ts_tree_name(&t, 4), "u2");
	ck_assert_int_eq(t.parent[2], 1);
	ck_assert_int_eq(t.parent[4], 3);
	ck_assert_int_eq(t.parent[5], 3);
	ck_assert_uint_eq(t.shares[3], 3);
	ck_assert(t.usage[4] == 30);
	ck_assert_uint_eq(t.id[5], 11);
	ck_assert_int_eq(t.is_user[1], 0);
	ck_assert_int_eq(t.finished, 1);
	/* A's level: 3 + 1 */
	ck_assert_uint_eq(t.level_shares[3], 4);
	ck_assert_uint_eq(t.kid_count[3], 2);
	ts_tree_free(&t);
}
END_TEST

Suite *suite_tree(void)
{
	Suite *s = suite_create("tree");
	TCase *tc = tcase_create("build");

	tcase_add_test(tc,
		       fairshare_parent_lifts_children_to_first_real_ancestor);
	tcase_add_test(tc, tree_rejects_parent_after_child_and_user_parent);
	tcase_add_test(tc, tree_reset_reuses_memory_for_same_size);
	tcase_add_test(tc,
		       tree_permute_moves_every_field_and_renumbers_parents);
	suite_add_tcase(s, tc);
	return s;
}
