/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Maui usage windows (seed 003): adding, rolling, decay, reconfigure. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "windows.h"

#define HALF_DAY 43200u
#define BASE	 INT64_C(1700006400) /* 2023-11-15T00:00:00Z, % 43200 == 0 */
#define JOHN	 7u
#define OTHERS	 8u

/* Charge an association and the total, as the plugin does per job. */
static void charge(struct ts_windows *w, uint32_t id, long double amount,
		   int64_t now)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_windows_add(w, id, amount, now, &err), TS_OK);
	ck_assert_int_eq(ts_windows_add_total(w, amount, now, &err), TS_OK);
}

/*
 * Seed 003's John, fed window by window from the oldest: John 50, 10, 0,
 * 60 of totals 150, 100, 125, 110 (others use the rest), each added at a
 * time inside its 12-hour window, so the adds themselves roll.
 */
static void john_windows(struct ts_windows *w, double decay)
{
	static const long double john[4] = { 50, 10, 0, 60 };
	static const long double total[4] = { 150, 100, 125, 110 };
	struct ts_error err = TS_ERROR_INIT;
	int i;

	ck_assert_int_eq(
		ts_windows_init(w, HALF_DAY, 4, decay, BASE + 17, 0, &err),
		TS_OK);
	ck_assert_int_ge(ts_windows_add_assoc(w, JOHN, &err), 0);
	ck_assert_int_ge(ts_windows_add_assoc(w, OTHERS, &err), 0);
	for (i = 0; i < 4; i++) {
		int64_t t = BASE + (int64_t)i * HALF_DAY;

		charge(w, JOHN, john[i] / 2, t + 600);
		charge(w, OTHERS, total[i] - john[i], t + 3600);
		charge(w, JOHN, john[i] / 2, t + HALF_DAY - 1);
	}
}

/* A time inside John's window 0, [BASE + 129600, BASE + 172800). */
#define JOHN_NOW (BASE + 3 * HALF_DAY + 5000)

/* John's windows reconfigured at JOHN_NOW; line gets the log line. */
static void john_reconfigured(struct ts_windows *w, uint32_t interval,
			      uint32_t depth, double decay,
			      struct ts_windows_change *chg, char *line,
			      size_t len)
{
	struct ts_error err = TS_ERROR_INIT;

	john_windows(w, 0.5);
	ck_assert_int_eq(ts_windows_reconfigure(w, interval, depth, decay,
						JOHN_NOW, chg, &err),
			 TS_OK);
	ts_windows_describe_change(chg, line, len);
}

/*
 * Usage = (60 + .5*0 + .25*10 + .125*50) / (110 + .5*125 + .25*100
 *         + .125*150) = 68.75 / 216.25 = 0.31791907514450867
 */
START_TEST(john_example_gives_68_75_over_216_25_through_add_and_roll)
{
	struct ts_windows w;

	john_windows(&w, 0.5);
	ck_assert(ts_windows_get(&w, JOHN, 0) == 60);
	ck_assert(ts_windows_get(&w, JOHN, 1) == 0);
	ck_assert(ts_windows_get(&w, JOHN, 2) == 10);
	ck_assert(ts_windows_get(&w, JOHN, 3) == 50);
	ck_assert(ts_windows_get_total(&w, 0) == 110);
	ck_assert(ts_windows_get_total(&w, 3) == 150);
	ck_assert(ts_windows_weighted(&w, JOHN) == 68.75L);
	ck_assert(ts_windows_weighted_total(&w) == 216.25L);
	ck_assert_double_eq_tol(ts_windows_usage(&w, JOHN), 0.3179190751445087,
				1e-15);
	ts_windows_free(&w);
}
END_TEST

/*
 * The weighted sums plug into the flat tree as raw usage, root = total,
 * so John's usage relative to the root is seed 003's Usage.
 */
