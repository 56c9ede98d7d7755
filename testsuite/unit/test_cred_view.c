/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Maui's "diagnose -f" view (src/cred_view.c, issue 27) on seed 003's
 * John: FSINTERVAL 12:00:00, FSDEPTH 4, FSDECAY 0.5, John 50, 10, 0, 60
 * of totals 150, 100, 125, 110 (oldest first).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cred_view.h"

#define T0 (INT64_C(43200) * 40000)

static const char *namer(void *arg, enum ts_cred c, uint32_t id, char *buf,
			 size_t len)
{
	(void)arg;
	if (id == 500)
		snprintf(buf, len, c == TS_CRED_USER ? "john" : "science");
	else
		snprintf(buf, len, "other%u", (unsigned)c);
	return buf;
}

/* John (500) and the rest (600) in every credential type. */
static void seed003_john(struct ts_cred_usage *cu)
{
	static const long double john[4] = { 50, 10, 0, 60 };
	static const long double total[4] = { 150, 100, 125, 110 };
	struct ts_error err = TS_ERROR_INIT;
	struct ts_cred_ids a = { { 500, 500, 500, 500, 500 } };
	struct ts_cred_ids b = { { 600, 600, 600, 600, 600 } };
	int64_t t = T0;
	int k;

	ck_assert_int_eq(ts_cred_usage_init(cu, 43200, 4, 0.5, t, &err), TS_OK);
	for (k = 0; k < 4; k++, t += 43200) {
		if (john[k] > 0)
			ck_assert_int_eq(ts_cred_usage_charge(cu, &a, john[k],
							      t + 1, &err),
					 TS_OK);
		ck_assert_int_eq(ts_cred_usage_charge(cu, &b,
						      total[k] - john[k], t + 2,
						      &err),
				 TS_OK);
	}
}

static char *view(const struct ts_cred_usage *cu, const struct ts_targets *tg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(ts_cred_view_write(out, cu, tg,
					    TS_FS_POLICY_DIFFERENCE, namer,
					    NULL),
			 0);
	fclose(out);
	return text;
}

/* text begins with prefix */
static int starts(const char *text, const char *prefix)
{
	return text && !strncmp(text, prefix, strlen(prefix));
}

/* The line of text that starts with word, or NULL. */
static const char *line_of(const char *text, const char *word)
{
	const char *p = text;
	size_t n = strlen(word);

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, word, n) && p[n] == ' ')
			return p;
	return NULL;
}

START_TEST(john_row_has_seed003_weighted_share_and_each_window)
{
	struct ts_cred_usage cu;
	char *text;
	const char *l;

	seed003_john(&cu);
	text = view(&cu, NULL);
	ck_assert_ptr_nonnull(strstr(
		text,
		"Depth: 4 intervals   Interval Length: 12:00:00   Decay Rate: 0.50\nFS Policy: difference\n"));
	/* window 0 is the current one: newest first */
	l = line_of(text, "FSWeight");
	ck_assert_ptr_nonnull(l);
	ck_assert(starts(l + 31, "   1.0000   0.5000   0.2500   0.1250\n"));
	l = line_of(text, "TotalUsage");
	ck_assert(starts(
		l + 15,
		" 100.00  -------      110      125      100      150\n"));
	/* 68.75 / 216.25 = 31.79 %; 60/110, 0/125, 10/100, 50/150 */
	l = line_of(text, "john");
	ck_assert_ptr_nonnull(l);
	ck_assert(starts(
		l + 15,
		"  31.79  -------    54.55     0.00    10.00    33.33\n"));
	/* the other user's row: each window's rows sum to 100 % */
	l = line_of(text, "other0");
	ck_assert(starts(
		l + 15,
		"  68.21  -------    45.45   100.00    90.00    66.67\n"));
	/* every type has its heading, in diagnose -p's order */
	ck_assert_ptr_nonnull(strstr(text, "\nUSER\n-------------\njohn"));
	ck_assert(strstr(text, "\nGROUP\n") < strstr(text, "\nACCOUNT\n"));
	ck_assert(strstr(text, "\nQOS\n") < strstr(text, "\nCLASS\n"));
	free(text);
	ts_cred_usage_free(&cu);
}
END_TEST

/* Targets from a targets file, with Maui's suffixes; none: -------. */
START_TEST(targets_show_with_their_suffix)
{
	static const char file[] = "user john@* 50\n"
				   "group science 10+\n"
				   "qos science 25-\n";
	struct ts_cred_usage cu;
	struct ts_targets *tg = NULL;
	struct ts_error err = TS_ERROR_INIT;
	char *text, *p;
	const char *l;

	ck_assert_int_eq(ts_targets_parse(file, sizeof(file) - 1, &tg, &err),
			 TS_OK);
	seed003_john(&cu);
	text = view(&cu, tg);
	l = line_of(text, "john");
	ck_assert(starts(l + 15, "  31.79    50.00 "));
	p = strstr(text, "\nGROUP\n");
	ck_assert(starts(strstr(p, "science"),
			 "science          31.79   10.00+ "));
	p = strstr(text, "\nQOS\n");
	ck_assert(starts(strstr(p, "science"),
			 "science          31.79   25.00- "));
	/* no class entry: no target */
	p = strstr(text, "\nCLASS\n");
	ck_assert(starts(strstr(p, "science"),
			 "science          31.79  ------- "));
	free(text);
	ts_cred_usage_free(&cu);
	ts_targets_free(tg);
}
END_TEST

/* Nothing charged yet: the headings, zeros, never NaN. */
START_TEST(empty_usage_prints_zeros_not_nan)
{
	struct ts_cred_usage cu;
	struct ts_error err = TS_ERROR_INIT;
	char *text;

	ck_assert_int_eq(ts_cred_usage_init(&cu, 3600, 2, 1.0, T0, &err),
			 TS_OK);
	text = view(&cu, NULL);
	ck_assert_ptr_null(strstr(text, "nan"));
	ck_assert_ptr_nonnull(strstr(text, "\nCLASS\n-------------\n"));
	ck_assert_ptr_nonnull(line_of(text, "TotalUsage"));
	free(text);
	ts_cred_usage_free(&cu);
}
END_TEST

Suite *suite_cred_view(void)
{
	Suite *s = suite_create("cred_view");
	TCase *tc = tcase_create("cred_view");

	tcase_add_test(tc, john_row_has_seed003_weighted_share_and_each_window);
	tcase_add_test(tc, targets_show_with_their_suffix);
	tcase_add_test(tc, empty_usage_prints_zeros_not_nan);
	suite_add_tcase(s, tc);
	return s;
}
