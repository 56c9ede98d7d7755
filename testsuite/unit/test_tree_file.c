/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tree-file and saved-sshare readers (src/tree_file.c).  Trees are
 * seed 000's PP-718 example (BRIEF section 4); the sshare texts follow
 * Slurm 22.05's rules: children listed users first, then accounts, each
 * by name; Fair Tree NormShares = RawShares / level_shares.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree_file.h"

static const char seed000[] =
	"# treeshare tree file; '#' starts a comment\n"
	"root                                  1200      # root usage\n"
	"account    group1   root     40       200\n"
	"user       bob      group1   50       100\n"
	"user       cathy    group1   50       100\n"
	"account    group2   root     60       1000\n"
	"user       suzy     group2   60       0\n"
	"user       scott    group2   40       1000\n";

static int parse(const char *text, enum ts_tree_format fmt, struct ts_tree *t,
		 struct ts_tree_file_info *info, struct ts_error *err)
{
	ck_assert_int_eq(ts_tree_init(t, 0, err), TS_OK);
	return ts_tree_file_parse(text, strlen(text), fmt, t, info, err);
}

static long node(const struct ts_tree *t, const char *name, int is_user,
		 const char *parent)
{
	long i = ts_tree_find(t, name, is_user, parent);

	ck_assert_msg(i >= 0, "no node %s under %s", name,
		      parent ? parent : "?");
	return i;
}

START_TEST(tree_file_reads_seed000_in_file_order)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree_file_info info;
	long g1, g2, scott;

	ck_assert_int_eq(parse(seed000, TS_TREE_FORMAT_AUTO, &t, &info, &err),
			 TS_OK);
	ck_assert_int_eq(info.format, TS_TREE_FORMAT_TREE);
	ck_assert_uint_eq(t.n, 7);
	ck_assert_int_eq(t.finished, 1);
	ck_assert_str_eq(ts_tree_name(&t, 0), "root");
	g1 = node(&t, "group1", 0, "root");
	g2 = node(&t, "group2", 0, "root");
	scott = node(&t, "scott", 1, "group2");
	ck_assert_int_eq(g1, 1);
	ck_assert_int_eq(g2, 4);
	ck_assert_int_eq(scott, 6);
	ck_assert_int_eq(t.parent[scott], g2);
	ck_assert_uint_eq(t.shares[g2], 60);
	ck_assert_uint_eq(t.shares[scott], 40);
	ck_assert(t.usage[0] == 1200);
	ck_assert(t.usage[g1] == 200);
	ck_assert(t.usage[scott] == 1000);
	ck_assert_uint_eq(t.id[scott], 6);
	ck_assert_uint_eq(t.n_users, 4);
	ck_assert_uint_eq(t.level_shares[g1], 100);
	ts_tree_free(&t);
}
END_TEST

START_TEST(tree_file_sums_missing_account_and_root_usage)
{
	static const char text[] = "account a root 1\n"
				   "account b a parent\n"
				   "user u b 3 2.5\n"
				   "user v a 1 1e2\n"
				   "user w root 0\n";
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(parse(text, TS_TREE_FORMAT_TREE, &t, NULL, &err),
			 TS_OK);
	ck_assert(t.usage[node(&t, "b", 0, "a")] == 2.5L);
	ck_assert(t.usage[node(&t, "a", 0, "root")] == 102.5L);
	ck_assert(t.usage[0] == 102.5L);
	ck_assert(t.usage[node(&t, "w", 1, "root")] == 0);
	ck_assert_uint_eq(t.shares[node(&t, "b", 0, "a")], TS_SHARES_PARENT);
	ts_tree_free(&t);
}
END_TEST

START_TEST(tree_file_allows_given_usage_above_children_sum)
{
	static const char text[] = "root 10\naccount a root 1 7\n"
				   "user u a 1 3\nuser u root 1 1\n";
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(parse(text, TS_TREE_FORMAT_AUTO, &t, NULL, &err),
			 TS_OK);
	ck_assert(t.usage[0] == 10);
	ck_assert(t.usage[node(&t, "a", 0, "root")] == 7);
	/* The same user name under two accounts is two associations. */
	ck_assert_int_ne(node(&t, "u", 1, "a"), node(&t, "u", 1, "root"));
	ts_tree_free(&t);
}
END_TEST

