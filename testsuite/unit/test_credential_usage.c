/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Maui's fair-share usage per credential (seed 003 6.3.2, issue 27). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "credential_usage.h"
#include "maui_seed.h"

#define DAY2 172800 /* the data file's Duration */
#define T0   (INT64_C(172800) * 10000)

enum { USERA = 1, USERB, USERC, USERD };
enum { GROUPA = 11, GROUPB };
enum { ACCTA = 21, ACCTB, ACCTC };

static void charge(struct ts_cred_usage *cu, uint32_t user, uint32_t group,
		   uint32_t account, uint32_t qos, uint32_t class,
		   long double amount, int64_t t)
{
	const struct ts_cred_ids ids = { { user, group, account, qos, class } };
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_cred_usage_charge(cu, &ids, amount, t, &err),
			 TS_OK);
}

/*
 * Seed 003's sample fair-share data file (one 172800 s window): jobs
 * whose credentials give exactly its lines, in thousands of
 * processor-seconds: users A 150, B 150, C 200, D 100; groups A 350,
 * B 250; accounts A 300, B 200, C 100; QOS 0 50, 1 450, 2 100; TOTAL 600.
 */
static void sample_file_jobs(struct ts_cred_usage *cu)
{
	charge(cu, USERA, GROUPA, ACCTA, 1, 7, 150000, T0 + 10);
	charge(cu, USERB, GROUPA, ACCTA, 1, 7, 150000, T0 + 20);
	charge(cu, USERC, GROUPA, ACCTB, 1, 7, 50000, T0 + 30);
	charge(cu, USERC, GROUPB, ACCTB, 1, 7, 100000, T0 + 40);
	charge(cu, USERC, GROUPB, ACCTB, 0, 7, 50000, T0 + 50);
	charge(cu, USERD, GROUPB, ACCTC, 2, 7, 100000, T0 + 60);
}

START_TEST(seed003_data_file_every_category_sums_to_total)
{
	static const struct {
		int c;
		uint32_t id;
		long double usage;
	} line[] = {
		{ TS_CRED_USER, USERA, 150000 },
		{ TS_CRED_USER, USERB, 150000 },
		{ TS_CRED_USER, USERC, 200000 },
		{ TS_CRED_USER, USERD, 100000 },
		{ TS_CRED_GROUP, GROUPA, 350000 },
		{ TS_CRED_GROUP, GROUPB, 250000 },
		{ TS_CRED_ACCOUNT, ACCTA, 300000 },
		{ TS_CRED_ACCOUNT, ACCTB, 200000 },
		{ TS_CRED_ACCOUNT, ACCTC, 100000 },
		{ TS_CRED_QOS, 0, 50000 },
		{ TS_CRED_QOS, 1, 450000 },
		{ TS_CRED_QOS, 2, 100000 },
		{ TS_CRED_CLASS, 7, 600000 },
	};
	struct ts_cred_usage cu;
	struct ts_error err = TS_ERROR_INIT;
	size_t i;
	int c;

	ck_assert_int_eq(ts_cred_usage_init(&cu, DAY2, 1, 1.0, T0, &err),
			 TS_OK);
	sample_file_jobs(&cu);
	for (i = 0; i < sizeof(line) / sizeof(line[0]); i++) {
		ck_assert(ts_windows_get(&cu.w[line[i].c], line[i].id, 0) ==
			  line[i].usage);
		ck_assert_double_eq_tol(
			ts_cred_usage_pct(&cu, line[i].c, line[i].id),
			(double)(100 * line[i].usage / 600000), 1e-12);
	}
	for (c = 0; c < TS_CRED_N; c++) {
		ck_assert(ts_windows_get_total(&cu.w[c], 0) == 600000);
		ck_assert(maui_category_sum(&cu, c, 0) == 600000);
	}
	ck_assert(ts_cred_usage_pct(&cu, TS_CRED_USER, 99) == 0);
	ts_cred_usage_free(&cu);
}
END_TEST

