/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The key=value list parser (src/params.c): splitting, blanks, quoting,
 * escapes, and every malformed input with the key and column it names.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "params.h"

static struct ts_params parse_ok(const char *text)
{
	struct ts_params p;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_msg(ts_params_parse(text, &p, &err) == TS_OK, "%s: %s", text,
		      err.msg);
	return p;
}

static void expect_item(const struct ts_params *p, size_t i, const char *key,
			const char *value, long key_col, long value_col)
{
	ck_assert_uint_gt(p->n, i);
	ck_assert_str_eq(p->item[i].key, key);
	ck_assert_str_eq(p->item[i].value, value);
	ck_assert_int_eq(p->item[i].key_col, key_col);
	ck_assert_int_eq(p->item[i].value_col, value_col);
}

START_TEST(params_split_at_commas_and_trim_blanks)
{
	/*         1234567890123456789012345678901234 */
	struct ts_params p = parse_ok(" fairshare = pbs ,\tusage_depth=4,"
				      "usage_window= 12:00:00 ");

	ck_assert_uint_eq(p.n, 3);
	expect_item(&p, 0, "fairshare", "pbs", 2, 14);
	expect_item(&p, 1, "usage_depth", "4", 20, 32);
	expect_item(&p, 2, "usage_window", "12:00:00", 34, 48);
	ck_assert_int_eq(p.item[0].quote, 0);
	ts_params_free(&p);
}
END_TEST

START_TEST(params_empty_text_and_empty_items_give_nothing)
{
	struct ts_params p = parse_ok(NULL);
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_uint_eq(p.n, 0);
	ts_params_free(&p);
	p = parse_ok("");
	ck_assert_uint_eq(p.n, 0);
	ts_params_free(&p);
	p = parse_ok(" , ,\t,");
	ck_assert_uint_eq(p.n, 0);
	ts_params_free(&p);
	p = parse_ok(",a=1,,, b=2,");
	ck_assert_uint_eq(p.n, 2);
	expect_item(&p, 0, "a", "1", 2, 4);
	expect_item(&p, 1, "b", "2", 9, 11);
	ts_params_free(&p);
	ck_assert_int_eq(ts_params_parse("a=1", &p, &err), TS_OK);
	ts_params_free(&p);
}
END_TEST

START_TEST(params_inner_blanks_of_unquoted_value_are_kept)
{
	struct ts_params p = parse_ok("formula = a + b * 2 , x=");

	expect_item(&p, 0, "formula", "a + b * 2", 1, 11);
	expect_item(&p, 1, "x", "", 23, 25);
	ts_params_free(&p);
}
END_TEST

START_TEST(params_quoted_value_holds_commas_blanks_and_other_quote)
{
	struct ts_params p =
		parse_ok("fairshare=pbs,formula=\"pow(2, -(a / b))\" , "
			 "fs_targets=' /a b'");

	ck_assert_uint_eq(p.n, 3);
	expect_item(&p, 1, "formula", "pow(2, -(a / b))", 15, 23);
	ck_assert_int_eq(p.item[1].quote, '"');
	ts_params_free(&p);

	p = parse_ok("x=\"it's, ok\",y='say \"hi\"',z=\"\"");
	expect_item(&p, 0, "x", "it's, ok", 1, 3);
	expect_item(&p, 1, "y", "say \"hi\"", 14, 16);
	ck_assert_int_eq(p.item[1].quote, '\'');
	expect_item(&p, 2, "z", "", 27, 29);
	ts_params_free(&p);
}
END_TEST

START_TEST(params_backslash_escapes_quote_and_itself_inside_quotes)
{
	struct ts_params p =
		parse_ok("a=\"x\\\"y\\\\z\",b='it\\'s',c=\"\\\\\",d=plain\\x");

	expect_item(&p, 0, "a", "x\"y\\z", 1, 3);
	expect_item(&p, 1, "b", "it's", 13, 15);
	expect_item(&p, 2, "c", "\\", 23, 25);
	/* outside quotes a backslash is an ordinary character */
	expect_item(&p, 3, "d", "plain\\x", 30, 32);
	ts_params_free(&p);
}
END_TEST

