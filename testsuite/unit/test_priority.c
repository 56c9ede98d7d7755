/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The job factors and their weighted sum (src/priority.c), with values
 * worked by hand from the formulas of slurm.conf(5) "PriorityWeight*",
 * "PriorityFavorSmall", "PriorityFlags" and the Multifactor Priority page
 * of Slurm 22.05, and properties (bounds, monotonicity).
 *
 * The cluster of every example: 10 nodes, 40 CPUs (4 per node).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "priority.h"

#define NOW  ((time_t)1700000000)
#define HOUR 3600

enum { TRES_CPU, TRES_MEM, TRES_NODE, TRES_N };

static const uint64_t part_tres[TRES_N] = { 40, 160000, 10 };
static const struct ts_prio_part part_batch = {
	.job_factor = 2,
	.norm = 0.5,
	.max_time = 120,
	.tres_cnt = part_tres,
};
static const struct ts_prio_part part_high = {
	.job_factor = 4,
	.norm = 1.0,
	.max_time = 60,
	.tres_cnt = part_tres,
};

static struct ts_prio_config config(void)
{
	struct ts_prio_config c = {
		.w_age = 1000,
		.w_assoc = 0,
		.w_fs = 10000,
		.w_js = 100,
		.w_part = 1000,
		.w_qos = 2000,
		.w_tres = NULL,
		.tres_cnt = 0,
		.max_age = 2 * HOUR,
		.flags = 0,
		.cluster_cpus = 40,
		.node_count = 10,
	};
	return c;
}

/* 4 nodes, 16 CPUs requested, 2 hours waiting, fair share 0.25. */
static struct ts_prio_job job(void)
{
	struct ts_prio_job j = {
		.accrue_time = NOW - HOUR,
		.has_assoc = 1,
		.fs = 0.25,
		.assoc_prio = 0,
		.assoc_norm = 0.0,
		.has_qos = 1,
		.qos_prio = 50,
		.qos_norm = 0.5,
		.total_cpus = 0,
		.max_cpus = TS_NO_VAL,
		.min_cpus = 16,
		.min_nodes = 4,
		.time_limit = 60,
		.part = &part_batch,
		.site = TS_PRIO_NICE_OFFSET,
		.nice = TS_PRIO_NICE_OFFSET,
		.tres_alloc = NULL,
		.tres_req = NULL,
	};
	return j;
}

START_TEST(age_is_wait_divided_by_max_age)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	struct ts_prio_factors f = { 0 };

	/* waited 1 h of PriorityMaxAge 2 h: 3600 / 7200 */
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.age, 0.5);
}
END_TEST

START_TEST(age_saturates_at_one_after_max_age)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	struct ts_prio_factors f = { 0 };

	j.accrue_time = NOW - 3 * HOUR;
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.age, 1.0);
	c.max_age = 0; /* PriorityMaxAge=0: any wait is the maximum */
	j.accrue_time = NOW;
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.age, 1.0);
}
END_TEST

START_TEST(age_is_zero_before_accrual_or_with_zero_weight)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	struct ts_prio_factors f = { 0 };

	j.accrue_time = NOW + HOUR; /* begins accruing in the future */
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.age, 0.0);
	j.accrue_time = 0; /* not accruing (held, dependent) */
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.age, 0.0);
	j = job();
	c.w_age = 0;
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.age, 0.0);
}
END_TEST

/* Favour large: (4/10 + 16/40) / 2 = (0.4 + 0.4) / 2 = 0.4 */
START_TEST(job_size_favours_large_by_node_and_cpu_share)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();

	ck_assert_double_eq_tol(ts_prio_job_size(&c, &j), 0.4, 1e-15);
	j.total_cpus = 40; /* allocated CPUs win over the request */
	/* (0.4 + 40/40) / 2 = 0.7 */
	ck_assert_double_eq_tol(ts_prio_job_size(&c, &j), 0.7, 1e-15);
	j.total_cpus = 0;
	j.max_cpus = 8; /* max CPUs win over min CPUs */
	/* (0.4 + 8/40) / 2 = 0.3 */
	ck_assert_double_eq_tol(ts_prio_job_size(&c, &j), 0.3, 1e-15);
}
END_TEST