/*
 * Seed 003's John: FSINTERVAL 12:00:00, FSDEPTH 4, FSDECAY 0.5, and
 * John[k] / Total[k] = 60/110, 0/125, 10/100, 50/150 for windows 0..3:
 * Usage = (60 + .5 x 0 + .25 x 10 + .125 x 50) /
 *         (110 + .5 x 125 + .25 x 100 + .125 x 150) = 68.75 / 216.25.
 * John's job carries a credential of every type, so each type's usage
 * is the same figure.
 */
START_TEST(seed003_john_is_decay_weighted_in_every_type)
{
	static const long double john[4] = { 50, 10, 0, 60 }; /* oldest first */
	static const long double total[4] = { 150, 100, 125, 110 };
	struct ts_cred_usage cu;
	struct ts_error err = TS_ERROR_INIT;
	int64_t t = INT64_C(43200) * 40000;
	int k, c;

	ck_assert_int_eq(ts_cred_usage_init(&cu, 43200, 4, 0.5, t, &err),
			 TS_OK);
	for (k = 0; k < 4; k++, t += 43200) {
		if (john[k] > 0)
			charge(&cu, 500, 500, 500, 500, 500, john[k], t + 1);
		charge(&cu, 600, 600, 600, 600, 600, total[k] - john[k], t + 2);
	}
	for (c = 0; c < TS_CRED_N; c++)
		ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, c, 500),
					100 * 68.75 / 216.25, 1e-12);
	/* the next boundary: John's 60 now weighs .5, his 50 rolled out */
	ts_cred_usage_roll(&cu, t);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_QOS, 500),
				100 * (0.5 * 60 + 0.25 * 0 + 0.125 * 10) /
					(0.5 * 110 + 0.25 * 125 + 0.125 * 100),
				1e-12);
	ts_cred_usage_free(&cu);
}
END_TEST

START_TEST(missing_credential_keeps_category_sum)
{
	struct ts_cred_usage cu;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_cred_usage_init(&cu, 3600, 2, 1.0, T0, &err),
			 TS_OK);
	charge(&cu, 1, 1, 1, TS_CRED_ID_NONE, 3, 30, T0);
	charge(&cu, 2, 1, 1, 4, 3, 10, T0);
	ck_assert(maui_category_sum(&cu, TS_CRED_QOS, 0) == 40);
	ck_assert_double_eq_tol(
		ts_cred_usage_pct(&cu, TS_CRED_QOS, TS_CRED_ID_NONE), 75,
		1e-12);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_QOS, 4), 25,
				1e-12);
	ts_cred_usage_free(&cu);
}
END_TEST

START_TEST(bad_amount_charges_nothing)
{
	static const long double bad[] = { -1, NAN, INFINITY, -INFINITY };
	const struct ts_cred_ids ids = { { 1, 2, 3, 4, 5 } };
	struct ts_cred_usage cu;
	struct ts_error err = TS_ERROR_INIT;
	size_t i;
	int c;

	ck_assert_int_eq(ts_cred_usage_init(&cu, 3600, 2, 1.0, T0, &err),
			 TS_OK);
	charge(&cu, 1, 2, 3, 4, 5, 7, T0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ts_error_clear(&err);
		ck_assert_int_eq(
			ts_cred_usage_charge(&cu, &ids, bad[i], T0, &err),
			TS_EINVAL);
		ck_assert_msg(strstr(err.msg, "not a finite number >= 0"), "%s",
			      err.msg);
	}
	for (c = 0; c < TS_CRED_N; c++) {
		ck_assert(ts_windows_get_total(&cu.w[c], 0) == 7);
		ck_assert(ts_windows_get(&cu.w[c], ids.id[c], 0) == 7);
	}
	ts_cred_usage_free(&cu);
}
END_TEST

