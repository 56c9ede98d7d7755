/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A Maui fair-share history imported and exported (issue 27, migration). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maui_fs_history.h"
#include "maui_seed.h"

#define DAY2 172800 /* the seed's file: Duration 172800 Seconds */

/* A site's names: the position in this table plus 100 is the id. */
static const char *const site_names[] = {
	"USERA", "USERB", "USERC", "USERD", "GROUPA", "GROUPB", "ACCTA",
	"ACCTB", "ACCTC", "0",	   "1",	    "2",      "gpu",
};
#define N_SITE (sizeof(site_names) / sizeof(site_names[0]))

static uint32_t site_id(enum ts_cred type, const char *name, void *arg)
{
	size_t i;

	(void)type;
	(void)arg;
	for (i = 0; i < N_SITE; i++)
		if (!strcmp(site_names[i], name))
			return (uint32_t)(100 + i);
	return TS_CRED_ID_NONE;
}

static const char *site_name(enum ts_cred type, uint32_t id, void *arg)
{
	(void)type;
	(void)arg;
	return id >= 100 && id < 100 + N_SITE ? site_names[id - 100] : NULL;
}

static void read_window(struct ts_maui_fs_window *w, const char *path,
			int64_t epoch, const char *text)
{
	struct ts_error err = TS_ERROR_INIT;

	w->path = path;
	w->epoch = epoch;
	ck_assert_msg(ts_maui_fs_parse(text, strlen(text), &w->file, &err) ==
			      TS_OK,
		      "%s", err.msg);
}

/* Usage per credential with the seed's 2-day windows, depth 4, decay d. */
static void fresh(struct ts_cred_usage *cu, double decay, int64_t now)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_cred_usage_init(cu, DAY2, 4, decay, now, &err),
			 TS_OK);
}

/*
 * The seed's file as the current window: each credential's percentage
 * is its line over TOTAL, and every category (class too, which the file
 * leaves out: all of it without a class) sums to the total.
 */
START_TEST(test_seed_file_imported)
{
	const int64_t start = 10000 * (int64_t)DAY2, now = start + 3600;
	struct ts_maui_fs_import_report rep;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_maui_fs_window w;
	struct ts_cred_usage cu;
	int c;

	fresh(&cu, 1.0, now);
	read_window(&w, "/maui/stats/FS.1728000000", start, maui_seed_file());
	ck_assert_msg(ts_maui_fs_import(&cu, &w, 1, site_id, NULL, now, &rep,
					&err) == TS_OK,
		      "%s", err.msg);
	ck_assert_uint_eq(rep.files, 1);
	ck_assert_uint_eq(rep.entries, 12);
	ck_assert_int_eq(rep.shift, 0);
	ck_assert(rep.total == 600000);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_USER, 100), 25,
				1e-9);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_USER, 102),
				100.0 / 3, 1e-9);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_GROUP, 104),
				350000.0 / 6000, 1e-9);
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_QOS, 110), 75,
				1e-9);
	ck_assert_double_eq_tol(
		ts_cred_usage_pct(&cu, TS_CRED_CLASS, TS_CRED_ID_NONE), 100,
		1e-9);
	for (c = 0; c < TS_CRED_N; c++) {
		ck_assert(ts_windows_get_total(&cu.w[c], 0) == 600000);
		ck_assert(maui_category_sum(&cu, (enum ts_cred)c, 0) == 600000);
	}
	ts_maui_fs_free(&w.file);
	ts_cred_usage_free(&cu);
}
END_TEST

/*
 * Three windows of a history whose windows start an hour after
 * treeshare's: each lands in the window holding its start, in order,
 * with decay 0.5 weighting them 1, 1/2, 1/4; one older than the depth
 * has rolled out.
 */
START_TEST(test_windows_in_order)
{
	const int64_t base = 10000 * (int64_t)DAY2 + 3600;
	const int64_t now = base + 7200;
	static const char *const text[] = {
		"User USERA 10\nUser USERB 30\nTOTAL 40\n",
		"User USERA 20\nTOTAL 20\n",
		"User USERB 8\nTOTAL 10\n",
		"User USERA 1000\nTOTAL 1000\n",
	};
	struct ts_maui_fs_window w[4];
	struct ts_maui_fs_import_report rep;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_cred_usage cu;
	int i;

	fresh(&cu, 0.5, now);
	for (i = 0; i < 4; i++) {
		char path[64];

		snprintf(path, sizeof(path), "FS.%lld",
			 (long long)(base - i * (int64_t)DAY2));
		read_window(&w[i], strdup(path),
			    base - i * (int64_t)DAY2 - (i == 3) * 4 * DAY2,
			    text[i]);
	}
	ck_assert_msg(ts_maui_fs_import(&cu, w, 4, site_id, NULL, now, &rep,
					&err) == TS_OK,
		      "%s", err.msg);
	ck_assert_uint_eq(rep.files, 3);
	ck_assert_uint_eq(rep.rolled_out, 1);
	ck_assert_int_eq(rep.shift, 3600);
	ck_assert(ts_windows_get(&cu.w[TS_CRED_USER], 100, 0) == 10);
	ck_assert(ts_windows_get(&cu.w[TS_CRED_USER], 100, 1) == 20);
	ck_assert(ts_windows_get(&cu.w[TS_CRED_USER], 101, 2) == 8);
	ck_assert(ts_windows_get(&cu.w[TS_CRED_USER], TS_CRED_ID_NONE, 2) == 2);
	ck_assert(ts_windows_get_total(&cu.w[TS_CRED_GROUP], 1) == 20);
	/* (10 + 20/2) / (40 + 20/2 + 10/4) */
	ck_assert_double_eq_tol(ts_cred_usage_pct(&cu, TS_CRED_USER, 100),
				100 * 20 / 52.5, 1e-9);
	for (i = 0; i < 4; i++) {
		free((char *)w[i].path);
		ts_maui_fs_free(&w[i].file);
	}
	ts_cred_usage_free(&cu);
}
END_TEST