START_TEST(fill_tree_makes_usage_over_root_seed_003_ratio)
{
	struct ts_windows w;
	struct ts_tree t;
	struct ts_error err = TS_ERROR_INIT;
	long root, acct, john, ghost;

	john_windows(&w, 0.5);
	ck_assert_int_eq(ts_tree_init(&t, 0, &err), TS_OK);
	root = ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 0, 1, &err);
	acct = ts_tree_add(&t, root, "a", 0, 1, 0, 2, &err);
	john = ts_tree_add(&t, acct, "john", 1, 1, 0, JOHN, &err);
	ghost = ts_tree_add(&t, acct, "new", 1, 1, 0, 99, &err);
	ts_windows_fill_tree(&w, &t);
	ck_assert(t.usage[root] == 216.25L);
	ck_assert(t.usage[john] == 68.75L);
	ck_assert(t.usage[ghost] == 0);
	ck_assert_double_eq_tol((double)(t.usage[john] / t.usage[root]),
				68.75 / 216.25, 1e-15);
	ts_tree_free(&t);
	ts_windows_free(&w);
}
END_TEST

START_TEST(decay_one_is_the_plain_sum_of_all_windows)
{
	struct ts_windows w;

	john_windows(&w, 1.0);
	ck_assert(ts_windows_weighted(&w, JOHN) == 120);
	ck_assert(ts_windows_weighted_total(&w) == 485);
	ck_assert_double_eq_tol(ts_windows_usage(&w, JOHN), 120.0 / 485.0,
				1e-15);
	ts_windows_free(&w);
}
END_TEST

START_TEST(decay_zero_counts_only_the_current_window)
{
	struct ts_windows w;

	john_windows(&w, 0.0);
	ck_assert(ts_windows_weighted(&w, JOHN) == 60);
	ck_assert(ts_windows_weighted_total(&w) == 110);
	ts_windows_free(&w);
}
END_TEST

START_TEST(zero_totals_give_usage_zero_not_nan)
{
	struct ts_windows w;
	struct ts_error err = TS_ERROR_INIT;
	double u;

	ck_assert_int_eq(ts_windows_init(&w, 60, 3, 0.5, 1000, 0, &err), TS_OK);
	ck_assert_int_ge(ts_windows_add_assoc(&w, 1, &err), 0);
	u = ts_windows_usage(&w, 1);
	ck_assert(!isnan(u));
	ck_assert(u == 0.0);
	/* Usage without any total (a caller bug) still gives no NaN/inf. */
	ck_assert_int_eq(ts_windows_add(&w, 1, 5, 1000, &err), TS_OK);
	ck_assert(ts_windows_usage(&w, 1) == 0.0);
	ck_assert(ts_windows_usage(&w, 12345) == 0.0);
	ts_windows_free(&w);
}
END_TEST

/*
 * Seed 003's table of window contributions, in percent, as printed.  The
 * printed figures are rounded inconsistently (0.75^4 = 31.6 shows as 31,
 * 0.75^7 = 13.3 as 12), so each must lie within 1.5 points of the
 * computed contribution, which itself must be D^k exactly.
 */
START_TEST(decay_contributions_match_seed_003_table)
{
	static const double decay[4] = { 1.0, 0.8, 0.75, 0.5 };
	static const int table[4][8] = {
		{ 100, 100, 100, 100, 100, 100, 100, 100 },
		{ 100, 80, 64, 51, 41, 33, 26, 21 },
		{ 100, 75, 56, 42, 31, 23, 17, 12 },
		{ 100, 50, 25, 13, 6, 3, 2, 1 },
	};
	int d, k;

	for (d = 0; d < 4; d++) {
		for (k = 0; k < 8; k++) {
			struct ts_windows w;
			struct ts_error err = TS_ERROR_INIT;
			int64_t now = BASE + 30;
			long double share;
			int i;

			ck_assert_int_eq(ts_windows_init(&w, 3600, 8, decay[d],
							 now, 0, &err),
					 TS_OK);
			ck_assert_int_ge(ts_windows_add_assoc(&w, 1, &err), 0);
			/* 100 units in window k only, then k rolls. */
			charge(&w, 1, 100, now);
			for (i = 0; i < k; i++)
				ck_assert_int_eq(
					ts_windows_roll(&w,
							now + (i + 1) * 3600),
					1);
			share = ts_windows_weighted(&w, 1);
			ck_assert_double_eq_tol((double)share,
						100 * pow(decay[d], k), 1e-9);
			ck_assert_double_le(fabs((double)share - table[d][k]),
					    1.5);
			ts_windows_free(&w);
		}
	}
}
END_TEST

