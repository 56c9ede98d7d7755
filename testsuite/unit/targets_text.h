/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * targets_text.h - a targets file parsed from text in the unit tests
 * (test_targets.c, test_caps.c): parsed or refused as expected.
 * Header-only (static), as fs_trees.h.
 */
#ifndef TS_TEST_TARGETS_TEXT_H
#define TS_TEST_TARGETS_TEXT_H

#include <check.h>
#include <string.h>

#include "targets.h"

/* text must parse; the caller frees the result. */
static inline struct ts_targets *parse_ok(const char *text)
{
	struct ts_targets *tg;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_msg(ts_targets_parse(text, strlen(text), &tg, &err) == TS_OK,
		      "%s", err.msg);
	return tg;
}

/* text must be refused with code, at line, with exactly msg. */
static inline void expect_error(const char *text, int code, long line,
				const char *msg)
{
	struct ts_targets *tg = (struct ts_targets *)1;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_targets_parse(text, strlen(text), &tg, &err), code);
	ck_assert_ptr_null(tg);
	ck_assert_int_eq(err.index, line);
	ck_assert_str_eq(err.msg, msg);
}

#endif /* TS_TEST_TARGETS_TEXT_H */