struct bad_case {
	const char *text;
	long line;
	const char *msg;
};

static const struct bad_case bad_tree_files[] = {
	{ "account a root 1\nacount b a 1\n", 2,
	  "line 2: unknown kind \"acount\" (expected account, user or "
	  "root)" },
	{ "\n\nuser u root\n", 3,
	  "line 3: user needs NAME PARENT SHARES [USAGE]" },
	{ "user u root 1 2 3\n", 1, "line 1: unexpected \"3\" after USAGE" },
	{ "account a root -1\n", 1,
	  "line 1: SHARES \"-1\" is not an integer 0..2147483646 or "
	  "parent" },
	{ "account a root 2147483647\n", 1,
	  "line 1: SHARES \"2147483647\" is not an integer 0..2147483646 "
	  "or parent" },
	{ "account a root 1\nuser u a 1 nan\n", 2,
	  "line 2: USAGE \"nan\" is not a number 0..1.8e308" },
	{ "user u root 1 inf\n", 1,
	  "line 1: USAGE \"inf\" is not a number 0..1.8e308" },
	{ "user u root 1 -3\n", 1,
	  "line 1: USAGE \"-3\" is not a number 0..1.8e308" },
	{ "user u root 1 1e\n", 1,
	  "line 1: USAGE \"1e\" is not a number 0..1.8e308" },
	{ "user u root 1 0x10\n", 1,
	  "line 1: USAGE \"0x10\" is not a number 0..1.8e308" },
	{ "user u root 1 1e999999\n", 1,
	  "line 1: USAGE \"1e999999\" is not a number 0..1.8e308" },
	{ "user u root 1 1e309\n", 1,
	  "line 1: USAGE \"1e309\" is not a number 0..1.8e308" },
	{ "user u a 1\naccount a root 1\n", 1,
	  "line 1: parent \"a\" is not an account defined above" },
	{ "account a root 1\naccount a root 2\n", 2,
	  "line 2: account \"a\" already defined on line 1" },
	{ "account a root 1\nuser u a 1\n# x\nuser u a 2\n", 4,
	  "line 4: user \"u\" under \"a\" already defined on line 2" },
	{ "account root root 1\n", 1,
	  "line 1: account name \"root\" is the implicit root" },
	{ "root 5\nroot 6\n", 2, "line 2: root usage already given on line 1" },
	{ "root 5 6\n", 1, "line 1: root takes one field, USAGE" },
	{ "account a root 1 5\nuser u a 1 3\nuser v a 1 4\n", 1,
	  "line 1: account \"a\" usage 5 is less than its children's sum "
	  "7" },
	{ "user u root 1 3\nroot 2\n", 2,
	  "line 2: root usage 2 is less than its children's sum 3" },
	{ "user u root 1\nuser v u 1\n", 2,
	  "line 2: parent \"u\" is not an account defined above" },
};

START_TEST(tree_file_reports_each_error_with_its_line)
{
	const struct bad_case *c = &bad_tree_files[_i];
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_ne(parse(c->text, TS_TREE_FORMAT_TREE, &t, NULL, &err),
			 TS_OK);
	ck_assert_str_eq(err.msg, c->msg);
	ck_assert_int_eq(err.index, c->line);
	ck_assert_uint_eq(t.n, 0);
	ts_tree_free(&t);
}
END_TEST

START_TEST(tree_file_rejects_nul_byte_naming_its_line)
{
	static const char text[] = "account a root 1\nuser u a\0 1\n";
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	ck_assert_int_eq(ts_tree_file_parse(text, sizeof(text) - 1,
					    TS_TREE_FORMAT_AUTO, &t, NULL,
					    &err),
			 TS_ESYNTAX);
	ck_assert_str_eq(err.msg, "line 2: NUL byte in the text");
	ts_tree_free(&t);
}
END_TEST