/* Favour small: ((10-2)/10 + (40-8)/40) / 2 = (0.8 + 0.8) / 2 = 0.8 */
START_TEST(job_size_favours_small_by_unused_share)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();

	c.flags |= TS_PRIO_FAVOR_SMALL;
	j.min_nodes = 2;
	j.min_cpus = 8;
	ck_assert_double_eq_tol(ts_prio_job_size(&c, &j), 0.8, 1e-15);
	/* No CPU count: node term alone, (10-2)/10 */
	j.min_cpus = 0;
	ck_assert_double_eq_tol(ts_prio_job_size(&c, &j), 0.8, 1e-15);
	j.min_nodes = 5;
	ck_assert_double_eq_tol(ts_prio_job_size(&c, &j), 0.5, 1e-15);
}
END_TEST

/*
 * SMALL_RELATIVE_TO_TIME: 2 nodes x 4 CPUs/node = 8 CPUs (more than the
 * 4 requested), over 60 minutes, over 40 CPUs: 8 / 60 / 40 = 1/300;
 * favouring small: 1 - 1/300.
 */
START_TEST(job_size_relative_to_time_divides_by_time_limit)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();

	c.flags |= TS_PRIO_SIZE_RELATIVE;
	j.min_nodes = 2;
	j.min_cpus = 4;
	ck_assert_double_eq_tol(ts_prio_job_size(&c, &j), 1.0 / 300, 1e-15);
	c.flags |= TS_PRIO_FAVOR_SMALL;
	ck_assert_double_eq_tol(ts_prio_job_size(&c, &j), 1.0 - 1.0 / 300,
				1e-15);
	/* No time limit: the partition's MaxTime (120): 8 / 120 / 40 */
	c.flags &= ~TS_PRIO_FAVOR_SMALL;
	j.time_limit = TS_NO_VAL;
	ck_assert_double_eq_tol(ts_prio_job_size(&c, &j), 1.0 / 600, 1e-15);
	/* 20 CPUs beat 8: 20 / 120 / 40 */
	j.min_cpus = 20;
	ck_assert_double_eq_tol(ts_prio_job_size(&c, &j), 1.0 / 240, 1e-15);
}
END_TEST

/*
 * Slurm computes (cluster_cpus - cpus) in unsigned 32 bits; a job asking
 * for more CPUs than the cluster has wraps to a huge term that the clamp
 * turns into 1.0.  We keep that (parity), and it stays in [0,1].
 */
START_TEST(job_size_wraps_like_slurm_and_stays_in_unit_interval)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();

	c.flags |= TS_PRIO_FAVOR_SMALL;
	j.min_cpus = 50;
	ck_assert_double_eq(ts_prio_job_size(&c, &j), 1.0);
	/* Favour large, all 10 nodes and 50 CPUs: (1 + 1.25) / 2 -> 1 */
	c.flags = 0;
	j.min_nodes = 10;
	ck_assert_double_eq(ts_prio_job_size(&c, &j), 1.0);
}
END_TEST

START_TEST(job_size_is_zero_not_nan_in_an_empty_cluster)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();

	c.node_count = 0;
	c.cluster_cpus = 0;
	j.min_nodes = 0;
	j.min_cpus = 0;
	c.flags = TS_PRIO_SIZE_RELATIVE;
	ck_assert(!isnan(ts_prio_job_size(&c, &j)));
	ck_assert_double_eq(ts_prio_job_size(&c, &j), 0.0);
	c.flags = 0;
	ck_assert_double_eq(ts_prio_job_size(&c, &j), 0.0);
}
END_TEST

START_TEST(partition_factor_is_norm_or_raw_with_no_normal_part)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	struct ts_prio_factors f = { 0 };

	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.part, 0.5);
	c.flags |= TS_PRIO_NO_NORMAL_PART;
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.part, 2.0);
	/* weighted: 2 * PriorityWeightPartition 1000 */
	ck_assert_double_eq(ts_prio_part_term(&c, &part_batch), 2000.0);
}
END_TEST

