/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Maui feasibility caps (seed 003, 6.3.3.2): fscap= in the targets file
 * and which associations it keeps from starting jobs.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "targets_text.h"

START_TEST(fscap_alone_or_after_a_target_absolute_or_percent)
{
	struct ts_targets *tg = parse_ok("account physics 30 fscap=40%\n"
					 "account chem fscap=3600.5 # hard\n"
					 "user bob@theory\tfscap=0%\n"
					 "user carol 10+\n");
	const struct ts_fscap *c;

	ck_assert_uint_eq(ts_targets_count(tg), 4);
	ck_assert_uint_eq(ts_targets_fscap_count(tg), 3);
	/* physics and carol have a priority target; chem and bob a cap alone */
	ck_assert_uint_eq(ts_targets_target_count(tg), 2);
	c = ts_targets_find_fscap(tg, 0, "physics", NULL);
	ck_assert_int_eq(c->kind, TS_FSCAP_PERCENT);
	ck_assert(c->value == 40);
	ck_assert_int_eq(c->line, 1);
	ck_assert(ts_targets_find(tg, 0, "physics", NULL)->percent == 30);
	c = ts_targets_find_fscap(tg, 0, "chem", NULL);
	ck_assert_int_eq(c->kind, TS_FSCAP_ABSOLUTE);
	ck_assert(c->value == 3600.5);
	/* A cap-only entry is no priority target. */
	ck_assert_ptr_null(ts_targets_find(tg, 0, "chem", NULL));
	c = ts_targets_find_fscap(tg, 1, "bob", "theory");
	ck_assert(c->value == 0 && c->kind == TS_FSCAP_PERCENT);
	ck_assert_ptr_null(ts_targets_find_fscap(tg, 1, "bob", NULL));
	ck_assert_ptr_null(ts_targets_find_fscap(tg, 1, "carol", NULL));
	ts_targets_free(tg);

	/* A file of caps alone has no priority target to apply. */
	tg = parse_ok("account chem fscap=3600.5\nuser bob fscap=1%\n");
	ck_assert_uint_eq(ts_targets_fscap_count(tg), 2);
	ck_assert_uint_eq(ts_targets_target_count(tg), 0);
	ts_targets_free(tg);
}
END_TEST

START_TEST(bad_fscap_names_key_line_and_column)
{
	expect_error("account a 10\naccount b fscap=12x\n", TS_ESYNTAX, 2,
		     "line 2 column 11: fscap '12x' is not an amount of "
		     "usage (N) or a percentage (N%)");
	expect_error("account b 5 fscap=\n", TS_ESYNTAX, 1,
		     "line 1 column 13: fscap '' is not an amount of usage "
		     "(N) or a percentage (N%)");
	expect_error("account b fscap=-1\n", TS_ESYNTAX, 1,
		     "line 1 column 11: fscap '-1' is not an amount of usage "
		     "(N) or a percentage (N%)");
	expect_error("account b fscap=1e3\n", TS_ESYNTAX, 1,
		     "line 1 column 11: fscap '1e3' is not an amount of "
		     "usage (N) or a percentage (N%)");
	expect_error("user u  fscap=100.5%\n", TS_ERANGE, 1,
		     "line 1 column 9: fscap '100.5%' out of range 0..100%");
	expect_error("user u fscap=9999999999999999999\n", TS_ERANGE, 1,
		     "line 1 column 8: fscap '9999999999999999999' out of "
		     "range 0..1e18");
	expect_error("user u fscap=1 fscap=2\n", TS_EINVAL, 1,
		     "line 1 column 16: fscap given twice");
	expect_error("user u cap=2\n", TS_EKEY, 1,
		     "line 1 column 8: unknown key 'cap=2' (the only key is "
		     "fscap)");
	expect_error("user u fscap=2 20\n", TS_ESYNTAX, 1,
		     "line 1 column 16: unexpected text '20' (TARGET comes "
		     "before fscap=, once)");
	expect_error("account root fscap=5%\n", TS_EINVAL, 1,
		     "line 1: account root always has 100% of the usage; a "
		     "target there means nothing");
	expect_error("account a fscap=5%\naccount a 20\n", TS_EINVAL, 2,
		     "line 2: duplicate target for account a (first on line "
		     "1)");
}
END_TEST

/*
 * Seed 003's John: decay-weighted usage 68.75 of 216.25 delivered
 * (FSINTERVAL 12:00:00, FSDEPTH 4, FSDECAY 0.5), 31.79 %.
 * root ─ phys ─ theory ─ john (user), bob (user)
 *      └ chem ─ carol (user)
 * bob 20, carol 100, so phys 88.75 (41.04 %), chem 100 (46.24 %).
 */
struct lab {
	struct ts_tree t;
	long root, phys, theory, john, bob, chem, carol;
};

