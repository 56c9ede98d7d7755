/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_power's state file: its text form (version 1), the refusal of
 * anything it cannot read for sure, the atomic replace under flock, and
 * seed 001's "MON DD YY HH:MM:SS" status times.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "power/state.h"
#include "power/state_file.h"
#include "power/status.h"

static const char two_nodes[] =
	"node_power-state 1 next_ticket=7\n"
	"n1 power=off sleep=0 op=none owner=0 since=0 changed=1459217159 "
	"used=1459213559 off_at=1459217159 want=off ticket=5\n"
	"nid00024 power=on sleep=4 op=ramp_up owner=4242 since=1459217200 "
	"changed=1459217190 used=0 off_at=0 want=ramp_up ticket=6\n";

START_TEST(state_text_round_trips_every_field)
{
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;
	const struct ts_power_node *a, *b;
	char *text;

	ck_assert_int_eq(
		ts_power_state_parse(&st, two_nodes, strlen(two_nodes), &err),
		TS_OK);
	ck_assert_uint_eq(st.n, 2);
	ck_assert_uint_eq(st.next_ticket, 7);
	a = &st.node[0];
	b = &st.node[1];
	ck_assert_str_eq(a->name, "n1");
	ck_assert_int_eq(a->power, TS_POWER_OFF);
	ck_assert_int_eq(a->off_at, 1459217159);
	ck_assert_int_eq(a->want, TS_POWER_OP_OFF);
	ck_assert_int_eq(b->sleep, 4);
	ck_assert_int_eq(b->op, TS_POWER_OP_RAMP_UP);
	ck_assert_int_eq(b->owner, 4242);
	ck_assert_uint_eq(b->ticket, 6);
	ck_assert_uint_eq(ts_power_state_claims(&st), 1);
	text = ts_power_state_format(&st, &err);
	ck_assert_str_eq(text, two_nodes);
	free(text);
	ts_power_state_free(&st);
}
END_TEST

static void expect_corrupt(const char *text, long line, const char *needle)
{
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_state_parse(&st, text, strlen(text), &err),
			 TS_ECORRUPT);
	ck_assert_int_eq(err.index, line);
	ck_assert_msg(strstr(err.msg, needle), "message \"%s\" lacks \"%s\"",
		      err.msg, needle);
	ck_assert_uint_eq(st.n, 0);
	ts_power_state_free(&st);
}

START_TEST(state_parse_refuses_what_it_cannot_read_for_sure)
{
	expect_corrupt("node_power-state 2 next_ticket=1\n", 1,
		       "version 2, this node_power reads 1");
	expect_corrupt("garbage\n", 1, "not a node_power state file");
	expect_corrupt("node_power-state 1 next_ticket=1\nn1 power=dim\n", 2,
		       "line 2: bad field \"power=dim\"");
	expect_corrupt("node_power-state 1 next_ticket=1\nn1 colour=red\n", 2,
		       "bad field \"colour=red\"");
	expect_corrupt("node_power-state 1 next_ticket=1\nn1 owner=-4\n", 2,
		       "bad field");
	expect_corrupt("node_power-state 1 next_ticket=1\nn1\nn1\n", 3,
		       "node n1 appears twice");
}
END_TEST

START_TEST(state_parse_refuses_truncated_file)
{
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;
	size_t cut = strlen(two_nodes) - 10;

	ck_assert_int_eq(ts_power_state_parse(&st, two_nodes, cut, &err),
			 TS_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "truncated"));
	ts_power_state_free(&st);
}
END_TEST

static char *tmp_dir(void)
{
	char tmpl[] = "/tmp/ts-power-state-XXXXXX";
	char *d = mkdtemp(tmpl);

	ck_assert_ptr_nonnull(d);
	return strdup(d);
}

/* Write a state file as a crashed or older run left it. */
static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void rm_dir(char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(dir);
}

START_TEST(store_saves_atomically_and_reads_back)
{
	char *dir = tmp_dir(), path[256], tmp[300];
	struct ts_power_store s = TS_POWER_STORE_INIT;
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;
	struct stat sb;
	long k;

	snprintf(path, sizeof(path), "%s/state", dir);
	ck_assert_int_eq(ts_power_state_file_lock(&s, path, &st, &err), TS_OK);
	ck_assert_uint_eq(st.n, 0); /* missing file: empty state */
	k = ts_power_state_get(&st, "n1", &err);
	st.node[k].power = TS_POWER_OFF;
	st.node[k].off_at = 1000;
	ck_assert_int_eq(ts_power_state_file_save(&s, &st, &err), TS_OK);
	ts_power_state_file_unlock(&s);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 0777, 0600);
	snprintf(tmp, sizeof(tmp), "%s.new.%ld", path, (long)getpid());
	ck_assert_int_ne(access(tmp, F_OK), 0); /* no leftover */

	ck_assert_int_eq(ts_power_state_file_lock(&s, path, &st, &err), TS_OK);
	ck_assert_uint_eq(st.n, 1);
	ck_assert_int_eq(st.node[0].power, TS_POWER_OFF);
	ck_assert_int_eq(st.node[0].off_at, 1000);
	ts_power_state_file_unlock(&s);
	ts_power_state_free(&st);
	rm_dir(dir);
}
END_TEST

/*
 * A save that cannot be written (write(2) to /dev/full fails with
 * ENOSPC, as on a full disk) names the file and leaves the old state.
 */
