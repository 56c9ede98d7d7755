/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cycle's table of Maui's credentials (src/cred_shares.c, issue 27):
 * the usage kept per credential and the targets file, looked up per job.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cred_shares.h"
#include "targets_text.h"

#define DIFF  TS_FS_POLICY_DIFFERENCE
#define RATIO TS_FS_POLICY_RATIO
#define T0    (INT64_C(3600) * 500000)

/* Moab's credentials A..E and one other member of each type. */
enum { USER_A = 101, GROUP_B = 202, ACCOUNT_C = 303, QOS_D = 4, CLASS_E = 5 };
enum { OTHER = 900 };

/* A name is its id's table entry; anything else is unknown. */
static const struct {
	enum ts_cred c;
	const char *name;
	uint32_t id;
} known[] = {
	{ TS_CRED_USER, "A", USER_A },	     { TS_CRED_GROUP, "B", GROUP_B },
	{ TS_CRED_ACCOUNT, "C", ACCOUNT_C }, { TS_CRED_QOS, "D", QOS_D },
	{ TS_CRED_CLASS, "E", CLASS_E },     { TS_CRED_GROUP, "idle", 77 },
	{ TS_CRED_QOS, "idle", 78 },	     { TS_CRED_CLASS, "idle", 79 },
	{ TS_CRED_USER, "other", OTHER },
};

static uint32_t id_of(enum ts_cred c, const char *name, void *arg)
{
	size_t i;

	(*(int *)arg)++;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].c == c && !strcmp(known[i].name, name))
			return known[i].id;
	return TS_CRED_ID_NONE;
}

/* One window, no decay: a credential's share is its usage / the total. */
static void usage_init(struct ts_cred_usage *cu)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_cred_usage_init(cu, 3600, 1, 1.0, T0, &err), TS_OK);
}

static void charge(struct ts_cred_usage *cu, uint32_t user, uint32_t group,
		   uint32_t account, uint32_t qos, uint32_t class,
		   long double amount)
{
	const struct ts_cred_ids ids = { { user, group, account, qos, class } };
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_cred_usage_charge(cu, &ids, amount, T0 + 1, &err),
			 TS_OK);
}

/*
 * Moab's usage: of a total of 100, user A 45, group B 65, account C 35,
 * QOS D 25, class E 20; the rest of each type is OTHER's:
 *   20 A B C D E,  5 A B C D -,  10 A B C - -,  10 A B - - -,
 *   20 - B - - -,  35 - - - - -
 */
static void moab_usage(struct ts_cred_usage *cu)
{
	usage_init(cu);
	charge(cu, USER_A, GROUP_B, ACCOUNT_C, QOS_D, CLASS_E, 20);
	charge(cu, USER_A, GROUP_B, ACCOUNT_C, QOS_D, OTHER, 5);
	charge(cu, USER_A, GROUP_B, ACCOUNT_C, OTHER, OTHER, 10);
	charge(cu, USER_A, GROUP_B, OTHER, OTHER, OTHER, 10);
	charge(cu, OTHER, GROUP_B, OTHER, OTHER, OTHER, 20);
	charge(cu, OTHER, OTHER, OTHER, OTHER, OTHER, 35);
}

static void take(struct ts_cred_shares *s, const struct ts_cred_usage *cu,
		 const struct ts_targets *tg)
{
	struct ts_error err = TS_ERROR_INIT;
	int calls = 0;

	ck_assert_int_eq(ts_cred_shares_take(s, cu, tg, id_of, &calls, &err),
			 TS_OK);
}

static const uint32_t moab_job[TS_CRED_N] = { USER_A, GROUP_B, ACCOUNT_C, QOS_D,
					      CLASS_E };
/* FSUSERWEIGHT .. FSCLASSWEIGHT of Moab's example; FSWEIGHT 100. */
static const double moab_weight[TS_CRED_N] = { 10, 20, 30, 40, 0 };

/*
 * Moab's worked example of the fair-share component (credential_fs.h,
 * from Adaptive Computing's documentation), from usage kept per
 * credential and a targets file: user A target 50 usage 45, group B no
 * target usage 65, account C target 25 usage 35, QOS D floor 10+ usage
 * 25, class E no target usage 20; FSWEIGHT 100, weights 10, 20, 30, 40,
 * 0: deltas 5, 0, -10, 0, 0 and 100 x (10 x 5 + 30 x -10) = -25000.  The
 * factor is credential_fs.h's 0.5 + sum / (200 x (10 + 30 + 40)).
 */