START_TEST(boundaries_are_multiples_of_interval_since_epoch)
{
	struct ts_windows a, b;
	struct ts_error err = TS_ERROR_INIT;
	uint32_t k;

	/* Two starts inside the same window land on the same bounds. */
	ck_assert_int_eq(ts_windows_init(&a, HALF_DAY, 4, 1, BASE + 1, 0, &err),
			 TS_OK);
	ck_assert_int_eq(ts_windows_init(&b, HALF_DAY, 4, 1,
					 BASE + HALF_DAY - 1, 0, &err),
			 TS_OK);
	for (k = 0; k <= 4; k++) {
		ck_assert_int_eq(a.bound[k], b.bound[k]);
		ck_assert_int_eq(a.bound[k] % HALF_DAY, 0);
	}
	ck_assert_int_eq(a.bound[0], BASE + HALF_DAY);
	ck_assert_int_eq(a.bound[1], BASE);
	ts_windows_free(&a);
	ts_windows_free(&b);
}
END_TEST

START_TEST(roll_at_one_boundary_shifts_every_window_once)
{
	struct ts_windows w;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_windows_init(&w, 100, 3, 1, 1050, 0, &err), TS_OK);
	ck_assert_int_ge(ts_windows_add_assoc(&w, 5, &err), 0);
	charge(&w, 5, 7, 1050);
	/* Still inside [1000, 1100): nothing rolls. */
	ck_assert_int_eq(ts_windows_roll(&w, 1099), 0);
	ck_assert_int_eq(ts_windows_roll(&w, 1100), 1);
	ck_assert(ts_windows_get(&w, 5, 0) == 0);
	ck_assert(ts_windows_get(&w, 5, 1) == 7);
	ck_assert(ts_windows_get_total(&w, 1) == 7);
	ck_assert_int_eq(w.bound[0], 1200);
	ck_assert_int_eq(w.bound[1], 1100);
	ck_assert_int_eq(w.bound[2], 1000);
	ck_assert_int_eq(w.bound[3], 900);
	ts_windows_free(&w);
}
END_TEST

START_TEST(roll_after_downtime_skips_empty_windows_and_ages_out)
{
	struct ts_windows w;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_windows_init(&w, 100, 4, 1, 1050, 0, &err), TS_OK);
	ck_assert_int_ge(ts_windows_add_assoc(&w, 5, &err), 0);
	charge(&w, 5, 7, 1050);
	/* Down from 1050 to 1320: windows 1100 and 1200 passed empty. */
	ck_assert_int_eq(ts_windows_roll(&w, 1320), 3);
	ck_assert(ts_windows_get(&w, 5, 0) == 0);
	ck_assert(ts_windows_get(&w, 5, 1) == 0);
	ck_assert(ts_windows_get(&w, 5, 2) == 0);
	ck_assert(ts_windows_get(&w, 5, 3) == 7);
	ck_assert_int_eq(w.bound[0], 1400);
	ck_assert_int_eq(w.bound[3], 1100);
	ck_assert_int_eq(w.bound[4], 1000);
	/* Down longer than depth windows: everything has aged out. */
	ck_assert_int_eq(ts_windows_roll(&w, 1000000),
			 (1000000 - 1400) / 100 + 1);
	ck_assert(ts_windows_weighted(&w, 5) == 0);
	ck_assert(ts_windows_weighted_total(&w) == 0);
	ck_assert_int_eq(w.bound[0], 1000100);
	ck_assert_int_eq(w.bound[4], 1000100 - 400);
	ts_windows_free(&w);
}
END_TEST

START_TEST(clock_stepped_back_charges_current_window_and_rolls_nothing)
{
	struct ts_windows w;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_windows_init(&w, 100, 2, 1, 1050, 0, &err), TS_OK);
	ck_assert_int_ge(ts_windows_add_assoc(&w, 5, &err), 0);
	ck_assert_int_eq(ts_windows_roll(&w, 900), 0);
	charge(&w, 5, 3, 900);
	ck_assert(ts_windows_get(&w, 5, 0) == 3);
	ck_assert_int_eq(w.bound[0], 1100);
	ts_windows_free(&w);
}
END_TEST

/*
 * A late charge (usage up to a boundary, reported after another charge
 * rolled past it) lands in the kept window holding its time; a time
 * before every kept window charges window 0, as ts_windows_add() does.
 */
