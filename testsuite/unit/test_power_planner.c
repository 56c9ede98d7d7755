/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_power's decisions (seed 001, PBS PP-824) on hand-made snapshots:
 * refusals, ramp steps, claim repair and the periodic cycle's choices.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "power/planner.h"

static struct ts_power_config cfg;

static void setup(void)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_config_init(&cfg, &err), TS_OK);
}

static void teardown(void)
{
	ts_power_config_free(&cfg);
}

/* The planner's verdict on op for node under cfg. */
static enum ts_power_verdict refusal(enum ts_power_op op, const char *node,
				     int busy, int has_sleep)
{
	return ts_power_planner_refusal(&cfg, op, node, busy, has_sleep);
}

START_TEST(power_off_needs_enable_eligibility_and_an_idle_node)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(refusal(TS_POWER_OP_OFF, "n1", 0, 1),
			 TS_POWER_REFUSED_DISABLED);
	cfg.power_on_off_enable = 1;
	/* Default poweroff_eligible is none. */
	ck_assert_int_eq(refusal(TS_POWER_OP_OFF, "n1", 0, 1),
			 TS_POWER_REFUSED_INELIGIBLE);
	ck_assert_int_eq(ts_power_config_set(&cfg, "poweroff_eligible",
					     "n[1-2]", 1, &err),
			 TS_OK);
	ck_assert_int_eq(refusal(TS_POWER_OP_OFF, "n1", 0, 1),
			 TS_POWER_PENDING);
	ck_assert_int_eq(refusal(TS_POWER_OP_OFF, "n1", 1, 1),
			 TS_POWER_REFUSED_BUSY);
	ck_assert_int_eq(refusal(TS_POWER_OP_OFF, "n3", 0, 1),
			 TS_POWER_REFUSED_INELIGIBLE);
}
END_TEST

START_TEST(power_on_and_ramp_up_are_never_refused_by_policy)
{
	/* Everything disabled, nothing eligible, node busy. */
	ck_assert_int_eq(refusal(TS_POWER_OP_ON, "n1", 1, 0), TS_POWER_PENDING);
	ck_assert_int_eq(refusal(TS_POWER_OP_RAMP_UP, "n1", 1, 1),
			 TS_POWER_PENDING);
	ck_assert_int_eq(refusal(TS_POWER_OP_RAMP_UP, "n1", 0, 0),
			 TS_POWER_REFUSED_UNSUPPORTED);
	ck_assert_int_eq(refusal(TS_POWER_OP_RAMP_DOWN, "n1", 0, 1),
			 TS_POWER_REFUSED_DISABLED);
	cfg.power_ramp_rate_enable = 1;
	ck_assert_int_eq(refusal(TS_POWER_OP_RAMP_DOWN, "n1", 1, 1),
			 TS_POWER_REFUSED_BUSY);
}
END_TEST

/* Seed 001: power off only eligible nodes, else sleep-state ramping. */
START_TEST(suspend_ramps_down_what_it_may_not_power_off)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(
		ts_power_config_set(&cfg, "poweroff_eligible", "n1", 1, &err),
		TS_OK);
	cfg.power_on_off_enable = 1;
	cfg.power_ramp_rate_enable = 1;
	ck_assert_int_eq(ts_power_planner_suspend_op(&cfg, "n1", 1),
			 TS_POWER_OP_OFF);
	ck_assert_int_eq(ts_power_planner_suspend_op(&cfg, "n2", 1),
			 TS_POWER_OP_RAMP_DOWN);
	/* IPMI has no sleep states: a power off, to be refused. */
	ck_assert_int_eq(ts_power_planner_suspend_op(&cfg, "n2", 0),
			 TS_POWER_OP_OFF);
	cfg.power_on_off_enable = 0;
	ck_assert_int_eq(ts_power_planner_suspend_op(&cfg, "n1", 1),
			 TS_POWER_OP_RAMP_DOWN);
	cfg.power_ramp_rate_enable = 0;
	ck_assert_int_eq(ts_power_planner_suspend_op(&cfg, "n1", 1),
			 TS_POWER_OP_OFF);
	ck_assert_int_eq(refusal(TS_POWER_OP_OFF, "n1", 0, 1),
			 TS_POWER_REFUSED_DISABLED);
}
END_TEST