START_TEST(qos_and_assoc_factors_follow_no_normal_flags)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	struct ts_prio_factors f = { 0 };

	c.w_assoc = 10;
	j.assoc_prio = 7;
	j.assoc_norm = 0.7;
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.qos, 0.5);
	ck_assert_double_eq(f.assoc, 0.7);
	c.flags |= TS_PRIO_NO_NORMAL_QOS | TS_PRIO_NO_NORMAL_ASSOC;
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.qos, 50.0);
	ck_assert_double_eq(f.assoc, 7.0);
	/* A QOS with Priority 0 contributes nothing, whatever its norm. */
	j.qos_prio = 0;
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.qos, 0.0);
	/* No association: no fair-share and no assoc factor. */
	j.has_assoc = 0;
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(f.fs, 0.0);
	ck_assert_double_eq(f.assoc, 0.0);
}
END_TEST

/*
 * TRES: allocated count if any (NO_CONSUME falls back to the request),
 * divided by the partition total: cpu 16/40 = 0.4, mem 40000/160000 =
 * 0.25, node 4/10 = 0.4.  Weights cpu 100, mem 1, node 10:
 * 40 + 0.25 + 4 = 44.25.
 */
START_TEST(tres_factors_normalise_by_partition_and_weigh)
{
	static const double w[TRES_N] = { 100, 1, 10 };
	uint64_t alloc[TRES_N] = { 16, TS_PRIO_NO_CONSUME, 4 };
	uint64_t req[TRES_N] = { 8, 40000, 2 };
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	double tres[TRES_N];
	struct ts_prio_factors f = { .tres = tres };

	c.w_tres = w;
	c.tres_cnt = TRES_N;
	j.tres_alloc = alloc;
	j.tres_req = req;
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq_tol(tres[TRES_CPU], 0.4, 1e-15);
	ck_assert_double_eq_tol(tres[TRES_MEM], 0.25, 1e-15);
	ck_assert_double_eq_tol(tres[TRES_NODE], 0.4, 1e-15);
	ck_assert_double_eq_tol(ts_prio_weigh(&c, &f), 44.25, 1e-12);
	ck_assert_double_eq_tol(tres[TRES_CPU], 40.0, 1e-12);

	/* NO_NORMAL_TRES: raw counts, 16 * 100 + 40000 * 1 + 4 * 10 */
	c.flags |= TS_PRIO_NO_NORMAL_TRES;
	ts_prio_factors(&c, &j, NOW, &f);
	ck_assert_double_eq(ts_prio_weigh(&c, &f), 41640.0);
}
END_TEST

START_TEST(tres_factor_without_partition_total_is_left_alone)
{
	static const uint64_t no_mem[TRES_N] = { 40, 0, 10 };
	const struct ts_prio_part p = {
		.job_factor = 1, .norm = 1, .max_time = 60, .tres_cnt = no_mem
	};
	uint64_t req[TRES_N] = { 8, 4000, 2 };
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	double f[TRES_N] = { -1, -1, -1 };

	c.tres_cnt = TRES_N;
	j.tres_req = req;
	ts_prio_tres_factors(&c, &j, &p, f);
	ck_assert_double_eq_tol(f[TRES_CPU], 0.2, 1e-15);
	ck_assert_double_eq(f[TRES_MEM], -1); /* untouched */
	ck_assert_double_eq_tol(f[TRES_NODE], 0.2, 1e-15);
}
END_TEST

/*
 * The full example, weighted:
 *   age 0.5 * 1000 = 500          fairshare 0.25 * 10000 = 2500
 *   jobsize 0.4 * 100 = 40        partition 0.5 * 1000 = 500
 *   qos 0.5 * 2000 = 1000         TRES cpu 0.4 * 100 = 40
 *   site +10                      nice 100
 *   500 + 2500 + 40 + 500 + 1000 + 40 + 10 - 100 = 4490
 */