/* import one text at epoch; the error's code, its message in msg */
static int import_one(const char *text, int64_t epoch, int64_t now, char *msg,
		      size_t size)
{
	struct ts_maui_fs_import_report rep;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_maui_fs_window w;
	struct ts_cred_usage cu;
	int rc;

	fresh(&cu, 1.0, now);
	read_window(&w, "/stats/FS.x", epoch, text);
	rc = ts_maui_fs_import(&cu, &w, 1, site_id, NULL, now, &rep, &err);
	snprintf(msg, size, "%s", err.msg);
	ts_maui_fs_free(&w.file);
	ts_cred_usage_free(&cu);
	return rc;
}

/* Each refusal names the file, and the line where there is one. */
START_TEST(test_refusals_named)
{
	const int64_t now = 10000 * (int64_t)DAY2 + 60;
	struct ts_maui_fs_import_report rep;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_maui_fs_window w[2];
	struct ts_cred_usage cu;
	char msg[TS_ERROR_MSG_MAX];

	ck_assert_int_eq(
		import_one("# Fairshare Data File (Duration: 86400 Seconds)\n"
			   "TOTAL 1\n",
			   now - 60, now, msg, sizeof(msg)),
		TS_EINVAL);
	ck_assert_msg(
		strstr(msg,
		       "/stats/FS.x line 1: a window of 86400 s, but usage_window is 172800 s"),
		"%s", msg);
	ck_assert_int_eq(
		import_one("TOTAL 1\n", now + 1, now, msg, sizeof(msg)),
		TS_EINVAL);
	ck_assert_msg(strstr(msg, "/stats/FS.x: starts at"), "%s", msg);
	ck_assert_int_eq(
		import_one("User USERA 1\nGroup nobody\\x 2\nTOTAL 3\n",
			   now - 60, now, msg, sizeof(msg)),
		TS_ENOENT);
	ck_assert_msg(
		strstr(msg,
		       "/stats/FS.x line 2: group 'nobody\\\\x': not known here"),
		"%s", msg);

	fresh(&cu, 1.0, now);
	read_window(&w[0], "FS.a", now - 60, "TOTAL 1\n");
	read_window(&w[1], "FS.b", now - 30, "TOTAL 1\n");
	ck_assert_int_eq(
		ts_maui_fs_import(&cu, w, 2, site_id, NULL, now, &rep, &err),
		TS_EINVAL);
	ck_assert_msg(strstr(err.msg, "FS.b: in the same window as FS.a"), "%s",
		      err.msg);
	ts_maui_fs_free(&w[0].file);
	ts_maui_fs_free(&w[1].file);
	ts_cred_usage_free(&cu);
}
END_TEST

/*
 * Export gives back what was imported: every line by name, TOTAL, the
 * window's start and length; its text reads back the same.
 */
START_TEST(test_export_round_trip)
{
	const int64_t start = 10000 * (int64_t)DAY2, now = start + 1;
	struct ts_maui_fs_import_report rep;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_maui_fs_window w;
	struct ts_maui_fs_file out, back;
	struct ts_cred_usage cu;
	int64_t epoch = 0;
	size_t i, j, len;
	char *text;

	fresh(&cu, 1.0, now);
	read_window(&w, "FS.seed", start, maui_seed_file());
	ck_assert_int_eq(
		ts_maui_fs_import(&cu, &w, 1, site_id, NULL, now, &rep, &err),
		TS_OK);
	ck_assert_int_eq(
		ts_maui_fs_export(&cu, 0, site_name, NULL, &out, &epoch, &err),
		TS_OK);
	ck_assert_int_eq(epoch, start);
	ck_assert_uint_eq(out.duration, DAY2);
	ck_assert(out.total == 600000);
	ck_assert_uint_eq(out.n, w.file.n);
	for (i = 0; i < w.file.n; i++) {
		for (j = 0; j < out.n; j++)
			if (out.entry[j].type == w.file.entry[i].type &&
			    !strcmp(out.entry[j].name, w.file.entry[i].name))
				break;
		ck_assert_msg(j < out.n, "%s missing", w.file.entry[i].name);
		ck_assert(out.entry[j].amount == w.file.entry[i].amount);
	}
	ck_assert_int_eq(ts_maui_fs_format(&out, epoch, &text, &len, &err),
			 TS_OK);
	ck_assert_int_eq(ts_maui_fs_parse(text, len, &back, &err), TS_OK);
	ck_assert_uint_eq(back.n, out.n);
	ck_assert(back.total == 600000);
	ck_assert_uint_eq(back.duration, DAY2);
	ts_maui_fs_free(&out);
	ck_assert_int_eq(
		ts_maui_fs_export(&cu, 4, site_name, NULL, &out, &epoch, &err),
		TS_ERANGE);
	ck_assert_uint_eq(out.n, 0);
	free(text);
	ts_maui_fs_free(&back);
	ts_maui_fs_free(&w.file);
	ts_cred_usage_free(&cu);
}
END_TEST

Suite *suite_maui_fs_history(void)
{
	Suite *s = suite_create("maui_fs_history");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_seed_file_imported);
	tcase_add_test(tc, test_windows_in_order);
	tcase_add_test(tc, test_refusals_named);
	tcase_add_test(tc, test_export_round_trip);
	suite_add_tcase(s, tc);
	return s;
}