START_TEST(moab_example_from_kept_usage_gives_minus_25000)
{
	struct ts_targets *tg = parse_ok("user A@* 50\n"
					 "account C 25\n"
					 "qos D 10+\n");
	struct ts_cred_shares s = TS_CRED_SHARES_INIT;
	const double want[TS_CRED_N] = { 5, 0, -10, 0, 0 };
	static const double pct[TS_CRED_N] = { 45, 65, 35, 25, 20 };
	struct ts_cred_usage cu;
	struct ts_cred_fs fs;
	int c;

	moab_usage(&cu);
	take(&s, &cu, tg);
	for (c = 0; c < TS_CRED_N; c++) {
		const struct ts_cred_share *r =
			ts_cred_shares_find(&s, c, moab_job[c]);

		ck_assert_ptr_nonnull(r);
		ck_assert_double_eq_tol(r->usage_pct, pct[c], 1e-9);
		/* each type: its credential and OTHER, summing to 100 */
		ck_assert_uint_eq(s.n[c], 2);
		ck_assert_double_eq_tol(r->usage_pct + s.row[c][1].usage_pct,
					100, 1e-9);
	}
	ck_assert_ptr_eq(ts_cred_shares_find(&s, TS_CRED_USER, USER_A)->target,
			 ts_targets_find_cred(tg, TS_CRED_USER, "A"));
	ck_assert_ptr_null(
		ts_cred_shares_find(&s, TS_CRED_GROUP, GROUP_B)->target);
	ck_assert_uint_eq(s.unresolved, 0);

	ts_cred_shares_job(&s, moab_job, moab_weight, 100, DIFF, &fs);
	for (c = 0; c < TS_CRED_N; c++)
		ck_assert_msg(fabs(fs.delta[c] - want[c]) < 1e-9,
			      "%s: delta %.17g, want %g", ts_cred_name(c),
			      fs.delta[c], want[c]);
	ck_assert_double_eq_tol(fs.sum, -250, 1e-9);
	ck_assert_double_eq_tol(fs.component, -25000, 1e-9);
	ck_assert_double_eq_tol(fs.factor, 0.5 - 250 / (200.0 * 80), 1e-12);
	ts_cred_shares_free(&s);
	ts_cred_usage_free(&cu);
	ts_targets_free(tg);
}
END_TEST

/*
 * An idle credential (a target, no usage) gets a row at 0 %: its whole
 * target is its delta (T - 0), a floor's too (it only raises), a cap's
 * is 0 (it only lowers); under '%' 1 - 0 / T = 1.
 */
START_TEST(idle_credential_with_target_gets_row_at_zero_and_whole_target)
{
	struct ts_targets *tg = parse_ok("group idle 30\n"
					 "qos idle 10+\n"
					 "class idle 20-\n");
	struct ts_cred_shares s = TS_CRED_SHARES_INIT;
	const uint32_t job[TS_CRED_N] = { USER_A, 77, ACCOUNT_C, 78, 79 };
	const double weight[TS_CRED_N] = { 1, 1, 1, 1, 1 };
	const struct ts_cred_share *r;
	struct ts_cred_usage cu;
	struct ts_cred_fs fs;

	moab_usage(&cu);
	take(&s, &cu, tg);
	r = ts_cred_shares_find(&s, TS_CRED_GROUP, 77);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->usage_pct == 0);
	ck_assert_ptr_eq(r->target,
			 ts_targets_find_cred(tg, TS_CRED_GROUP, "idle"));
	/* B, OTHER and the idle group, in rising id order */
	ck_assert_uint_eq(s.n[TS_CRED_GROUP], 3);
	ck_assert_uint_eq(s.row[TS_CRED_GROUP][0].id, 77);
	ck_assert_uint_eq(s.row[TS_CRED_GROUP][1].id, GROUP_B);
	ck_assert_uint_eq(s.row[TS_CRED_GROUP][2].id, OTHER);

	ts_cred_shares_job(&s, job, weight, 1, DIFF, &fs);
	ck_assert(fs.delta[TS_CRED_GROUP] == 30);
	ck_assert(fs.delta[TS_CRED_QOS] == 10);
	ck_assert(fs.delta[TS_CRED_CLASS] == 0);
	ck_assert(fs.delta[TS_CRED_USER] == 0);	   /* no target */
	ck_assert(fs.delta[TS_CRED_ACCOUNT] == 0); /* no target */
	ck_assert(fs.sum == 40);
	ts_cred_shares_job(&s, job, weight, 1, RATIO, &fs);
	ck_assert(fs.delta[TS_CRED_GROUP] == 1);
	ck_assert(fs.delta[TS_CRED_QOS] == 1);
	ck_assert(fs.delta[TS_CRED_CLASS] == 0);
	ts_cred_shares_free(&s);
	ts_cred_usage_free(&cu);
	ts_targets_free(tg);
}
END_TEST