START_TEST(priority_is_weighted_sum_plus_site_minus_nice)
{
	static const double w[TRES_N] = { 100, 0, 0 };
	uint64_t req[TRES_N] = { 16, 0, 4 };
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	double tres[TRES_N];
	struct ts_prio_factors f = { .tres = tres };
	double tres_sum;
	int capped = -1;

	c.w_tres = w;
	c.tres_cnt = TRES_N;
	j.tres_req = req;
	j.site = TS_PRIO_NICE_OFFSET + 10;
	j.nice = TS_PRIO_NICE_OFFSET + 100;
	ts_prio_factors(&c, &j, NOW, &f);
	tres_sum = ts_prio_weigh(&c, &f);
	ck_assert_double_eq_tol(f.age, 500, 1e-9);
	ck_assert_double_eq_tol(f.fs, 2500, 1e-9);
	ck_assert_double_eq_tol(f.js, 40, 1e-9);
	ck_assert_double_eq_tol(f.part, 500, 1e-9);
	ck_assert_double_eq_tol(f.qos, 1000, 1e-9);
	ck_assert_uint_eq(ts_prio_total(&f, tres_sum, &capped), 4490);
	ck_assert_int_eq(capped, 0);

	/* A negative nice raises it: nice -500 */
	j.nice = TS_PRIO_NICE_OFFSET - 500;
	ts_prio_factors(&c, &j, NOW, &f);
	tres_sum = ts_prio_weigh(&c, &f);
	ck_assert_uint_eq(ts_prio_total(&f, tres_sum, NULL), 5090);
}
END_TEST

START_TEST(priority_is_truncated_not_rounded)
{
	struct ts_prio_factors f = { 0 };

	f.site = f.nice = TS_PRIO_NICE_OFFSET;
	f.fs = 1234.999;
	ck_assert_uint_eq(ts_prio_total(&f, 0.0, NULL), 1234);
	f.fs = 0.7;
	f.age = 0.7; /* 1.4 */
	ck_assert_uint_eq(ts_prio_total(&f, 0.0, NULL), 1);
}
END_TEST

START_TEST(priority_never_below_one_since_zero_means_held)
{
	struct ts_prio_factors f = { 0 };

	f.site = TS_PRIO_NICE_OFFSET;
	f.nice = TS_PRIO_NICE_OFFSET + 10000;
	f.fs = 500;
	ck_assert_uint_eq(ts_prio_total(&f, 0.0, NULL), 1);
	f.nice = TS_PRIO_NICE_OFFSET;
	f.fs = 0.0;
	ck_assert_uint_eq(ts_prio_total(&f, 0.0, NULL), 1);
}
END_TEST

START_TEST(priority_caps_at_uint32_max_and_says_so)
{
	struct ts_prio_factors f = { 0 };
	int capped = 0;

	f.site = f.nice = TS_PRIO_NICE_OFFSET;
	f.fs = 4294967295.0;
	ck_assert_uint_eq(ts_prio_total(&f, 0.0, &capped), 4294967295U);
	ck_assert_int_eq(capped, 0);
	f.fs = 4294967296.0;
	ck_assert_uint_eq(ts_prio_total(&f, 0.0, &capped), 4294967295U);
	ck_assert_int_eq(capped, 1);
	f.fs = 3e9;
	ck_assert_uint_eq(ts_prio_total(&f, 3e9, &capped), 4294967295U);
	ck_assert_int_eq(capped, 1);
	f.fs = NAN;
	ck_assert_uint_eq(ts_prio_total(&f, 0.0, &capped), 4294967295U);
}
END_TEST

/*
 * Per partition: the partition term of each partition replaces the
 * job's.  Weighted factors without partition: 500 + 2500 + 40 + 1000 =
 * 4040; batch 0.5 * 1000 -> 4540, high 1.0 * 1000 -> 5040.
 */
START_TEST(partition_priority_uses_each_partition_term)
{
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	struct ts_prio_factors f = { 0 };
	double tres_sum;

	ts_prio_factors(&c, &j, NOW, &f);
	tres_sum = ts_prio_weigh(&c, &f);
	ck_assert_uint_eq(ts_prio_total(&f, tres_sum, NULL), 4540);
	ck_assert_uint_eq(ts_prio_part_total(&c, &f, &part_batch, 0, NULL),
			  4540);
	ck_assert_uint_eq(ts_prio_part_total(&c, &f, &part_high, 0, NULL),
			  5040);
	c.flags |= TS_PRIO_NO_NORMAL_PART; /* 4 * 1000 */
	ck_assert_uint_eq(ts_prio_part_total(&c, &f, &part_high, 0, NULL),
			  8040);
}
END_TEST