/* A chain of accounts a1 > a2 > ...; depth 1000 is the last allowed. */
static char *chain(int depth)
{
	char *text = malloc((size_t)depth * 40 + 1), *p = text;
	int i;

	ck_assert_ptr_nonnull(text);
	for (i = 1; i <= depth; i++) {
		if (i == 1)
			p += sprintf(p, "account a1 root 1\n");
		else
			p += sprintf(p, "account a%d a%d 1\n", i, i - 1);
	}
	return text;
}

START_TEST(tree_file_limits_depth_to_1000_levels)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	char *ok_text = chain(TS_TREE_FILE_MAX_DEPTH);
	char *deep_text = chain(TS_TREE_FILE_MAX_DEPTH + 1);

	ck_assert_int_eq(parse(ok_text, TS_TREE_FORMAT_TREE, &t, NULL, &err),
			 TS_OK);
	ck_assert_uint_eq(t.depth[t.n - 1], 1000);
	ts_tree_free(&t);
	ck_assert_int_eq(parse(deep_text, TS_TREE_FORMAT_TREE, &t, NULL, &err),
			 TS_ERANGE);
	ck_assert_str_eq(err.msg, "line 1001: deeper than 1000 levels");
	ts_tree_free(&t);
	free(ok_text);
	free(deep_text);
}
END_TEST

START_TEST(tree_file_empty_text_is_a_lone_root)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(
		parse("# nothing\n\n", TS_TREE_FORMAT_AUTO, &t, NULL, &err),
		TS_OK);
	ck_assert_uint_eq(t.n, 1);
	ck_assert(t.usage[0] == 0);
	ts_tree_free(&t);
}
END_TEST

/*
 * Seed 000's tree as "sshare -a -l -P" prints it under Fair Tree: the
 * Account cells keep sshare's indentation, users sorted by name.
 */
static const char seed000_sshare_ft[] =
	"Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|"
	"FairShare|LevelFS|GrpTRESMins|TRESRunMins\n"
	"root|||0.000000|1200||1.000000||||cpu=0\n"
	" group1||40|0.400000|200|0.166667|0.166667||2.400000||cpu=0\n"
	"  group1|bob|50|0.500000|100|0.083333|0.500000|0.500000|1.000000||\n"
	"  group1|cathy|50|0.500000|100|0.083333|0.500000|0.500000|1.000000||"
	"\n"
	" group2||60|0.600000|1000|0.833333|0.833333||0.720000||cpu=0\n"
	"  group2|scott|40|0.400000|1000|0.833333|1.000000|0.250000|0.400000||"
	"\n"
	"  group2|suzy|60|0.600000|0|0.000000|0.000000|0.750000|inf||\n";

START_TEST(sshare_p_output_rebuilds_seed000)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree_file_info info;
	long g2;

	ck_assert_int_eq(
		parse(seed000_sshare_ft, TS_TREE_FORMAT_AUTO, &t, &info, &err),
		TS_OK);
	ck_assert_int_eq(info.format, TS_TREE_FORMAT_SSHARE);
	ck_assert_int_eq(info.fair_tree, 1);
	ck_assert_uint_eq(t.n, 7);
	g2 = node(&t, "group2", 0, "root");
	ck_assert_int_eq(t.parent[g2], 0);
	ck_assert_int_eq(t.parent[node(&t, "suzy", 1, "group2")], g2);
	ck_assert_int_eq(t.parent[node(&t, "bob", 1, "group1")],
			 node(&t, "group1", 0, "root"));
	ck_assert(t.usage[0] == 1200);
	ck_assert_uint_eq(t.shares[g2], 60);
	ts_tree_free(&t);
}
END_TEST

