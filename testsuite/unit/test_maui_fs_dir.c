/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A Maui statistics directory's FS.<EPOCH> files (issue 27, migration). */
#include <check.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maui_fs_dir.h"
#include "state_dir.h"

static void put(const struct state_dir *d, const char *name, const char *text)
{
	char path[128];

	state_write_bytes(state_dir_file(d, name, path), text, strlen(text));
}

/* This process's uid as SlurmUser: what it writes is trusted. */
static struct ts_trust me(void)
{
	struct ts_trust t = { (unsigned)geteuid(), "me" };

	return t;
}

/*
 * Only FS.<digits> files are read, newest first; Maui's other statistics
 * files and an FS.<not digits> name are left alone.
 */
START_TEST(test_fs_files_newest_first)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_trust t = me();
	struct ts_maui_fs_dir dir;
	struct state_dir d;

	state_dir_make(&d, "maui");
	put(&d, "FS.1000", "User a 1\nTOTAL 1\n");
	put(&d, "FS.3000", "User b 2\nTOTAL 3\n");
	put(&d, "FS.2000", "TOTAL 2\n");
	put(&d, "FS.latest", "not a data file\n");
	put(&d, "stats.1000", "not a data file\n");
	ck_assert_msg(ts_maui_fs_dir_read(d.path, &t, &dir, &err) == TS_OK,
		      "%s", err.msg);
	ck_assert_uint_eq(dir.n, 3);
	ck_assert_int_eq(dir.win[0].epoch, 3000);
	ck_assert_int_eq(dir.win[1].epoch, 2000);
	ck_assert_int_eq(dir.win[2].epoch, 1000);
	ck_assert(dir.win[0].file.total == 3);
	ck_assert_str_eq(dir.win[2].file.entry[0].name, "a");
	ck_assert_ptr_nonnull(strstr(dir.win[0].path, "/FS.3000"));
	ts_maui_fs_dir_free(&dir);
	ck_assert_uint_eq(dir.n, 0);
	state_dir_remove(&d);
}
END_TEST

/*
 * All or nothing: one bad file refuses the directory, naming the file,
 * the line and the column; so does a directory others may write, and
 * one without any FS file.
 */
START_TEST(test_refusals_name_the_file)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_trust t = me();
	struct ts_maui_fs_dir dir;
	struct state_dir d;

	state_dir_make(&d, "maui");
	ck_assert_int_eq(ts_maui_fs_dir_read(d.path, &t, &dir, &err),
			 TS_ENOENT);
	ck_assert_msg(strstr(err.msg, "no FS.<EPOCH> file in it"), "%s",
		      err.msg);
	put(&d, "FS.1000", "User a 1\nTOTAL 1\n");
	put(&d, "FS.2000", "User a 1\nUser b x\nTOTAL 1\n");
	err = (struct ts_error)TS_ERROR_INIT;
	ck_assert_int_eq(ts_maui_fs_dir_read(d.path, &t, &dir, &err),
			 TS_ESYNTAX);
	ck_assert_msg(strstr(err.msg, "fs_import: ") &&
			      strstr(err.msg, "/FS.2000: line 2, column 8"),
		      "%s", err.msg);
	ck_assert_uint_eq(dir.n, 0);
	ck_assert_ptr_null(dir.win);

	put(&d, "FS.2000", "TOTAL 1\n");
	ck_assert_int_eq(chmod(d.path, 0777), 0);
	err = (struct ts_error)TS_ERROR_INIT;
	ck_assert_int_eq(ts_maui_fs_dir_read(d.path, &t, &dir, &err),
			 TS_EINVAL);
	ck_assert_msg(strstr(err.msg, "fs_import: ") &&
			      strstr(err.msg, "writable by group or others"),
		      "%s", err.msg);
	/* without a trust (an offline reader's own files) it is read */
	ck_assert_int_eq(ts_maui_fs_dir_read(d.path, NULL, &dir, &err), TS_OK);
	ck_assert_uint_eq(dir.n, 2);
	ts_maui_fs_dir_free(&dir);
	ck_assert_int_eq(chmod(d.path, 0700), 0);
	state_dir_remove(&d);
}
END_TEST

Suite *suite_maui_fs_dir(void)
{
	Suite *s = suite_create("maui_fs_dir");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fs_files_newest_first);
	tcase_add_test(tc, test_refusals_name_the_file);
	suite_add_tcase(s, tc);
	return s;
}