/* The exact texts Debian's slurm.conf parser hands the plugin (measured
 * with slurm_conf_init() on libslurmfull 22.05.8, see the man page). */
START_TEST(params_reads_the_texts_slurm_conf_delivers)
{
	struct ts_params p =
		parse_ok("fairshare=pbs,formula=\"pow(2,-(fairshare_tree_usage/"
			 "fairshare_perc))\"");

	expect_item(&p, 1, "formula",
		    "pow(2,-(fairshare_tree_usage/fairshare_perc))", 15, 23);
	ts_params_free(&p);
	p = parse_ok("fairshare=pbs,formula='pow(2, -(fairshare_tree_usage/"
		     "fairshare_perc))'");
	expect_item(&p, 1, "formula",
		    "pow(2, -(fairshare_tree_usage/fairshare_perc))", 15, 23);
	ts_params_free(&p);
	p = parse_ok("fairshare=pbs, usage_window=12:00:00");
	expect_item(&p, 1, "usage_window", "12:00:00", 16, 29);
	ts_params_free(&p);
}
END_TEST

START_TEST(params_find_ignores_case_and_misses_cleanly)
{
	struct ts_params p = parse_ok("Fairshare=pbs,usage_DEPTH=3");

	ck_assert_str_eq(ts_params_find(&p, "fairshare")->value, "pbs");
	ck_assert_str_eq(ts_params_find(&p, "USAGE_depth")->value, "3");
	ck_assert_ptr_null(ts_params_find(&p, "usage"));
	ck_assert_ptr_null(ts_params_find(&p, "formula"));
	ck_assert_ptr_null(ts_params_find(NULL, "formula"));
	ts_params_free(&p);
}
END_TEST