START_TEST(incr_only_never_lowers_a_priority)
{
	struct ts_prio_config c = config();

	ck_assert_uint_eq(ts_prio_next(&c, 500, 400), 400);
	c.flags |= TS_PRIO_INCR_ONLY;
	ck_assert_uint_eq(ts_prio_next(&c, 500, 400), 500);
	ck_assert_uint_eq(ts_prio_next(&c, 500, 600), 600);
}
END_TEST

/* Property: more fair share never lowers a priority; all factors <= 1. */
START_TEST(priority_is_monotone_in_fairshare_and_factors_bounded)
{
	struct ts_prio_config c = config();
	unsigned seed = 42;
	int n;

	c.flags = TS_PRIO_FAVOR_SMALL;
	for (n = 0; n < 2000; n++) {
		struct ts_prio_job j = job();
		struct ts_prio_factors lo = { 0 }, hi = { 0 };
		uint32_t p_lo, p_hi;
		double a = rand_r(&seed) / (double)RAND_MAX;
		double b = rand_r(&seed) / (double)RAND_MAX;

		j.min_nodes = 1 + rand_r(&seed) % 10;
		j.min_cpus = rand_r(&seed) % 41;
		j.accrue_time = NOW - rand_r(&seed) % (4 * HOUR);
		j.fs = a < b ? a : b;
		ts_prio_factors(&c, &j, NOW, &lo);
		ck_assert(lo.age >= 0 && lo.age <= 1);
		ck_assert(lo.js >= 0 && lo.js <= 1);
		p_lo = ts_prio_total(&lo, ts_prio_weigh(&c, &lo), NULL);
		j.fs = a < b ? b : a;
		ts_prio_factors(&c, &j, NOW, &hi);
		p_hi = ts_prio_total(&hi, ts_prio_weigh(&c, &hi), NULL);
		ck_assert_uint_ge(p_hi, p_lo);
	}
}
END_TEST

/* The weighted TRES sum of j under c (NO_NORMAL_TRES as c says). */
static double s_all_once(const struct ts_prio_config *c,
			 const struct ts_prio_job *j)
{
	double t[TRES_N];
	struct ts_prio_factors f = { .tres = t };

	return ts_prio_weighted(c, j, NOW, &f);
}

/*
 * tres_on: the TRES whose weight is not +0.0.  Weights cpu 100, mem 0,
 * node 10 select cpu and node; NaN and -0.0 (a factor times -0.0 is
 * -0.0, which sprio prints) stay selected.
 */
START_TEST(tres_select_keeps_the_nonzero_weights_in_order)
{
	static const double w[TRES_N] = { 100, 0, 10 };
	const double odd[TRES_N] = { 0, NAN, -0.0 };
	uint32_t on[TRES_N];

	ck_assert_uint_eq(ts_prio_tres_select(w, TRES_N, on), 2);
	ck_assert_uint_eq(on[0], TRES_CPU);
	ck_assert_uint_eq(on[1], TRES_NODE);
	ck_assert_uint_eq(ts_prio_tres_select(odd, TRES_N, on), 2);
	ck_assert_uint_eq(on[0], TRES_MEM);
	ck_assert_uint_eq(on[1], TRES_NODE);
}
END_TEST

/*
 * Skipping the TRES of weight 0 changes no bit: the same job with and
 * without tres_on gives identical weighted factors, sum and priority.
 * cpu 16/40 * 100 = 40, node 4/10 * 10 = 4: 44, mem 0 whatever its
 * count (NO_NORMAL_TRES too: 1600 + 40).
 */
START_TEST(tres_of_weight_zero_are_skipped_without_changing_a_bit)
{
	static const double w[TRES_N] = { 100, 0, 10 };
	uint64_t req[TRES_N] = { 16, 40000, 4 };
	struct ts_prio_config all = config(), some;
	struct ts_prio_job j = job();
	double t_all[TRES_N], t_some[TRES_N];
	struct ts_prio_factors f_all = { .tres = t_all };
	struct ts_prio_factors f_some = { .tres = t_some };
	uint32_t on[TRES_N];
	unsigned flags[2] = { 0, TS_PRIO_NO_NORMAL_TRES };
	int k;

	all.w_tres = w;
	all.tres_cnt = TRES_N;
	j.tres_req = req;
	some = all;
	some.n_tres_on = ts_prio_tres_select(w, TRES_N, on);
	some.tres_on = on;
	for (k = 0; k < 2; k++) {
		double s_all, s_some;

		all.flags = some.flags = flags[k];
		s_all = ts_prio_weighted(&all, &j, NOW, &f_all);
		s_some = ts_prio_weighted(&some, &j, NOW, &f_some);
		ck_assert_mem_eq(&s_all, &s_some, sizeof(s_all));
		ck_assert_mem_eq(t_all, t_some, sizeof(t_all));
		ck_assert_double_eq(t_some[TRES_MEM], 0.0);
		ck_assert_uint_eq(ts_prio_total(&f_all, s_all, NULL),
				  ts_prio_total(&f_some, s_some, NULL));
	}
	ck_assert_double_eq_tol(s_all_once(&some, &j), 1640.0, 1e-9);
}
END_TEST