/* Seed 001's lines end in "--limit 4" (down) and "--limit 0" (up). */
START_TEST(ramp_steps_level_by_level_to_deepest_and_back_to_zero)
{
	static const long odd[] = { 2, 5 };
	struct ts_error err = TS_ERROR_INIT;
	long cur = 0, seen[8], n = 0, nx;

	while ((nx = ts_power_planner_next_limit(&cfg, TS_POWER_OP_RAMP_DOWN,
						 cur)) >= 0)
		seen[n++] = cur = nx;
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(seen[0], 1);
	ck_assert_int_eq(seen[3], 4);
	n = 0;
	while ((nx = ts_power_planner_next_limit(&cfg, TS_POWER_OP_RAMP_UP,
						 cur)) >= 0)
		seen[n++] = cur = nx;
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(seen[0], 3);
	ck_assert_int_eq(seen[3], 0);

	ck_assert_int_eq(ts_power_config_set_levels(&cfg, odd, 2, &err), TS_OK);
	ck_assert_int_eq(
		ts_power_planner_next_limit(&cfg, TS_POWER_OP_RAMP_DOWN, 3), 5);
	ck_assert_int_eq(
		ts_power_planner_next_limit(&cfg, TS_POWER_OP_RAMP_UP, 3), 2);
	ck_assert_int_eq(
		ts_power_planner_next_limit(&cfg, TS_POWER_OP_RAMP_UP, 2), 0);
	ck_assert_int_eq(
		ts_power_planner_next_limit(&cfg, TS_POWER_OP_RAMP_DOWN, 5),
		-1);
}
END_TEST

static int dead_is_13(void *ctx, long owner)
{
	(void)ctx;
	return owner != 13;
}

static time_t no_clock(void *ctx)
{
	(void)ctx;
	return 0;
}

static void no_sleep(void *ctx, unsigned long ms)
{
	(void)ctx;
	(void)ms;
}

START_TEST(repair_releases_claims_of_dead_or_stale_owners_only)
{
	struct ts_power_env env = { TS_POWER_ENV_VERSION, no_clock, no_sleep,
				    dead_is_13, NULL };
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;
	long a = ts_power_state_get(&st, "a", &err);
	long b = ts_power_state_get(&st, "b", &err);
	long c = ts_power_state_get(&st, "c", &err);

	st.node[a].op = TS_POWER_OP_OFF; /* dead owner */
	st.node[a].owner = 13;
	st.node[a].since = 1000;
	st.node[a].power = TS_POWER_ON;
	st.node[b].op = TS_POWER_OP_RAMP_DOWN; /* alive, fresh */
	st.node[b].owner = 14;
	st.node[b].since = 1000;
	st.node[b].sleep = 2;
	st.node[c].op = TS_POWER_OP_RAMP_DOWN; /* alive, too old */
	st.node[c].owner = 15;
	st.node[c].since = 10;
	st.node[c].sleep = 3;
	ck_assert_uint_eq(ts_power_planner_repair(&st, &env, 1010, 500, NULL),
			  2);
	ck_assert_int_eq(st.node[a].op, TS_POWER_OP_NONE);
	ck_assert_int_eq(st.node[a].power, TS_POWER_UNKNOWN);
	ck_assert_int_eq(st.node[b].op, TS_POWER_OP_RAMP_DOWN);
	ck_assert_int_eq(st.node[c].op, TS_POWER_OP_NONE);
	ck_assert_int_eq(st.node[c].sleep, 3); /* last recorded step kept */
	ts_power_state_free(&st);
}
END_TEST

/*
 * A run holds a claim at most for one power operation (two commands of
 * command_retries + 1 tries of command_timeout each, then
 * confirm_timeout, plus soft_off_timeout for a soft off) or one ramp
 * (a command and a pause per level, counted for one level more than
 * there are); a claim older than twice the longer of the two is stale.
 */
