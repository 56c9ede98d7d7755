/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Maui targets, caps and floors (seed 003) and the targets file. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "credential_fs.h"
#include "targets.h"
#include "targets_text.h"

static double factor(enum ts_target_kind kind, double target, double usage,
		     enum ts_fs_policy policy)
{
	struct ts_target t = { kind, target, 0 };

	return ts_targets_factor(&t, usage, policy);
}

#define DIFF  TS_FS_POLICY_DIFFERENCE
#define RATIO TS_FS_POLICY_RATIO

/*
 * Target 20 %, usage 10 (under), 20 (on), 30 (over):
 *   difference  0.5 + (20 - 10)/200 = 0.55,  0.5,  0.5 - 10/200 = 0.45
 *   cap         min(., 0.5):  0.5, 0.5, 0.45
 *   floor       max(., 0.5):  0.55, 0.5, 0.5
 */
START_TEST(difference_policy_target_cap_floor_under_on_over)
{
	ck_assert_double_eq_tol(factor(TS_TARGET_TARGET, 20, 10, DIFF), 0.55,
				1e-15);
	ck_assert(factor(TS_TARGET_TARGET, 20, 20, DIFF) == 0.5);
	ck_assert_double_eq_tol(factor(TS_TARGET_TARGET, 20, 30, DIFF), 0.45,
				1e-15);
	ck_assert(factor(TS_TARGET_CAP, 20, 10, DIFF) == 0.5);
	ck_assert(factor(TS_TARGET_CAP, 20, 20, DIFF) == 0.5);
	ck_assert_double_eq_tol(factor(TS_TARGET_CAP, 20, 30, DIFF), 0.45,
				1e-15);
	ck_assert_double_eq_tol(factor(TS_TARGET_FLOOR, 20, 10, DIFF), 0.55,
				1e-15);
	ck_assert(factor(TS_TARGET_FLOOR, 20, 20, DIFF) == 0.5);
	ck_assert(factor(TS_TARGET_FLOOR, 20, 30, DIFF) == 0.5);
}
END_TEST

/*
 * Target 20 %, usage 10 (under), 20 (on), 40 (over):
 *   ratio  2^-(10/20) = 0.7071067811865476,  2^-1 = 0.5,  2^-2 = 0.25
 *   (Maui's 1 - U/T: 0.5, 0, -1)
 */
START_TEST(ratio_policy_target_cap_floor_under_on_over)
{
	ck_assert_double_eq_tol(factor(TS_TARGET_TARGET, 20, 10, RATIO),
				0.7071067811865476, 1e-15);
	ck_assert(factor(TS_TARGET_TARGET, 20, 20, RATIO) == 0.5);
	ck_assert(factor(TS_TARGET_TARGET, 20, 40, RATIO) == 0.25);
	ck_assert(factor(TS_TARGET_CAP, 20, 10, RATIO) == 0.5);
	ck_assert(factor(TS_TARGET_CAP, 20, 20, RATIO) == 0.5);
	ck_assert(factor(TS_TARGET_CAP, 20, 40, RATIO) == 0.25);
	ck_assert_double_eq_tol(factor(TS_TARGET_FLOOR, 20, 10, RATIO),
				0.7071067811865476, 1e-15);
	ck_assert(factor(TS_TARGET_FLOOR, 20, 20, RATIO) == 0.5);
	ck_assert(factor(TS_TARGET_FLOOR, 20, 40, RATIO) == 0.5);
}
END_TEST