START_TEST(reconfigure_is_all_or_nothing)
{
	struct ts_cred_usage cu;
	struct ts_error err = TS_ERROR_INIT;
	int c;

	ck_assert_int_eq(ts_cred_usage_init(&cu, 3600, 4, 0.5, T0, &err),
			 TS_OK);
	sample_file_jobs(&cu);
	/* depth 0 is out of range: every type keeps 3600 s x 4, decay .5 */
	ck_assert_int_eq(
		ts_cred_usage_reconfigure(&cu, 7200, 0, 0.9, T0 + 100, &err),
		TS_ERANGE);
	for (c = 0; c < TS_CRED_N; c++) {
		ck_assert_uint_eq(cu.w[c].interval, 3600);
		ck_assert_uint_eq(cu.w[c].depth, 4);
		ck_assert(cu.w[c].decay == 0.5);
		ck_assert(ts_windows_get_total(&cu.w[c], 0) == 600000);
	}
	ts_error_clear(&err);
	ck_assert_int_eq(
		ts_cred_usage_reconfigure(&cu, 7200, 8, 0.9, T0 + 100, &err),
		TS_OK);
	for (c = 0; c < TS_CRED_N; c++) {
		ck_assert_uint_eq(cu.w[c].interval, 7200);
		ck_assert_uint_eq(cu.w[c].depth, 8);
		ck_assert(cu.w[c].decay == 0.9);
		ck_assert(maui_category_sum(&cu, c, 0) == 600000);
	}
	ts_cred_usage_free(&cu);
}
END_TEST

/* Property: random jobs over rolling windows; each category, each window. */
START_TEST(random_jobs_every_category_sums_to_total_in_every_window)
{
	struct ts_cred_usage cu;
	struct ts_error err = TS_ERROR_INIT;
	int64_t t = T0;
	unsigned seed = 27;
	uint32_t k;
	int j, c;

	ck_assert_int_eq(ts_cred_usage_init(&cu, 600, 6, 0.7, t, &err), TS_OK);
	for (j = 0; j < 2000; j++) {
		struct ts_cred_ids ids;

		for (c = 0; c < TS_CRED_N; c++)
			ids.id[c] = (uint32_t)(rand_r(&seed) % 40);
		if (rand_r(&seed) % 10 == 0)
			ids.id[TS_CRED_QOS] = TS_CRED_ID_NONE;
		t += rand_r(&seed) % 20;
		ck_assert_int_eq(ts_cred_usage_charge(&cu, &ids,
						      rand_r(&seed) % 1000, t,
						      &err),
				 TS_OK);
	}
	for (c = 0; c < TS_CRED_N; c++) {
		double pct = 0;
		size_t s;

		for (k = 0; k < cu.w[c].depth; k++)
			ck_assert(maui_category_sum(&cu, c, k) ==
				  ts_windows_get_total(&cu.w[c], k));
		for (s = 0; s < cu.w[c].n; s++)
			pct += ts_cred_usage_pct(&cu, c, cu.w[c].id[s]);
		ck_assert_double_eq_tol(pct, 100, 1e-9);
	}
	ts_cred_usage_free(&cu);
}
END_TEST

/*
 * A partition's id is FNV-1a (64 bits, folded): the same in every build
 * and restart.  Values from an independent implementation (Python:
 * h = 0xcbf29ce484222325; for c: h ^= c; h *= 0x100000001b3 mod 2^64;
 * id = (h ^ h >> 32) mod 2^32); no name gives TS_CRED_ID_NONE.
 */
START_TEST(class_id_is_the_folded_fnv1a_of_the_partition_name)
{
	ck_assert_uint_eq(ts_cred_class_id("gpu"), 0x2fc2accdu);
	ck_assert_uint_eq(ts_cred_class_id("cpu"), 0xf91beed0u);
	ck_assert_uint_eq(ts_cred_class_id("debug"), 0x72a1170du);
	ck_assert_uint_eq(ts_cred_class_id("a"), 0x296230c0u);
	ck_assert_uint_eq(ts_cred_class_id(NULL), TS_CRED_ID_NONE);
	ck_assert_uint_eq(ts_cred_class_id(""), TS_CRED_ID_NONE);
}
END_TEST

/*
 * Half-life (no usage_window): a decay scales every credential and every
 * total alike, so shares hold; a new charge then counts in full against
 * the decayed past, as Slurm's usage_raw does (1 job of 100 then, after a
 * half-life, 100 more: 50 + 100 of 50 + 300 + 100).  Bad factors are
 * ignored, and nothing ever rolls.
 */