START_TEST(store_save_on_a_full_disk_keeps_the_old_state)
{
	char *dir = tmp_dir(), path[256], tmp[300], want[400];
	struct ts_power_store s = TS_POWER_STORE_INIT;
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;
	long k;

	snprintf(path, sizeof(path), "%s/state", dir);
	put_file(path, two_nodes);
	snprintf(tmp, sizeof(tmp), "%s.new.%ld", path, (long)getpid());
	ck_assert_int_eq(symlink("/dev/full", tmp), 0);
	ck_assert_int_eq(ts_power_state_file_lock(&s, path, &st, &err), TS_OK);
	k = ts_power_state_get(&st, "n1", &err);
	st.node[k].off_at = 1;
	ck_assert_int_eq(ts_power_state_file_save(&s, &st, &err), TS_EIO);
	snprintf(want, sizeof(want), "cannot write %s: %s", tmp,
		 strerror(ENOSPC));
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_ne(access(tmp, F_OK), 0); /* no leftover */
	ts_power_state_file_unlock(&s);
	ck_assert_int_eq(ts_power_state_file_lock(&s, path, &st, &err), TS_OK);
	k = ts_power_state_get(&st, "n1", &err);
	ck_assert_int_eq(st.node[k].off_at, 1459217159);
	ts_power_state_file_unlock(&s);
	ts_power_state_free(&st);
	rm_dir(dir);
}
END_TEST

/* A crash between write and rename leaves only a stray .new file. */
START_TEST(store_ignores_half_written_new_file_of_a_crash)
{
	char *dir = tmp_dir(), path[256], stray[300];
	struct ts_power_store s = TS_POWER_STORE_INIT;
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;

	snprintf(path, sizeof(path), "%s/state", dir);
	put_file(path, two_nodes);
	snprintf(stray, sizeof(stray), "%s.new.99999", path);
	put_file(stray, "node_power-state 1 next_ticket=9\nn1 power=o");
	ck_assert_int_eq(ts_power_state_file_lock(&s, path, &st, &err), TS_OK);
	ck_assert_uint_eq(st.n, 2);
	ck_assert_uint_eq(st.next_ticket, 7);
	ts_power_state_file_unlock(&s);
	ts_power_state_free(&st);
	rm_dir(dir);
}
END_TEST

START_TEST(store_quarantines_corrupt_file_keeping_lock)
{
	char *dir = tmp_dir(), path[256], moved[300];
	struct ts_power_store s = TS_POWER_STORE_INIT;
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;

	snprintf(path, sizeof(path), "%s/state", dir);
	put_file(path, "node_power-state 1 next_ticket=1\nn1 power=\n");
	ck_assert_int_eq(ts_power_state_file_lock(&s, path, &st, &err),
			 TS_ECORRUPT);
	ck_assert_int_ge(s.lock_fd, 0);
	ck_assert_int_eq(ts_power_state_file_quarantine(&s, &err), TS_OK);
	snprintf(moved, sizeof(moved), "%s.corrupt", path);
	ck_assert_int_eq(access(moved, F_OK), 0);
	ck_assert_int_eq(ts_power_state_file_save(&s, &st, &err), TS_OK);
	ts_power_state_file_unlock(&s);
	ts_power_state_free(&st);
	rm_dir(dir);
}
END_TEST

/* Seed 001: pbsnodes shows "MON DD YY HH:MM:SS"; its log's 03/29/2016
 * 02:05:59 is 1459217159 in UTC. */
START_TEST(status_prints_times_as_mon_dd_yy_hh_mm_ss)
{
	struct ts_power_node nd = { 0 };
	char buf[256], *tz = getenv("TZ") ? strdup(getenv("TZ")) : NULL;

	setenv("TZ", "UTC", 1);
	tzset();
	ts_power_status_time(1459217159, buf, sizeof(buf));
	ck_assert_str_eq(buf, "Mar 29 16 02:05:59");
	ts_power_status_time(0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "never");

	nd.name = "nid00024";
	nd.power = TS_POWER_OFF;
	nd.changed = 1459217159;
	nd.used = 1459213559;
	ts_power_status_line(&nd, buf, sizeof(buf));
	ck_assert_str_eq(buf, "nid00024 power=off sleep=0 op=none "
			      "last_state_change_time=Mar 29 16 02:05:59 "
			      "last_used_time=Mar 29 16 01:05:59");
	nd.op = TS_POWER_OP_ON;
	nd.owner = 77;
	nd.since = 1459217160;
	ts_power_status_line(&nd, buf, sizeof(buf));
	ck_assert_ptr_nonnull(
		strstr(buf, "op=on(pid 77 since Mar 29 16 02:06:00)"));
	if (tz) {
		setenv("TZ", tz, 1);
		free(tz);
	} else {
		unsetenv("TZ");
	}
	tzset();
}
END_TEST

Suite *suite_power_state(void)
{
	Suite *s = suite_create("power_state");
	TCase *tc = tcase_create("state");

	tcase_add_test(tc, state_text_round_trips_every_field);
	tcase_add_test(tc, state_parse_refuses_what_it_cannot_read_for_sure);
	tcase_add_test(tc, state_parse_refuses_truncated_file);
	tcase_add_test(tc, store_saves_atomically_and_reads_back);
	tcase_add_test(tc, store_save_on_a_full_disk_keeps_the_old_state);
	tcase_add_test(tc, store_ignores_half_written_new_file_of_a_crash);
	tcase_add_test(tc, store_quarantines_corrupt_file_keeping_lock);
	tcase_add_test(tc, status_prints_times_as_mon_dd_yy_hh_mm_ss);
	suite_add_tcase(s, tc);
	return s;
}
