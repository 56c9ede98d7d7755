/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Decimal text <-> double (src/decimal.c), whatever the locale. */
#include <check.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"

START_TEST(decimal_scan_takes_only_unsigned_decimal_numbers)
{
	static const struct {
		const char *text;
		size_t len;
	} cases[] = {
		{ "12", 2 },	{ "1.5", 3 },	{ ".5", 2 },   { "5.", 2 },
		{ "1e3", 3 },	{ "1E+3x", 4 }, { "1e-3", 4 }, { "1e", 1 },
		{ "1e+", 1 },	{ "0x1p3", 1 }, { ".", 0 },    { "-1", 0 },
		{ "+1", 0 },	{ "inf", 0 },	{ "nan", 0 },  { "", 0 },
		{ "1.2.3", 3 }, { "..5", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(ts_decimal_scan(cases[i].text) == cases[i].len,
			      "%s", cases[i].text);
}
END_TEST

START_TEST(decimal_value_is_correctly_rounded_and_refuses_overflow)
{
	double v = -1;
	char big[400];

	ck_assert_int_eq(ts_decimal_value("0.1", 3, &v), 0);
	ck_assert(v == 0.1);
	ck_assert_int_eq(ts_decimal_value("0.1999", 3, &v), 0);
	ck_assert(v == 0.1);
	ck_assert_int_eq(ts_decimal_value("1e-400", 6, &v), 0);
	ck_assert(v == 0.0);
	ck_assert_int_eq(ts_decimal_value("1.7976931348623157e308", 22, &v), 0);
	ck_assert(v == 1.7976931348623157e308);
	v = -1;
	ck_assert_int_eq(ts_decimal_value("1e309", 5, &v), -1);
	ck_assert(v == -1);
	/* a long number goes through a heap copy */
	memset(big, '0', sizeof(big));
	big[0] = '.';
	big[300] = '5';
	ck_assert_int_eq(ts_decimal_value(big, 301, &v), 0);
	ck_assert(v == 5e-300);
}
END_TEST

/* Property: the shortest text reads back to the same bits. */
START_TEST(decimal_format_is_shortest_and_reads_back)
{
	uint64_t rng = 0xdeadbeefcafef00dULL;
	char buf[40];
	double v, back;
	int i;

	ts_decimal_format(0.1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.1");
	ts_decimal_format(1.0 / 3, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.3333333333333333");
	ts_decimal_format(-2, buf, sizeof(buf));
	ck_assert_str_eq(buf, "-2");
	ts_decimal_format(1e20, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1e+20");
	for (i = 0; i < 100000; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		memcpy(&v, &rng, sizeof(v));
		if (!isfinite(v))
			continue;
		v = fabs(v);
		ts_decimal_format(v, buf, sizeof(buf));
		ck_assert_uint_eq(ts_decimal_scan(buf), strlen(buf));
		ck_assert_int_eq(ts_decimal_value(buf, strlen(buf), &back), 0);
		ck_assert(memcmp(&v, &back, sizeof(v)) == 0);
	}
}
END_TEST

/*
 * The reason for decimal.c: slurmctld may run under a locale whose
 * decimal point is ',' (de_DE), where strtod("0.5") stops at the '.' and
 * printf("%g", 0.5) writes "0,5".  de_DE is compiled into a private
 * directory (LOCPATH) by localedef from Debian's "locales" package.
 */
START_TEST(decimal_reads_and_writes_a_point_under_a_comma_locale)
{
	char dir[] = "/tmp/ts_locale_XXXXXX", cmd[256], buf[40];
	double v = -1;
	long double lv = -1;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1",
		 dir);
	ck_assert_msg(system(cmd) == 0, "localedef de_DE failed (locales)");
	setenv("LOCPATH", dir, 1);
	ck_assert_ptr_nonnull(setlocale(LC_ALL, "de_DE.UTF-8"));
	/* the locale really does use a comma, so this test can fail */
	snprintf(buf, sizeof(buf), "%g", 0.5);
	ck_assert_str_eq(buf, "0,5");
	ck_assert(strtod("0.5", NULL) == 0.0);

	ck_assert_uint_eq(ts_decimal_scan("0.5,7"), 3);
	ck_assert_int_eq(ts_decimal_value("0.5", 3, &v), 0);
	ck_assert(v == 0.5);
	/* tree files' USAGE and fs_targets' percentages read the same */
	ck_assert(strtold("1200.75", NULL) == 1200.0L);
	ck_assert_int_eq(ts_decimal_read("1200.75", 7, 0, &lv), TS_DECIMAL_OK);
	ck_assert(lv == 1200.75L);
	ts_decimal_format(0.25, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.25");
	ts_decimal_format(1e-7, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1e-07");

	setlocale(LC_ALL, "C");
	unsetenv("LOCPATH");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/*
 * ts_decimal_read(): all of s[0 .. len) and nothing past it, the
 * scanner's grammar (no exponent when plain), correctly rounded to a long
 * double, and each refusal told apart.
 */
START_TEST(decimal_read_takes_exactly_len_bytes)
{
	char big[5100];
	long double v = -1;

	/* the bytes after len are never read: "2.5" of "2.5e3" */
	ck_assert_int_eq(ts_decimal_read("2.5e3", 3, 0, &v), TS_DECIMAL_OK);
	ck_assert(v == 2.5L);
	ck_assert_int_eq(ts_decimal_read("2.5e3", 5, 0, &v), TS_DECIMAL_OK);
	ck_assert(v == 2500.0L);
	/* 0.1 rounded once, to the nearest long double */
	ck_assert_int_eq(ts_decimal_read("0.1", 3, 0, &v), TS_DECIMAL_OK);
	ck_assert(v == 0.1L);
	ck_assert_int_eq(ts_decimal_read("5.", 2, 1, &v), TS_DECIMAL_OK);
	ck_assert(v == 5.0L);
	ck_assert_int_eq(ts_decimal_read(".25", 3, 1, &v), TS_DECIMAL_OK);
	ck_assert(v == 0.25L);
	v = -1;
	ck_assert_int_eq(ts_decimal_read("2.5e3", 5, 1, &v), TS_DECIMAL_SYNTAX);
	ck_assert_int_eq(ts_decimal_read("1e", 2, 0, &v), TS_DECIMAL_SYNTAX);
	ck_assert_int_eq(ts_decimal_read(".", 1, 0, &v), TS_DECIMAL_SYNTAX);
	ck_assert_int_eq(ts_decimal_read("", 0, 0, &v), TS_DECIMAL_SYNTAX);
	ck_assert_int_eq(ts_decimal_read("-1", 2, 0, &v), TS_DECIMAL_SYNTAX);
	ck_assert_int_eq(ts_decimal_read("1 ", 2, 0, &v), TS_DECIMAL_SYNTAX);
	ck_assert_int_eq(ts_decimal_read("inf", 3, 0, &v), TS_DECIMAL_SYNTAX);
	ck_assert_int_eq(ts_decimal_read("0x10", 4, 0, &v), TS_DECIMAL_SYNTAX);
	/* past LDBL_MAX (about 1.19e4932), as exponent and as digits */
	ck_assert_int_eq(ts_decimal_read("1e5000", 6, 0, &v), TS_DECIMAL_RANGE);
	memset(big, '9', sizeof(big));
	ck_assert_int_eq(ts_decimal_read(big, sizeof(big), 1, &v),
			 TS_DECIMAL_RANGE);
	ck_assert(v == -1);
	/* 1e400: past a double, not a long double */
	ck_assert_int_eq(ts_decimal_read("1e400", 5, 0, &v), TS_DECIMAL_OK);
	ck_assert(v > 1e308L);
}
END_TEST

Suite *suite_decimal(void)
{
	Suite *s = suite_create("decimal");
	TCase *tc = tcase_create("decimal");

	/* localedef compiles a locale: seconds on a loaded 2-core machine */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, decimal_scan_takes_only_unsigned_decimal_numbers);
	tcase_add_test(tc,
		       decimal_value_is_correctly_rounded_and_refuses_overflow);
	tcase_add_test(tc, decimal_format_is_shortest_and_reads_back);
	tcase_add_test(tc, decimal_read_takes_exactly_len_bytes);
	tcase_add_test(tc,
		       decimal_reads_and_writes_a_point_under_a_comma_locale);
	suite_add_tcase(s, tc);
	return s;
}