START_TEST(half_life_scales_every_credential_alike)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_cred_usage cu;
	int c;

	ck_assert_int_eq(ts_cred_usage_init_half_life(&cu, T0, &err), TS_OK);
	ck_assert(ts_cred_usage_half_life(&cu));
	charge(&cu, USERA, GROUPA, ACCTA, 1, 7, 100, T0);
	charge(&cu, USERB, GROUPA, ACCTB, 1, 8, 300, T0);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_USER, USERA), 25,
				1e-12);
	ts_cred_usage_scale(&cu, 0.5);
	ts_cred_usage_scale(&cu, NAN);
	ts_cred_usage_scale(&cu, -1);
	ts_cred_usage_scale(&cu, 2);
	for (c = 0; c < TS_CRED_N; c++)
		ck_assert(ts_windows_get_total(&cu.w[c], 0) == 200);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_CLASS, 7), 25,
				1e-12);
	charge(&cu, USERA, GROUPA, ACCTA, 1, 7, 100, T0 + 100 * (int64_t)DAY2);
	ts_cred_usage_roll(&cu, T0 + 200 * (int64_t)DAY2);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_USER, USERA),
				100.0 * 150 / 300, 1e-12);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_GROUP, GROUPA),
				100, 1e-12);
	ts_cred_usage_free(&cu);
}
END_TEST

/*
 * From windows to half-life and back, each credential keeps the share
 * fair share saw: its decay-weighted usage over the weighted total.
 * Windows of decay 0.5: USERA 10 now and 20 a window ago of totals 40
 * and 40: (10 + 10) / (40 + 20) = 33.33 %.
 */
START_TEST(convert_keeps_the_weighted_share)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_cred_usage cu;

	ck_assert_int_eq(ts_cred_usage_init(&cu, DAY2, 3, 0.5, T0, &err),
			 TS_OK);
	charge(&cu, USERA, GROUPA, ACCTA, 1, 7, 20, T0);
	charge(&cu, USERB, GROUPA, ACCTA, 1, 7, 20, T0);
	charge(&cu, USERA, GROUPA, ACCTA, 1, 7, 10, T0 + DAY2);
	charge(&cu, USERB, GROUPA, ACCTA, 1, 7, 30, T0 + DAY2);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_USER, USERA),
				100.0 / 3, 1e-12);
	ck_assert(!ts_cred_usage_half_life(&cu));

	ck_assert_int_eq(ts_cred_usage_convert(&cu, TS_CRED_HALF_LIFE_INTERVAL,
					       1, 1.0, T0 + DAY2, &err),
			 TS_OK);
	ck_assert(ts_cred_usage_half_life(&cu));
	ck_assert(ts_windows_get(&cu.w[TS_CRED_USER], USERA, 0) == 20);
	ck_assert(ts_windows_get_total(&cu.w[TS_CRED_QOS], 0) == 60);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_USER, USERA),
				100.0 / 3, 1e-12);

	ck_assert_int_eq(
		ts_cred_usage_convert(&cu, 3600, 4, 1.0, T0 + DAY2, &err),
		TS_OK);
	ck_assert(!ts_cred_usage_half_life(&cu));
	ck_assert_uint_eq(cu.w[TS_CRED_CLASS].depth, 4);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_USER, USERA),
				100.0 / 3, 1e-12);
	ck_assert_int_eq(ts_cred_usage_convert(&cu, 0, 4, 1.0, T0, &err),
			 TS_ERANGE);
	ck_assert_uint_eq(cu.w[TS_CRED_CLASS].depth, 4);
	ts_cred_usage_free(&cu);
}
END_TEST

Suite *suite_credential_usage(void)
{
	Suite *s = suite_create("credential_usage");
	TCase *tc = tcase_create("windows");

	tcase_add_test(tc, seed003_data_file_every_category_sums_to_total);
	tcase_add_test(tc, class_id_is_the_folded_fnv1a_of_the_partition_name);
	tcase_add_test(tc, seed003_john_is_decay_weighted_in_every_type);
	tcase_add_test(tc, missing_credential_keeps_category_sum);
	tcase_add_test(tc, bad_amount_charges_nothing);
	tcase_add_test(tc, reconfigure_is_all_or_nothing);
	tcase_add_test(
		tc, random_jobs_every_category_sums_to_total_in_every_window);
	tcase_add_test(tc, half_life_scales_every_credential_alike);
	tcase_add_test(tc, convert_keeps_the_weighted_share);
	suite_add_tcase(s, tc);
	return s;
}
