/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Share changes from "sacctmgr -P list transactions" (src/share_changes.c):
 * the Add lines name the ids, the Modify lines with shares= change them;
 * everything else is counted, every line skipped is reported by number.
 * The Add line is as 22.05's sacctmgr printed it in the cluster lab.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fs_trees.h"
#include "share_changes.h"

enum { ROOT, GROUP1, BOB, CATHY, GROUP2, SUZY, SCOTT, NODES };

struct heard {
	long line[8];
	char msg[8][160];
	size_t n;
};

static long resolve(void *arg, const char *account, const char *user)
{
	const struct ts_tree *t = ((void **)arg)[0];

	return *user ? ts_tree_find(t, user, 1, account)
		     : ts_tree_find(t, account, 0, NULL);
}

static void hear(void *arg, long line, const char *msg)
{
	struct heard *h = ((void **)arg)[1];

	if (h->n < 8) {
		h->line[h->n] = line;
		snprintf(h->msg[h->n++], sizeof(h->msg[0]), "%s", msg);
	}
}

START_TEST(share_changes_read_from_transactions)
{
	static const char text[] =
		"Time|Action|Actor|Where|Info\n"
		"2026-11-29T16:31:19|Add Associations|root|id_assoc=8|mod_time=1795969879, acct='group2', user='scott', `partition`='', shares=40, grp_jobs=NULL, qos='', delta_qos=''\n"
		"2026-11-29T16:31:19|Add Associations|root|id_assoc=5|mod_time=1795969879, acct='group1', user='bob', `partition`='', shares=50\n"
		"2026-11-29T16:31:19|Add Associations|root|id_assoc=3|mod_time=1795969879, acct='group2', user='', `partition`='', shares=60\n"
		"2026-11-29T16:31:19|Add Associations|root|id_assoc=9|mod_time=1795969879, acct='group9', user='eve', shares=1\n"
		"2026-11-29T16:33:19|Modify Clusters|root|name='tslab'|control_host='127.0.0.1', control_port=10298\n"
		"2026-11-29T16:40:00|Modify Associations|root|(id_assoc=5)|shares=10\n"
		"2026-11-29T16:41:00|Modify Associations|root|(id_assoc=8 OR id_assoc=3)|shares=2147483647\n"
		"2026-11-29T16:42:00|Modify Associations|root|(id_assoc=77)|shares=3\n"
		"2026-11-29T16:43:00|Modify Associations|root|(id_assoc=9)|shares=3\n"
		"2026-11-29T16:44:00|Modify Associations|root|(id_assoc=5)|max_jobs=4\n"
		"2026-11-29T16:45:00|Modify Associations|root|(id_assoc=5)|shares=-1\n"
		"2026-11-29T16:46:00|Modify Associations|root\n";
	char *copy = strdup(text);
	struct ts_tree t;
	struct heard heard = { 0 };
	void *args[2] = { &t, &heard };
	struct ts_share_hooks h = { .resolve = resolve,
				    .report = hear,
				    .arg = args };
	struct ts_share_changes out = { 0 };
	struct ts_share_summary sum = { 0 };
	struct ts_error err = TS_ERROR_INIT;

	setenv("TZ", "UTC", 1);
	seed000_tree(&t, 0);
	ck_assert_int_eq(ts_share_changes_parse_in_place(copy, strlen(copy), &h,
							 &out, &sum, &err),
			 TS_OK);
	ck_assert_uint_eq(sum.lines, 13);
	ck_assert_uint_eq(out.n, 3);
	ck_assert_uint_eq(sum.changes, 3);
	ck_assert_int_eq(out.c[0].node, BOB);
	ck_assert_uint_eq(out.c[0].shares, 10);
	ck_assert_int_eq(out.c[0].line, 7);
	ck_assert_int_eq(out.c[0].time, 1795970400); /* 16:40:00 UTC */
	ck_assert_int_eq(out.c[1].node, SCOTT);
	ck_assert_uint_eq(out.c[1].shares, TS_SHARES_PARENT);
	ck_assert_int_eq(out.c[2].node, GROUP2);
	ck_assert_uint_eq(out.c[2].shares, TS_SHARES_PARENT);
	ck_assert_uint_eq(sum.unknown_id, 1);	 /* 77 */
	ck_assert_uint_eq(sum.unknown_assoc, 1); /* eve in group9 */
	ck_assert_uint_eq(sum.bad, 2);		 /* -1, a cut line */
	ck_assert_uint_eq(sum.other, 4 + 1 + 1); /* Adds, Clusters, max_jobs */
	ck_assert_uint_eq(heard.n, 4);
	ck_assert_int_eq(heard.line[0], 9);
	ck_assert_str_eq(
		heard.msg[0],
		"id_assoc=77: no Add Associations line above names it: skipped");
	ck_assert_int_eq(heard.line[1], 10);
	ck_assert_int_eq(heard.line[2], 12);
	ck_assert_int_eq(heard.line[3], 13);
	free(copy);
	ts_share_changes_free(&out);
	ts_tree_free(&t);
}
END_TEST

START_TEST(share_changes_header_without_a_needed_field)
{
	char text[] = "Time|Action|Actor|Info\n";
	struct ts_tree t;
	struct heard heard = { 0 };
	void *args[2] = { &t, &heard };
	struct ts_share_hooks h = { .resolve = resolve, .arg = args };
	struct ts_share_changes out = { 0 };
	struct ts_share_summary sum = { 0 };
	struct ts_error err = TS_ERROR_INIT;

	seed000_tree(&t, 0);
	ck_assert_int_eq(ts_share_changes_parse_in_place(text, strlen(text), &h,
							 &out, &sum, &err),
			 TS_EINVAL);
	ck_assert_str_eq(
		err.msg,
		"line 1: no field Where in the header (sacctmgr -P list transactions)");
	ts_tree_free(&t);
}
END_TEST

Suite *suite_share_changes(void)
{
	Suite *s = suite_create("share_changes");
	TCase *tc = tcase_create("share_changes");

	tcase_add_test(tc, share_changes_read_from_transactions);
	tcase_add_test(tc, share_changes_header_without_a_needed_field);
	suite_add_tcase(s, tc);
	return s;
}
