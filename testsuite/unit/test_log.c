/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_log.c - ts_log() hands the caller's logger the whole message.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

struct seen {
	char *msg;
	enum ts_log_level level;
	int calls;
};

static void keep(void *arg, enum ts_log_level level, const char *msg)
{
	struct seen *s = arg;

	free(s->msg);
	s->msg = strdup(msg);
	s->level = level;
	s->calls++;
}

/* A host list of thousands of bytes is not cut (it was at 512). */
START_TEST(long_message_arrives_whole)
{
	struct seen s = { 0 };
	struct ts_logger lg = { keep, &s };
	char *list = malloc(10001);
	size_t i;

	ck_assert_ptr_nonnull(list);
	for (i = 0; i < 10000; i++)
		list[i] = (char)('a' + i % 26);
	list[10000] = '\0';
	ts_log(&lg, TS_LOG_ERROR, "refused: %s: end", list);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.level, TS_LOG_ERROR);
	ck_assert_uint_eq(strlen(s.msg), 10000 + strlen("refused: : end"));
	ck_assert(!strncmp(s.msg, "refused: abc", 12));
	ck_assert_str_eq(s.msg + strlen(s.msg) - 5, ": end");
	ts_log(&lg, TS_LOG_INFO, "short %d", 7);
	ck_assert_str_eq(s.msg, "short 7");
	ts_log(NULL, TS_LOG_INFO, "dropped");
	ck_assert_int_eq(s.calls, 2);
	free(s.msg);
	free(list);
}
END_TEST

Suite *suite_log(void)
{
	Suite *s = suite_create("log");
	TCase *tc = tcase_create("log");

	tcase_add_test(tc, long_message_arrives_whole);
	suite_add_tcase(s, tc);
	return s;
}