/*
 * A target whose name the callback cannot resolve is skipped, and
 * counted; an entry with only a feasibility cap is no target (its row
 * holds the cap).  A job's
 * credential absent from the table has usage 0 and no target: delta 0.
 */
START_TEST(unresolved_name_skipped_and_absent_id_gives_delta_zero)
{
	struct ts_targets *tg = parse_ok("user ghost@* 40\n"
					 "user A@* 50\n"
					 "account C fscap=10%\n"
					 "account nowhere 5+\n"
					 "qos ghostq 10 fscap=5%\n"
					 "user A 20 # an association's\n");
	struct ts_cred_shares s = TS_CRED_SHARES_INIT;
	struct ts_error err = TS_ERROR_INIT;
	const uint32_t job[TS_CRED_N] = { 4242, 4243, ACCOUNT_C, 4244, 4245 };
	struct ts_cred_usage cu;
	struct ts_cred_fs fs;
	int calls = 0, c;

	moab_usage(&cu);
	ck_assert_int_eq(ts_cred_shares_take(&s, &cu, tg, id_of, &calls, &err),
			 TS_OK);
	/*
	 * ghost@*, A@*, account nowhere, account C's cap and qos ghostq's
	 * target and cap asked (a cap gets a row of its own, no target);
	 * user A (an association's) not.  ghostq counts once.
	 */
	ck_assert_int_eq(calls, 6);
	ck_assert_uint_eq(s.unresolved, 3);
	ck_assert_ptr_nonnull(
		ts_cred_shares_find(&s, TS_CRED_ACCOUNT, ACCOUNT_C)->fscap);
	ck_assert_uint_eq(s.n[TS_CRED_USER], 2); /* A and OTHER */
	ck_assert_ptr_nonnull(
		ts_cred_shares_find(&s, TS_CRED_USER, USER_A)->target);
	ck_assert_ptr_null(
		ts_cred_shares_find(&s, TS_CRED_ACCOUNT, ACCOUNT_C)->target);
	ck_assert_uint_eq(s.n[TS_CRED_ACCOUNT], 2);
	ck_assert_ptr_null(ts_cred_shares_find(&s, TS_CRED_USER, 4242));
	ck_assert_ptr_null(ts_cred_shares_find(&s, TS_CRED_N, USER_A));

	ts_cred_shares_job(&s, job, moab_weight, 100, DIFF, &fs);
	for (c = 0; c < TS_CRED_N; c++)
		ck_assert(fs.delta[c] == 0);
	ck_assert(fs.component == 0 && fs.factor == 0.5);
	/* no callback: no name resolves, nothing fails */
	ck_assert_int_eq(ts_cred_shares_take(&s, &cu, tg, NULL, NULL, &err),
			 TS_OK);
	ck_assert_uint_eq(s.unresolved, 5);
	ck_assert_ptr_null(
		ts_cred_shares_find(&s, TS_CRED_USER, USER_A)->target);
	ts_cred_shares_free(&s);
	ts_cred_usage_free(&cu);
	ts_targets_free(tg);
}
END_TEST

