/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_power's configuration keys: seed 001's names and defaults, the
 * string forms the seed writes ("True", "1000"), and one refusal per kind
 * of bad input, each naming the key.
 */
#include <check.h>
#include <string.h>

#include "power/config.h"

/* Seed 001's table: False, False, 1800, 1800, 100, 5. */
START_TEST(config_defaults_are_seed_001s)
{
	struct ts_power_config c;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_config_init(&c, &err), TS_OK);
	ck_assert_int_eq(c.power_ramp_rate_enable, 0);
	ck_assert_int_eq(c.power_on_off_enable, 0);
	ck_assert_int_eq(c.node_idle_limit, 1800);
	ck_assert_int_eq(c.min_node_down_delay, 1800);
	ck_assert_int_eq(c.max_jobs_analyze_limit, 100);
	ck_assert_int_eq(c.max_concurrent_nodes, 5);
	ck_assert_str_eq(c.capmc_path, "/opt/cray/capmc/default/bin/capmc");
	ck_assert_uint_eq(c.poweroff_eligible.n, 0);
	ck_assert_int_eq(ts_power_config_eligible(&c, "nid00024"), 0);
	ts_power_config_free(&c);
}
END_TEST

/* Seed 001's sample file, value for value, strings as written there. */
START_TEST(config_accepts_seed_sample_string_values)
{
	static const char *const kv[][2] = {
		{ "power_ramp_rate_enable", "True" },
		{ "power_on_off_enable", "False" },
		{ "node_idle_limit", "1000" },
		{ "min_node_down_delay", "600" },
		{ "max_jobs_analyze_limit", "80" },
	};
	struct ts_power_config c;
	struct ts_error err = TS_ERROR_INIT;
	size_t i;

	ck_assert_int_eq(ts_power_config_init(&c, &err), TS_OK);
	for (i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		ck_assert_int_eq(
			ts_power_config_set(&c, kv[i][0], kv[i][1], 1, &err),
			TS_OK);
	ck_assert_int_eq(c.power_ramp_rate_enable, 1);
	ck_assert_int_eq(c.power_on_off_enable, 0);
	ck_assert_int_eq(c.node_idle_limit, 1000);
	ck_assert_int_eq(c.min_node_down_delay, 600);
	ck_assert_int_eq(c.max_jobs_analyze_limit, 80);
	/* The same through JSON literals. */
	ck_assert_int_eq(
		ts_power_config_set(&c, "power_on_off_enable", "true", 0, &err),
		TS_OK);
	ck_assert_int_eq(
		ts_power_config_set(&c, "max_concurrent_nodes", "8", 0, &err),
		TS_OK);
	ck_assert_int_eq(c.power_on_off_enable, 1);
	ck_assert_int_eq(c.max_concurrent_nodes, 8);
	ts_power_config_free(&c);
}
END_TEST

/* The two two-word keys take either word and keep the other's default. */
START_TEST(config_backend_and_power_off_method_take_either_word)
{
	struct ts_power_config c;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_config_init(&c, &err), TS_OK);
	ck_assert_int_eq(c.backend, TS_POWER_BACKEND_CAPMC);
	ck_assert_int_eq(c.power_off_method, TS_POWER_OFF_SOFT);
	ck_assert_int_eq(ts_power_config_set(&c, "backend", "ipmi", 1, &err),
			 TS_OK);
	ck_assert_int_eq(c.backend, TS_POWER_BACKEND_IPMI);
	ck_assert_int_eq(c.power_off_method, TS_POWER_OFF_SOFT);
	ck_assert_int_eq(
		ts_power_config_set(&c, "power_off_method", "hard", 1, &err),
		TS_OK);
	ck_assert_int_eq(c.power_off_method, TS_POWER_OFF_HARD);
	ck_assert_int_eq(c.backend, TS_POWER_BACKEND_IPMI);
	ck_assert_int_eq(ts_power_config_set(&c, "backend", "capmc", 1, &err),
			 TS_OK);
	ck_assert_int_eq(
		ts_power_config_set(&c, "power_off_method", "soft", 1, &err),
		TS_OK);
	ck_assert_int_eq(c.backend, TS_POWER_BACKEND_CAPMC);
	ck_assert_int_eq(c.power_off_method, TS_POWER_OFF_SOFT);
	ts_power_config_free(&c);
}
END_TEST

static void expect_refusal(const char *key, const char *text, int quoted,
			   int code, const char *needle)
{
	struct ts_power_config c;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_config_init(&c, &err), TS_OK);
	ck_assert_int_eq(ts_power_config_set(&c, key, text, quoted, &err),
			 code);
	ck_assert_msg(strstr(err.msg, needle), "message \"%s\" lacks \"%s\"",
		      err.msg, needle);
	ts_power_config_free(&c);
}