/*
 * The one-pass functions are the two-pass ones to the bit: factors then
 * weights (ts_prio_weighted() against ts_prio_factors() and
 * ts_prio_weigh()), and TRES factors then weights for a partition
 * (ts_prio_tres_weighted() against ts_prio_tres_factors() and
 * ts_prio_tres_weigh()), with and without tres_on, normalised or not,
 * an entry with no partition total keeping its value (weighted again);
 * ts_prio_tres_weighted_sum() over a used scratch array gives the sum
 * over zeros.
 */
START_TEST(one_pass_weighing_equals_factors_then_weights)
{
	static const double w[TRES_N] = { 100, 0, 10 };
	static const uint64_t no_mem[TRES_N] = { 40, 0, 10 };
	const struct ts_prio_part p = {
		.job_factor = 1, .norm = 1, .max_time = 60, .tres_cnt = no_mem
	};
	uint64_t req[TRES_N] = { 16, 40000, 4 };
	unsigned flags[2] = { 0, TS_PRIO_NO_NORMAL_TRES };
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	uint32_t on[TRES_N];
	int k, sel;

	c.w_tres = w;
	c.tres_cnt = TRES_N;
	j.tres_req = req;
	for (sel = 0; sel < 2; sel++) {
		c.tres_on = sel ? on : NULL;
		c.n_tres_on = sel ? ts_prio_tres_select(w, TRES_N, on) : 0;
		for (k = 0; k < 2; k++) {
			double t1[TRES_N], t2[TRES_N];
			double a[TRES_N] = { 0.3, 0.7, 0.11 };
			double b[TRES_N] = { 0.3, 0.7, 0.11 };
			struct ts_prio_factors one = { .tres = t1 };
			struct ts_prio_factors two = { .tres = t2 };
			double s1, s2;

			c.flags = flags[k];
			s1 = ts_prio_weighted(&c, &j, NOW, &one);
			ts_prio_factors(&c, &j, NOW, &two);
			s2 = ts_prio_weigh(&c, &two);
			ck_assert_mem_eq(&s1, &s2, sizeof(s1));
			ck_assert_mem_eq(t1, t2, sizeof(t1));
			one.tres = two.tres = NULL;
			ck_assert_mem_eq(&one, &two, sizeof(one));

			s1 = ts_prio_tres_weighted(&c, &j, &p, a);
			ts_prio_tres_factors(&c, &j, &p, b);
			s2 = ts_prio_tres_weigh(&c, b);
			ck_assert_mem_eq(&s1, &s2, sizeof(s1));
			ck_assert_mem_eq(a, b, sizeof(a));

			/* The sum alone: any scratch, as over zeros. */
			memset(b, 0, sizeof(b));
			ts_prio_tres_factors(&c, &j, &p, b);
			s2 = ts_prio_tres_weigh(&c, b);
			s1 = ts_prio_tres_weighted_sum(&c, &j, &p, a);
			ck_assert_mem_eq(&s1, &s2, sizeof(s1));
		}
	}
}
END_TEST

/*
 * A pending job's TRES sum (the fast path of ts_prio_tres_weighted_sum())
 * is, to the bit, its factors over zeros then weighed, with weights that
 * are NaN, -0.0 and negative, a request of 0 and a partition total of 0;
 * and with allocated counts (the general path) likewise.
 */
