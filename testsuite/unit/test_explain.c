/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The arithmetic of sshare-ext --explain (src/explain.c): the
 * contributions sum to the priority slurmctld computes (priority.c) bit
 * for bit, the deciding factor, the age overtake time against a second
 * by second walk, the cap release time, the path from the root.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "explain.h"
#include "fs_trees.h"

/* A job's weighted factors: weights times normalised factors. */
static void random_factors(unsigned *seed, struct ts_prio_factors *f,
			   double *tres, size_t n)
{
	size_t i;

	f->age = 1000.0 * rand_r(seed) / RAND_MAX;
	f->assoc = 0.0;
	f->fs = 10000.0 * rand_r(seed) / RAND_MAX;
	f->js = 300.0 * rand_r(seed) / RAND_MAX;
	f->part = 1000.0 * rand_r(seed) / RAND_MAX;
	f->qos = 77.0 * rand_r(seed) / RAND_MAX;
	f->site = TS_PRIO_NICE_OFFSET + (uint32_t)(rand_r(seed) % 50);
	f->nice = TS_PRIO_NICE_OFFSET + (uint32_t)(rand_r(seed) % 100) - 50;
	for (i = 0; i < n; i++)
		tres[i] = (i % 3 == 1) ? 0.0 : 500.0 * rand_r(seed) / RAND_MAX;
	f->tres = tres;
}

/*
 * 10,000 random jobs: the explained sum is ts_prio_total()'s (the job's
 * priority) and ts_prio_part_total()'s (a partition's) bit for bit, the
 * TRES sum formed as the cycle forms it (ts_prio_tres_weigh()).
 */
START_TEST(explain_sum_is_slurmctld_priority)
{
	unsigned seed = 29;
	int k;

	for (k = 0; k < 10000; k++) {
		double tres[5], w[5] = { 1, 0, 1, 1, 0 }, t[5];
		struct ts_prio_factors f;
		struct ts_prio_config cfg = { .w_tres = w,
					      .tres_cnt = 5,
					      .w_part = 1 };
		struct ts_prio_part part = { .job_factor = 1 };
		double s;
		size_t i;

		random_factors(&seed, &f, tres, 5);
		for (i = 0; i < 5; i++)
			t[i] = tres[i];
		/* weights 1 and 0: the cycle's sum of these terms */
		s = ts_prio_tres_weigh(&cfg, t);
		ck_assert_uint_eq(
			ts_prio_clamp(ts_explain_ctld_sum(&f, tres, 5, 0),
				      NULL),
			ts_prio_total(&f, s, NULL));
		part.norm = f.part;
		ck_assert_uint_eq(
			ts_prio_clamp(ts_explain_ctld_sum(&f, tres, 5, 1),
				      NULL),
			ts_prio_part_total(&cfg, &f, &part, s, NULL));
		ck_assert(ts_explain_ctld_sum(&f, tres, 5, 0) ==
			  ts_prio_sum(&f, s));
	}
}
END_TEST

/*
 * By hand: age 250.5 + fs 2500.25 + js 100 + partition 1000 + QOS 0 +
 * site 7 - nice 10 + TRES 40 + 0.125 = 3887.875: slurmctld 3887, sprio
 * the same; terms that cancel below 1 give 1 in both.
 */
START_TEST(explain_sum_by_hand)
{
	double tres[2] = { 40.0, 0.125 };
	struct ts_prio_factors f = {
		.age = 250.5,
		.fs = 2500.25,
		.js = 100.0,
		.part = 1000.0,
		.site = TS_PRIO_NICE_OFFSET + 7,
		.nice = TS_PRIO_NICE_OFFSET + 10,
	};

	ck_assert_double_eq(ts_explain_ctld_sum(&f, tres, 2, 0), 3887.875);
	ck_assert_uint_eq(
		ts_prio_clamp(ts_explain_ctld_sum(&f, tres, 2, 0), NULL), 3887);
	ck_assert_double_eq(ts_explain_sprio_sum(&f, tres, 2), 3887.875);
	f.nice = TS_PRIO_NICE_OFFSET + 5000;
	ck_assert_double_eq(ts_explain_sprio_sum(&f, tres, 2), 1.0);
	ck_assert_uint_eq(
		ts_prio_clamp(ts_explain_ctld_sum(&f, tres, 2, 0), NULL), 1);
}
END_TEST

/* The factor with the largest lead; none for equal jobs. */
START_TEST(explain_decisive_factor)
{
	const double ahead[] = { 10, 500, 3, 40 }, behind[] = { 20, 100, 3, 0 };

	ck_assert_int_eq(ts_explain_decisive(ahead, behind, 4), 1);
	ck_assert_int_eq(ts_explain_decisive(ahead, ahead, 4), -1);
	ck_assert_int_eq(ts_explain_decisive(behind, ahead, 4), 0);
}
END_TEST

/* The priorities at t seconds from now, age capped at the weight. */
static void walk(const struct ts_overtake *o, double t, double *b, double *a)
{
	double r = o->w_age / o->max_age;

	*b = o->behind - o->age_behind + fmin(o->age_behind + r * t, o->w_age);
	*a = o->ahead - o->age_ahead + fmin(o->age_ahead + r * t, o->w_age);
}

