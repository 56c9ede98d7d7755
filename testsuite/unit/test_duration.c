/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Durations (src/duration.c): Maui's [[DD:]HH:]MM:SS, Slurm's
 * days-hours[:minutes[:seconds]], bare seconds and s/m/h/d suffixes.
 */
#include <check.h>
#include <stdint.h>

#include "duration.h"

#define DAY 86400u

START_TEST(duration_reads_every_documented_form)
{
	static const struct {
		const char *text;
		uint64_t secs;
	} cases[] = {
		{ "43200", 43200 },
		{ "0", 0 },
		{ "45s", 45 },
		{ "30m", 1800 },
		{ "12h", 43200 },
		{ "2d", 2 * DAY },
		{ "12H", 43200 },
		{ "7D", 7 * DAY },
		{ "30:00", 1800 },
		{ "90:30", 5430 },
		{ "12:00:00", 43200 },
		{ "36:00:00", 36 * 3600 },
		{ "1:02:03", 3723 },
		{ "2:00:00:00", 2 * DAY },
		{ "1:23:59:59", 2 * DAY - 1 },
		{ "1-0", DAY },
		{ "0-12", 43200 },
		{ "1-12:30", DAY + 45000 },
		{ "1-12:30:15", DAY + 45015 },
		{ "365-00:00:00", 365 * DAY },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_error err = TS_ERROR_INIT;
		uint64_t secs = 1;

		ck_assert_msg(ts_duration_parse(cases[i].text, 1000 * DAY,
						&secs, &err) == TS_OK,
			      "%s: %s", cases[i].text, err.msg);
		ck_assert_uint_eq(secs, cases[i].secs);
	}
}
END_TEST

START_TEST(duration_refuses_malformed_and_out_of_range_text)
{
	static const char expected[] =
		"expected seconds (43200), a number with unit s, m, h or d "
		"(12h), [[DD:]HH:]MM:SS or D-HH[:MM[:SS]]";
	static const struct {
		const char *text;
		int code;
		long col;
		const char *msg;
	} cases[] = {
		{ "", TS_EINVAL, 1, expected },
		{ "h", TS_EINVAL, 1, expected },
		{ "12 h", TS_EINVAL, 3, expected },
		{ "12hh", TS_EINVAL, 3, expected },
		{ "1.5h", TS_EINVAL, 2, expected },
		{ "-5", TS_EINVAL, 1, expected },
		{ "12:", TS_EINVAL, 4, expected },
		{ "1:2:3:4:5", TS_EINVAL, 8, expected },
		{ "1-", TS_EINVAL, 3, expected },
		{ "1-2:3:4:5", TS_EINVAL, 8, expected },
		{ "12:00h", TS_EINVAL, 6, expected },
		{ "10:60", TS_EINVAL, 1, "seconds must be below 60" },
		{ "1:60:00", TS_EINVAL, 1, "minutes must be below 60" },
		{ "1:24:00:00", TS_EINVAL, 1, "hours must be below 24" },
		{ "1-24", TS_EINVAL, 1, "hours must be below 24" },
		{ "1-1:60", TS_EINVAL, 1, "minutes must be below 60" },
		{ "1-1:1:60", TS_EINVAL, 1, "seconds must be below 60" },
		{ "1001d", TS_ERANGE, 1, "longer than 86400000 seconds" },
		{ "99999999999999999999", TS_ERANGE, 1, "number too large" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_error err = TS_ERROR_INIT;
		uint64_t secs = 7;

		ck_assert_msg(ts_duration_parse(cases[i].text, 1000 * DAY,
						&secs, &err) == cases[i].code,
			      "%s: %s", cases[i].text, err.msg);
		ck_assert_uint_eq(secs, 7);
		ck_assert_int_eq(err.index, cases[i].col);
		ck_assert_str_eq(err.msg, cases[i].msg);
	}
}
END_TEST

/* Property: what ts_duration_format() prints reads back unchanged. */
START_TEST(duration_format_reads_back)
{
	static const uint64_t samples[] = { 0,	  1,	   59,	     60,
					    3599, 3600,	   43200,    DAY - 1,
					    DAY,  DAY + 1, 365 * DAY };
	char buf[32];
	uint64_t s, back;
	size_t i;

	ts_duration_format(43200, buf, sizeof(buf));
	ck_assert_str_eq(buf, "12:00:00");
	ts_duration_format(DAY + 3723, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1-01:02:03");
	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		ts_duration_format(samples[i], buf, sizeof(buf));
		ck_assert_int_eq(
			ts_duration_parse(buf, 1000 * DAY, &back, NULL), TS_OK);
		ck_assert_uint_eq(back, samples[i]);
	}
	for (s = 0; s < 3 * DAY; s += 997) {
		ts_duration_format(s, buf, sizeof(buf));
		ck_assert_int_eq(
			ts_duration_parse(buf, 1000 * DAY, &back, NULL), TS_OK);
		ck_assert_uint_eq(back, s);
	}
}
END_TEST

Suite *suite_duration(void)
{
	Suite *s = suite_create("duration");
	TCase *tc = tcase_create("duration");

	tcase_add_test(tc, duration_reads_every_documented_form);
	tcase_add_test(tc, duration_refuses_malformed_and_out_of_range_text);
	tcase_add_test(tc, duration_format_reads_back);
	suite_add_tcase(s, tc);
	return s;
}