/* Indentation beats order: D (deeper) is C's child though it sorts first. */
START_TEST(sshare_p_indentation_gives_the_parent)
{
	static const char text[] = "Account|User|RawShares|RawUsage|\n"
				   "root|||0|\n"
				   " C||1|0|\n"
				   "  C|c1|1|0|\n"
				   "  D||1|0|\n"
				   "   D|d1|1|0|\n"
				   " E||1|0|\n";
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	long c;

	ck_assert_int_eq(parse(text, TS_TREE_FORMAT_AUTO, &t, NULL, &err),
			 TS_OK);
	c = node(&t, "C", 0, "root");
	ck_assert_int_eq(t.parent[node(&t, "D", 0, NULL)], c);
	ck_assert_int_eq(t.parent[node(&t, "E", 0, NULL)], 0);
	ck_assert_int_eq(t.parent[node(&t, "d1", 1, NULL)],
			 node(&t, "D", 0, NULL));
	ts_tree_free(&t);
}
END_TEST

/*
 * Without indentation (stripped by a script) the parent is inferred.
 * root ─ A 1 ─ a1 1, a2 1, C 1 ─ c1 1
 *      └ B 1 ─ b1 1
 * After c1, B could follow C, A or root in sshare's order.  C's level is
 * full (c1's ratio 1/1.0 says level_shares 1) and B's ratio 1/0.5 = 2 is
 * not C's; A's previous account child C sorts after B; so root.  C itself
 * joins A: A's level ratio 1/0.333333 = 3 has room for C's share.
 */
static const char nested_ft[] =
	"Account|User|RawShares|NormShares|RawUsage|FairShare|\n"
	"root||||0||\n"
	"A||1|0.500000|0||\n"
	"A|a1|1|0.333333|0|1.000000|\n"
	"A|a2|1|0.333333|0|1.000000|\n"
	"C||1|0.333333|0||\n"
	"C|c1|1|1.000000|0|1.000000|\n"
	"B||1|0.500000|0||\n"
	"B|b1|1|1.000000|0|1.000000|\n";

START_TEST(sshare_p_places_accounts_by_order_and_share_ratio)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	long a;

	ck_assert_int_eq(parse(nested_ft, TS_TREE_FORMAT_AUTO, &t, NULL, &err),
			 TS_OK);
	a = node(&t, "A", 0, "root");
	ck_assert_int_eq(t.parent[node(&t, "C", 0, NULL)], a);
	ck_assert_int_eq(t.parent[node(&t, "B", 0, NULL)], 0);
	ck_assert_int_eq(t.parent[node(&t, "b1", 1, NULL)],
			 node(&t, "B", 0, NULL));
	ts_tree_free(&t);
}
END_TEST

/* Usage decides: B's 5 does not fit in A's 3, so B is A's sibling. */
START_TEST(sshare_p_places_account_where_its_usage_fits)
{
	static const char text[] = "Account|User|RawShares|RawUsage\n"
				   "root|||9\nA||1|3\nB||1|5\n";
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(parse(text, TS_TREE_FORMAT_AUTO, &t, NULL, &err),
			 TS_OK);
	ck_assert_int_eq(t.parent[node(&t, "B", 0, NULL)], 0);
	ts_tree_free(&t);
}
END_TEST

/*
 * Classic NormShares multiply down the path: A 0.5, its users
 * 0.5 * 1/2 = 0.25 (ratio 4); B under the root has ratio 1/0.5 = 2, so
 * it is not A's child.  Usage tells the same: A holds 10, all used.
 */
static const char nested_classic[] =
	"Account|User|RawShares|NormShares|RawUsage|FairShare\n"
	"root|||1.000000|30|1.000000\n"
	"A||1|0.500000|10|0.500000\n"
	"A|a1|1|0.250000|4|0.500000\n"
	"A|a2|1|0.250000|6|0.500000\n"
	"B||1|0.500000|20|0.500000\n"
	"B|b1|1|0.500000|20|0.500000\n";

START_TEST(sshare_p_classic_ratio_includes_parent_norm_shares)
{
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree_file_info info;

	ck_assert_int_eq(
		parse(nested_classic, TS_TREE_FORMAT_SSHARE, &t, &info, &err),
		TS_OK);
	ck_assert_int_eq(info.fair_tree, 0);
	ck_assert_int_eq(t.parent[node(&t, "B", 0, NULL)], 0);
	ck_assert(t.usage[node(&t, "B", 0, NULL)] == 20);
	ts_tree_free(&t);
}
END_TEST