START_TEST(pending_tres_sum_equals_factors_then_weights_for_odd_weights)
{
	static const double w[TRES_N] = { NAN, -0.0, -3 };
	static const uint64_t cnt[TRES_N] = { 0, 10, 7 };
	const struct ts_prio_part p = {
		.job_factor = 1, .norm = 1, .max_time = 60, .tres_cnt = cnt
	};
	uint64_t req[TRES_N] = { 4, 0, 5 };
	uint64_t alloc[TRES_N] = { 2, TS_PRIO_NO_CONSUME, 3 };
	struct ts_prio_config c = config();
	struct ts_prio_job j = job();
	uint32_t on[TRES_N];
	int sel, a;

	c.w_tres = w;
	c.tres_cnt = TRES_N;
	j.tres_req = req;
	for (a = 0; a < 2; a++) {
		j.tres_alloc = a ? alloc : NULL;
		for (sel = 0; sel < 2; sel++) {
			double scratch[TRES_N] = { 9, 9, 9 };
			double b[TRES_N] = { 0 };
			double s1, s2;

			c.tres_on = sel ? on : NULL;
			c.n_tres_on =
				sel ? ts_prio_tres_select(w, TRES_N, on) : 0;
			ts_prio_tres_factors(&c, &j, &p, b);
			s2 = ts_prio_tres_weigh(&c, b);
			s1 = ts_prio_tres_weighted_sum(&c, &j, &p, scratch);
			ck_assert_mem_eq(&s1, &s2, sizeof(s1));
			ck_assert_mem_eq(scratch, b, sizeof(b));
			ck_assert(isnan(s1));
		}
	}
	/* Without the NaN: 4/0 -> 0, 0 -> -0.0 * 0, 5/7 * -3. */
	{
		static const double w2[TRES_N] = { 1, -0.0, -3 };
		double scratch[TRES_N];

		c.w_tres = w2;
		c.tres_on = NULL;
		j.tres_alloc = NULL;
		ck_assert_double_eq(
			ts_prio_tres_weighted_sum(&c, &j, &p, scratch),
			5.0 / 7.0 * -3.0);
		ck_assert(signbit(scratch[1]));
	}
}
END_TEST

Suite *suite_priority(void)
{
	Suite *s = suite_create("priority");
	TCase *tc = tcase_create("factors");

	tcase_add_test(tc, age_is_wait_divided_by_max_age);
	tcase_add_test(
		tc,
		pending_tres_sum_equals_factors_then_weights_for_odd_weights);
	tcase_add_test(tc, age_saturates_at_one_after_max_age);
	tcase_add_test(tc, age_is_zero_before_accrual_or_with_zero_weight);
	tcase_add_test(tc, job_size_favours_large_by_node_and_cpu_share);
	tcase_add_test(tc, job_size_favours_small_by_unused_share);
	tcase_add_test(tc, job_size_relative_to_time_divides_by_time_limit);
	tcase_add_test(tc,
		       job_size_wraps_like_slurm_and_stays_in_unit_interval);
	tcase_add_test(tc, job_size_is_zero_not_nan_in_an_empty_cluster);
	tcase_add_test(tc, partition_factor_is_norm_or_raw_with_no_normal_part);
	tcase_add_test(tc, qos_and_assoc_factors_follow_no_normal_flags);
	tcase_add_test(tc, tres_factors_normalise_by_partition_and_weigh);
	tcase_add_test(tc, tres_factor_without_partition_total_is_left_alone);
	tcase_add_test(tc, tres_select_keeps_the_nonzero_weights_in_order);
	tcase_add_test(tc,
		       tres_of_weight_zero_are_skipped_without_changing_a_bit);
	tcase_add_test(tc, one_pass_weighing_equals_factors_then_weights);
	suite_add_tcase(s, tc);

	tc = tcase_create("sum");
	tcase_add_test(tc, priority_is_weighted_sum_plus_site_minus_nice);
	tcase_add_test(tc, priority_is_truncated_not_rounded);
	tcase_add_test(tc, priority_never_below_one_since_zero_means_held);
	tcase_add_test(tc, priority_caps_at_uint32_max_and_says_so);
	tcase_add_test(tc, partition_priority_uses_each_partition_term);
	tcase_add_test(tc, incr_only_never_lowers_a_priority);
	tcase_add_test(tc,
		       priority_is_monotone_in_fairshare_and_factors_bounded);
	suite_add_tcase(s, tc);
	return s;
}