START_TEST(config_refuses_bad_keys_and_values_naming_them)
{
	expect_refusal("max_concurent_nodes", "5", 0, TS_EKEY,
		       "unknown key \"max_concurent_nodes\"");
	/* bytes of the file reach the message quoted (issue 31) */
	expect_refusal("x\x1b[2J", "5", 0, TS_EKEY,
		       "unknown key \"x\\x1b[2J\"");
	expect_refusal("backend", "\x1b[31mcapmc", 1, TS_EINVAL,
		       "key \"backend\": \"\\x1b[31mcapmc\" is not");
	expect_refusal(
		"node_idle_limit", "1\x9b", 1, TS_EINVAL,
		"key \"node_idle_limit\": \"1\\x9b\" is not a whole number");
	expect_refusal("max_concurrent_nodes", "0", 0, TS_ERANGE,
		       "key \"max_concurrent_nodes\": 0 is out of range "
		       "1..100000");
	expect_refusal("node_idle_limit", "1.5", 0, TS_EINVAL,
		       "key \"node_idle_limit\": 1.5 is not a whole number");
	expect_refusal("node_idle_limit", "-3", 0, TS_ERANGE,
		       "key \"node_idle_limit\": -3 is out of range");
	expect_refusal("node_idle_limit", "ten", 1, TS_EINVAL,
		       "\"ten\" is not a whole number");
	expect_refusal("power_on_off_enable", "yes", 1, TS_EINVAL,
		       "key \"power_on_off_enable\": \"yes\" is not a "
		       "boolean");
	expect_refusal("power_on_off_enable", "1", 0, TS_EINVAL,
		       "is not a boolean");
	expect_refusal("sleep_state_pause", "11", 0, TS_ERANGE,
		       "key \"sleep_state_pause\": 11 is out of range 1..10");
	expect_refusal("sleep_state_pause", "0", 1, TS_ERANGE,
		       "out of range 1..10");
	expect_refusal("backend", "redfish", 1, TS_EINVAL,
		       "key \"backend\": \"redfish\" is not \"capmc\" or "
		       "\"ipmi\"");
	expect_refusal("backend", "ipmi", 0, TS_EINVAL,
		       "is not \"capmc\" or \"ipmi\"");
	expect_refusal("power_off_method", "medium", 1, TS_EINVAL,
		       "key \"power_off_method\": \"medium\" is not "
		       "\"soft\" or \"hard\"");
	expect_refusal("capmc_path", "capmc", 1, TS_EINVAL,
		       "key \"capmc_path\": \"capmc\" is not an absolute path");
	expect_refusal("log_file", "null", 0, TS_EINVAL,
		       "key \"log_file\": null is not a non-empty string");
	expect_refusal("poweroff_eligible", "n[1-", 1, TS_ESYNTAX,
		       "'[' without ']'");
	expect_refusal("nid_map", "3", 0, TS_EINVAL,
		       "key \"nid_map\": 3 is not a JSON object");
}
END_TEST

START_TEST(config_poweroff_eligible_expands_hostlist)
{
	struct ts_power_config c;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_config_init(&c, &err), TS_OK);
	ck_assert_int_eq(ts_power_config_set(&c, "poweroff_eligible",
					     "nid000[24-25],n7", 1, &err),
			 TS_OK);
	ck_assert_int_eq(ts_power_config_eligible(&c, "nid00024"), 1);
	ck_assert_int_eq(ts_power_config_eligible(&c, "nid00025"), 1);
	ck_assert_int_eq(ts_power_config_eligible(&c, "n7"), 1);
	ck_assert_int_eq(ts_power_config_eligible(&c, "nid00026"), 0);
	ts_power_config_free(&c);
}
END_TEST

START_TEST(config_sleep_levels_must_ascend_within_range)
{
	static const long good[] = { 1, 3, 6 }, down[] = { 1, 3, 2 },
			  big[] = { 1, 100 };
	struct ts_power_config c;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_config_init(&c, &err), TS_OK);
	ck_assert_uint_eq(c.n_levels, 4);
	ck_assert_int_eq(c.sleep_state_levels[3], 4);
	ck_assert_int_eq(ts_power_config_set_levels(&c, good, 3, &err), TS_OK);
	ck_assert_uint_eq(c.n_levels, 3);
	ck_assert_int_eq(ts_power_config_set_levels(&c, down, 3, &err),
			 TS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "levels must ascend"));
	ts_error_clear(&err);
	ck_assert_int_eq(ts_power_config_set_levels(&c, big, 2, &err),
			 TS_ERANGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "level 100 is out of range"));
	ts_error_clear(&err);
	ck_assert_int_eq(ts_power_config_set_levels(&c, good, 0, &err),
			 TS_ERANGE);
	ck_assert_uint_eq(c.n_levels, 3); /* refusals changed nothing */
	ts_power_config_free(&c);
}
END_TEST

