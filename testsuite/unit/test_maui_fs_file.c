/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Maui's fair-share data file FS.<EPOCHTIME> (seed 003 6.3.2.3, issue 27). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maui_fs_file.h"
#include "maui_seed.h"

static const struct ts_maui_fs_entry *find(const struct ts_maui_fs_file *f,
					   enum ts_cred c, const char *name)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->entry[i].type == c && !strcmp(f->entry[i].name, name))
			return &f->entry[i];
	return NULL;
}

/* The seed's file: every category sums to TOTAL 600000 (its invariant). */
START_TEST(test_seed_file)
{
	struct ts_maui_fs_file f;
	struct ts_error err = TS_ERROR_INIT;
	const struct ts_maui_fs_entry *e;

	ck_assert_int_eq(ts_maui_fs_parse(maui_seed_file(),
					  strlen(maui_seed_file()), &f, &err),
			 TS_OK);
	ck_assert_uint_eq(f.duration, 172800);
	ck_assert_uint_eq(f.n, 12);
	ck_assert(f.total == 600000);
	ck_assert(ts_maui_fs_sum(&f, TS_CRED_USER) == 600000);
	ck_assert(ts_maui_fs_sum(&f, TS_CRED_GROUP) == 600000);
	ck_assert(ts_maui_fs_sum(&f, TS_CRED_ACCOUNT) == 600000);
	ck_assert(ts_maui_fs_sum(&f, TS_CRED_QOS) == 600000);
	ck_assert(ts_maui_fs_sum(&f, TS_CRED_CLASS) == 0);
	e = find(&f, TS_CRED_USER, "USERC");
	ck_assert_ptr_nonnull(e);
	ck_assert(e->amount == 200000);
	ck_assert_int_eq(e->line, 5);
	e = find(&f, TS_CRED_QOS, "1");
	ck_assert_ptr_nonnull(e);
	ck_assert(e->amount == 450000);
	ts_maui_fs_free(&f);
	ck_assert_uint_eq(f.n, 0);
	ck_assert_ptr_null(f.entry);
}
END_TEST

/* text is refused with message containing what; TS_ESYNTAX on line */
static void refused(const char *text, int code, long line, const char *what)
{
	struct ts_maui_fs_file f;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_maui_fs_parse(text, strlen(text), &f, &err), code);
	ck_assert_int_eq(err.index, line);
	ck_assert_msg(strstr(err.msg, what), "'%s' lacks '%s'", err.msg, what);
	ck_assert_uint_eq(f.n, 0);
	ck_assert_ptr_null(f.entry);
}

START_TEST(test_errors_by_line_and_column)
{
	refused("User a 1\nTOTAL 5\nUser b 2 3\n", TS_ESYNTAX, 3,
		"line 3, column 10: more than TYPE NAME AMOUNT");
	refused("User a 1\nPerson b 2\nTOTAL 5\n", TS_ESYNTAX, 2,
		"line 2, column 1: not User, Group, Account, QOS, Class or TOTAL at 'Person b 2'");
	refused("User a 1\n  Group b -2\nTOTAL 5\n", TS_ESYNTAX, 2,
		"line 2, column 11: an amount must be an unsigned decimal number at '-2'");
	refused("User a nan\nTOTAL 5\n", TS_ESYNTAX, 1, "column 8: an amount");
	refused("User a 0x10\nTOTAL 5\n", TS_ESYNTAX, 1, "column 8: an amount");
	refused("User a 1e999\nTOTAL 5\n", TS_ERANGE, 1,
		"line 1, column 8: an amount above");
	refused("User a\nTOTAL 5\n", TS_ESYNTAX, 1, "TYPE NAME AMOUNT");
	refused("User a 1\n", TS_ESYNTAX, 1, "line 1: no TOTAL line");
	refused("", TS_ESYNTAX, 1, "no TOTAL line");
	refused("TOTAL 5\nUser a 1\nTOTAL 5\n", TS_ESYNTAX, 3,
		"line 3, column 1: a second TOTAL (the first on line 1)");
	refused("TOTAL\n", TS_ESYNTAX, 1, "TOTAL without an amount");
	refused("TOTAL 5 6\n", TS_ESYNTAX, 1, "column 9: more than an amount");
	refused("User a\x1b[31m 1\nTOTAL 5\n", TS_ESYNTAX, 1,
		"column 7: a byte that is no printable ASCII at '\\x1b[31m 1'");
	refused("# (Duration: x Seconds)\nTOTAL 1\n", TS_ESYNTAX, 1,
		"column 14: no window length");
	refused("# (Duration: 4294967296 Seconds)\nTOTAL 1\n", TS_ESYNTAX, 1,
		"above 4294967295");
	/* a name twice in one type, the second named with the first's line */
	refused("User a 1\nGroup a 1\nUser b 1\nUser a 2\nTOTAL 9\n",
		TS_ESYNTAX, 4,
		"line 4, column 1: User 'a' again (first on line 1)");
	/* a category above TOTAL, beyond the file's rounding */
	refused("User a 3\nUser b 3\nGroup g 6\nTOTAL 5.99\n", TS_ERANGE, 2,
		"line 2: the User lines sum to 6, more than TOTAL 5.99");
}
END_TEST