START_TEST(extremes_give_one_and_zero_and_target_zero_no_nan)
{
	/* Difference spans the whole [0,1]. */
	ck_assert(factor(TS_TARGET_TARGET, 100, 0, DIFF) == 1.0);
	ck_assert(factor(TS_TARGET_TARGET, 0, 100, DIFF) == 0.0);
	ck_assert(factor(TS_TARGET_TARGET, 0, 0, DIFF) == 0.5);
	/* Ratio with target 0: on target at usage 0, 0 beyond. */
	ck_assert(factor(TS_TARGET_TARGET, 0, 0, RATIO) == 0.5);
	ck_assert(factor(TS_TARGET_TARGET, 0, 0.001, RATIO) == 0.0);
	ck_assert(factor(TS_TARGET_FLOOR, 0, 50, RATIO) == 0.5);
	ck_assert(factor(TS_TARGET_TARGET, 20, 0, RATIO) == 1.0);
	/* Usage out of 0..100 is clamped; NaN counts as 0. */
	ck_assert(factor(TS_TARGET_TARGET, 20, NAN, RATIO) == 1.0);
	ck_assert(factor(TS_TARGET_TARGET, 20, -5, DIFF) ==
		  factor(TS_TARGET_TARGET, 20, 0, DIFF));
	ck_assert_double_eq_tol(factor(TS_TARGET_TARGET, 20, 250, DIFF), 0.1,
				1e-15);
	ck_assert(!isnan(factor(TS_TARGET_TARGET, NAN, 10, RATIO)));
}
END_TEST

/*
 * Over a grid of targets and usages, for each kind and policy: the factor
 * is in [0,1], exactly 0.5 on target, never rises with usage, a cap never
 * exceeds 0.5 and a floor never falls below it.
 */
START_TEST(factor_is_bounded_monotone_and_half_on_target)
{
	static const enum ts_target_kind kinds[3] = { TS_TARGET_TARGET,
						      TS_TARGET_CAP,
						      TS_TARGET_FLOOR };
	static const enum ts_fs_policy policies[2] = { DIFF, RATIO };
	int k, p, ti, ui;

	for (k = 0; k < 3; k++)
		for (p = 0; p < 2; p++)
			for (ti = 0; ti <= 40; ti++) {
				double t = ti * 2.5, prev = 2;

				ck_assert(factor(kinds[k], t, t, policies[p]) ==
					  0.5);
				for (ui = 0; ui <= 400; ui++) {
					double u = ui * 0.25;
					double f = factor(kinds[k], t, u,
							  policies[p]);

					ck_assert(f >= 0 && f <= 1);
					ck_assert(f <= prev);
					if (kinds[k] == TS_TARGET_CAP)
						ck_assert(f <= 0.5);
					if (kinds[k] == TS_TARGET_FLOOR)
						ck_assert(f >= 0.5);
					prev = f;
				}
			}
}
END_TEST

/* Every kind in one file, with comments, blank lines, CRLF, decimals. */
static const char valid_file[] =
	"# treeshare targets\n"
	"\n"
	"account physics 30     # Maui ACCOUNTCFG[physics] FSTARGET=30\n"
	"account chemistry\t12.5-\r\n"
	"user alice 10+\n"
	"user bob@theory 5\n"
	"user bob .5\n"
	"   # indented comment\n"
	"user carol@chemistry 100";

START_TEST(valid_file_gives_every_entry_with_its_kind_and_line)
{
	struct ts_targets *tg;
	struct ts_error err = TS_ERROR_INIT;
	const struct ts_target *t;

	ck_assert_int_eq(
		ts_targets_parse(valid_file, strlen(valid_file), &tg, &err),
		TS_OK);
	ck_assert_uint_eq(ts_targets_count(tg), 6);
	t = ts_targets_find(tg, 0, "physics", NULL);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->kind, TS_TARGET_TARGET);
	ck_assert(t->percent == 30);
	ck_assert_int_eq(t->line, 3);
	t = ts_targets_find(tg, 0, "chemistry", NULL);
	ck_assert_int_eq(t->kind, TS_TARGET_CAP);
	ck_assert(t->percent == 12.5);
	t = ts_targets_find(tg, 1, "alice", NULL);
	ck_assert_int_eq(t->kind, TS_TARGET_FLOOR);
	ck_assert(t->percent == 10);
	t = ts_targets_find(tg, 1, "bob", "theory");
	ck_assert(t->percent == 5);
	ck_assert_int_eq(t->line, 6);
	t = ts_targets_find(tg, 1, "bob", NULL);
	ck_assert(t->percent == 0.5);
	ck_assert_ptr_null(ts_targets_find(tg, 1, "bob", "physics"));
	ck_assert_ptr_null(ts_targets_find(tg, 0, "alice", NULL));
	ck_assert(ts_targets_find(tg, 1, "carol", "chemistry")->percent == 100);
	ts_targets_free(tg);
}
END_TEST