/* Every malformed input: code, column, and a message naming the key. */
START_TEST(params_reports_every_malformed_input_with_key_and_column)
{
	static const struct {
		const char *text;
		long col;
		const char *msg;
	} cases[] = {
		{ "fairshare=pbs,fairshare=classic", 15,
		  "fairshare: column 15: key given twice (first at column 1)" },
		{ "a=1, b=2, A=3", 11,
		  "A: column 11: key given twice (first at column 1)" },
		{ "fairshare", 10,
		  "fairshare: column 10: expected '=' after the key, found end "
		  "of text" },
		{ "fairshare pbs", 11,
		  "fairshare: column 11: expected '=' after the key, found "
		  "'p'" },
		{ "a=1,b,c=2", 6,
		  "b: column 6: expected '=' after the key, found ','" },
		{ "=pbs", 1, "column 1: expected a key name, found '='" },
		{ "a=1, -x=2", 6, "column 6: expected a key name, found '-'" },
		{ "a=1,\x01", 5,
		  "column 5: expected a key name, found byte 0x01" },
		{ "formula=\"pow(2, x)", 9,
		  "formula: quote opened at column 9 is not closed" },
		{ "formula='a\\'", 9,
		  "formula: quote opened at column 9 is not closed" },
		{ "formula=\"a\"b", 12,
		  "formula: column 12: expected ',' after the closing quote, "
		  "found 'b'" },
		{ "formula=\"a\" \"b\"", 13,
		  "formula: column 13: expected ',' after the closing quote, "
		  "found '\"'" },
		{ "formula=a\"b\"", 10,
		  "formula: column 10: quote inside an unquoted value (quote "
		  "the whole value)" },
		{ "fs_targets=/a'b", 14,
		  "fs_targets: column 14: quote inside an unquoted value "
		  "(quote "
		  "the whole value)" },
		{ "fs_targets=\"a\\nb\"", 14,
		  "fs_targets: column 14: unknown escape \\ before 'n' (inside "
		  "\"...\" only \\\" and \\\\ are escapes)" },
		{ "x='\\\"'", 4,
		  "x: column 4: unknown escape \\ before '\"' (inside '...' "
		  "only \\' and \\\\ are escapes)" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_params p;
		struct ts_error err = TS_ERROR_INIT;

		ck_assert_msg(ts_params_parse(cases[i].text, &p, &err) ==
				      TS_ESYNTAX,
			      "%s parsed", cases[i].text);
		ck_assert_uint_eq(p.n, 0);
		ck_assert_ptr_null(p.item);
		ck_assert_int_eq(err.index, cases[i].col);
		ck_assert_str_eq(err.msg, cases[i].msg);
	}
}
END_TEST

START_TEST(params_quote_leaves_plain_values_alone)
{
	char buf[64];

	ck_assert_int_eq(ts_params_quote("/etc/slurm/targets", buf, 64), 18);
	ck_assert_str_eq(buf, "/etc/slurm/targets");
	ck_assert_int_eq(ts_params_quote("a b,c", buf, 64), 7);
	ck_assert_str_eq(buf, "\"a b,c\"");
	ck_assert_int_eq(ts_params_quote("say \"x\\y\"", buf, 64), 14);
	ck_assert_str_eq(buf, "\"say \\\"x\\\\y\\\"\"");
	ck_assert_int_eq(ts_params_quote("", buf, 64), 2);
	ck_assert_str_eq(buf, "\"\"");
	ck_assert_int_eq(ts_params_quote(" x", buf, 64), 4);
	ck_assert_str_eq(buf, "\" x\"");
	ck_assert_int_eq(ts_params_quote("it's", buf, 3), 6);
	ck_assert_str_eq(buf, "\"i");
}
END_TEST

/* Property: any value survives quote, then parse, byte for byte. */
START_TEST(params_quote_then_parse_gives_the_value_back)
{
	static const char alphabet[] = "ab ,\"'\\=\t";
	uint64_t rng = 0x123456789abcdefULL;
	char value[24], quoted[64], text[80];
	int i, k, len;

	for (i = 0; i < 20000; i++) {
		struct ts_params p;
		struct ts_error err = TS_ERROR_INIT;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		len = (int)(rng % 20);
		for (k = 0; k < len; k++)
			value[k] = alphabet[(rng >> (3 * k % 60)) % 9];
		value[len] = '\0';
		ts_params_quote(value, quoted, sizeof(quoted));
		snprintf(text, sizeof(text), "k=%s, other=1", quoted);
		ck_assert_msg(ts_params_parse(text, &p, &err) == TS_OK,
			      "[%s]: %s", text, err.msg);
		ck_assert_uint_eq(p.n, 2);
		ck_assert_str_eq(p.item[0].value, value);
		ts_params_free(&p);
	}
}
END_TEST

Suite *suite_params(void)
{
	Suite *s = suite_create("params");
	TCase *tc = tcase_create("params");

	tcase_add_test(tc, params_split_at_commas_and_trim_blanks);
	tcase_add_test(tc, params_empty_text_and_empty_items_give_nothing);
	tcase_add_test(tc, params_inner_blanks_of_unquoted_value_are_kept);
	tcase_add_test(tc,
		       params_quoted_value_holds_commas_blanks_and_other_quote);
	tcase_add_test(tc,
		       params_backslash_escapes_quote_and_itself_inside_quotes);
	tcase_add_test(tc, params_reads_the_texts_slurm_conf_delivers);
	tcase_add_test(tc, params_find_ignores_case_and_misses_cleanly);
	tcase_add_test(
		tc, params_reports_every_malformed_input_with_key_and_column);
	tcase_add_test(tc, params_quote_leaves_plain_values_alone);
	tcase_add_test(tc, params_quote_then_parse_gives_the_value_back);
	suite_add_tcase(s, tc);
	return s;
}