static void lab_build(struct lab *l)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree *t = &l->t;

	ck_assert_int_eq(ts_tree_init(t, 0, &err), TS_OK);
	l->root = ts_tree_add(t, TS_NO_NODE, "root", 0, 1, 216.25L, 1, &err);
	l->phys = ts_tree_add(t, l->root, "phys", 0, 1, 88.75L, 2, &err);
	l->theory = ts_tree_add(t, l->phys, "theory", 0, 1, 88.75L, 3, &err);
	l->john = ts_tree_add(t, l->theory, "john", 1, 1, 68.75L, 4, &err);
	l->bob = ts_tree_add(t, l->theory, "bob", 1, 1, 20, 5, &err);
	l->chem = ts_tree_add(t, l->root, "chem", 0, 1, 100, 6, &err);
	l->carol = ts_tree_add(t, l->chem, "carol", 1, 1, 100, 7, &err);
	ck_assert_int_eq(ts_tree_finish(t, &err), TS_OK);
}

/* by[] for text on tree t; RET the count of capped nodes. */
static size_t evaluate(struct ts_tree *t, const char *text, long *by)
{
	struct ts_targets *tg = parse_ok(text);
	size_t n = ts_caps_evaluate(tg, t, by);

	ts_targets_free(tg);
	return n;
}

START_TEST(seed_john_capped_at_or_over_his_share_not_under)
{
	struct lab l;
	long by[7];

	lab_build(&l);
	/* 68.75 / 216.25 = 31.79 %: at or over 31.79 %, not at 31.8 %. */
	ck_assert_uint_eq(evaluate(&l.t, "user john fscap=31.79%\n", by), 1);
	ck_assert_int_eq(by[l.john], l.john);
	ck_assert_int_eq(by[l.bob], TS_NO_NODE);
	ck_assert_uint_eq(evaluate(&l.t, "user john fscap=31.8%\n", by), 0);
	/* Absolute, in usage units: 68.75 is at the cap, 68.76 not. */
	ck_assert_uint_eq(evaluate(&l.t, "user john fscap=68.75\n", by), 1);
	ck_assert_uint_eq(evaluate(&l.t, "user john fscap=68.76\n", by), 0);
	/* NAME@ACCOUNT wins over NAME; another account's entry is not his. */
	ck_assert_uint_eq(evaluate(&l.t,
				   "user john fscap=10%\n"
				   "user john@theory fscap=50%\n",
				   by),
			  0);
	ck_assert_uint_eq(evaluate(&l.t, "user john@chem fscap=1\n", by), 0);
	ts_tree_free(&l.t);
}
END_TEST

START_TEST(account_cap_applies_to_every_node_below_it)
{
	struct lab l;
	long by[7];

	lab_build(&l);
	/* phys at 41.04 % >= 40 %: phys, theory, john, bob; chem free. */
	ck_assert_uint_eq(evaluate(&l.t, "account phys fscap=40%\n", by), 4);
	ck_assert_int_eq(by[l.phys], l.phys);
	ck_assert_int_eq(by[l.theory], l.phys);
	ck_assert_int_eq(by[l.john], l.phys);
	ck_assert_int_eq(by[l.bob], l.phys);
	ck_assert_int_eq(by[l.chem], TS_NO_NODE);
	ck_assert_int_eq(by[l.carol], TS_NO_NODE);
	ck_assert_int_eq(by[l.root], TS_NO_NODE);
	/* Both over: the highest one is named. */
	ck_assert_uint_eq(evaluate(&l.t,
				   "account phys fscap=80\n"
				   "user bob fscap=20\n",
				   by),
			  4);
	ck_assert_int_eq(by[l.bob], l.phys);
	/* Only the user over: only that user. */
	ck_assert_uint_eq(evaluate(&l.t,
				   "account phys fscap=90\n"
				   "user bob fscap=20\n",
				   by),
			  1);
	ck_assert_int_eq(by[l.bob], l.bob);
	ck_assert_int_eq(by[l.john], TS_NO_NODE);
	/* No targets: nothing capped. */
	ck_assert_uint_eq(ts_caps_evaluate(NULL, &l.t, by), 0);
	ts_tree_free(&l.t);
}
END_TEST

START_TEST(no_usage_delivered_counts_as_zero_percent)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	long by[3], root, a, u;

	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	root = ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 0, 1, &err);
	a = ts_tree_add(&t, root, "a", 0, 1, 0, 2, &err);
	u = ts_tree_add(&t, a, "u", 1, 1, 0, 3, &err);
	ck_assert_int_eq(ts_tree_finish(&t, &err), TS_OK);
	ck_assert_uint_eq(evaluate(&t, "account a fscap=1%\n", by), 0);
	ck_assert_uint_eq(evaluate(&t, "account a fscap=0%\n", by), 2);
	ck_assert_int_eq(by[u], a);
	ck_assert_uint_eq(evaluate(&t, "user u fscap=0\n", by), 1);
	ts_tree_free(&t);
}
END_TEST