static const struct bad_case bad_sshare[] = {
	{ "Account|User|RawShares\nroot|||\n", 1,
	  "line 1: sshare header lacks the RawUsage column (save with "
	  "sshare -a -l -P)" },
	{ "Account|User|RawShares|RawUsage\nroot||1\n", 2,
	  "line 2: 3 fields, the header has 4" },
	{ "Account|User|RawShares|RawUsage\nA||1|0\n", 2,
	  "line 2: the first row must be the root account (save with "
	  "sshare -a -l -P)" },
	{ "Account|User|RawShares|RawUsage\nroot|||0\nA||x|0\n", 3,
	  "line 3: RawShares \"x\" is not an integer 0..2147483646 or "
	  "parent" },
	{ "Account|User|RawShares|RawUsage\nroot|||0\nA||1|-1\n", 3,
	  "line 3: RawUsage \"-1\" is not an integer" },
	{ "Account|User|RawShares|RawUsage\nroot|||0\nA||1|0\nB|u|1|0\n", 4,
	  "line 4: user \"u\" of account \"B\" does not follow that "
	  "account's row (rows must stay in sshare's order)" },
	{ "Account|User|RawShares|RawUsage\nroot|||2\nA||1|1\nB||1|3\n", 4,
	  "line 4: cannot place account \"B\": no account above it has "
	  "room for its shares and usage in sshare's order" },
	{ "Account|User|RawShares|RawUsage\nroot|||0\nA||1|0\nA||1|0\n", 4,
	  "line 4: account \"A\" appears twice (first on line 3)" },
	{ "Account|User|RawShares|RawUsage\nroot|||0\nroot|||0\n", 3,
	  "line 3: a second root row" },
	{ "Account|User|Account|RawShares|RawUsage\n", 1,
	  "line 1: column Account appears twice" },
	{ "Account|User|RawShares|RawUsage|NormShares\nroot|||0|2\n", 2,
	  "line 2: NormShares \"2\" is not a number 0..1" },
	{ "Account|User|RawShares|RawUsage\n", 1,
	  "line 1: no association rows after the header" },
	{ "Account|User|RawShares|RawUsage\nroot|||0\n A||1|0\n   B||1|0\n", 4,
	  "line 4: Account indented by 3 blanks, expected 1 to 2" },
	{ "Account|User|RawShares|RawUsage\nroot|||0\n A||1|0\n  B|u|1|0\n", 4,
	  "line 4: user \"u\" of account \"B\" is indented under \"A\"" },
	{ "Account||User\n", 1,
	  "line 1: sshare header lacks the RawShares column (save with "
	  "sshare -a -l -P)" },
};

START_TEST(sshare_p_reports_each_error_with_its_line)
{
	const struct bad_case *c = &bad_sshare[_i];
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_ne(parse(c->text, TS_TREE_FORMAT_AUTO, &t, NULL, &err),
			 TS_OK);
	ck_assert_str_eq(err.msg, c->msg);
	ck_assert_int_eq(err.index, c->line);
	ts_tree_free(&t);
}
END_TEST

/* The in-place reader gives the same tree, and sizes it to the file. */
START_TEST(tree_file_in_place_gives_the_same_tree_sized_to_the_file)
{
	struct ts_tree a, b;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree_file_info info;
	char *text = strdup(seed000);
	size_t i;

	ck_assert_int_eq(parse(seed000, TS_TREE_FORMAT_AUTO, &a, NULL, &err),
			 TS_OK);
	ck_assert_int_eq(ts_tree_init(&b, 0, &err), TS_OK);
	ck_assert_int_eq(ts_tree_file_parse_in_place(text, strlen(text),
						     TS_TREE_FORMAT_AUTO, &b,
						     &info, &err),
			 TS_OK);
	free(text);
	ck_assert_uint_eq(info.lines, 8);
	ck_assert_uint_eq(b.n, a.n);
	for (i = 0; i < a.n; i++) {
		ck_assert_str_eq(ts_tree_name(&b, i), ts_tree_name(&a, i));
		ck_assert_int_eq(b.parent[i], a.parent[i]);
		ck_assert(b.usage[i] == a.usage[i]);
	}
	ts_tree_free(&a);

	/* 1001 lines: room for one node a line and the root, no more */
	text = malloc(1001 * 24 + 1);
	ck_assert_ptr_nonnull(text);
	i = (size_t)sprintf(text, "account a root 1\n");
	while (i < 1001 * 20)
		i += (size_t)sprintf(text + i, "user u%zu a 1\n", i);
	ck_assert_int_eq(ts_tree_file_parse_in_place(
				 text, i, TS_TREE_FORMAT_TREE, &b, &info, &err),
			 TS_OK);
	ck_assert_uint_eq(b.cap, info.lines + 1);
	ck_assert_uint_eq(b.n, info.lines + 1);
	free(text);
	ts_tree_free(&b);
}
END_TEST