START_TEST(config_nid_map_numbers_nodes_consecutively)
{
	struct ts_power_config c;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_config_init(&c, &err), TS_OK);
	ck_assert_int_eq(ts_power_config_add_nid(&c, "n[1-4]", 24, &err),
			 TS_OK);
	ck_assert_int_eq(ts_power_config_nid(&c, "n1"), 24);
	ck_assert_int_eq(ts_power_config_nid(&c, "n4"), 27);
	ck_assert_int_eq(ts_power_config_nid(&c, "nid00031"), 31);
	ck_assert_int_eq(ts_power_config_nid(&c, "login"), -1);
	ck_assert_int_eq(ts_power_config_add_nid(&c, "n4", 40, &err),
			 TS_EINVAL);
	ck_assert_str_eq(err.msg, "key \"nid_map\": node n4 is mapped twice");
	ts_error_clear(&err);
	ck_assert_int_eq(ts_power_config_add_nid(&c, "m1", 25, &err),
			 TS_EINVAL);
	ck_assert_str_eq(err.msg,
			 "key \"nid_map\": nid 25 is given to n2 and m1");
	ts_power_config_free(&c);
}
END_TEST

START_TEST(config_bmc_entries_substitute_node_name)
{
	struct ts_power_config c;
	struct ts_error err = TS_ERROR_INIT;
	const struct ts_power_bmc *b;

	ck_assert_int_eq(ts_power_config_init(&c, &err), TS_OK);
	ck_assert_int_eq(ts_power_config_add_bmc(&c, "n[1-2]", "%n-ipmi", 0,
						 "admin", "/etc/bmc.pass",
						 &err),
			 TS_OK);
	ck_assert_int_eq(ts_power_config_add_bmc(&c, "n3", "127.0.0.1", 9003,
						 "admin", "/etc/bmc.pass",
						 &err),
			 TS_OK);
	b = ts_power_config_bmc(&c, "n2");
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(b->address, "n2-ipmi");
	ck_assert_int_eq(b->port, 623);
	ck_assert_int_eq(ts_power_config_bmc(&c, "n3")->port, 9003);
	ck_assert_ptr_null(ts_power_config_bmc(&c, "n4"));
	ck_assert_int_eq(
		ts_power_config_add_bmc(&c, "n3", "x", 0, "admin", "/p", &err),
		TS_EINVAL);
	ck_assert_str_eq(err.msg, "key \"bmc\": node n3 has two BMC entries");
	ts_error_clear(&err);
	ck_assert_int_eq(ts_power_config_add_bmc(&c, "n5", "x", 0, "admin",
						 "bmc.pass", &err),
			 TS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "is not an absolute path"));
	ts_power_config_free(&c);
}
END_TEST

/* A password file must not be readable by group or others. */
START_TEST(config_refuses_password_file_readable_by_others)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(
		ts_power_config_check_secret_mode("n1", "/p", 0100600, &err),
		TS_OK);
	ck_assert_int_eq(
		ts_power_config_check_secret_mode("n1", "/p", 0400, &err),
		TS_OK);
	ck_assert_int_eq(
		ts_power_config_check_secret_mode("n1", "/p", 0100644, &err),
		TS_EINVAL);
	ck_assert_str_eq(err.msg, "bmc n1: password_file /p has mode 0644: "
				  "readable by group or others (chmod 600 /p)");
	ts_error_clear(&err);
	ck_assert_int_eq(
		ts_power_config_check_secret_mode("n1", "/p", 0640, &err),
		TS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "mode 0640"));
}
END_TEST

Suite *suite_power_config(void)
{
	Suite *s = suite_create("power_config");
	TCase *tc = tcase_create("config");

	tcase_add_test(tc, config_defaults_are_seed_001s);
	tcase_add_test(tc, config_accepts_seed_sample_string_values);
	tcase_add_test(tc,
		       config_backend_and_power_off_method_take_either_word);
	tcase_add_test(tc, config_refuses_bad_keys_and_values_naming_them);
	tcase_add_test(tc, config_poweroff_eligible_expands_hostlist);
	tcase_add_test(tc, config_sleep_levels_must_ascend_within_range);
	tcase_add_test(tc, config_nid_map_numbers_nodes_consecutively);
	tcase_add_test(tc, config_bmc_entries_substitute_node_name);
	tcase_add_test(tc, config_refuses_password_file_readable_by_others);
	suite_add_tcase(s, tc);
	return s;
}