/* NULL cu and NULL tg: an empty table, every job 0.5 and component 0. */
START_TEST(null_usage_and_targets_give_empty_table_and_half)
{
	struct ts_targets *tg = parse_ok("user A@* 50\nqos D 10+\n");
	struct ts_cred_shares s = TS_CRED_SHARES_INIT;
	struct ts_cred_usage cu;
	struct ts_cred_fs fs;
	int c;

	take(&s, NULL, NULL);
	for (c = 0; c < TS_CRED_N; c++)
		ck_assert_uint_eq(s.n[c], 0);
	ck_assert_ptr_null(ts_cred_shares_find(&s, TS_CRED_USER, USER_A));
	ts_cred_shares_job(&s, moab_job, moab_weight, 100, DIFF, &fs);
	ck_assert(fs.factor == 0.5 && fs.component == 0);
	ts_cred_shares_job(NULL, moab_job, moab_weight, 100, RATIO, &fs);
	ck_assert(fs.factor == 0.5 && fs.component == 0);

	/* usage, no targets: rows without a target, still 0.5 */
	moab_usage(&cu);
	take(&s, &cu, NULL);
	ck_assert_uint_eq(s.n[TS_CRED_USER], 2);
	ck_assert_ptr_null(s.row[TS_CRED_USER][0].target);
	ts_cred_shares_job(&s, moab_job, moab_weight, 100, DIFF, &fs);
	ck_assert(fs.factor == 0.5 && fs.component == 0);

	/* targets, no usage: their rows at 0 %, whole target as delta */
	take(&s, NULL, tg);
	ck_assert_uint_eq(s.n[TS_CRED_USER], 1);
	ck_assert_uint_eq(s.n[TS_CRED_GROUP], 0);
	ts_cred_shares_job(&s, moab_job, moab_weight, 100, DIFF, &fs);
	ck_assert(fs.delta[TS_CRED_USER] == 50);
	ck_assert(fs.delta[TS_CRED_QOS] == 10);
	ts_cred_shares_free(&s);
	ts_cred_shares_free(&s); /* twice is fine */
	ts_cred_usage_free(&cu);
	ts_targets_free(tg);
}
END_TEST

/*
 * On target: usage that is exactly each target (a total of 200: 50 is
 * 25 %, 20 is 10 %) gives every delta 0, component 0 and factor 0.5.
 */
START_TEST(on_target_gives_half)
{
	struct ts_targets *tg = parse_ok("user A@* 25\n"
					 "group B 10-\n"
					 "account C 25+\n"
					 "qos D 10\n"
					 "class E 25\n");
	struct ts_cred_shares s = TS_CRED_SHARES_INIT;
	const double weight[TS_CRED_N] = { 1, 2, 3, 4, 5 };
	enum ts_fs_policy policy;
	struct ts_cred_usage cu;
	struct ts_cred_fs fs;
	int c;

	usage_init(&cu);
	charge(&cu, USER_A, GROUP_B, ACCOUNT_C, QOS_D, CLASS_E, 20);
	charge(&cu, USER_A, OTHER, ACCOUNT_C, OTHER, CLASS_E, 30);
	charge(&cu, OTHER, OTHER, OTHER, OTHER, OTHER, 150);
	take(&s, &cu, tg);
	for (policy = DIFF; policy <= RATIO; policy++) {
		ts_cred_shares_job(&s, moab_job, weight, 100, policy, &fs);
		for (c = 0; c < TS_CRED_N; c++)
			ck_assert(fs.delta[c] == 0);
		ck_assert(fs.component == 0);
		ck_assert(fs.factor == 0.5);
	}
	ts_cred_shares_free(&s);
	ts_cred_usage_free(&cu);
	ts_targets_free(tg);
}
END_TEST

/*
 * Properties over random usage, targets, weights and policies: rows in
 * strictly rising id order, each found again, each share the kept one
 * (0..100); every job's factor in [0,1], its component finite.  The
 * table is taken again each round into the same arrays.
 */