START_TEST(each_file_error_names_its_line_and_reason)
{
	expect_error("account a 10\n\n\n\n\n\nuser x 120\n", TS_ERANGE, 7,
		     "line 7: target '120' out of range 0..100");
	expect_error("account a 10\ngruop g 5\n", TS_EKEY, 2,
		     "line 2: unknown kind 'gruop' (expected account, "
		     "user, group, qos or class)");
	expect_error("user x abc\n", TS_ESYNTAX, 1,
		     "line 1: target 'abc' is not a percentage (N, N- or "
		     "N+)");
	expect_error("user x -5\n", TS_ESYNTAX, 1,
		     "line 1: target '-5' is not a percentage (N, N- or "
		     "N+)");
	expect_error("user x 1e1\n", TS_ESYNTAX, 1,
		     "line 1: target '1e1' is not a percentage (N, N- or "
		     "N+)");
	expect_error("user x 20+-\n", TS_ESYNTAX, 1,
		     "line 1: target '20+-' is not a percentage (N, N- or "
		     "N+)");
	expect_error("# c\nuser x\n", TS_ESYNTAX, 2,
		     "line 2: expected 'user NAME TARGET', 'user NAME "
		     "fscap=CAP' or both");
	expect_error("account a 10 extra\n", TS_ESYNTAX, 1,
		     "line 1 column 14: unexpected text 'extra' (TARGET "
		     "comes before fscap=, once)");
	expect_error("account a 10 fscap=5 x\n", TS_ESYNTAX, 1,
		     "line 1: unexpected text after the target");
	expect_error("account a 10\nuser b 1\naccount a 20-\n", TS_EINVAL, 3,
		     "line 3: duplicate target for account a (first on line "
		     "1)");
	expect_error("user b@x 1\nuser b@x 2\n", TS_EINVAL, 2,
		     "line 2: duplicate target for user b@x (first on line "
		     "1)");
	expect_error("account a@b 10\n", TS_ESYNTAX, 1,
		     "line 1: account name 'a@b' contains '@'");
	expect_error("user b@ 10\n", TS_ESYNTAX, 1,
		     "line 1: 'b@' is not NAME@ACCOUNT or NAME@*");
	expect_error("user @a 10\n", TS_ESYNTAX, 1,
		     "line 1: '@a' is not NAME@ACCOUNT or NAME@*");
	expect_error("account root 50\n", TS_EINVAL, 1,
		     "line 1: account root always has 100% of the usage; a "
		     "target there means nothing");
	expect_error("user a 100.01\n", TS_ERANGE, 1,
		     "line 1: target '100.01' out of range 0..100");
	expect_error("user a 99999999999999999999999\n", TS_ERANGE, 1,
		     "line 1: target '99999999999999999999999' out of range "
		     "0..100");
}
END_TEST

/*
 * Maui's credentials (issue 27), with Moab's worked example's targets
 * (user A 50, account C 25, QOS D 10+; group B and class E none) and one
 * of each other kind.
 */
static const char cred_file[] = "user A@* 50\n"
				"account C 25\n"
				"qos D 10+\n"
				"group physics 20- fscap=30%\n"
				"class gpu fscap=5000\n"
				"user A 40\n"
				"qos normal 60\n";