START_TEST(reason_names_the_capping_node_and_figures_without_blanks)
{
	struct lab l;
	struct ts_targets *tg;
	char buf[96];

	lab_build(&l);
	tg = parse_ok("account phys fscap=40%\nuser john fscap=60.5\n");
	ck_assert_uint_eq(
		ts_caps_describe(tg, &l.t, (size_t)l.phys, buf, sizeof(buf)),
		strlen("FairshareCap:phys=41.04%>=40%"));
	ck_assert_str_eq(buf, "FairshareCap:phys=41.04%>=40%");
	ts_caps_describe(tg, &l.t, (size_t)l.john, buf, sizeof(buf));
	ck_assert_str_eq(buf, "FairshareCap:john@theory=68>=61");
	/* Cut, never overrun, always terminated. */
	ts_caps_describe(tg, &l.t, (size_t)l.phys, buf, 8);
	ck_assert_str_eq(buf, "Fairsha");
	/* A node with no cap of its own describes nothing. */
	ck_assert_uint_eq(
		ts_caps_describe(tg, &l.t, (size_t)l.bob, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	ts_targets_free(tg);
	ts_tree_free(&l.t);
}
END_TEST

/*
 * Property, random usage and caps on the lab tree: a node is capped iff
 * it or an ancestor has used at least its own cap, and the node named is
 * the highest such.
 */
START_TEST(each_parse_gets_its_own_serial)
{
	struct ts_targets *a = parse_ok("account a fscap=1%\n");
	struct ts_targets *b = parse_ok("account a fscap=1%\n");

	ck_assert_uint_eq(ts_targets_serial(NULL), 0);
	ck_assert_uint_gt(ts_targets_serial(a), 0);
	ck_assert_uint_gt(ts_targets_serial(b), ts_targets_serial(a));
	ts_targets_free(a);
	ts_targets_free(b);
}
END_TEST

START_TEST(capped_iff_some_ancestor_or_self_is_at_or_over_its_cap)
{
	static const char *const names[] = { "",    "phys", "theory", "john",
					     "bob", "chem", "carol" };
	struct lab l;
	unsigned seed = 20;
	int round;

	lab_build(&l);
	for (round = 0; round < 500; round++) {
		char text[512];
		size_t len = 0, i;
		int pct;
		long by[7], by_own[7];
		const struct ts_fscap *own[7];
		struct ts_targets *tg;

		l.t.usage[l.john] = rand_r(&seed) % 100;
		l.t.usage[l.bob] = rand_r(&seed) % 100;
		l.t.usage[l.carol] = rand_r(&seed) % 100;
		l.t.usage[l.theory] = l.t.usage[l.john] + l.t.usage[l.bob];
		l.t.usage[l.phys] = l.t.usage[l.theory];
		l.t.usage[l.chem] = l.t.usage[l.carol];
		l.t.usage[l.root] = l.t.usage[l.phys] + l.t.usage[l.chem];
		for (i = 1; i < 7; i++) {
			if (rand_r(&seed) % 2)
				continue;
			pct = rand_r(&seed) % 2;
			len += (size_t)snprintf(
				text + len, sizeof(text) - len,
				"%s %s fscap=%u%s\n",
				l.t.is_user[i] ? "user" : "account", names[i],
				rand_r(&seed) % (pct ? 101 : 250),
				pct ? "%" : "");
		}
		text[len] = '\0';
		tg = parse_ok(text);
		ts_caps_evaluate(tg, &l.t, by);
		for (i = 0; i < 7; i++) {
			long j, top = TS_NO_NODE;

			for (j = (long)i; j > 0; j = l.t.parent[j]) {
				const struct ts_fscap *c =
					ts_caps_own(tg, &l.t, (size_t)j);

				if (c && ts_caps_used(c, &l.t, (size_t)j) >=
						 c->value)
					top = j;
			}
			ck_assert_int_eq(by[i], top);
		}
		/* Each node's own cap given: the same answer. */
		for (i = 0; i < 7; i++)
			own[i] = ts_caps_own(tg, &l.t, i);
		ck_assert_uint_eq(ts_caps_evaluate_own(&l.t, own, by_own),
				  ts_caps_evaluate(tg, &l.t, by));
		ck_assert_mem_eq(by_own, by, sizeof(by));
		ts_targets_free(tg);
	}
	ts_tree_free(&l.t);
}
END_TEST

Suite *suite_caps(void)
{
	Suite *s = suite_create("caps");
	TCase *tc = tcase_create("caps");

	tcase_add_test(tc, fscap_alone_or_after_a_target_absolute_or_percent);
	tcase_add_test(tc, bad_fscap_names_key_line_and_column);
	tcase_add_test(tc, seed_john_capped_at_or_over_his_share_not_under);
	tcase_add_test(tc, account_cap_applies_to_every_node_below_it);
	tcase_add_test(tc, no_usage_delivered_counts_as_zero_percent);
	tcase_add_test(tc, each_parse_gets_its_own_serial);
	tcase_add_test(
		tc, reason_names_the_capping_node_and_figures_without_blanks);
	tcase_add_test(tc,
		       capped_iff_some_ancestor_or_self_is_at_or_over_its_cap);
	suite_add_tcase(s, tc);
	return s;
}