START_TEST(random_tables_sorted_and_factor_bounded)
{
	static const char *const kinds[TS_CRED_N] = { "user", "group",
						      "account", "qos",
						      "class" };
	static const char *const names[] = { "A", "B",	  "C",	   "D",
					     "E", "idle", "other", "x" };
	static const char *const suffix[] = { "", "+", "-" };
	struct ts_cred_shares s = TS_CRED_SHARES_INIT;
	unsigned seed = 27;
	int round, c, k;

	for (round = 0; round < 300; round++) {
		struct ts_cred_usage cu;
		struct ts_targets *tg;
		char text[2048] = "";
		double weight[TS_CRED_N];
		uint32_t job[TS_CRED_N];
		struct ts_cred_fs fs;
		size_t i;

		usage_init(&cu);
		for (k = rand_r(&seed) % 12; k > 0; k--)
			charge(&cu, rand_r(&seed) % 4 ? USER_A : OTHER,
			       rand_r(&seed) % 2 ? GROUP_B : 77,
			       rand_r(&seed) % 3 ? ACCOUNT_C : TS_CRED_ID_NONE,
			       rand_r(&seed) % 5,
			       rand_r(&seed) % 2 ? CLASS_E : 6,
			       rand_r(&seed) % 1000);
		for (c = 0; c < TS_CRED_N; c++)
			for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
				if (rand_r(&seed) % 3 == 0)
					snprintf(text + strlen(text),
						 sizeof(text) - strlen(text),
						 "%s %s%s %d%s\n", kinds[c],
						 names[i], c ? "" : "@*",
						 rand_r(&seed) % 101,
						 suffix[rand_r(&seed) % 3]);
		tg = parse_ok(text);
		take(&s, rand_r(&seed) % 8 ? &cu : NULL,
		     rand_r(&seed) % 8 ? tg : NULL);
		for (c = 0; c < TS_CRED_N; c++) {
			for (i = 0; i < s.n[c]; i++) {
				const struct ts_cred_share *r = &s.row[c][i];

				ck_assert(i == 0 || s.row[c][i - 1].id < r->id);
				ck_assert_ptr_eq(
					ts_cred_shares_find(&s, c, r->id), r);
				ck_assert(r->usage_pct >= 0 &&
					  r->usage_pct <= 100);
			}
			weight[c] = rand_r(&seed) % 50;
		}
		for (k = 0; k < 20; k++) {
			job[TS_CRED_USER] = rand_r(&seed) % 2 ? USER_A : OTHER;
			job[TS_CRED_GROUP] = rand_r(&seed) % 2 ? GROUP_B : 77;
			job[TS_CRED_ACCOUNT] = rand_r(&seed) % 400;
			job[TS_CRED_QOS] = rand_r(&seed) % 80;
			job[TS_CRED_CLASS] = rand_r(&seed) % 80;
			ts_cred_shares_job(&s, job, weight, 100,
					   rand_r(&seed) % 2 ? RATIO : DIFF,
					   &fs);
			ck_assert(fs.factor >= 0 && fs.factor <= 1);
			ck_assert(isfinite(fs.component) && isfinite(fs.sum));
		}
		ts_cred_usage_free(&cu);
		ts_targets_free(tg);
	}
	ts_cred_shares_free(&s);
}
END_TEST

/* id_of() moved up by *arg: ids past TS_CRED_DIRECT_IDS are hashed. */
static uint32_t id_of_shifted(enum ts_cred c, const char *name, void *arg)
{
	int calls = 0;
	uint32_t id = id_of(c, name, &calls);

	return id == TS_CRED_ID_NONE ? id : id + *(const uint32_t *)arg;
}

/*
 * The priority pass's path, ts_cred_shares_factor() after a weigh, gives
 * the same double as ts_cred_shares_job()'s factor, for every job of
 * random tables indexed directly (small ids) and hashed (ids from 2^20
 * and near 2^32), after a take that keeps the weighing too; unweighed,
 * every job is on target (0.5).
 */