START_TEST(credential_entries_are_kept_apart_from_the_tree)
{
	struct ts_targets *tg;
	struct ts_error err = TS_ERROR_INIT;
	const struct ts_target *t;
	const struct ts_fscap *c;

	ck_assert_int_eq(
		ts_targets_parse(cred_file, strlen(cred_file), &tg, &err),
		TS_OK);
	ck_assert_uint_eq(ts_targets_count(tg), 7);
	/* user A@*: Maui's user credential, not an association's target */
	t = ts_targets_find_cred(tg, TS_CRED_USER, "A");
	ck_assert_ptr_nonnull(t);
	ck_assert(t->percent == 50 && t->kind == TS_TARGET_TARGET);
	ck_assert_int_eq(t->line, 1);
	ck_assert(ts_targets_find(tg, 1, "A", NULL)->percent == 40);
	ck_assert_ptr_null(ts_targets_find(tg, 1, "A", "*"));
	/* a Maui account is the tree's account entry */
	ck_assert(ts_targets_find_cred(tg, TS_CRED_ACCOUNT, "C") ==
		  ts_targets_find(tg, 0, "C", NULL));
	t = ts_targets_find_cred(tg, TS_CRED_QOS, "D");
	ck_assert(t->percent == 10 && t->kind == TS_TARGET_FLOOR);
	t = ts_targets_find_cred(tg, TS_CRED_GROUP, "physics");
	ck_assert(t->percent == 20 && t->kind == TS_TARGET_CAP);
	c = ts_targets_find_cred_fscap(tg, TS_CRED_GROUP, "physics");
	ck_assert(c->kind == TS_FSCAP_PERCENT && c->value == 30);
	/* a class with only a cap has no target */
	ck_assert_ptr_null(ts_targets_find_cred(tg, TS_CRED_CLASS, "gpu"));
	c = ts_targets_find_cred_fscap(tg, TS_CRED_CLASS, "gpu");
	ck_assert(c->kind == TS_FSCAP_ABSOLUTE && c->value == 5000);
	/* each kind is its own name space */
	ck_assert_ptr_null(ts_targets_find_cred(tg, TS_CRED_GROUP, "D"));
	ck_assert_ptr_null(ts_targets_find_cred(tg, TS_CRED_QOS, "physics"));
	ck_assert_ptr_null(ts_targets_find(tg, 0, "physics", NULL));
	ck_assert_ptr_null(ts_targets_find_cred(tg, TS_CRED_N, "A"));
	ck_assert_ptr_null(ts_targets_find_cred(tg, TS_CRED_USER, NULL));
	ck_assert_uint_eq(ts_targets_cred_count(tg, TS_CRED_USER), 1);
	ck_assert_uint_eq(ts_targets_cred_count(tg, TS_CRED_GROUP), 1);
	ck_assert_uint_eq(ts_targets_cred_count(tg, TS_CRED_ACCOUNT), 1);
	ck_assert_uint_eq(ts_targets_cred_count(tg, TS_CRED_QOS), 2);
	ck_assert_uint_eq(ts_targets_cred_count(tg, TS_CRED_CLASS), 1);
	ck_assert_uint_eq(ts_targets_fscap_count(tg), 2);
	/* both caps are credentials': none for the tree (caps.h) */
	ck_assert_uint_eq(ts_targets_tree_fscap_count(tg), 0);
	ck_assert_uint_eq(ts_targets_target_count(tg), 6);
	ts_targets_free(tg);
	tg = parse_ok("account a fscap=5%\nuser u fscap=3\nuser v@a fscap=1\n"
		      "user w@* fscap=2\nqos q fscap=2\naccount b 10\n");
	ck_assert_uint_eq(ts_targets_fscap_count(tg), 5);
	ck_assert_uint_eq(ts_targets_tree_fscap_count(tg), 3);
	ts_targets_free(tg);
	ck_assert_uint_eq(ts_targets_tree_fscap_count(NULL), 0);
}
END_TEST