START_TEST(test_accepted_forms)
{
	/* any case, tabs, CRLF, no header, a category below TOTAL (jobs
	 * without that credential), rounding of the printed amounts */
	static const char text[] = "user\tA\t0.3334\r\n"
				   "USER B .3333\r\n"
				   "class gpu 1\r\n"
				   "total 1\r\n"
				   "Account x 1.0004";
	struct ts_maui_fs_file f;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_maui_fs_parse(text, strlen(text), &f, &err), TS_OK);
	ck_assert_uint_eq(f.duration, 0);
	ck_assert_uint_eq(f.n, 4);
	ck_assert_int_eq(f.entry[2].type, TS_CRED_CLASS);
	ck_assert_str_eq(f.entry[2].name, "gpu");
	ck_assert(f.entry[0].amount == 0.3334);
	ck_assert(f.entry[3].amount == 1.0004);
	ts_maui_fs_free(&f);
}
END_TEST

START_TEST(test_epoch_from_name)
{
	struct ts_error err = TS_ERROR_INIT;
	int64_t t = -1;

	ck_assert_int_eq(
		ts_maui_fs_epoch("/var/maui/stats/FS.1155924000", &t, &err),
		TS_OK);
	ck_assert_int_eq(t, 1155924000);
	ck_assert_int_eq(ts_maui_fs_epoch("FS.0", &t, &err), TS_OK);
	ck_assert_int_eq(t, 0);
	ck_assert_int_eq(ts_maui_fs_epoch("stats/FS.12x", &t, &err), TS_EINVAL);
	ck_assert_msg(
		strstr(err.msg, "'FS.12x': not a Maui fair-share file name"),
		"%s", err.msg);
	ck_assert_int_eq(ts_maui_fs_epoch("FS.", &t, NULL), TS_EINVAL);
	ck_assert_int_eq(ts_maui_fs_epoch("FS.1234567890123", &t, NULL),
			 TS_EINVAL);
	ck_assert_int_eq(ts_maui_fs_epoch("fs.12", &t, NULL), TS_EINVAL);
	ck_assert_int_eq(t, 0);
}
END_TEST

/* written, then read: the same entries, amounts exactly, sums kept */
START_TEST(test_round_trip)
{
	struct ts_maui_fs_file f, g;
	struct ts_error err = TS_ERROR_INIT;
	char *text, head[128];
	size_t len, i;

	ck_assert_int_eq(ts_maui_fs_parse(maui_seed_file(),
					  strlen(maui_seed_file()), &f, &err),
			 TS_OK);
	ck_assert_int_eq(ts_maui_fs_format(&f, 1155924000, &text, &len, &err),
			 TS_OK);
	ck_assert_uint_eq(strlen(text), len);
	snprintf(head, sizeof(head), "%.*s", (int)(strchr(text, '\n') - text),
		 text);
	ck_assert_str_eq(head,
			 "# Fairshare Data File (Duration: 172800 Seconds) "
			 "Starting: 2006-08-18T18:00:00Z");
	ck_assert_int_eq(ts_maui_fs_parse(text, len, &g, &err), TS_OK);
	ck_assert_uint_eq(g.n, f.n);
	ck_assert_uint_eq(g.duration, 172800);
	ck_assert(g.total == f.total);
	for (i = 0; i < f.n; i++) {
		const struct ts_maui_fs_entry *e =
			find(&g, f.entry[i].type, f.entry[i].name);

		ck_assert_ptr_nonnull(e);
		ck_assert(e->amount == f.entry[i].amount);
	}
	free(text);
	ts_maui_fs_free(&g);
	ts_maui_fs_free(&f);
}
END_TEST