START_TEST(weighed_factor_is_the_jobs_bit_for_bit)
{
	static const uint32_t shift[] = { 0, UINT32_C(1) << 20,
					  UINT32_C(0xfffff000) };
	static const char *const kinds[TS_CRED_N] = { "user", "group",
						      "account", "qos",
						      "class" };
	static const char *const names[] = { "A", "B", "C", "D", "E", "idle" };
	struct ts_cred_shares s = TS_CRED_SHARES_INIT;
	struct ts_cred_shares only = TS_CRED_SHARES_INIT;
	const uint32_t none[TS_CRED_N] = { 1, 2, 3, 4, 5 };
	unsigned seed = 2701;
	int round, c, k;

	ck_assert(ts_cred_shares_factor(&s, none) == 0.5);
	for (round = 0; round < 300; round++) {
		struct ts_error err = TS_ERROR_INIT;
		uint32_t off = shift[round % 3], job[TS_CRED_N];
		enum ts_fs_policy policy = rand_r(&seed) % 2 ? RATIO : DIFF;
		double weight[TS_CRED_N], fast;
		struct ts_cred_usage cu;
		struct ts_targets *tg;
		char text[1024] = "";
		struct ts_cred_fs fs;
		size_t i;

		usage_init(&cu);
		for (k = rand_r(&seed) % 10; k > 0; k--)
			charge(&cu, USER_A + off, GROUP_B + off,
			       rand_r(&seed) % 2 ? ACCOUNT_C + off : OTHER,
			       QOS_D + off, CLASS_E + off,
			       1 + rand_r(&seed) % 1000);
		charge(&cu, OTHER, OTHER, OTHER, OTHER, OTHER, 100);
		for (c = 0; c < TS_CRED_N; c++) {
			for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
				if (rand_r(&seed) % 2)
					snprintf(text + strlen(text),
						 sizeof(text) - strlen(text),
						 "%s %s%s %d%s\n", kinds[c],
						 names[i], c ? "" : "@*",
						 rand_r(&seed) % 101,
						 rand_r(&seed) % 2 ? "" : "+");
			/* some 0, some negative, one not finite */
			weight[c] = (double)(rand_r(&seed) % 7) - 2;
		}
		if (round % 10 == 9)
			weight[rand_r(&seed) % TS_CRED_N] = NAN;
		tg = parse_ok(text);
		ts_cred_shares_weigh(&s, weight, policy);
		ck_assert_int_eq(ts_cred_shares_take(&s, &cu, tg, id_of_shifted,
						     &off, &err),
				 TS_OK);
		/* the plugin's table: the entries' rows alone */
		only.entries_only = true;
		ts_cred_shares_weigh(&only, weight, policy);
		ck_assert_int_eq(ts_cred_shares_take(&only, &cu, tg,
						     id_of_shifted, &off, &err),
				 TS_OK);
		ck_assert_uint_eq(only.n_capped, s.n_capped);
		for (c = 0; c < TS_CRED_N; c++) {
			ck_assert_uint_le(only.n[c], s.n[c]);
			for (i = 0; i < only.n[c]; i++)
				ck_assert(only.row[c][i].target ||
					  only.row[c][i].fscap);
		}
		for (k = 0; k < 40; k++) {
			job[TS_CRED_USER] =
				(rand_r(&seed) % 2 ? USER_A : OTHER) + off;
			job[TS_CRED_GROUP] =
				rand_r(&seed) % 2 ? GROUP_B + off : 77 + off;
			job[TS_CRED_ACCOUNT] =
				ACCOUNT_C + off + rand_r(&seed) % 2;
			job[TS_CRED_QOS] = QOS_D + off * (rand_r(&seed) % 2);
			job[TS_CRED_CLASS] = CLASS_E + off;
			ts_cred_shares_job(&s, job, weight, 100, policy, &fs);
			fast = ts_cred_shares_factor(&s, job);
			ck_assert_msg(!memcmp(&fast, &fs.factor, sizeof(fast)),
				      "round %d: %.17g, not %.17g", round, fast,
				      fs.factor);
			fast = ts_cred_shares_factor(&only, job);
			ck_assert_msg(
				!memcmp(&fast, &fs.factor, sizeof(fast)),
				"round %d, entries only: %.17g, not %.17g",
				round, fast, fs.factor);
		}
		ts_cred_usage_free(&cu);
		ts_targets_free(tg);
	}
	ts_cred_shares_free(&s);
	ts_cred_shares_free(&only);
	ck_assert(ts_cred_shares_factor(&s, none) == 0.5);
}
END_TEST

/*
 * Feasibility caps on credentials (caps.h's rule: at or over the cap):
 * Moab's usage with user A@* fscap=45 (absolute: A's weighted usage is
 * 45, capped), group B fscap=70% (65 %: free), qos D fscap=25% (25 %:
 * capped), class E fscap=30 (20: free), an idle group at fscap=0% (0 %
 * >= 0: capped at once), and account C fscap=10% (over it, but an
 * account's cap is the tree's: neither counted nor returned).  A job
 * gets its first capped credential in the order user, group, QOS,
 * class, and a reason naming its type and name.
 */