/* The Moab example through the file: the credentials' deltas. */
START_TEST(credential_targets_give_moabs_component)
{
	static const char *const names[TS_CRED_N] = { "A", "B", "C", "D", "E" };
	static const double usage[TS_CRED_N] = { 45, 65, 35, 25, 20 };
	static const double weight[TS_CRED_N] = { 10, 20, 30, 40, 0 };
	struct ts_cred_term term[TS_CRED_N];
	struct ts_targets *tg;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_cred_fs fs;
	int c;

	ck_assert_int_eq(
		ts_targets_parse(cred_file, strlen(cred_file), &tg, &err),
		TS_OK);
	for (c = 0; c < TS_CRED_N; c++) {
		term[c].target =
			ts_targets_find_cred(tg, (enum ts_cred)c, names[c]);
		term[c].policy = TS_FS_POLICY_DIFFERENCE;
		term[c].usage_pct = usage[c];
		term[c].weight = weight[c];
	}
	ts_cred_fs(term, 100, &fs);
	ck_assert(fs.component == -25000);
	ts_targets_free(tg);
}
END_TEST

START_TEST(credential_entry_errors_name_line_and_kind)
{
	expect_error("qos a@b 10\n", TS_ESYNTAX, 1,
		     "line 1: qos name 'a@b' contains '@'");
	expect_error("\ngroup g@x 10\n", TS_ESYNTAX, 2,
		     "line 2: group name 'g@x' contains '@'");
	expect_error("class c@* 10\n", TS_ESYNTAX, 1,
		     "line 1: class name 'c@*' contains '@'");
	expect_error("class gpu\n", TS_ESYNTAX, 1,
		     "line 1: expected 'class NAME TARGET', 'class NAME "
		     "fscap=CAP' or both");
	expect_error("qos q 10\nqos q fscap=5\n", TS_EINVAL, 2,
		     "line 2: duplicate target for qos q (first on line 1)");
	expect_error("user a@* 10\nuser a@* 5-\n", TS_EINVAL, 2,
		     "line 2: duplicate target for user a@* (first on line "
		     "1)");
	expect_error("group g 101\n", TS_ERANGE, 1,
		     "line 1: target '101' out of range 0..100");
	expect_error("qos q 10 cap=3\n", TS_EKEY, 1,
		     "line 1 column 10: unknown key 'cap=3' (the only key is "
		     "fscap)");
}
END_TEST

START_TEST(nul_byte_is_an_error_on_its_line)
{
	static const char text[] = "account a 10\nuser b\0 5\n";
	struct ts_targets *tg;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_targets_parse(text, sizeof(text) - 1, &tg, &err),
			 TS_ESYNTAX);
	ck_assert_str_eq(err.msg, "line 2: NUL byte in the line");
}
END_TEST

/* A bad file leaves the caller's current targets as they were. */
START_TEST(failed_parse_leaves_previous_targets_to_keep)
{
	static const char bad[] = "account physics 30\naccount physics 40\n";
	struct ts_targets *current, *fresh = NULL;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_targets_parse(valid_file, strlen(valid_file),
					  &current, &err),
			 TS_OK);
	ck_assert_int_ne(ts_targets_parse(bad, strlen(bad), &fresh, &err),
			 TS_OK);
	ck_assert_ptr_null(fresh);
	ck_assert(ts_targets_find(current, 0, "physics", NULL)->percent == 30);
	ts_targets_free(current);
}
END_TEST

START_TEST(empty_file_and_comments_only_give_no_targets)
{
	struct ts_targets *tg;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_targets_parse("", 0, &tg, &err), TS_OK);
	ck_assert_uint_eq(ts_targets_count(tg), 0);
	ck_assert_ptr_null(ts_targets_find(tg, 0, "a", NULL));
	ts_targets_free(tg);
	ck_assert_int_eq(ts_targets_parse("# x\n\n  \n", 8, &tg, &err), TS_OK);
	ck_assert_uint_eq(ts_targets_count(tg), 0);
	ts_targets_free(tg);
}
END_TEST

