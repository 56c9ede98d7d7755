/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_replay_compare.c - one history under two configurations side by
 * side (src/replay_compare.c), worked by hand on seed 000's tree
 * (group1 40 = bob 50 + cathy 50, group2 60 = suzy 60 + scott 40).
 *
 * bob and scott run 1 CPU each from T0 on; each of the four users has
 * a job pending from T0 (it starts after the history).  Samples every
 * 300 s, PriorityWeightFairshare 1000, no age weight.
 *   classic (computed before the cycle's charges): at T0 + 300 nobody
 *     has usage, every FairShare is 1 and every job 1000.  At T0 + 600
 *     group1 and group2 have used alike: NormUsage 0.5 each, and
 *     EffectvUsage (classic.c) bob 0.5, cathy 0.25, scott 0.5, suzy
 *     0.3; NormShares bob 0.2, cathy 0.2, suzy 0.36, scott 0.24.
 *     FairShare 2^-(E/S): bob 2^-2.5, cathy 2^-1.25, scott 2^-(0.5/0.24),
 *     suzy 2^-(0.3/0.36); priorities 176, 420, 235, 561.
 *   Fair Tree: group2's Level FS (0.6/0.5) beats group1's (0.4/0.5);
 *     ranks suzy 4, scott 3, cathy 2, bob 1: 1000, 750, 500, 250.
 * At T0 + 600, of the 6 pairs one is swapped: classic puts cathy (no
 * usage of her own) before scott, Fair Tree puts group2's scott first.
 * The 5 others are ordered alike: tau-b = (5 - 1) / 6.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "fs_trees.h"
#include "replay_compare.h"
#include "usage_charge.h"

enum { ROOT, GROUP1, BOB, CATHY, GROUP2, SUZY, SCOTT, NODES };

#define T0    1800000000L /* a multiple of 300 */
#define LATER (T0 + 100000)

static const struct ts_sacct_job jobs[] = {
	{ .start = T0, .billing = 1, .node = BOB, .id = "1" },
	{ .start = T0, .billing = 1, .node = SCOTT, .id = "2" },
	{ .start = LATER,
	  .eligible = T0,
	  .billing = 1,
	  .node = BOB,
	  .id = "10" },
	{ .start = LATER,
	  .eligible = T0,
	  .billing = 1,
	  .node = CATHY,
	  .id = "11" },
	{ .start = LATER,
	  .eligible = T0,
	  .billing = 1,
	  .node = SCOTT,
	  .id = "12" },
	{ .start = LATER,
	  .eligible = T0,
	  .billing = 1,
	  .node = SUZY,
	  .id = "13" },
};

#define N_JOBS (sizeof(jobs) / sizeof(jobs[0]))

struct seen {
	size_t samples;
	double prio[2][2][4]; /* sample, configuration, pending job */
	struct ts_rank_pairs rank[2];
	size_t pending[2];
	double fs_bob[2][2];
};

static int keep(void *arg, const struct ts_compare_sample *s)
{
	struct seen *z = arg;
	size_t i, c, x = z->samples;

	ck_assert_uint_eq(s->index, x + 1);
	ck_assert_int_eq(s->time, T0 + 300 * (int64_t)s->index);
	ck_assert_uint_eq(s->k, 2);
	ck_assert_uint_eq(s->n_pending, 4);
	for (c = 0; c < 2; c++) {
		ck_assert_int_eq(s->run[c].time, s->time);
		z->fs_bob[x][c] = s->run[c].fs->fs_factor[BOB];
		for (i = 0; i < 4; i++)
			z->prio[x][c][i] = s->prio[c * s->n_pending + i];
	}
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(s->pending[i], 2 + i); /* Eligible order */
	z->rank[x] = s->rank[1];
	z->samples++;
	return 0;
}

static struct ts_replay_conf conf(enum ts_fs_algo algo)
{
	struct ts_replay_conf c = {
		.fs = { .algo = algo, .damp = 1, .ft_flags = TS_FT_AS_RUN },
		.period = 300,
		.decay = ts_decay_per_second(3600),
		.start = T0,
		.end = T0 + 600,
		.w_fs = 1000,
	};
	return c;
}

/* Seed 000's tree (its usage is not read: the replay starts at 0). */
static void load_seed000(struct ts_tree *t)
{
	seed000_tree(t, 0);
	ck_assert_uint_eq(t->n, NODES);
	ck_assert_int_eq(node(t, "scott", 1), SCOTT);
	ck_assert_int_eq(node(t, "bob", 1), BOB);
}

START_TEST(compare_classic_with_fair_tree_by_hand)
{
	struct ts_replay_conf c[2] = { conf(TS_FS_CLASSIC),
				       conf(TS_FS_FAIR_TREE) };
	struct ts_error err = TS_ERROR_INIT;
	struct ts_compare_stats cs;
	struct ts_replay_stats st[2];
	struct ts_tree t;
	struct seen z = { 0 };
	size_t i;

	load_seed000(&t);
	ck_assert_msg(ts_replay_compare(&t, jobs, N_JOBS, c, 2, 300, keep, &z,
					st, &cs, &err) == TS_OK,
		      "%s", err.msg);
	ck_assert_uint_eq(z.samples, 2);
	ck_assert_uint_eq(cs.samples, 2);
	ck_assert_uint_eq(cs.no_eligible, 2); /* the two running jobs */
	ck_assert_uint_eq(st[0].cycles, 2);
	ck_assert_uint_eq(st[1].after_end, 4);

	/* T0 + 300: classic ties everybody, so no pair can swap */
	for (i = 0; i < 4; i++)
		ck_assert_double_eq(z.prio[0][0][i], 1000);
	ck_assert_uint_eq(z.rank[0].tied_a, 6);
	ck_assert_uint_eq(z.rank[0].swapped, 0);
	ck_assert(isnan(z.rank[0].tau_b));

	/* T0 + 600 */
	ck_assert_double_eq_tol(z.fs_bob[1][0], pow(2, -2.5), 1e-12);
	ck_assert_double_eq(z.prio[1][0][0], 176);
	ck_assert_double_eq(z.prio[1][0][1], 420);
	ck_assert_double_eq(z.prio[1][0][2], 235);
	ck_assert_double_eq(z.prio[1][0][3], 561);
	ck_assert_double_eq(z.prio[1][1][0], 250);
	ck_assert_double_eq(z.prio[1][1][1], 500);
	ck_assert_double_eq(z.prio[1][1][2], 750);
	ck_assert_double_eq(z.prio[1][1][3], 1000);
	ck_assert_uint_eq(z.rank[1].pairs, 6);
	ck_assert_uint_eq(z.rank[1].swapped, 1);
	ck_assert_uint_eq(z.rank[1].tied_a + z.rank[1].tied_b, 0);
	ck_assert_uint_eq(z.rank[1].concordant, 5);
	ck_assert_double_eq_tol(z.rank[1].tau_b, 4.0 / 6.0, 1e-12);
	ts_tree_free(&t);
}
END_TEST

/* The age factor counts from Eligible, capped at PriorityMaxAge. */
static int keep_age(void *arg, const struct ts_compare_sample *s)
{
	double *prio = arg;

	prio[s->index - 1] = s->prio[0]; /* bob's job, configuration 1 */
	return 0;
}

START_TEST(compare_age_from_eligible_to_max_age)
{
	struct ts_replay_conf c = conf(TS_FS_FAIR_TREE);
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree t;
	double prio[4] = { 0 };

	c.w_fs = 0;
	c.w_age = 1000;
	c.max_age = 900;
	c.end = T0 + 1200;
	load_seed000(&t);
	ck_assert_msg(ts_replay_compare(&t, jobs, N_JOBS, &c, 1, 300, keep_age,
					prio, NULL, NULL, &err) == TS_OK,
		      "%s", err.msg);
	/* waited 300, 600, 900, 1200 s of a 900 s maximum */
	ck_assert_double_eq(prio[0], 333);
	ck_assert_double_eq(prio[1], 666);
	ck_assert_double_eq(prio[2], 1000);
	ck_assert_double_eq(prio[3], 1000);
	ts_tree_free(&t);
}
END_TEST

/*
 * Jobs that never started: pending from Eligible for good, or until
 * their End (cancelled); bob's and scott's running jobs only are
 * charged: the figures are those of the hand-worked case.
 */
static int count_pending(void *arg, const struct ts_compare_sample *s)
{
	size_t *n = arg;

	n[s->index - 1] = s->n_pending;
	return 0;
}

START_TEST(compare_jobs_that_never_started)
{
	struct ts_sacct_job more[N_JOBS + 2];
	struct ts_replay_conf c[2] = { conf(TS_FS_CLASSIC),
				       conf(TS_FS_FAIR_TREE) };
	struct ts_error err = TS_ERROR_INIT;
	struct ts_replay_stats st[2];
	struct ts_tree t;
	size_t n[2] = { 0 };

	memcpy(more, jobs, sizeof(jobs));
	more[N_JOBS] = (struct ts_sacct_job){ .eligible = T0, .node = SUZY };
	more[N_JOBS + 1] = (struct ts_sacct_job){ .eligible = T0,
						  .end = T0 + 400,
						  .node = CATHY };
	load_seed000(&t);
	ck_assert_msg(ts_replay_compare(&t, more, N_JOBS + 2, c, 2, 300,
					count_pending, n, st, NULL,
					&err) == TS_OK,
		      "%s", err.msg);
	ck_assert_uint_eq(n[0], 6); /* the four, both never started */
	ck_assert_uint_eq(n[1], 5); /* cathy's cancelled at T0 + 400 */
	ck_assert_uint_eq(st[0].charged, 2);
	ts_tree_free(&t);
}
END_TEST

START_TEST(compare_refuses_a_sample_length_off_the_period)
{
	struct ts_replay_conf c[2] = { conf(TS_FS_CLASSIC),
				       conf(TS_FS_FAIR_TREE) };
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree t;

	load_seed000(&t);
	c[1].period = 600;
	ck_assert_int_eq(ts_replay_compare(&t, jobs, N_JOBS, c, 2, 300, NULL,
					   NULL, NULL, NULL, &err),
			 TS_EINVAL);
	ck_assert_msg(strstr(err.msg, "configuration 2") != NULL, "%s",
		      err.msg);
	/* 600 s is whole for both: samples at T0 + 600 only */
	err = (struct ts_error)TS_ERROR_INIT;
	ck_assert_int_eq(ts_replay_compare(&t, jobs, N_JOBS, c, 2, 600, NULL,
					   NULL, NULL, NULL, &err),
			 TS_OK);
	ts_tree_free(&t);
}
END_TEST

Suite *suite_replay_compare(void)
{
	Suite *s = suite_create("replay_compare");
	TCase *tc = tcase_create("replay_compare");

	tcase_add_test(tc, compare_classic_with_fair_tree_by_hand);
	tcase_add_test(tc, compare_age_from_eligible_to_max_age);
	tcase_add_test(tc, compare_jobs_that_never_started);
	tcase_add_test(tc, compare_refuses_a_sample_length_off_the_period);
	suite_add_tcase(s, tc);
	return s;
}
