/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host list expressions as slurmctld passes them to SuspendProgram and
 * ResumeProgram (RECIPE 4.2: "n[1-4]", "n[3-4]", "n2"), and capmc's nid
 * lists (seed 001: "capmc node_off --nids 24-25").
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "power/config.h"
#include "power/hostlist.h"
#include "power/nid.h"

static void expect_names(const char *expr, const char *const *want, size_t n)
{
	struct ts_hostlist hl = TS_HOSTLIST_INIT;
	struct ts_error err = TS_ERROR_INIT;
	size_t i;

	ck_assert_int_eq(ts_hostlist_expand(&hl, expr, &err), TS_OK);
	ck_assert_uint_eq(hl.n, n);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(hl.name[i], want[i]);
	ts_hostlist_free(&hl);
}

START_TEST(hostlist_expands_ranges_and_lists_in_order)
{
	static const char *const a[] = { "n1", "n2", "n3", "n4", "n7" };
	static const char *const b[] = { "n3", "n4", "login1", "n2" };

	expect_names("n[1-4,7]", a, 5);
	expect_names("n[3-4],login1 n2", b, 4);
}
END_TEST

START_TEST(hostlist_keeps_width_of_first_number)
{
	static const char *const nid[] = { "nid00024", "nid00025" };
	static const char *const pad[] = { "n08", "n09", "n10" };
	static const char *const nat[] = { "n8", "n9", "n10" };

	expect_names("nid000[24-25]", nid, 2);
	expect_names("n[08-10]", pad, 3);
	expect_names("n[8-10]", nat, 3);
}
END_TEST

START_TEST(hostlist_expands_two_groups_as_product)
{
	static const char *const v[] = { "r1n3", "r1n4", "r2n3", "r2n4" };

	expect_names("r[1-2]n[3-4]", v, 4);
}
END_TEST

static void expect_error(const char *expr, int code, long column,
			 const char *msg)
{
	struct ts_hostlist hl = TS_HOSTLIST_INIT;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_hostlist_expand(&hl, expr, &err), code);
	ck_assert_int_eq(err.index, column);
	ck_assert_str_eq(err.msg, msg);
	ck_assert_uint_eq(hl.n, 0);
	ts_hostlist_free(&hl);
}

START_TEST(hostlist_rejects_malformed_expressions_with_column)
{
	expect_error("n[1-4", TS_ESYNTAX, 2, "column 2: '[' without ']'");
	expect_error("n1]", TS_ESYNTAX, 3, "column 3: ']' without '['");
	expect_error("n[4-1]", TS_ERANGE, 6,
		     "column 6: range 4-1 runs backwards");
	expect_error("n[1-x]", TS_ESYNTAX, 5,
		     "column 5: expected a number after '-'");
	expect_error("n[a]", TS_ESYNTAX, 3,
		     "column 3: expected a number (at most 18 digits) in "
		     "brackets");
	expect_error("n[1;2]", TS_ESYNTAX, 4,
		     "column 4: unexpected ';' in brackets");
	expect_error("n[0-99999999]", TS_ERANGE, 13,
		     "column 13: range 0-99999999 has more than 100000 names");
}
END_TEST

/* Issue 13: max_concurrent_nodes goes to 100000; so must a request. */
START_TEST(hostlist_limit_is_max_concurrent_nodes_upper_bound)
{
	struct ts_hostlist hl = TS_HOSTLIST_INIT;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_power_config cfg;

	ck_assert_int_eq(ts_hostlist_expand(&hl, "n[1-100000]", &err), TS_OK);
	ck_assert_uint_eq(hl.n, 100000);
	ck_assert_str_eq(hl.name[99999], "n100000");
	ts_hostlist_free(&hl);
	ck_assert_int_eq(ts_hostlist_expand(&hl, "n[1-100000],m1", &err),
			 TS_ERANGE);
	ck_assert_str_eq(err.msg, "more than 100000 host names");
	ts_hostlist_free(&hl);

	ck_assert_int_eq(ts_power_config_init(&cfg, &err), TS_OK);
	ts_error_clear(&err);
	ck_assert_int_eq(ts_power_config_set(&cfg, "max_concurrent_nodes",
					     "100000", 0, &err),
			 TS_OK);
	ck_assert_int_eq(ts_power_config_set(&cfg, "max_concurrent_nodes",
					     "100001", 0, &err),
			 TS_ERANGE);
	ts_power_config_free(&cfg);
}
END_TEST