START_TEST(add_at_charges_the_older_window_holding_the_time)
{
	struct ts_windows w;
	struct ts_error err = TS_ERROR_INIT;

	/* windows [900,1000) [1000,1100) [1100,1200), now 1150 */
	ck_assert_int_eq(ts_windows_init(&w, 100, 3, 1, 1150, 0, &err), TS_OK);
	ck_assert_int_ge(ts_windows_add_assoc(&w, 5, &err), 0);
	ck_assert_int_eq(ts_windows_add_at(&w, 5, 2, 1199, &err), TS_OK);
	/* rolls to [1200,1300) first, then a charge at 1199 */
	ck_assert_int_eq(ts_windows_add_at(&w, 5, 3, 1250, &err), TS_OK);
	ck_assert_int_eq(ts_windows_add_at(&w, 5, 7, 1199, &err), TS_OK);
	ck_assert_int_eq(ts_windows_add_total_at(&w, 7, 1100, &err), TS_OK);
	ck_assert_int_eq(ts_windows_add_total_at(&w, 1, 1000, &err), TS_OK);
	ck_assert(ts_windows_get(&w, 5, 0) == 3);
	ck_assert(ts_windows_get(&w, 5, 1) == 9);
	ck_assert(ts_windows_get_total(&w, 1) == 7);
	ck_assert(ts_windows_get_total(&w, 2) == 1);
	/* before every kept window ([1000,1300)): window 0 */
	ck_assert_int_eq(ts_windows_add_at(&w, 5, 4, 999, &err), TS_OK);
	ck_assert(ts_windows_get(&w, 5, 0) == 7);
	ck_assert_int_eq(w.bound[0], 1300);
	ck_assert_int_eq(ts_windows_add_at(&w, 9, 1, 1250, &err), TS_ENOENT);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_windows_add_at(&w, 5, -1, 1250, &err), TS_EINVAL);
	ts_windows_free(&w);
}
END_TEST

/*
 * ts_windows_charge_slot_at() is ts_windows_add_at() and
 * ts_windows_add_total_at() at once: two windows fed the same random
 * charges (times late, current and ahead, so that some roll) the one
 * way and the other hold the same sums, bit for bit.
 */
START_TEST(charge_slot_at_is_add_at_and_add_total_at)
{
	struct ts_windows a, b;
	struct ts_error err = TS_ERROR_INIT;
	unsigned seed = 824;
	int64_t now = 10000;
	long slot_a, slot_b;
	uint32_t id, k;
	int i;

	ck_assert_int_eq(ts_windows_init(&a, 100, 4, 0.5, now, 0, &err), TS_OK);
	ck_assert_int_eq(ts_windows_init(&b, 100, 4, 0.5, now, 0, &err), TS_OK);
	for (i = 0; i < 2000; i++) {
		long double amount = (long double)(rand_r(&seed) % 1000) / 7;
		int64_t t = now - 450 + rand_r(&seed) % 500;

		id = 1 + rand_r(&seed) % 20;
		if (t > now)
			now = t;
		ck_assert_int_ge(slot_a = ts_windows_add_assoc(&a, id, &err),
				 0);
		ck_assert_int_ge(slot_b = ts_windows_add_assoc(&b, id, &err),
				 0);
		ck_assert_int_eq(slot_a, slot_b);
		ck_assert_int_eq(ts_windows_add_at(&a, id, amount, t, &err),
				 TS_OK);
		ck_assert_int_eq(ts_windows_add_total_at(&a, amount, t, &err),
				 TS_OK);
		ts_windows_charge_slot_at(&b, slot_b, amount, t);
	}
	ck_assert_int_eq(a.bound[0], b.bound[0]);
	ck_assert_int_gt(a.bound[0], 10100); /* it rolled */
	for (k = 0; k < 4; k++) {
		long double x = ts_windows_get_total(&a, k),
			    y = ts_windows_get_total(&b, k);

		ck_assert(!memcmp(&x, &y, 10));
		for (id = 1; id <= 20; id++) {
			x = ts_windows_get(&a, id, k);
			y = ts_windows_get(&b, id, k);
			ck_assert_msg(!memcmp(&x, &y, 10), "id %u window %u",
				      id, k);
		}
	}
	ts_windows_free(&a);
	ts_windows_free(&b);
}
END_TEST