/*
 * Issue 13: two users of 1.7e308 made an account of inf.  A sum above
 * 1.8e308 (DBL_MAX, the most a line may give) is refused on the
 * account's line; a sum just under it is kept.
 */
START_TEST(tree_file_usage_sum_above_dbl_max_is_refused_on_its_line)
{
	static const char over[] = "account a root 1\n"
				   "user u1 a 1 1.7e308\n"
				   "user u2 a 1 1.7e308\n";
	static const char under[] = "account a root 1\n"
				    "user u1 a 1 0.8e308\n"
				    "user u2 a 1 0.9e308\n";
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(parse(over, TS_TREE_FORMAT_TREE, &t, NULL, &err),
			 TS_ERANGE);
	ck_assert_int_eq(err.index, 1);
	/* the sum: 3.4e+308 natively; under valgrind (long double computed
	 * as double) LDBL_MAX */
	ck_assert_msg(
		!strcmp(err.msg,
			"line 1: usage of account \"a\" adds up to 3.4e+308, above 1.8e308 (the largest usage a line may give)") ||
			!strcmp(err.msg,
				"line 1: usage of account \"a\" adds up to 1.18973e+4932, above 1.8e308 (the largest usage a line may give)"),
		"%s", err.msg);
	ts_tree_free(&t);
	ts_error_clear(&err);
	ck_assert_int_eq(parse(under, TS_TREE_FORMAT_TREE, &t, NULL, &err),
			 TS_OK);
	ck_assert(t.usage[0] == t.usage[1]);
	ck_assert(t.usage[1] == 0.8e308L + 0.9e308L);
	ts_tree_free(&t);
}
END_TEST

Suite *suite_tree_file(void)
{
	Suite *s = suite_create("tree_file");
	TCase *tc = tcase_create("tree_file");

	tcase_add_test(tc, tree_file_reads_seed000_in_file_order);
	tcase_add_test(
		tc, tree_file_in_place_gives_the_same_tree_sized_to_the_file);
	tcase_add_test(
		tc, tree_file_usage_sum_above_dbl_max_is_refused_on_its_line);
	tcase_add_test(tc, tree_file_sums_missing_account_and_root_usage);
	tcase_add_test(tc, tree_file_allows_given_usage_above_children_sum);
	tcase_add_loop_test(tc, tree_file_reports_each_error_with_its_line, 0,
			    sizeof(bad_tree_files) / sizeof(bad_tree_files[0]));
	tcase_add_test(tc, tree_file_rejects_nul_byte_naming_its_line);
	tcase_add_test(tc, tree_file_limits_depth_to_1000_levels);
	tcase_add_test(tc, tree_file_empty_text_is_a_lone_root);
	tcase_add_test(tc, sshare_p_output_rebuilds_seed000);
	tcase_add_test(tc, sshare_p_indentation_gives_the_parent);
	tcase_add_test(tc, sshare_p_places_accounts_by_order_and_share_ratio);
	tcase_add_test(tc, sshare_p_places_account_where_its_usage_fits);
	tcase_add_test(tc, sshare_p_classic_ratio_includes_parent_norm_shares);
	tcase_add_loop_test(tc, sshare_p_reports_each_error_with_its_line, 0,
			    sizeof(bad_sshare) / sizeof(bad_sshare[0]));
	suite_add_tcase(s, tc);
	return s;
}