START_TEST(stale_limit_exceeds_longest_legitimate_claim)
{
	static const long ten[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct ts_error err = TS_ERROR_INIT;

	/* Defaults: power 2 * 30 * 3 + 300 + 30 = 510 s, ramp
	 * 5 * (5 + 90) = 475 s. */
	ck_assert_int_eq(ts_power_planner_stale_after(&cfg), 2 * 510);
	/* Ten levels, 10 s pauses, 60 s commands tried once: the ramp,
	 * 11 * (10 + 60) = 770 s, outlasts power, 2 * 60 + 300 + 30. */
	ck_assert_int_eq(ts_power_config_set_levels(&cfg, ten, 10, &err),
			 TS_OK);
	cfg.sleep_state_pause = 10;
	cfg.command_timeout = 60;
	cfg.command_retries = 0;
	ck_assert_int_eq(ts_power_planner_stale_after(&cfg), 2 * 770);
	/* A longer confirm_timeout moves it with the power operation. */
	cfg.confirm_timeout = 3600;
	ck_assert_int_eq(ts_power_planner_stale_after(&cfg),
			 2 * (2 * 60 + 3600 + 30));
}
END_TEST

/* n1 busy, n2 idle long, n3 idle briefly, n4 powered down. */
static const struct ts_power_slurm_node snap[] = {
	{ "n1", 1, 0, 0, 0 },
	{ "n2", 0, 1, 0, 10000 },
	{ "n3", 0, 1, 0, 19500 },
	{ "n4", 0, 0, 1, 5000 },
};

static void expect_list(const struct ts_hostlist *hl, const char *want)
{
	struct ts_error err = TS_ERROR_INIT;
	char *s = ts_hostlist_ranged(hl, &err);

	ck_assert_str_eq(s, want);
	free(s);
}

START_TEST(cycle_ramps_down_nodes_idle_longer_than_node_idle_limit)
{
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_power_cycle_plan p;
	struct ts_error err = TS_ERROR_INIT;

	cfg.power_ramp_rate_enable = 1;
	cfg.node_idle_limit = 1000;
	ck_assert_int_eq(ts_power_planner_cycle(&cfg, &st, snap, 4, NULL, 0,
						20000, &p, &err),
			 TS_OK);
	/* n2 idle 10000 s >= 1000; n3 only 500 s; n1 busy; n4 off. */
	expect_list(&p.ramp_down, "n2");
	expect_list(&p.ramp_up, "");
	expect_list(&p.power_up, "");
	ck_assert_int_eq(st.node[ts_power_state_find(&st, "n1")].used, 20000);
	ck_assert_int_eq(st.node[ts_power_state_find(&st, "n2")].used, 10000);
	ts_power_planner_plan_free(&p);

	/* Disabled: nothing is ramped down. */
	cfg.power_ramp_rate_enable = 0;
	ck_assert_int_eq(ts_power_planner_cycle(&cfg, &st, snap, 4, NULL, 0,
						20000, &p, &err),
			 TS_OK);
	expect_list(&p.ramp_down, "");
	ts_power_planner_plan_free(&p);
	ts_power_state_free(&st);
}
END_TEST

START_TEST(cycle_ramps_up_scheduled_nodes_of_first_analyzed_jobs)
{
	const struct ts_power_pending_job jobs[] = {
		{ 7, 25000, "n[2-3]" }, /* second by start time */
		{ 8, 0, "n1" },		/* no estimate: skipped */
		{ 9, 21000, "n2" },	/* earliest */
		{ 10, 30000, "n4" },	/* beyond the limit of 2 */
		{ 11, 22000, NULL },	/* no nodes: skipped */
	};
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_power_cycle_plan p;
	struct ts_error err = TS_ERROR_INIT;
	size_t i;

	cfg.power_ramp_rate_enable = 1;
	cfg.power_on_off_enable = 1;
	cfg.node_idle_limit = 1000;
	cfg.max_jobs_analyze_limit = 2;
	for (i = 0; i < 4; i++) {
		long k = ts_power_state_get(&st, snap[i].name, &err);

		st.node[k].sleep = 4;
	}
	ck_assert_int_eq(ts_power_planner_cycle(&cfg, &st, snap, 4, jobs, 5,
						20000, &p, &err),
			 TS_OK);
	ck_assert_uint_eq(p.jobs_analyzed, 2);
	/* n2, n3 needed by jobs 9 and 7; n1 busy; n4 beyond the limit. */
	expect_list(&p.ramp_up, "n[1-3]");
	expect_list(&p.ramp_down, "");
	expect_list(&p.power_up, "");
	ts_power_planner_plan_free(&p);

	cfg.max_jobs_analyze_limit = 3;
	ck_assert_int_eq(ts_power_planner_cycle(&cfg, &st, snap, 4, jobs, 5,
						20000, &p, &err),
			 TS_OK);
	expect_list(&p.power_up, "n4"); /* powered down, now needed */
	ts_power_planner_plan_free(&p);
	ts_power_state_free(&st);
}
END_TEST

START_TEST(cycle_refuses_bad_sched_nodes_naming_the_job)
{
	const struct ts_power_pending_job bad[] = { { 42, 100, "n[1-" } };
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_power_cycle_plan p;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_planner_cycle(&cfg, &st, snap, 4, bad, 1, 200,
						&p, &err),
			 TS_ESYNTAX);
	ck_assert_ptr_nonnull(strstr(err.msg, "job 42: sched_nodes \"n[1-\""));
	ts_power_state_free(&st);
}
END_TEST

Suite *suite_power_planner(void)
{
	Suite *s = suite_create("power_planner");
	TCase *tc = tcase_create("planner");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, power_off_needs_enable_eligibility_and_an_idle_node);
	tcase_add_test(tc, power_on_and_ramp_up_are_never_refused_by_policy);
	tcase_add_test(tc, suspend_ramps_down_what_it_may_not_power_off);
	tcase_add_test(tc,
		       ramp_steps_level_by_level_to_deepest_and_back_to_zero);
	tcase_add_test(tc, repair_releases_claims_of_dead_or_stale_owners_only);
	tcase_add_test(tc, stale_limit_exceeds_longest_legitimate_claim);
	tcase_add_test(tc,
		       cycle_ramps_down_nodes_idle_longer_than_node_idle_limit);
	tcase_add_test(tc,
		       cycle_ramps_up_scheduled_nodes_of_first_analyzed_jobs);
	tcase_add_test(tc, cycle_refuses_bad_sched_nodes_naming_the_job);
	suite_add_tcase(s, tc);
	return s;
}