START_TEST(credential_caps_hold_at_or_over_and_name_the_credential)
{
	struct ts_targets *tg = parse_ok("user A@* fscap=45\n"
					 "group B fscap=70%\n"
					 "qos D 10+ fscap=25%\n"
					 "class E fscap=30\n"
					 "group idle fscap=0%\n"
					 "account C fscap=10%\n");
	struct ts_cred_shares s = TS_CRED_SHARES_INIT;
	const uint32_t qos_job[TS_CRED_N] = { OTHER, GROUP_B, ACCOUNT_C, QOS_D,
					      CLASS_E };
	const uint32_t free_job[TS_CRED_N] = { OTHER, GROUP_B, ACCOUNT_C, OTHER,
					       CLASS_E };
	const uint32_t idle_job[TS_CRED_N] = { OTHER, 77, OTHER, OTHER, OTHER };
	const struct ts_cred_share *r;
	struct ts_cred_usage cu;
	enum ts_cred c = TS_CRED_N;
	char why[80];

	moab_usage(&cu);
	take(&s, &cu, tg);
	ck_assert_uint_eq(s.n_capped, 3);
	r = ts_cred_shares_find(&s, TS_CRED_USER, USER_A);
	ck_assert(r->capped && r->usage == 45);
	ck_assert_ptr_eq(r->fscap,
			 ts_targets_find_cred_fscap(tg, TS_CRED_USER, "A"));
	ck_assert(!ts_cred_shares_find(&s, TS_CRED_GROUP, GROUP_B)->capped);
	ck_assert(!ts_cred_shares_find(&s, TS_CRED_CLASS, CLASS_E)->capped);
	ck_assert(ts_cred_shares_find(&s, TS_CRED_ACCOUNT, ACCOUNT_C)->capped);
	/* the floor's target and the cap share one row */
	r = ts_cred_shares_find(&s, TS_CRED_QOS, QOS_D);
	ck_assert(r->capped && r->target && r->fscap);

	r = ts_cred_shares_capped(&s, moab_job, &c);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(c, TS_CRED_USER);
	ts_cred_shares_describe(r, c, why, sizeof(why));
	ck_assert_str_eq(why, "FairshareCap:user:A=45>=45");
	r = ts_cred_shares_capped(&s, qos_job, &c);
	ck_assert_int_eq(c, TS_CRED_QOS);
	ts_cred_shares_describe(r, c, why, sizeof(why));
	ck_assert_str_eq(why, "FairshareCap:qos:D=25.00%>=25%");
	ck_assert_ptr_null(ts_cred_shares_capped(&s, free_job, &c));
	r = ts_cred_shares_capped(&s, idle_job, &c);
	ck_assert_int_eq(c, TS_CRED_GROUP);
	ts_cred_shares_describe(r, c, why, sizeof(why));
	ck_assert_str_eq(why, "FairshareCap:group:idle=0.00%>=0%");
	/* cut short, still a string */
	ck_assert_uint_eq(ts_cred_shares_describe(r, c, why, 8),
			  strlen("FairshareCap:group:idle=0.00%>=0%"));
	ck_assert_str_eq(why, "Fairsha");
	ck_assert_ptr_null(ts_cred_shares_capped(NULL, moab_job, &c));

	/* uncapped (a configuration without fscap=): no job, no row */
	ts_cred_shares_uncap(&s);
	ck_assert_uint_eq(s.n_capped, 0);
	ck_assert_ptr_null(ts_cred_shares_capped(&s, moab_job, &c));
	ck_assert_ptr_null(ts_cred_shares_capped(&s, idle_job, &c));
	ck_assert(!ts_cred_shares_find(&s, TS_CRED_QOS, QOS_D)->capped);
	take(&s, &cu, tg); /* the next take caps again */
	ck_assert_ptr_nonnull(ts_cred_shares_capped(&s, moab_job, &c));

	/* raised past the usage: nothing capped */
	ts_targets_free(tg);
	tg = parse_ok("qos D fscap=26%\nuser A@* fscap=46\n");
	take(&s, &cu, tg);
	ck_assert_uint_eq(s.n_capped, 0);
	ck_assert_ptr_null(ts_cred_shares_capped(&s, moab_job, &c));
	ts_cred_shares_free(&s);
	ts_cred_usage_free(&cu);
	ts_targets_free(tg);
}
END_TEST

Suite *suite_cred_shares(void)
{
	Suite *s = suite_create("cred_shares");
	TCase *tc = tcase_create("cred_shares");

	tcase_add_test(tc, moab_example_from_kept_usage_gives_minus_25000);
	tcase_add_test(
		tc,
		idle_credential_with_target_gets_row_at_zero_and_whole_target);
	tcase_add_test(tc,
		       unresolved_name_skipped_and_absent_id_gives_delta_zero);
	tcase_add_test(tc, null_usage_and_targets_give_empty_table_and_half);
	tcase_add_test(tc, on_target_gives_half);
	tcase_add_test(tc, random_tables_sorted_and_factor_bounded);
	tcase_add_test(tc, weighed_factor_is_the_jobs_bit_for_bit);
	tcase_add_test(tc,
		       credential_caps_hold_at_or_over_and_name_the_credential);
	suite_add_tcase(s, tc);
	return s;
}
