/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two orders compared (src/rank_compare.c): swapped pairs and Kendall's
 * tau-b, on cases worked by hand and against the definition pair by
 * pair (O(n^2)) on random keys with many ties.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "rank_compare.h"

static void compare(const double *a, const double *b, size_t n,
		    struct ts_rank_pairs *out)
{
	size_t *work = malloc((2 * n + 1) * sizeof(*work));

	ck_assert_ptr_nonnull(work);
	ts_rank_compare(a, b, n, work, out);
	free(work);
}

/*
 * Five jobs A..E, priorities under a baseline (a) and another
 * configuration (b).  By hand: of the 10 pairs, (B,C) and (D,E) are
 * ordered the other way, the other 8 the same: tau = (8 - 2) / 10.
 */
START_TEST(rank_two_swaps_of_five_by_hand)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 10, 30, 20, 50, 40 };
	struct ts_rank_pairs r;

	compare(a, b, 5, &r);
	ck_assert_uint_eq(r.pairs, 10);
	ck_assert_uint_eq(r.swapped, 2);
	ck_assert_uint_eq(r.concordant, 8);
	ck_assert_uint_eq(r.tied_a + r.tied_b, 0);
	ck_assert_double_eq_tol(r.tau_b, 0.6, 1e-15);
}
END_TEST

/* Reversed: every pair swapped, tau -1; the same order: tau 1. */
START_TEST(rank_reversed_and_equal_orders)
{
	const double a[] = { 4, 3, 2, 1 }, b[] = { 1, 2, 3, 4 };
	struct ts_rank_pairs r;

	compare(a, b, 4, &r);
	ck_assert_uint_eq(r.swapped, 6);
	ck_assert_double_eq(r.tau_b, -1);
	compare(a, a, 4, &r);
	ck_assert_uint_eq(r.swapped, 0);
	ck_assert_uint_eq(r.concordant, 6);
	ck_assert_double_eq(r.tau_b, 1);
}
END_TEST

/*
 * Ties by hand: a = (1, 1, 2, 3), b = (5, 6, 6, 4).  Pairs: (0,1) tied
 * in a; (1,2) tied in b; (0,2) concordant; (0,3), (1,3), (2,3) swapped.
 * tau-b = (1 - 3) / sqrt(5 * 5) = -0.4.  A pair tied in one order is
 * never counted as swapped.
 */
START_TEST(rank_ties_by_hand)
{
	const double a[] = { 1, 1, 2, 3 }, b[] = { 5, 6, 6, 4 };
	struct ts_rank_pairs r;

	compare(a, b, 4, &r);
	ck_assert_uint_eq(r.pairs, 6);
	ck_assert_uint_eq(r.tied_a, 1);
	ck_assert_uint_eq(r.tied_b, 1);
	ck_assert_uint_eq(r.tied_both, 0);
	ck_assert_uint_eq(r.concordant, 1);
	ck_assert_uint_eq(r.swapped, 3);
	ck_assert_double_eq_tol(r.tau_b, -0.4, 1e-15);
}
END_TEST

/* No pair to compare, or all tied: tau undefined, nothing swapped. */
START_TEST(rank_undefined_tau)
{
	const double a[] = { 7, 7, 7 }, b[] = { 1, 2, 3 };
	struct ts_rank_pairs r;

	compare(a, b, 3, &r);
	ck_assert_uint_eq(r.pairs, 3);
	ck_assert_uint_eq(r.tied_a, 3);
	ck_assert_uint_eq(r.swapped, 0);
	ck_assert(isnan(r.tau_b));
	compare(a, b, 1, &r);
	ck_assert_uint_eq(r.pairs, 0);
	ck_assert(isnan(r.tau_b));
	compare(a, b, 0, &r);
	ck_assert_uint_eq(r.pairs, 0);
}
END_TEST

/* Every count equals the definition's, pair by pair. */
START_TEST(rank_counts_are_the_definitions)
{
	unsigned seed = 30;
	int round;

	for (round = 0; round < 300; round++) {
		size_t n = (size_t)(rand_r(&seed) % 60), i, j;
		int spread = 1 + rand_r(&seed) % 12;
		double a[60], b[60];
		uint64_t sw = 0, co = 0, ta = 0, tb = 0, tab = 0;
		struct ts_rank_pairs r;

		for (i = 0; i < n; i++) {
			a[i] = rand_r(&seed) % spread;
			b[i] = rand_r(&seed) % spread - 0.5;
		}
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				double p = (a[i] - a[j]) * (b[i] - b[j]);

				sw += p < 0;
				co += p > 0;
				ta += a[i] == a[j];
				tb += b[i] == b[j];
				tab += a[i] == a[j] && b[i] == b[j];
			}
		compare(a, b, n, &r);
		ck_assert_uint_eq(r.swapped, sw);
		ck_assert_uint_eq(r.concordant, co);
		ck_assert_uint_eq(r.tied_a, ta);
		ck_assert_uint_eq(r.tied_b, tb);
		ck_assert_uint_eq(r.tied_both, tab);
		if (n > 1 && ta < r.pairs && tb < r.pairs) {
			double want = ((double)co - (double)sw) /
				      sqrt((double)(r.pairs - ta) *
					   (double)(r.pairs - tb));

			ck_assert_double_eq_tol(r.tau_b, want, 1e-12);
			ck_assert(r.tau_b >= -1 && r.tau_b <= 1);
		}
	}
}
END_TEST

Suite *suite_rank_compare(void)
{
	Suite *s = suite_create("rank_compare");
	TCase *tc = tcase_create("rank_compare");

	tcase_add_test(tc, rank_two_swaps_of_five_by_hand);
	tcase_add_test(tc, rank_reversed_and_equal_orders);
	tcase_add_test(tc, rank_ties_by_hand);
	tcase_add_test(tc, rank_undefined_tau);
	tcase_add_test(tc, rank_counts_are_the_definitions);
	suite_add_tcase(s, tc);
	return s;
}
