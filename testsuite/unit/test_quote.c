/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * quote: bytes read from a file reach a log line as printable ASCII
 * (issue 31: an ESC sequence in a targets file came out raw in
 * slurmctld.log, and grep then took the log for binary).  Printable
 * characters as they are, \\ \' \" for the three that delimit or
 * escape, \xNN for every other byte, at most TS_ERROR_QUOTE input bytes,
 * then "...".
 */
#include <check.h>
#include <string.h>

#include "error.h"
#include "targets.h"
#include "tree_file.h"

static const char *q(const void *bytes, size_t len)
{
	static char buf[TS_QUOTE_SIZE];

	return ts_quote(buf, sizeof(buf), bytes, len);
}

START_TEST(esc_sequence_becomes_x1b)
{
	static const char in[] = "\x1b[2J\x1b[31mFAKE-LOG-LINE";

	ck_assert_str_eq(q(in, strlen(in)), "\\x1b[2J\\x1b[31mFAKE-LOG-LINE");
}
END_TEST

START_TEST(control_bytes_del_and_nul_become_hex)
{
	static const char in[] = { 'a', 1, '\t', '\n', '\r', 0x7f, 0, 'z' };

	ck_assert_str_eq(q(in, sizeof(in)), "a\\x01\\x09\\x0a\\x0d\\x7f\\x00z");
}
END_TEST

START_TEST(high_bytes_become_hex)
{
	static const char in[] = "caf\xc3\xa9 \xff";

	ck_assert_str_eq(q(in, strlen(in)), "caf\\xc3\\xa9 \\xff");
}
END_TEST

START_TEST(quotes_and_backslash_are_escaped_the_rest_kept)
{
	static const char in[] = "a'b\\c\"d root:*:20228:0:99999:7:::";

	ck_assert_str_eq(q(in, strlen(in)),
			 "a\\'b\\\\c\\\"d root:*:20228:0:99999:7:::");
}
END_TEST

START_TEST(at_most_quote_bytes_then_a_visible_marker)
{
	char in[200], want[200];

	memset(in, 'a', sizeof(in));
	memset(want, 'a', TS_ERROR_QUOTE);
	strcpy(want + TS_ERROR_QUOTE, "...");
	ck_assert_str_eq(q(in, TS_ERROR_QUOTE),
			 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	ck_assert_uint_eq(strlen(q(in, TS_ERROR_QUOTE)), TS_ERROR_QUOTE);
	ck_assert_str_eq(q(in, TS_ERROR_QUOTE + 1), want);
	ck_assert_str_eq(q(in, sizeof(in)), want);
}
END_TEST

/* The worst case, every byte 4 characters, still fits TS_QUOTE_SIZE. */
START_TEST(all_escaped_input_fits_the_buffer_with_its_marker)
{
	char in[100];
	const char *out;
	size_t i;

	memset(in, 0x1b, sizeof(in));
	out = q(in, sizeof(in));
	ck_assert_uint_eq(strlen(out), 4 * TS_ERROR_QUOTE + 3);
	for (i = 0; i < TS_ERROR_QUOTE; i++)
		ck_assert_int_eq(memcmp(out + 4 * i, "\\x1b", 4), 0);
	ck_assert_str_eq(out + 4 * TS_ERROR_QUOTE, "...");
}
END_TEST

/* A smaller buffer cuts sooner, never inside an escape, still marked. */
START_TEST(small_buffer_cuts_between_escapes_with_marker)
{
	char buf[10];

	ck_assert_str_eq(ts_quote(buf, sizeof(buf), "abcdefghijkl", 12),
			 "abcdef...");
	ck_assert_str_eq(ts_quote(buf, sizeof(buf), "ab\x1b\x1b\x1b", 5),
			 "ab\\x1b...");
	ck_assert_str_eq(ts_quote(buf, sizeof(buf), "abcdefghi", 9),
			 "abcdefghi");
	ck_assert_str_eq(ts_quote(buf, sizeof(buf), "", 0), "");
}
END_TEST

/* parse TEXT: the error message, the targets refused. */
static const char *parse_error(const char *text)
{
	static struct ts_error err;
	struct ts_targets *tg = NULL;

	ts_error_clear(&err);
	ck_assert_int_ne(ts_targets_parse(text, strlen(text), &tg, &err),
			 TS_OK);
	ck_assert_ptr_null(tg);
	return err.msg;
}

/* The targets file's messages quote its bytes; columns count bytes. */
START_TEST(targets_file_bytes_reach_the_message_quoted)
{
	ck_assert_str_eq(
		parse_error("\x1b[2J\x1b[31mFAKE-LOG-LINE bob 20\n"),
		"line 1: unknown kind '\\x1b[2J\\x1b[31mFAKE-LOG-LINE' (expected account, user, group, qos or class)");
	ck_assert_str_eq(
		parse_error("account a 10\nuser \x1b\xff 5 fscap=1\x07\n"),
		"line 2 column 11: fscap '1\\x07' is not an amount of usage (N) or a percentage (N%)");
	ck_assert_str_eq(
		parse_error("user b\x1b 12\x9b\n"),
		"line 1: target '12\\x9b' is not a percentage (N, N- or N+)");
	ck_assert_str_eq(
		parse_error("user b 1 x\x1b=2\n"),
		"line 1 column 10: unknown key 'x\\x1b=2' (the only key is fscap)");
}
END_TEST

static const char *tree_error(const char *text)
{
	static struct ts_error err;
	struct ts_tree t;

	ts_error_clear(&err);
	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	ck_assert_int_ne(ts_tree_file_parse(text, strlen(text),
					    TS_TREE_FORMAT_TREE, &t, NULL,
					    &err),
			 TS_OK);
	ts_tree_free(&t);
	return err.msg;
}

/* sshare-ext's tree file: the same quoting, in its double quotes. */
START_TEST(tree_file_bytes_reach_the_message_quoted)
{
	ck_assert_str_eq(
		tree_error("account a root 1\n\x1b]0;x\x07 b a 1\n"),
		"line 2: unknown kind \"\\x1b]0;x\\x07\" (expected account, user or root)");
	ck_assert_str_eq(
		tree_error("user u\"q root 1 \x9b" "2J\n"),
		"line 1: USAGE \"\\x9b2J\" is not a number 0..1.8e308");
	ck_assert_str_eq(
		tree_error("account a\xff root 1\naccount a\xff root 1\n"),
		"line 2: account \"a\\xff\" already defined on line 1");
}
END_TEST

Suite *suite_quote(void)
{
	Suite *s = suite_create("quote");
	TCase *tc = tcase_create("quote");

	tcase_add_test(tc, esc_sequence_becomes_x1b);
	tcase_add_test(tc, control_bytes_del_and_nul_become_hex);
	tcase_add_test(tc, high_bytes_become_hex);
	tcase_add_test(tc, quotes_and_backslash_are_escaped_the_rest_kept);
	tcase_add_test(tc, at_most_quote_bytes_then_a_visible_marker);
	tcase_add_test(tc, all_escaped_input_fits_the_buffer_with_its_marker);
	tcase_add_test(tc, small_buffer_cuts_between_escapes_with_marker);
	tcase_add_test(tc, targets_file_bytes_reach_the_message_quoted);
	tcase_add_test(tc, tree_file_bytes_reach_the_message_quoted);
	suite_add_tcase(s, tc);
	return s;
}
