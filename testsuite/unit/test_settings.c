/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * treeshare's PriorityParameters settings (src/settings.c): every key of
 * issue 5, defaults, each bad value's message, the cross-key rules, the
 * PriorityFlags agreement rule and the canonical rendering.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "settings.h"

/* The variables the plugin offers (issue 5, item 4), in some order. */
static const char *const plugin_vars[] = {
	"age",
	"assoc",
	"fairshare",
	"jobsize",
	"partition",
	"qos",
	"site",
	"nice",
	"fairshare_tree_usage",
	"fairshare_perc",
	"fairshare_factor",
};
enum { V_TU = 8, V_PERC = 9, V_FACTOR = 10, N_VARS = 11 };
static struct ts_formula_names plugin_names = { plugin_vars, N_VARS };
static const struct ts_formula_vars vars = { ts_formula_by_name,
					     &plugin_names };

static void parse_ok(const char *text, struct ts_settings *s)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_msg(ts_settings_parse(text, &vars, NULL, s, &err) == TS_OK,
		      "%s: %s", text, err.msg);
}

START_TEST(settings_empty_text_gives_the_defaults)
{
	struct ts_settings s;
	char buf[16] = "x";

	parse_ok(NULL, &s);
	ck_assert_uint_eq(s.given, 0);
	ck_assert_uint_eq(s.usage_window, 0);
	ck_assert_uint_eq(s.usage_depth, 8);
	ck_assert(s.usage_decay == 1.0);
	ck_assert_ptr_null(s.fs_targets);
	ck_assert(!s.fs_ratio);
	ck_assert_ptr_null(s.formula);
	ck_assert_ptr_null(s.formula_text);
	ck_assert_int_eq(ts_settings_render(&s, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	ts_settings_free(&s);
	parse_ok(" , ", &s);
	ck_assert_uint_eq(s.given, 0);
	ts_settings_free(&s);
}
END_TEST

/*
 * Every key at once: seed 003's John example (FSINTERVAL 12:00:00,
 * FSDEPTH 4, FSDECAY 0.5) and seed 000's formula, which gives Bob's
 * 2^-(0.125 / 0.2) = 0.648.
 */
START_TEST(settings_reads_every_key)
{
	struct ts_settings s;
	double v[N_VARS] = { 0 };

	parse_ok("fairshare=pbs,usage_window=12:00:00,usage_depth=4,"
		 "usage_decay=0.5,fs_targets=/etc/slurm/fs_targets,"
		 "fs_policy=ratio,"
		 "formula=\"pow(2, -(fairshare_tree_usage/fairshare_perc))\"",
		 &s);
	ck_assert_uint_eq(s.given, TS_SET_FAIRSHARE | TS_SET_USAGE_WINDOW |
					   TS_SET_USAGE_DEPTH |
					   TS_SET_USAGE_DECAY |
					   TS_SET_FS_TARGETS |
					   TS_SET_FS_POLICY | TS_SET_FORMULA);
	ck_assert_int_eq(s.fairshare, TS_FS_PBS);
	ck_assert_uint_eq(s.usage_window, 43200);
	ck_assert_uint_eq(s.usage_depth, 4);
	ck_assert(s.usage_decay == 0.5);
	ck_assert_str_eq(s.fs_targets, "/etc/slurm/fs_targets");
	ck_assert(s.fs_ratio);
	ck_assert_str_eq(s.formula_text,
			 "pow(2, -(fairshare_tree_usage/fairshare_perc))");
	ck_assert_ptr_nonnull(s.formula);
	ck_assert_uint_eq(ts_formula_var_span(s.formula), V_PERC + 1);
	v[V_TU] = 0.125;
	v[V_PERC] = 0.2;
	ck_assert(ts_formula_eval(s.formula, v, NULL) ==
		  pow(2.0, -(0.125 / 0.2)));
	ck_assert_double_eq_tol(ts_formula_eval(s.formula, v, NULL), 0.648,
				0.0005);
	ts_settings_free(&s);
	ck_assert_ptr_null(s.formula);
	ck_assert_uint_eq(s.given, 0);
}
END_TEST

START_TEST(settings_match_names_without_regard_to_case)
{
	struct ts_settings s;

	parse_ok("FairShare=Fair_Tree,FS_TARGETS=/t,FS_Policy=Ratio", &s);
	ck_assert_int_eq(s.fairshare, TS_FS_FAIR_TREE);
	ck_assert(s.fs_ratio);
	ts_settings_free(&s);
	parse_ok("fairshare=CLASSIC,fs_targets=/t,fs_policy=difference", &s);
	ck_assert_int_eq(s.fairshare, TS_FS_CLASSIC);
	ck_assert(!s.fs_ratio);
	ts_settings_free(&s);
	parse_ok("fairshare=depth_oblivious", &s);
	ck_assert_int_eq(s.fairshare, TS_FS_DEPTH_OBLIVIOUS);
	ts_settings_free(&s);
}
END_TEST

START_TEST(settings_window_defaults_apply_with_usage_window_alone)
{
	struct ts_settings s;

	parse_ok("usage_window=2d", &s);
	ck_assert_uint_eq(s.usage_window, 2 * 86400);
	ck_assert_uint_eq(s.usage_depth, 8);
	ck_assert(s.usage_decay == 1.0);
	ts_settings_free(&s);
	parse_ok("usage_window=1-00:00:00,usage_depth=64,usage_decay=0", &s);
	ck_assert_uint_eq(s.usage_window, 86400);
	ck_assert_uint_eq(s.usage_depth, 64);
	ck_assert(s.usage_decay == 0.0);
	ts_settings_free(&s);
	parse_ok("usage_window=365d,usage_depth=1,usage_decay=1", &s);
	ck_assert_uint_eq(s.usage_window, 365 * 86400);
	ts_settings_free(&s);
}
END_TEST

/* Each bad value: the code, its column and a message naming key and value. */
START_TEST(settings_report_each_bad_value_with_key_value_and_column)
{
	static const struct {
		const char *text;
		int code;
		long col;
		const char *msg;
	} cases[] = {
		{ "fairshare=fairtree", TS_EINVAL, 11,
		  "fairshare=fairtree (column 11): expected classic, "
		  "depth_oblivious, fair_tree or pbs" },
		{ "fairshare=\"\"", TS_EINVAL, 11,
		  "fairshare= (column 11): empty value" },
		{ "usage_window=0", TS_ERANGE, 14,
		  "usage_window=0 (column 14): must be longer than 0 seconds" },
		{ "usage_window=12:61:00", TS_EINVAL, 14,
		  "usage_window=12:61:00 (column 14): minutes must be below "
		  "60" },
		{ "usage_window=366d", TS_ERANGE, 14,
		  "usage_window=366d (column 14): must be at most 365 days "
		  "(31536000 seconds)" },
		{ "usage_window=12 h", TS_EINVAL, 14,
		  "usage_window=12 h (column 14): expected seconds (43200), a "
		  "number with unit s, m, h or d (12h), [[DD:]HH:]MM:SS or "
		  "D-HH[:MM[:SS]]" },
		{ "usage_window=1h,usage_depth=0", TS_ERANGE, 29,
		  "usage_depth=0 (column 29): must be a whole number from 1 to "
		  "64" },
		{ "usage_window=1h,usage_depth=65", TS_ERANGE, 29,
		  "usage_depth=65 (column 29): must be a whole number from 1 "
		  "to 64" },
		{ "usage_window=1h,usage_depth=99999999999999999999", TS_ERANGE,
		  29,
		  "usage_depth=99999999999999999999 (column 29): must be a "
		  "whole number from 1 to 64" },
		{ "usage_window=1h,usage_depth=4x", TS_EINVAL, 29,
		  "usage_depth=4x (column 29): must be a whole number from 1 "
		  "to 64" },
		{ "usage_window=1h,usage_decay=1.5", TS_ERANGE, 29,
		  "usage_decay=1.5 (column 29): must be a decimal number from "
		  "0 to 1" },
		{ "usage_window=1h,usage_decay=-0.5", TS_EINVAL, 29,
		  "usage_decay=-0.5 (column 29): must be a decimal number from "
		  "0 to 1" },
		{ "usage_window=1h,usage_decay=0.5.1", TS_EINVAL, 29,
		  "usage_decay=0.5.1 (column 29): must be a decimal number "
		  "from 0 to 1" },
		{ "usage_window=1h,usage_decay=1e999", TS_EINVAL, 29,
		  "usage_decay=1e999 (column 29): must be a decimal number "
		  "from 0 to 1" },
		{ "fs_targets=etc/targets", TS_EINVAL, 12,
		  "fs_targets=etc/targets (column 12): must be an absolute "
		  "path" },
		{ "fs_targets=relative/"
		  "0123456789012345678901234567890123456789",
		  TS_EINVAL, 12,
		  "fs_targets=relative/0123456789012345678901234567890... "
		  "(column 12): "
		  "must be an absolute path" },
		{ "fs_targets=/x,fs_policy=percent", TS_EINVAL, 25,
		  "fs_policy=percent (column 25): expected difference or "
		  "ratio" },
		{ "formula=", TS_EINVAL, 9,
		  "formula= (column 9): empty value" },
		{ "fs_targets=/t,fs_qos_weight=1.5", TS_EINVAL, 29,
		  "fs_qos_weight=1.5 (column 29): must be a whole number from "
		  "-1000000 to 1000000" },
		{ "fs_targets=/t,fs_weight=1000001", TS_ERANGE, 25,
		  "fs_weight=1000001 (column 25): must be a whole number from "
		  "-1000000 to 1000000" },
		{ "fs_targets=/t,fs_group_weight=-", TS_EINVAL, 31,
		  "fs_group_weight=- (column 31): must be a whole number from "
		  "-1000000 to 1000000" },
		{ "fs_targets=/t,fs_user_weight=99999999999999999999999",
		  TS_ERANGE, 30,
		  "fs_user_weight=99999999999999999999999 (column 30): must be a "
		  "whole number from -1000000 to 1000000" },
		{ "usage_window=1d,fs_import=stats", TS_EINVAL, 27,
		  "fs_import=stats (column 27): must be an absolute path" },
		{ "fs_targets=/t,fs_class_weight=1e3", TS_EINVAL, 31,
		  "fs_class_weight=1e3 (column 31): must be a whole number from "
		  "-1000000 to 1000000" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_settings s;
		struct ts_error err = TS_ERROR_INIT;

		ck_assert_msg(ts_settings_parse(cases[i].text, &vars, NULL, &s,
						&err) == cases[i].code,
			      "%s: %d %s", cases[i].text, err.code, err.msg);
		ck_assert_uint_eq(s.given, 0);
		ck_assert_ptr_null(s.fs_targets);
		ck_assert_ptr_null(s.formula);
		ck_assert_int_eq(s.fs_weight, 1);
		ck_assert_int_eq(err.index, cases[i].col);
		ck_assert_str_eq(err.msg, cases[i].msg);
	}
}
END_TEST

START_TEST(settings_unknown_key_is_named_with_the_known_ones)
{
	struct ts_settings s;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_settings_parse("fairshare=pbs, fair_share=pbs",
					   &vars, NULL, &s, &err),
			 TS_EKEY);
	ck_assert_int_eq(err.index, 16);
	ck_assert_str_eq(
		err.msg,
		"fair_share (column 16): unknown key; known keys are "
		"fairshare, usage_window, usage_depth, usage_decay, "
		"fs_targets, fs_policy, formula, usage_metric, "
		"fs_weight, fs_user_weight, fs_group_weight, "
		"fs_account_weight, fs_qos_weight, fs_class_weight and "
		"fs_import");
}
END_TEST

START_TEST(settings_usage_metric_is_dedicated_unless_consumed)
{
	struct ts_settings s;
	struct ts_error err = TS_ERROR_INIT;
	char buf[128];

	ck_assert_int_eq(ts_settings_parse("", &vars, NULL, &s, &err), TS_OK);
	ck_assert(!s.consumed);
	ts_settings_free(&s);
	ck_assert_int_eq(ts_settings_parse("usage_metric=Consumed", &vars, NULL,
					   &s, &err),
			 TS_OK);
	ck_assert(s.consumed);
	ts_settings_render(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "usage_metric=consumed");
	ts_settings_free(&s);
	ck_assert_int_eq(
		ts_settings_parse("usage_window=1h,usage_metric=dedicated",
				  &vars, NULL, &s, &err),
		TS_OK);
	ck_assert(!s.consumed);
	ts_settings_render(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "usage_window=01:00:00,usage_depth=8,"
			      "usage_decay=1,usage_metric=dedicated");
	ts_settings_free(&s);
	ck_assert_int_eq(ts_settings_parse("fairshare=pbs,usage_metric=cpu",
					   &vars, NULL, &s, &err),
			 TS_EINVAL);
	ck_assert_int_eq(err.index, 28);
	ck_assert_str_eq(err.msg, "usage_metric=cpu (column 28): expected "
				  "dedicated or consumed");
	/* The reader of this key alone (sshare-ext). */
	ck_assert(
		ts_settings_consumed("formula='x + y',USAGE_METRIC=consumed"));
	ck_assert(!ts_settings_consumed("usage_metric=dedicated"));
	ck_assert(!ts_settings_consumed("usage_metric=cpu"));
	ck_assert(!ts_settings_consumed(NULL));
	ck_assert(!ts_settings_consumed("usage_metric=\"consumed"));
}
END_TEST

START_TEST(settings_syntax_errors_of_the_list_come_through)
{
	struct ts_settings s;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_settings_parse("fairshare=pbs,FAIRSHARE=classic",
					   &vars, NULL, &s, &err),
			 TS_ESYNTAX);
	ck_assert_str_eq(err.msg, "FAIRSHARE: column 15: key given twice "
				  "(first at column 1)");
	ck_assert_uint_eq(s.given, 0);
}
END_TEST

/* A key that only means something with another: refused, naming both. */
START_TEST(settings_window_and_policy_keys_need_their_partner)
{
	static const struct {
		const char *text;
		long col;
		const char *msg;
	} cases[] = {
		{ "usage_depth=4", 1,
		  "usage_depth (column 1) needs usage_window: without it "
		  "usage_depth has no effect" },
		{ "fairshare=pbs,usage_decay=0.5", 15,
		  "usage_decay (column 15) needs usage_window: without it "
		  "usage_decay has no effect" },
		{ "fs_policy=ratio", 1,
		  "fs_policy (column 1) needs fs_targets: without it fs_policy "
		  "has no effect" },
		{ "fairshare=pbs,fs_qos_weight=40", 15,
		  "fs_qos_weight (column 15) needs fs_targets: without it "
		  "fs_qos_weight has no effect" },
		{ "fs_weight=100", 1,
		  "fs_weight (column 1) needs fs_targets: without it fs_weight "
		  "has no effect" },
		{ "fairshare=pbs,fs_import=/var/spool/maui/stats", 15,
		  "fs_import (column 15) needs usage_window: without it "
		  "fs_import has no effect" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_settings s;
		struct ts_error err = TS_ERROR_INIT;

		ck_assert_int_eq(
			ts_settings_parse(cases[i].text, &vars, NULL, &s, &err),
			TS_EINVAL);
		ck_assert_int_eq(err.index, cases[i].col);
		ck_assert_str_eq(err.msg, cases[i].msg);
	}
}
END_TEST

/* A formula error names the key and the column within the formula; the
 * error's index is the column in the whole PriorityParameters text. */
START_TEST(settings_formula_error_gives_the_formula_column)
{
	static const struct {
		const char *text;
		int code;
		long col;
		const char *msg;
	} cases[] = {
		{ "fairshare=pbs,formula=\"pow(2, -(fairshare_tree_usage/"
		  "fairshare_perc)\"",
		  TS_ESYNTAX, 69,
		  "formula: column 46: expected ')' after function arguments, "
		  "found end of formula" },
		{ "formula=2 * agee", TS_ESYNTAX, 13,
		  "formula: column 5: unknown variable 'agee'" },
		{ "formula='1e999'", TS_ERANGE, 10,
		  "formula: column 1: number '1e999' is too large" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_settings s;
		struct ts_error err = TS_ERROR_INIT;

		ck_assert_int_eq(
			ts_settings_parse(cases[i].text, &vars, NULL, &s, &err),
			cases[i].code);
		ck_assert_int_eq(err.index, cases[i].col);
		ck_assert_str_eq(err.msg, cases[i].msg);
		ck_assert_ptr_null(s.formula);
	}
}
END_TEST

static void count_line(void *arg, enum ts_log_level level, const char *msg)
{
	(void)level;
	(void)msg;
	(*(int *)arg)++;
}

START_TEST(settings_formula_faults_reach_the_given_logger)
{
	static int lines;
	struct ts_settings s;
	struct ts_error err = TS_ERROR_INIT;
	double v[N_VARS] = { 0 };
	struct ts_logger lg = { count_line, &lines };

	ck_assert_int_eq(ts_settings_parse("formula=fairshare_tree_usage/"
					   "fairshare_perc",
					   &vars, &lg, &s, &err),
			 TS_OK);
	ck_assert(ts_formula_eval(s.formula, v, NULL) == 0.0);
	ck_assert(ts_formula_eval(s.formula, v, NULL) == 0.0);
	ck_assert_int_eq(lines, 1);
	ts_settings_free(&s);
}
END_TEST

/*
 * The PriorityFlags rule (priority_treeshare(5)): DEPTH_OBLIVIOUS demands
 * fairshare=depth_oblivious, NO_FAIR_TREE forbids fairshare=fair_tree,
 * the default allows anything.  Bits as slurmctld sets them:
 * DEPTH_OBLIVIOUS also clears FAIR_TREE.
 */
START_TEST(settings_flags_contradiction_names_both)
{
	static const struct {
		const char *text;
		bool fair_tree, depth_oblivious;
		const char *msg; /* NULL: agrees */
	} cases[] = {
		{ "fairshare=classic", true, false, NULL },
		{ "fairshare=depth_oblivious", true, false, NULL },
		{ "fairshare=fair_tree", true, false, NULL },
		{ "fairshare=pbs", true, false, NULL },
		{ "fairshare=classic", false, false, NULL },
		{ "fairshare=depth_oblivious", false, false, NULL },
		{ "fairshare=fair_tree", false, false,
		  "fairshare=fair_tree contradicts PriorityFlags=NO_FAIR_TREE: "
		  "remove one of them" },
		{ "fairshare=pbs", false, false, NULL },
		{ "fairshare=classic", false, true,
		  "fairshare=classic contradicts "
		  "PriorityFlags=DEPTH_OBLIVIOUS: remove one of them" },
		{ "fairshare=depth_oblivious", false, true, NULL },
		{ "fairshare=fair_tree", false, true,
		  "fairshare=fair_tree contradicts "
		  "PriorityFlags=DEPTH_OBLIVIOUS: remove one of them" },
		{ "fairshare=pbs", false, true,
		  "fairshare=pbs contradicts PriorityFlags=DEPTH_OBLIVIOUS: "
		  "remove one of them" },
		{ "", false, true, NULL },
		{ "", false, false, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_settings s;
		struct ts_error err = TS_ERROR_INIT;
		int rc;

		parse_ok(cases[i].text, &s);
		rc = ts_settings_check_flags(&s, cases[i].fair_tree,
					     cases[i].depth_oblivious, &err);
		if (!cases[i].msg) {
			ck_assert_msg(rc == TS_OK, "%s: %s", cases[i].text,
				      err.msg);
		} else {
			ck_assert_int_eq(rc, TS_EINVAL);
			ck_assert_str_eq(err.msg, cases[i].msg);
		}
		ts_settings_free(&s);
	}
}
END_TEST

START_TEST(settings_algo_follows_flags_unless_fairshare_is_given)
{
	struct ts_settings s;

	parse_ok("", &s);
	ck_assert_int_eq(ts_settings_algo(&s, true, false), TS_FS_FAIR_TREE);
	ck_assert_int_eq(ts_settings_algo(&s, false, false), TS_FS_CLASSIC);
	ck_assert_int_eq(ts_settings_algo(&s, false, true),
			 TS_FS_DEPTH_OBLIVIOUS);
	ts_settings_free(&s);
	parse_ok("fairshare=pbs", &s);
	ck_assert_int_eq(ts_settings_algo(&s, true, false), TS_FS_PBS);
	ck_assert_int_eq(ts_settings_algo(&s, false, false), TS_FS_PBS);
	ts_settings_free(&s);
	parse_ok("fairshare=classic", &s);
	ck_assert_int_eq(ts_settings_algo(&s, true, false), TS_FS_CLASSIC);
	ts_settings_free(&s);
}
END_TEST

/*
 * Maui's fair-share weights (issue 27): FSWEIGHT defaults to 1 and the
 * five FS<TYPE>WEIGHT to 0, as Maui's component and subcomponent
 * weights do; Moab's example sets 100, 10, 20, 30, 40 and 0.
 */
START_TEST(settings_read_maui_weights_with_maui_defaults)
{
	static const long moab[TS_CRED_N] = { 10, 20, 30, 40, 0 };
	struct ts_settings s;
	int c;

	parse_ok("fs_targets=/t", &s);
	ck_assert_int_eq(s.fs_weight, 1);
	for (c = 0; c < TS_CRED_N; c++)
		ck_assert_int_eq(s.cred_weight[c], 0);
	ts_settings_free(&s);
	parse_ok("fs_targets=/t,fs_weight=100,fs_user_weight=10,"
		 "fs_group_weight=20,fs_account_weight=30,fs_qos_weight=40,"
		 "fs_class_weight=0",
		 &s);
	ck_assert_int_eq(s.fs_weight, 100);
	for (c = 0; c < TS_CRED_N; c++)
		ck_assert_int_eq(s.cred_weight[c], moab[c]);
	ck_assert(s.given & TS_SET_FS_WEIGHT);
	ck_assert(s.given & TS_SET_FS_CRED_WEIGHT);
	ts_settings_free(&s);
	parse_ok("fs_targets=/t,fs_weight=-1000000,fs_class_weight=1000000",
		 &s);
	ck_assert_int_eq(s.fs_weight, -1000000);
	ck_assert_int_eq(s.cred_weight[TS_CRED_CLASS], 1000000);
	ts_settings_free(&s);
}
END_TEST

START_TEST(settings_render_is_canonical_and_reads_back)
{
	static const struct {
		const char *text;
		const char *canon;
	} cases[] = {
		{ "FAIRSHARE=PBS , formula = 'pow(2,-(fairshare_tree_usage/"
		  "fairshare_perc))', usage_decay=0.50,usage_window=43200,"
		  "fs_policy=RATIO,fs_targets=\"/etc/slurm/fs targets\"",
		  "fairshare=pbs,usage_window=12:00:00,usage_depth=8,"
		  "usage_decay=0.5,fs_targets=\"/etc/slurm/fs targets\","
		  "fs_policy=ratio,formula=\"pow(2, -(fairshare_tree_usage / "
		  "fairshare_perc))\"" },
		{ "usage_window=1d,usage_depth=4",
		  "usage_window=1-00:00:00,"
		  "usage_depth=4,usage_decay=1" },
		{ "fs_targets=/t", "fs_targets=/t,fs_policy=difference" },
		{ "formula=age*1000+(fairshare_factor)*2e3",
		  "formula=\"age * 1000 + fairshare_factor * 2000\"" },
		{ "fairshare=depth_oblivious", "fairshare=depth_oblivious" },
		{ "fs_targets=/t,FS_QOS_WEIGHT=+40,fs_user_weight=-3",
		  "fs_targets=/t,fs_policy=difference,fs_weight=1,"
		  "fs_user_weight=-3,fs_group_weight=0,fs_account_weight=0,"
		  "fs_qos_weight=40,fs_class_weight=0" },
		{ "FS_IMPORT='/var/spool/maui/stats',usage_window=2d",
		  "usage_window=2-00:00:00,usage_depth=8,usage_decay=1,"
		  "fs_import=/var/spool/maui/stats" },
	};
	char buf[512], again[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ts_settings s, t;

		parse_ok(cases[i].text, &s);
		ck_assert_int_eq(ts_settings_render(&s, buf, sizeof(buf)),
				 (int)strlen(cases[i].canon));
		ck_assert_str_eq(buf, cases[i].canon);
		parse_ok(buf, &t);
		ts_settings_render(&t, again, sizeof(again));
		ck_assert_str_eq(again, buf);
		/* a short buffer is cut, terminated, and the length told */
		ck_assert_int_eq(ts_settings_render(&s, buf, 10),
				 (int)strlen(cases[i].canon));
		ck_assert_uint_eq(strlen(buf), 9);
		ts_settings_free(&s);
		ts_settings_free(&t);
	}
}
END_TEST

Suite *suite_settings(void)
{
	Suite *s = suite_create("settings");
	TCase *tc = tcase_create("settings");

	tcase_add_test(tc, settings_empty_text_gives_the_defaults);
	tcase_add_test(tc, settings_reads_every_key);
	tcase_add_test(tc, settings_match_names_without_regard_to_case);
	tcase_add_test(tc,
		       settings_window_defaults_apply_with_usage_window_alone);
	tcase_add_test(
		tc, settings_report_each_bad_value_with_key_value_and_column);
	tcase_add_test(tc, settings_unknown_key_is_named_with_the_known_ones);
	tcase_add_test(tc, settings_usage_metric_is_dedicated_unless_consumed);
	tcase_add_test(tc, settings_syntax_errors_of_the_list_come_through);
	tcase_add_test(tc, settings_window_and_policy_keys_need_their_partner);
	tcase_add_test(tc, settings_formula_error_gives_the_formula_column);
	tcase_add_test(tc, settings_formula_faults_reach_the_given_logger);
	tcase_add_test(tc, settings_flags_contradiction_names_both);
	tcase_add_test(tc,
		       settings_algo_follows_flags_unless_fairshare_is_given);
	tcase_add_test(tc, settings_read_maui_weights_with_maui_defaults);
	tcase_add_test(tc, settings_render_is_canonical_and_reads_back);
	suite_add_tcase(s, tc);
	return s;
}
