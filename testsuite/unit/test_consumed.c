/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_consumed.c - usage_metric=consumed: successive cycles' spans meet
 * end to end (each job charged once), and the amount charged.
 */
#include <check.h>
#include <math.h>

#include "consumed.h"

START_TEST(consumed_first_cycle_and_clock_back_charge_nothing)
{
	struct ts_consumed_span s;

	ck_assert(!ts_consumed_span(0, 1000, 60, &s));
	ck_assert(!ts_consumed_span(1000, 1000, 60, &s));
	ck_assert(!ts_consumed_span(1000, 900, 60, &s));
}
END_TEST

START_TEST(consumed_spans_of_successive_cycles_meet)
{
	/* Cycles at 1000, 1300, 1600 (PriorityCalcPeriod 5 min). */
	struct ts_consumed_span a, b;
	time_t end;
	int hits;

	ck_assert(ts_consumed_span(1000, 1300, 60, &a));
	ck_assert(ts_consumed_span(1300, 1600, 60, &b));
	ck_assert_int_eq(a.after, 940);
	ck_assert_int_eq(a.upto, 1240);
	ck_assert_int_eq(b.after, a.upto);
	/* Property: every end time falls in exactly one of them. */
	for (end = 941; end <= 1540; end++) {
		hits = ts_consumed_in_span(&a, end) +
		       ts_consumed_in_span(&b, end);
		ck_assert_int_eq(hits, 1);
	}
	ck_assert(!ts_consumed_in_span(&a, 940));
	ck_assert(!ts_consumed_in_span(&b, 1541));
	/* A job with no end yet is never charged. */
	ck_assert(!ts_consumed_in_span(&a, 0));
}
END_TEST

START_TEST(consumed_cpu_seconds_carry_microseconds)
{
	/* user 1.75 s + system 0.5 s, as slurmdbd sums them. */
	ck_assert_double_eq_tol(ts_consumed_cpu_seconds(1, 1250000), 2.25,
				1e-12);
	ck_assert_double_eq(ts_consumed_cpu_seconds(3600, 0), 3600.0);
}
END_TEST

START_TEST(consumed_charge_applies_factor_and_decay)
{
	/* No UsageFactor, no decay: the CPU seconds themselves. */
	ck_assert_double_eq(ts_consumed_charge(7200, -1, 1, 300), 7200);
	/* UsageFactor 0.5. */
	ck_assert_double_eq(ts_consumed_charge(7200, 0.5, 1, 0), 3600);
	/* One half-life old: half. */
	ck_assert_double_eq_tol(
		ts_consumed_charge(7200, 1, pow(0.5, 1.0 / 600), 600), 3600,
		1e-6);
}
END_TEST

Suite *suite_consumed(void)
{
	Suite *s = suite_create("consumed");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, consumed_first_cycle_and_clock_back_charge_nothing);
	tcase_add_test(tc, consumed_spans_of_successive_cycles_meet);
	tcase_add_test(tc, consumed_cpu_seconds_carry_microseconds);
	tcase_add_test(tc, consumed_charge_applies_factor_and_decay);
	suite_add_tcase(s, tc);
	return s;
}