/* Random files: every amount back exactly, every category's sum kept. */
START_TEST(test_random_round_trip)
{
	unsigned seed = 27;
	int round;

	for (round = 0; round < 200; round++) {
		struct ts_maui_fs_file f = { 0 }, g;
		struct ts_error err = TS_ERROR_INIT;
		char names[64][24];
		double total = 0;
		char *text;
		size_t len, i;
		int c;

		f.n = (size_t)(rand_r(&seed) % 64);
		f.duration = (uint32_t)rand_r(&seed);
		f.entry = calloc(f.n ? f.n : 1, sizeof(*f.entry));
		ck_assert_ptr_nonnull(f.entry);
		for (i = 0; i < f.n; i++) {
			snprintf(names[i], sizeof(names[i]), "n%zu", i);
			f.entry[i].type =
				(enum ts_cred)(rand_r(&seed) % TS_CRED_N);
			f.entry[i].name = names[i];
			f.entry[i].amount = (double)rand_r(&seed) /
					    (1 + rand_r(&seed) % 1000);
		}
		for (c = 0; c < TS_CRED_N; c++) {
			double s = 0;

			for (i = 0; i < f.n; i++)
				if (f.entry[i].type == (enum ts_cred)c)
					s += f.entry[i].amount;
			if (s > total)
				total = s;
		}
		f.total = total;
		ck_assert_int_eq(
			ts_maui_fs_format(&f, 1700000000, &text, &len, &err),
			TS_OK);
		ck_assert_msg(ts_maui_fs_parse(text, len, &g, &err) == TS_OK,
			      "%s", err.msg);
		ck_assert_uint_eq(g.n, f.n);
		ck_assert(g.total == f.total);
		ck_assert_uint_eq(g.duration, f.duration);
		for (c = 0; c < TS_CRED_N; c++)
			ck_assert(ts_maui_fs_sum(&g, (enum ts_cred)c) ==
				  ts_maui_fs_sum(&f, (enum ts_cred)c));
		free(text);
		ts_maui_fs_free(&g);
		free(f.entry);
	}
}
END_TEST

START_TEST(test_format_refuses)
{
	struct ts_maui_fs_entry e = { TS_CRED_GROUP, "has blank", 1, 0 };
	struct ts_maui_fs_file f = { 0, 1, 1, &e };
	struct ts_error err = TS_ERROR_INIT;
	char *text = NULL;
	size_t len;

	ck_assert_int_eq(ts_maui_fs_format(&f, 0, &text, &len, &err),
			 TS_EINVAL);
	ck_assert_msg(strstr(err.msg, "Group 'has blank': a name must be"),
		      "%s", err.msg);
	ck_assert_ptr_null(text);
	e.name = "ok";
	e.amount = -1;
	err = (struct ts_error)TS_ERROR_INIT;
	ck_assert_int_eq(ts_maui_fs_format(&f, 0, &text, &len, &err),
			 TS_EINVAL);
	ck_assert_msg(strstr(err.msg, "not finite or negative"), "%s", err.msg);
}
END_TEST

Suite *suite_maui_fs_file(void)
{
	Suite *s = suite_create("maui_fs_file");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_seed_file);
	tcase_add_test(tc, test_errors_by_line_and_column);
	tcase_add_test(tc, test_accepted_forms);
	tcase_add_test(tc, test_epoch_from_name);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_random_round_trip);
	tcase_add_test(tc, test_format_refuses);
	suite_add_tcase(s, tc);
	return s;
}
