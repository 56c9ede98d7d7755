/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Maui's fair-share component over a job's credentials (issue 27). */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "credential_fs.h"

#define DIFF  TS_FS_POLICY_DIFFERENCE
#define RATIO TS_FS_POLICY_RATIO

static double delta(enum ts_target_kind kind, double target, double usage,
		    enum ts_fs_policy policy)
{
	struct ts_target t = { kind, target, 0 };

	return ts_cred_delta(&t, usage, policy);
}

/*
 * Moab's worked example of the fair-share component (issue 27, from
 * Adaptive Computing's documentation): user A target 50 usage 45, group
 * B no target usage 65, account C target 25 usage 35, QOS D floor 10+
 * usage 25, class E no target usage 20; FSWEIGHT 100, FSUSERWEIGHT 10,
 * FSGROUPWEIGHT 20, FSACCOUNTWEIGHT 30, FSQOSWEIGHT 40, FSCLASSWEIGHT 0:
 * 100 x (10 x 5 + 20 x 0 + 30 x -10 + 40 x 0 + 0 x 0) = -25000.
 */
START_TEST(moab_example_gives_minus_25000)
{
	const struct ts_target user = { TS_TARGET_TARGET, 50, 0 };
	const struct ts_target account = { TS_TARGET_TARGET, 25, 0 };
	const struct ts_target qos = { TS_TARGET_FLOOR, 10, 0 };
	const struct ts_cred_term term[TS_CRED_N] = {
		[TS_CRED_USER] = { &user, DIFF, 45, 10 },
		[TS_CRED_GROUP] = { NULL, DIFF, 65, 20 },
		[TS_CRED_ACCOUNT] = { &account, DIFF, 35, 30 },
		[TS_CRED_QOS] = { &qos, DIFF, 25, 40 },
		[TS_CRED_CLASS] = { NULL, DIFF, 20, 0 },
	};
	const double want[TS_CRED_N] = { 5, 0, -10, 0, 0 };
	struct ts_cred_fs fs;
	int c;

	ts_cred_fs(term, 100, &fs);
	for (c = 0; c < TS_CRED_N; c++)
		ck_assert_msg(fs.delta[c] == want[c], "%s: delta %g, want %g",
			      ts_cred_name(c), fs.delta[c], want[c]);
	ck_assert(fs.sum == -250);
	ck_assert(fs.component == -25000);
	/*
	 * The factor: the targets' factors 0.525 (user), 0.45 (account)
	 * and 0.5 (the QOS floor, over it) weighted 10, 30, 40: 38.75 / 80;
	 * the same as 0.5 + sum / (200 x 80) under the difference policy.
	 */
	ck_assert_double_eq_tol(fs.factor, 0.484375, 1e-15);
	ck_assert_double_eq_tol(fs.factor, 0.5 + fs.sum / (200.0 * 80), 1e-15);
}
END_TEST

/* A cap counts only over its target, a floor only under it. */
START_TEST(cap_counts_only_over_floor_only_under)
{
	ck_assert(delta(TS_TARGET_TARGET, 20, 10, DIFF) == 10);
	ck_assert(delta(TS_TARGET_TARGET, 20, 30, DIFF) == -10);
	ck_assert(delta(TS_TARGET_CAP, 20, 10, DIFF) == 0);
	ck_assert(delta(TS_TARGET_CAP, 20, 30, DIFF) == -10);
	ck_assert(delta(TS_TARGET_FLOOR, 20, 10, DIFF) == 10);
	ck_assert(delta(TS_TARGET_FLOOR, 20, 30, DIFF) == 0);
	ck_assert(delta(TS_TARGET_TARGET, 20, 20, DIFF) == 0);
	ck_assert(ts_cred_delta(NULL, 80, DIFF) == 0);
}
END_TEST

/*
 * Maui's '%' policy: 1 - usage / target.  Target 20: usage 10 -> 0.5,
 * 40 -> -1, 20 -> 0; a cap and a floor as above; a target of 0 gives 0
 * with no usage and -100 with any (below 1 - 100 / 1 = -99).
 */
START_TEST(ratio_policy_is_one_minus_usage_over_target)
{
	ck_assert(delta(TS_TARGET_TARGET, 20, 10, RATIO) == 0.5);
	ck_assert(delta(TS_TARGET_TARGET, 20, 40, RATIO) == -1);
	ck_assert(delta(TS_TARGET_TARGET, 20, 20, RATIO) == 0);
	ck_assert(delta(TS_TARGET_CAP, 20, 10, RATIO) == 0);
	ck_assert(delta(TS_TARGET_CAP, 20, 40, RATIO) == -1);
	ck_assert(delta(TS_TARGET_FLOOR, 20, 10, RATIO) == 0.5);
	ck_assert(delta(TS_TARGET_FLOOR, 20, 40, RATIO) == 0);
	ck_assert(delta(TS_TARGET_TARGET, 0, 0, RATIO) == 0);
	ck_assert(delta(TS_TARGET_TARGET, 0, 0.001, RATIO) == -100);
	ck_assert(delta(TS_TARGET_TARGET, 1, 100, RATIO) == -99);
	ck_assert(delta(TS_TARGET_FLOOR, 0, 50, RATIO) == 0);
}
END_TEST