/*
 * By hand: weight 1000 over 1000 s (1 a second); the job ahead is older
 * (age 900, 1900), the one behind younger (age 100, 1300): both gain
 * alike for 100 s, then only the younger, 600 more: 700 s.  Then 3000
 * random pairs against a walk second by second: just before the answer
 * it is not ahead, just after it is; "never" means never within 2 x
 * PriorityMaxAge, after which nothing moves.
 */
START_TEST(explain_overtake_by_age)
{
	struct ts_overtake o = { .behind = 1300,
				 .ahead = 1900,
				 .age_behind = 100,
				 .age_ahead = 900,
				 .w_age = 1000,
				 .max_age = 1000 };
	unsigned seed = 7;
	int k, never = 0, some = 0;

	ck_assert_double_eq_tol(ts_explain_overtake_age(&o), 700.0, 1e-9);
	o.ahead = 2300; /* a lead of 1000: the younger fills first */
	ck_assert_double_eq(ts_explain_overtake_age(&o), -1.0);
	o.ahead = 1200;
	ck_assert_double_eq(ts_explain_overtake_age(&o), 0.0);
	o.ahead = 1900;
	o.age_ahead = 50; /* the one ahead is the younger: never */
	ck_assert_double_eq(ts_explain_overtake_age(&o), -1.0);
	o.w_age = 0;
	ck_assert_double_eq(ts_explain_overtake_age(&o), -1.0);

	for (k = 0; k < 3000; k++) {
		double t, b, a;

		o.w_age = 1 + rand_r(&seed) % 5000;
		o.max_age = 60 + (uint32_t)(rand_r(&seed) % 7200);
		o.age_behind = o.w_age * (rand_r(&seed) % 1001) / 1000.0;
		o.age_ahead = o.w_age * (rand_r(&seed) % 1001) / 1000.0;
		o.behind = o.age_behind + rand_r(&seed) % 10000;
		o.ahead = o.behind + 1 + rand_r(&seed) % 3000;
		if (o.ahead < o.age_ahead)
			continue;
		t = ts_explain_overtake_age(&o);
		if (t < 0) {
			never++;
			for (t = 0; t <= 2.0 * o.max_age;
			     t += o.max_age / 250.0) {
				walk(&o, t, &b, &a);
				ck_assert(b <= a + 1e-6);
			}
			continue;
		}
		some++;
		walk(&o, t - 1e-3, &b, &a);
		ck_assert_msg(b <= a + 1e-6, "pair %d: ahead before %g", k, t);
		walk(&o, t + 1e-3, &b, &a);
		ck_assert_msg(b > a, "pair %d: not ahead after %g", k, t);
	}
	ck_assert_int_gt(never, 100);
	ck_assert_int_gt(some, 100);
}
END_TEST

/*
 * A cap at 10 with usage 113 and a 5-minute half-life: 300 x log2(11.3)
 * = 1049.475 s; below the cap already: 0; no half-life or a cap of 0:
 * never.  And the usage at the answer is below the cap, just before not.
 */
START_TEST(explain_cap_release)
{
	double t = ts_explain_decay_below(113, 10, 300);

	ck_assert_double_eq_tol(t, 1049.4753, 1e-3);
	ck_assert(113 * exp2(-(t + 1e-6) / 300) < 10);
	ck_assert(113 * exp2(-(t - 1e-3) / 300) >= 10);
	ck_assert_double_eq(ts_explain_decay_below(9, 10, 300), 0.0);
	ck_assert_double_eq(ts_explain_decay_below(10, 10, 0), -1.0);
	ck_assert_double_eq(ts_explain_decay_below(10, 0, 300), -1.0);
	ck_assert_double_eq(ts_explain_decay_below(NAN, 10, 300), -1.0);
}
END_TEST

/* Seed 000: scott's path is root, group2, scott; too small a buffer: 0. */
START_TEST(explain_path_seed000)
{
	struct ts_tree t;
	long path[4];

	seed000_tree(&t, 0);
	ck_assert_uint_eq(ts_explain_path(&t, 6, path, 4), 3);
	ck_assert_int_eq(path[0], 0);
	ck_assert_int_eq(path[1], 4);
	ck_assert_int_eq(path[2], 6);
	ck_assert_uint_eq(ts_explain_path(&t, 6, path, 2), 0);
	ck_assert_uint_eq(ts_explain_path(&t, 0, path, 4), 1);
	ck_assert_uint_eq(ts_explain_path(&t, 99, path, 4), 0);
	ts_tree_free(&t);
}
END_TEST

Suite *suite_explain(void)
{
	Suite *s = suite_create("explain");
	TCase *tc = tcase_create("explain");

	tcase_add_test(tc, explain_sum_is_slurmctld_priority);
	tcase_add_test(tc, explain_sum_by_hand);
	tcase_add_test(tc, explain_decisive_factor);
	tcase_add_test(tc, explain_overtake_by_age);
	tcase_add_test(tc, explain_cap_release);
	tcase_add_test(tc, explain_path_seed000);
	suite_add_tcase(s, tc);
	return s;
}