START_TEST(load_reads_file_and_reports_missing_file)
{
	char path[] = "/tmp/ts_targets_XXXXXX";
	struct ts_targets *tg;
	struct ts_error err = TS_ERROR_INIT;
	char want[128];
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, valid_file, strlen(valid_file)),
			 (ssize_t)strlen(valid_file));
	close(fd);
	ck_assert_int_eq(ts_targets_load(path, NULL, &tg, &err), TS_OK);
	ck_assert_uint_eq(ts_targets_count(tg), 6);
	ts_targets_free(tg);
	unlink(path);
	ck_assert_int_eq(ts_targets_load(path, NULL, &tg, &err), TS_ENOENT);
	ck_assert_ptr_null(tg);
	snprintf(want, sizeof(want),
		 "cannot read %s: No such file or directory", path);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/*
 * root ─ physics ─ theory ─ alice (user), bob (user)
 *      │         └ dan (user)
 *      ├ chemistry ─ carol (user)
 *      └ bio ─ erin (user)
 * Targets: account physics 30, user bob@theory 5-, user carol 10+,
 * user dan@elsewhere 1 (does not match dan under physics).
 */
struct lab {
	struct ts_tree t;
	long root, physics, theory, alice, bob, dan, chemistry, carol, bio,
		erin;
	struct ts_targets *tg;
};

static void lab_build(struct lab *l)
{
	static const char text[] = "account physics 30\n"
				   "user bob@theory 5-\n"
				   "user carol 10+\n"
				   "user dan@elsewhere 1\n";
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree *t = &l->t;

	ck_assert_int_eq(ts_tree_init(t, 0, &err), TS_OK);
	l->root = ts_tree_add(t, TS_NO_NODE, "root", 0, 1, 0, 1, &err);
	l->physics = ts_tree_add(t, l->root, "physics", 0, 1, 0, 2, &err);
	l->theory = ts_tree_add(t, l->physics, "theory", 0, 1, 0, 3, &err);
	l->alice = ts_tree_add(t, l->theory, "alice", 1, 1, 0, 4, &err);
	l->bob = ts_tree_add(t, l->theory, "bob", 1, 1, 0, 5, &err);
	l->dan = ts_tree_add(t, l->physics, "dan", 1, 1, 0, 6, &err);
	l->chemistry = ts_tree_add(t, l->root, "chemistry", 0, 1, 0, 7, &err);
	l->carol = ts_tree_add(t, l->chemistry, "carol", 1, 1, 0, 8, &err);
	l->bio = ts_tree_add(t, l->root, "bio", 0, 1, 0, 9, &err);
	l->erin = ts_tree_add(t, l->bio, "erin", 1, 1, 0, 10, &err);
	ck_assert_int_eq(ts_tree_finish(t, &err), TS_OK);
	ck_assert_int_eq(ts_targets_parse(text, strlen(text), &l->tg, &err),
			 TS_OK);
}

static void lab_free(struct lab *l)
{
	ts_targets_free(l->tg);
	ts_tree_free(&l->t);
}

START_TEST(applicable_target_is_own_then_nearest_ancestor_account)
{
	struct lab l;
	const struct ts_target *t;
	long from;

	lab_build(&l);
	t = ts_targets_applicable(l.tg, &l.t, (size_t)l.alice, &from);
	ck_assert_ptr_nonnull(t);
	ck_assert(t->percent == 30);
	ck_assert_int_eq(from, l.physics);
	t = ts_targets_applicable(l.tg, &l.t, (size_t)l.bob, &from);
	ck_assert_int_eq(t->kind, TS_TARGET_CAP);
	ck_assert_int_eq(from, l.bob);
	t = ts_targets_applicable(l.tg, &l.t, (size_t)l.carol, &from);
	ck_assert_int_eq(t->kind, TS_TARGET_FLOOR);
	ck_assert_int_eq(from, l.carol);
	t = ts_targets_applicable(l.tg, &l.t, (size_t)l.dan, &from);
	ck_assert(t->percent == 30);
	ck_assert_int_eq(from, l.physics);
	t = ts_targets_applicable(l.tg, &l.t, (size_t)l.theory, &from);
	ck_assert_int_eq(from, l.physics);
	ck_assert_ptr_null(
		ts_targets_applicable(l.tg, &l.t, (size_t)l.erin, &from));
	ck_assert_int_eq(from, TS_NO_NODE);
	ck_assert_ptr_null(ts_targets_applicable(l.tg, &l.t, 0, &from));
	ck_assert_ptr_null(
		ts_targets_applicable(NULL, &l.t, (size_t)l.alice, &from));
	lab_free(&l);
}
END_TEST