START_TEST(add_rejects_unknown_association_and_bad_amounts)
{
	struct ts_windows w;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_windows_init(&w, 60, 2, 1, 0, 0, &err), TS_OK);
	ck_assert_int_eq(ts_windows_add(&w, 3, 1, 0, &err), TS_ENOENT);
	ck_assert_str_eq(err.msg, "association 3 has no usage windows");
	ck_assert_int_ge(ts_windows_add_assoc(&w, 3, &err), 0);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_windows_add(&w, 3, NAN, 0, &err), TS_EINVAL);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_windows_add(&w, 3, -1, 0, &err), TS_EINVAL);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_windows_add_total(&w, INFINITY, 0, &err),
			 TS_EINVAL);
	ck_assert(ts_windows_weighted(&w, 3) == 0);
	ck_assert(ts_windows_weighted_total(&w) == 0);
	ts_windows_free(&w);
}
END_TEST

START_TEST(init_rejects_parameters_out_of_range_naming_the_key)
{
	struct ts_windows w;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_windows_init(&w, 0, 4, 0.5, 0, 0, &err), TS_ERANGE);
	ck_assert_str_eq(err.msg, "usage_window 0 s out of range (>= 1 s)");
	ts_error_clear(&err);
	ck_assert_int_eq(ts_windows_init(&w, 60, 0, 0.5, 0, 0, &err),
			 TS_ERANGE);
	ck_assert_str_eq(err.msg, "usage_depth 0 out of range 1..1024");
	ts_error_clear(&err);
	ck_assert_int_eq(ts_windows_init(&w, 60, 1025, 0.5, 0, 0, &err),
			 TS_ERANGE);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_windows_init(&w, 60, 4, 1.5, 0, 0, &err),
			 TS_ERANGE);
	ck_assert_str_eq(err.msg, "usage_decay 1.5 out of range 0..1");
	ts_error_clear(&err);
	ck_assert_int_eq(ts_windows_init(&w, 60, 4, NAN, 0, 0, &err),
			 TS_ERANGE);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_windows_init(&w, 60, 4, 0.5, -1, 0, &err),
			 TS_ERANGE);
}
END_TEST

/*
 * 43200 -> 3600 s at BASE + 4 windows + 5000 s: window 0 started at
 * BASE + 129600 and now ends at the next multiple of 3600 after now,
 * BASE + 136800; the four 12-hour windows roll out with the fourth roll
 * of the new length, at BASE + 136800 + 3 * 3600.
 */