/* Every credential on its target: delta 0, sum 0, factor 0.5. */
START_TEST(all_on_target_is_half)
{
	const struct ts_target t20 = { TS_TARGET_TARGET, 20, 0 };
	const struct ts_target t5 = { TS_TARGET_CAP, 5, 0 };
	struct ts_cred_term term[TS_CRED_N] = {
		[TS_CRED_USER] = { &t20, DIFF, 20, 3 },
		[TS_CRED_GROUP] = { &t5, RATIO, 5, 7 },
		[TS_CRED_ACCOUNT] = { NULL, DIFF, 90, 11 },
		[TS_CRED_QOS] = { &t20, RATIO, 20, 2 },
		[TS_CRED_CLASS] = { &t5, DIFF, 5, 5 },
	};
	struct ts_cred_fs fs;

	ts_cred_fs(term, 1000, &fs);
	ck_assert(fs.sum == 0 && fs.component == 0);
	ck_assert(fs.factor == 0.5);
	/* No credential with a target and a weight: 0.5 whatever usage. */
	term[TS_CRED_USER].weight = term[TS_CRED_GROUP].weight = 0;
	term[TS_CRED_QOS].weight = term[TS_CRED_CLASS].weight = 0;
	term[TS_CRED_USER].usage_pct = 100;
	ts_cred_fs(term, 1000, &fs);
	ck_assert(fs.factor == 0.5 && fs.component == 0);
}
END_TEST

/*
 * Properties over random credentials: the factor is in [0,1] and does
 * not rise when any one credential's usage rises; the component falls
 * or stays (weights >= 0); both finite.
 */
START_TEST(factor_bounded_and_monotone_in_each_usage)
{
	static const enum ts_target_kind kinds[3] = { TS_TARGET_TARGET,
						      TS_TARGET_CAP,
						      TS_TARGET_FLOOR };
	struct ts_target tg[TS_CRED_N];
	struct ts_cred_term term[TS_CRED_N];
	unsigned seed = 27;
	int round, c, k;

	for (round = 0; round < 2000; round++) {
		for (c = 0; c < TS_CRED_N; c++) {
			tg[c].kind = kinds[rand_r(&seed) % 3];
			tg[c].percent = rand_r(&seed) % 101;
			tg[c].line = 0;
			term[c].target = rand_r(&seed) % 4 ? &tg[c] : NULL;
			term[c].policy = rand_r(&seed) % 2 ? RATIO : DIFF;
			term[c].usage_pct = rand_r(&seed) % 1001 / 10.0;
			term[c].weight = rand_r(&seed) % 50;
		}
		c = rand_r(&seed) % TS_CRED_N;
		for (k = 0; k < 10; k++) {
			struct ts_cred_fs lo, hi;

			ts_cred_fs(term, 100, &lo);
			term[c].usage_pct += 10;
			ts_cred_fs(term, 100, &hi);
			ck_assert(lo.factor >= 0 && lo.factor <= 1);
			ck_assert_msg(hi.factor <= lo.factor,
				      "round %d %s: factor %.17g -> %.17g",
				      round, ts_cred_name(c), lo.factor,
				      hi.factor);
			ck_assert(hi.component <= lo.component);
			ck_assert(isfinite(hi.component) && isfinite(hi.sum));
		}
	}
}
END_TEST

/* NaN usage counts as 0; non-finite weights as 0; huge ones stay finite. */
START_TEST(nan_and_infinite_inputs_stay_finite)
{
	const struct ts_target t = { TS_TARGET_TARGET, 30, 0 };
	struct ts_cred_term term[TS_CRED_N] = {
		[TS_CRED_USER] = { &t, DIFF, NAN, NAN },
		[TS_CRED_GROUP] = { &t, DIFF, 10, INFINITY },
		[TS_CRED_ACCOUNT] = { &t, RATIO, INFINITY, 4 },
		[TS_CRED_QOS] = { &t, DIFF, -5, DBL_MAX },
		[TS_CRED_CLASS] = { &t, DIFF, 0, DBL_MAX },
	};
	struct ts_cred_fs fs;
	int c;

	ck_assert(ts_cred_delta(&t, NAN, DIFF) == 30);
	ts_cred_fs(term, DBL_MAX, &fs);
	for (c = 0; c < TS_CRED_N; c++)
		ck_assert(isfinite(fs.delta[c]));
	ck_assert(isfinite(fs.sum) && isfinite(fs.component));
	ck_assert(fs.factor >= 0 && fs.factor <= 1);
	/* usage +inf is 100: ratio 1 - 100 / 30 */
	ck_assert_double_eq_tol(fs.delta[TS_CRED_ACCOUNT], 1 - 100 / 30.0,
				1e-15);
	ts_cred_fs(term, NAN, &fs);
	ck_assert(fs.component == 0);
}
END_TEST

Suite *suite_credential_fs(void)
{
	Suite *s = suite_create("credential_fs");
	TCase *tc = tcase_create("component");

	tcase_add_test(tc, moab_example_gives_minus_25000);
	tcase_add_test(tc, cap_counts_only_over_floor_only_under);
	tcase_add_test(tc, ratio_policy_is_one_minus_usage_over_target);
	tcase_add_test(tc, all_on_target_is_half);
	tcase_add_test(tc, factor_bounded_and_monotone_in_each_usage);
	tcase_add_test(tc, nan_and_infinite_inputs_stay_finite);
	suite_add_tcase(s, tc);
	return s;
}