/*
 * Usage shares: physics 0.45, bob 0.02, carol 0.04, erin 0.3.  Under
 * difference: alice and dan get physics' 0.5 + (30 - 45)/200 = 0.425,
 * bob's cap 5 at 2 % gives min(0.515, 0.5) = 0.5, carol's floor 10 at 4 %
 * gives 0.53; erin keeps the algorithm's 0.77.
 */
START_TEST(apply_sets_targeted_nodes_and_keeps_the_others)
{
	struct lab l;
	long double norm[10] = { 0 };
	double fs[10];
	long from[10];
	size_t i, set;

	lab_build(&l);
	norm[l.root] = 1;
	norm[l.physics] = 0.45L;
	norm[l.theory] = 0.2L;
	norm[l.alice] = 0.18L;
	norm[l.bob] = 0.02L;
	norm[l.dan] = 0.25L;
	norm[l.chemistry] = 0.25L;
	norm[l.carol] = 0.04L;
	norm[l.bio] = 0.3L;
	norm[l.erin] = 0.3L;
	for (i = 0; i < 10; i++)
		fs[i] = 0.77;
	set = ts_targets_apply(l.tg, &l.t, norm, DIFF, fs, from);
	/* physics, theory, alice, bob, dan, carol */
	ck_assert_uint_eq(set, 6);
	ck_assert_double_eq_tol(fs[l.alice], 0.425, 1e-15);
	ck_assert_double_eq_tol(fs[l.dan], 0.425, 1e-15);
	ck_assert_double_eq_tol(fs[l.physics], 0.425, 1e-15);
	ck_assert(fs[l.bob] == 0.5);
	ck_assert_double_eq_tol(fs[l.carol], 0.53, 1e-15);
	ck_assert(fs[l.erin] == 0.77);
	ck_assert(fs[l.bio] == 0.77);
	ck_assert(fs[l.chemistry] == 0.77);
	ck_assert(fs[l.root] == 0.77);
	ck_assert_int_eq(from[l.alice], l.physics);
	ck_assert_int_eq(from[l.erin], TS_NO_NODE);
	ck_assert_uint_eq(ts_targets_apply(NULL, &l.t, norm, DIFF, fs, NULL),
			  0);
	lab_free(&l);
}
END_TEST

Suite *suite_targets(void)
{
	Suite *s = suite_create("targets");
	TCase *tc = tcase_create("targets");

	tcase_add_test(tc, difference_policy_target_cap_floor_under_on_over);
	tcase_add_test(tc, ratio_policy_target_cap_floor_under_on_over);
	tcase_add_test(tc, extremes_give_one_and_zero_and_target_zero_no_nan);
	tcase_add_test(tc, factor_is_bounded_monotone_and_half_on_target);
	tcase_add_test(tc, valid_file_gives_every_entry_with_its_kind_and_line);
	tcase_add_test(tc, each_file_error_names_its_line_and_reason);
	tcase_add_test(tc, credential_entries_are_kept_apart_from_the_tree);
	tcase_add_test(tc, credential_targets_give_moabs_component);
	tcase_add_test(tc, credential_entry_errors_name_line_and_kind);
	tcase_add_test(tc, nul_byte_is_an_error_on_its_line);
	tcase_add_test(tc, failed_parse_leaves_previous_targets_to_keep);
	tcase_add_test(tc, empty_file_and_comments_only_give_no_targets);
	tcase_add_test(tc, load_reads_file_and_reports_missing_file);
	tcase_add_test(tc,
		       applicable_target_is_own_then_nearest_ancestor_account);
	tcase_add_test(tc, apply_sets_targeted_nodes_and_keeps_the_others);
	suite_add_tcase(s, tc);
	return s;
}