START_TEST(window_length_change_ends_current_at_new_boundary_and_rolls_out)
{
	struct ts_windows w;
	struct ts_windows_change chg;
	int64_t end = BASE + 136800;
	char line[256];
	int i;

	john_reconfigured(&w, 3600, 4, 0.5, &chg, line, sizeof(line));
	/* Data is kept as it was. */
	ck_assert(ts_windows_weighted(&w, JOHN) == 68.75L);
	ck_assert_int_eq(w.bound[0], end);
	ck_assert_int_eq(w.bound[1], BASE + 3 * HALF_DAY);
	ck_assert_int_eq(chg.current_end, end);
	ck_assert_uint_eq(chg.rollout, 4);
	ck_assert_int_eq(chg.rollout_by, end + 3 * 3600);
	ck_assert_str_eq(line, "usage_window changed 43200 -> 3600 s: 4 "
			       "windows of 43200 s roll out by "
			       "2023-11-16T17:00:00Z");

	/* New windows are 3600 s long; the old ones leave one a roll. */
	ck_assert_int_eq(ts_windows_roll(&w, end), 1);
	ck_assert_int_eq(w.bound[0], end + 3600);
	ck_assert(ts_windows_get(&w, JOHN, 1) == 60);
	ck_assert(ts_windows_get(&w, JOHN, 3) == 10);
	for (i = 1; i < 3; i++)
		ck_assert_int_eq(ts_windows_roll(&w, end + i * 3600), 1);
	ck_assert(ts_windows_get(&w, JOHN, 3) == 60);
	ck_assert_int_eq(ts_windows_roll(&w, chg.rollout_by), 1);
	ck_assert(ts_windows_weighted(&w, JOHN) == 0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(w.bound[i] - w.bound[i + 1], 3600);
	ts_windows_free(&w);
}
END_TEST

START_TEST(longer_window_extends_current_window_to_its_boundary)
{
	struct ts_windows w;
	struct ts_windows_change chg;
	struct ts_error err = TS_ERROR_INIT;

	/* 3600 s windows at 10:30; 43200 s makes window 0 end at noon. */
	ck_assert_int_eq(ts_windows_init(&w, 3600, 3, 1, BASE + 37800, 0, &err),
			 TS_OK);
	ck_assert_int_eq(ts_windows_reconfigure(&w, HALF_DAY, 3, 1,
						BASE + 37800, &chg, &err),
			 TS_OK);
	ck_assert_int_eq(w.bound[0], BASE + HALF_DAY);
	ck_assert_int_eq(w.bound[1], BASE + 36000);
	ck_assert_uint_eq(chg.rollout, 3);
	ck_assert_int_eq(chg.rollout_by, BASE + HALF_DAY + 2 * HALF_DAY);
	ts_windows_free(&w);
}
END_TEST

START_TEST(depth_growth_keeps_data_and_adds_empty_older_windows)
{
	struct ts_windows w;
	struct ts_windows_change chg;
	char line[256];

	john_reconfigured(&w, HALF_DAY, 6, 0.5, &chg, line, sizeof(line));
	ck_assert_uint_eq(w.depth, 6);
	ck_assert(ts_windows_get(&w, JOHN, 3) == 50);
	ck_assert(ts_windows_get(&w, JOHN, 4) == 0);
	ck_assert(ts_windows_get(&w, OTHERS, 0) == 50);
	ck_assert(ts_windows_weighted(&w, JOHN) == 68.75L);
	ck_assert(ts_windows_weighted_total(&w) == 216.25L);
	ck_assert_int_eq(w.bound[6], BASE - 2 * (int64_t)HALF_DAY);
	ck_assert_uint_eq(chg.dropped, 0);
	ck_assert_str_eq(line,
			 "usage_depth changed 4 -> 6: 2 empty older windows "
			 "added");
	ts_windows_free(&w);
}
END_TEST

START_TEST(depth_shrink_drops_oldest_windows_and_says_so)
{
	struct ts_windows w;
	struct ts_windows_change chg;
	char line[256];

	john_reconfigured(&w, HALF_DAY, 2, 0.5, &chg, line, sizeof(line));
	/* John keeps 60 and 0 of totals 110 and 125. */
	ck_assert(ts_windows_weighted(&w, JOHN) == 60);
	ck_assert(ts_windows_weighted_total(&w) == 110 + 62.5L);
	ck_assert_uint_eq(chg.dropped, 2);
	ck_assert(chg.dropped_total == 250);
	ck_assert_str_eq(line, "usage_depth changed 4 -> 2: 2 oldest windows "
			       "dropped (total usage 250)");
	/* Adding and rolling still work on the new shape. */
	charge(&w, JOHN, 1, JOHN_NOW + HALF_DAY);
	ck_assert(ts_windows_get(&w, JOHN, 1) == 60);
	ck_assert(ts_windows_get(&w, JOHN, 0) == 1);
	ts_windows_free(&w);
}
END_TEST

START_TEST(decay_change_reweights_and_nothing_else_changes)
{
	struct ts_windows w;
	struct ts_windows_change chg;
	struct ts_error err = TS_ERROR_INIT;
	char line[256];

	john_reconfigured(&w, HALF_DAY, 4, 1.0, &chg, line, sizeof(line));
	ck_assert(ts_windows_weighted(&w, JOHN) == 120);
	ck_assert_str_eq(line, "usage_decay changed 0.5 -> 1");
	ck_assert_int_eq(ts_windows_reconfigure(&w, HALF_DAY, 4, 1.0, JOHN_NOW,
						&chg, &err),
			 TS_OK);
	ck_assert_int_eq(ts_windows_describe_change(&chg, line, sizeof(line)),
			 0);
	ck_assert_str_eq(line, "");
	ts_windows_free(&w);
}
END_TEST

START_TEST(remove_association_keeps_total_and_other_associations)
{
	struct ts_windows w;
	struct ts_error err = TS_ERROR_INIT;
	uint32_t id;

	ck_assert_int_eq(ts_windows_init(&w, 60, 2, 1, 0, 0, &err), TS_OK);
	for (id = 1; id <= 40; id++) {
		ck_assert_int_ge(ts_windows_add_assoc(&w, id, &err), 0);
		charge(&w, id, id, 10);
	}
	ck_assert_int_eq(ts_windows_remove_assoc(&w, 3), 1);
	ck_assert_int_eq(ts_windows_remove_assoc(&w, 3), 0);
	ck_assert_int_eq(ts_windows_slot(&w, 3), -1);
	ck_assert(ts_windows_weighted_total(&w) == 40 * 41 / 2);
	for (id = 1; id <= 40; id++)
		if (id != 3)
			ck_assert(ts_windows_weighted(&w, id) == id);
	ts_windows_free(&w);
}
END_TEST

/* Sparse ids (multiples of a prime); the table grows several times. */
START_TEST(ten_thousand_associations_each_keep_their_own_usage)
{
	struct ts_windows w;
	struct ts_error err = TS_ERROR_INIT;
	uint32_t i;
	long first;

	ck_assert_int_eq(ts_windows_init(&w, 60, 3, 0.5, 0, 0, &err), TS_OK);
	first = ts_windows_add_assoc(&w, 104729u, &err);
	ck_assert_int_eq(ts_windows_add_assoc(&w, 104729u, &err), first);
	for (i = 1; i <= 10000; i++)
		ck_assert_int_ge(ts_windows_add_assoc(&w, i * 104729u, &err),
				 0);
	ck_assert_uint_eq(w.n, 10000);
	for (i = 1; i <= 10000; i++)
		ck_assert_int_eq(ts_windows_add(&w, i * 104729u, i, 5, &err),
				 TS_OK);
	for (i = 1; i <= 10000; i++)
		ck_assert(ts_windows_get(&w, i * 104729u, 0) == i);
	ck_assert(ts_windows_get(&w, 104728u, 0) == 0);
	ts_windows_free(&w);
}
END_TEST

Suite *suite_windows(void)
{
	Suite *s = suite_create("windows");
	TCase *tc = tcase_create("windows");

	tcase_add_test(
		tc, john_example_gives_68_75_over_216_25_through_add_and_roll);
	tcase_add_test(tc, fill_tree_makes_usage_over_root_seed_003_ratio);
	tcase_add_test(tc, decay_one_is_the_plain_sum_of_all_windows);
	tcase_add_test(tc, decay_zero_counts_only_the_current_window);
	tcase_add_test(tc, zero_totals_give_usage_zero_not_nan);
	tcase_add_test(tc, decay_contributions_match_seed_003_table);
	tcase_add_test(tc, boundaries_are_multiples_of_interval_since_epoch);
	tcase_add_test(tc, roll_at_one_boundary_shifts_every_window_once);
	tcase_add_test(tc,
		       roll_after_downtime_skips_empty_windows_and_ages_out);
	tcase_add_test(
		tc,
		clock_stepped_back_charges_current_window_and_rolls_nothing);
	tcase_add_test(tc, add_at_charges_the_older_window_holding_the_time);
	tcase_add_test(tc, charge_slot_at_is_add_at_and_add_total_at);
	tcase_add_test(tc, add_rejects_unknown_association_and_bad_amounts);
	tcase_add_test(tc, init_rejects_parameters_out_of_range_naming_the_key);
	tcase_add_test(
		tc,
		window_length_change_ends_current_at_new_boundary_and_rolls_out);
	tcase_add_test(tc,
		       longer_window_extends_current_window_to_its_boundary);
	tcase_add_test(tc,
		       depth_growth_keeps_data_and_adds_empty_older_windows);
	tcase_add_test(tc, depth_shrink_drops_oldest_windows_and_says_so);
	tcase_add_test(tc, decay_change_reweights_and_nothing_else_changes);
	tcase_add_test(tc,
		       remove_association_keeps_total_and_other_associations);
	tcase_add_test(tc, ten_thousand_associations_each_keep_their_own_usage);
	suite_add_tcase(s, tc);
	return s;
}