START_TEST(hostlist_empty_expression_is_empty_list)
{
	struct ts_hostlist hl = TS_HOSTLIST_INIT;
	struct ts_error err = TS_ERROR_INIT;
	char *s;

	ck_assert_int_eq(ts_hostlist_expand(&hl, "  ", &err), TS_OK);
	ck_assert_uint_eq(hl.n, 0);
	s = ts_hostlist_ranged(&hl, &err);
	ck_assert_str_eq(s, "");
	free(s);
	ts_hostlist_free(&hl);
}
END_TEST

static void expect_ranged(const char *expr, const char *want)
{
	struct ts_hostlist hl = TS_HOSTLIST_INIT;
	struct ts_error err = TS_ERROR_INIT;
	char *s;

	ck_assert_int_eq(ts_hostlist_expand(&hl, expr, &err), TS_OK);
	s = ts_hostlist_ranged(&hl, &err);
	ck_assert_str_eq(s, want);
	free(s);
	ts_hostlist_free(&hl);
}

START_TEST(hostlist_ranged_merges_runs_like_slurm)
{
	expect_ranged("n3,n1,n2,n4", "n[1-4]");
	expect_ranged("n2", "n2");
	expect_ranged("n4,n3,n3", "n[3-4]");
	expect_ranged("n9,n10,n12", "n[9-10,12]");
	expect_ranged("nid00025,nid00024", "nid[00024-00025]");
	expect_ranged("login1,n1,n2", "login1,n[1-2]");
	expect_ranged("head,n1", "head,n1");
}
END_TEST

/* Property: expanding the ranged form gives back the same set. */
START_TEST(hostlist_ranged_round_trips_mixed_widths)
{
	static const char *const in = "n007,n8,n9,n10,n011,n012,x,y01,y1,y2";
	struct ts_hostlist a = TS_HOSTLIST_INIT, b = TS_HOSTLIST_INIT;
	struct ts_error err = TS_ERROR_INIT;
	char *s;
	size_t i;

	ck_assert_int_eq(ts_hostlist_expand(&a, in, &err), TS_OK);
	s = ts_hostlist_ranged(&a, &err);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(ts_hostlist_expand(&b, s, &err), TS_OK);
	ts_hostlist_uniq(&a);
	ts_hostlist_uniq(&b);
	ck_assert_uint_eq(a.n, b.n);
	for (i = 0; i < a.n; i++)
		ck_assert_str_eq(a.name[i], b.name[i]);
	free(s);
	ts_hostlist_free(&a);
	ts_hostlist_free(&b);
}
END_TEST

START_TEST(nid_defaults_to_trailing_digits_of_name)
{
	ck_assert_int_eq(ts_nid_from_name("nid00024"), 24);
	ck_assert_int_eq(ts_nid_from_name("n7"), 7);
	ck_assert_int_eq(ts_nid_from_name("nid00000"), 0);
	ck_assert_int_eq(ts_nid_from_name("login"), -1);
	ck_assert_int_eq(ts_nid_from_name("n99999999999"), -1);
}
END_TEST

/* Seed 001: nodes nid00024 and nid00025 are "--nids 24-25". */
START_TEST(nid_ranges_match_capmc_syntax_of_seed)
{
	static const long seed[] = { 25, 24 };
	static const long mixed[] = { 30, 24, 26, 25, 24 };
	struct ts_error err = TS_ERROR_INIT;
	char *s;

	s = ts_nid_ranges(seed, 2, &err);
	ck_assert_str_eq(s, "24-25");
	free(s);
	s = ts_nid_ranges(mixed, 5, &err);
	ck_assert_str_eq(s, "24-26,30");
	free(s);
	s = ts_nid_ranges(seed, 1, &err);
	ck_assert_str_eq(s, "25");
	free(s);
}
END_TEST

Suite *suite_power_hostlist(void)
{
	Suite *s = suite_create("power_hostlist");
	TCase *tc = tcase_create("hostlist");

	tcase_add_test(tc, hostlist_expands_ranges_and_lists_in_order);
	tcase_add_test(tc, hostlist_keeps_width_of_first_number);
	tcase_add_test(tc, hostlist_expands_two_groups_as_product);
	tcase_add_test(tc, hostlist_rejects_malformed_expressions_with_column);
	tcase_add_test(tc, hostlist_limit_is_max_concurrent_nodes_upper_bound);
	tcase_add_test(tc, hostlist_empty_expression_is_empty_list);
	tcase_add_test(tc, hostlist_ranged_merges_runs_like_slurm);
	tcase_add_test(tc, hostlist_ranged_round_trips_mixed_widths);
	tcase_add_test(tc, nid_defaults_to_trailing_digits_of_name);
	tcase_add_test(tc, nid_ranges_match_capmc_syntax_of_seed);
	suite_add_tcase(s, tc);
	return s;
}
