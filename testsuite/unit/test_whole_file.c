/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * whole_file: a regular file read in one call, bounded by max; what is
 * not a regular file is refused at once, including a FIFO nobody writes
 * to (which a plain open(2) would wait on for ever).
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "whole_file.h"

struct dir {
	char path[64];
	char file[96];
};

static void dir_make(struct dir *d)
{
	strcpy(d->path, "/tmp/ts_whole_file_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d->path));
	snprintf(d->file, sizeof(d->file), "%s/f", d->path);
}

static void dir_remove(struct dir *d)
{
	unlink(d->file);
	ck_assert_int_eq(rmdir(d->path), 0);
}

static void put(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

/* path fails with code and the reason alone (the caller adds the path). */
static void refused(const char *path, size_t max, int code, const char *why)
{
	struct ts_error err = TS_ERROR_INIT;
	char *buf = (char *)1;
	size_t len = 99;

	ck_assert_int_eq(ts_whole_file_read(path, max, &buf, &len, &err), code);
	ck_assert_str_eq(err.msg, why);
	ck_assert_ptr_null(buf);
	ck_assert_uint_eq(len, 0);
}

START_TEST(reads_every_byte_and_adds_a_nul_after_them)
{
	static const char bytes[] = { 'a', 0, 'b', '\n', (char)0xff };
	struct ts_error err = TS_ERROR_INIT;
	struct dir d;
	char *buf;
	size_t len;

	dir_make(&d);
	put(d.file, bytes, sizeof(bytes));
	ck_assert_int_eq(
		ts_whole_file_read(d.file, sizeof(bytes), &buf, &len, &err),
		TS_OK);
	ck_assert_uint_eq(len, sizeof(bytes));
	ck_assert_int_eq(memcmp(buf, bytes, sizeof(bytes)), 0);
	ck_assert_int_eq(buf[len], '\0');
	free(buf);
	/* an empty file is an empty string, not an error */
	put(d.file, "", 0);
	ck_assert_int_eq(ts_whole_file_read(d.file, 0, &buf, &len, &err),
			 TS_OK);
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(buf, "");
	free(buf);
	dir_remove(&d);
}
END_TEST

START_TEST(file_over_max_is_refused_before_it_is_read)
{
	struct dir d;

	dir_make(&d);
	put(d.file, "12345", 5);
	refused(d.file, 4, TS_EIO, "larger than 4 bytes");
	dir_remove(&d);
}
END_TEST

START_TEST(missing_file_is_enoent_with_errno_text)
{
	refused("/nonexistent-ts/f", 10, TS_ENOENT,
		"No such file or directory");
}
END_TEST

START_TEST(directory_is_not_a_regular_file)
{
	struct dir d;

	dir_make(&d);
	refused(d.path, 10, TS_EIO, "not a regular file");
	dir_remove(&d);
}
END_TEST

/*
 * With no writer, open(O_RDONLY) of a FIFO waits for one: a targets file
 * path pointing at a FIFO would hang slurmctld.  This test would then
 * hit Check's timeout instead of passing.
 */
START_TEST(fifo_without_writer_is_refused_without_waiting)
{
	struct dir d;

	dir_make(&d);
	ck_assert_int_eq(mkfifo(d.file, 0600), 0);
	refused(d.file, 10, TS_EIO, "not a regular file");
	dir_remove(&d);
}
END_TEST

Suite *suite_whole_file(void)
{
	Suite *s = suite_create("whole_file");
	TCase *tc = tcase_create("whole_file");

	tcase_add_test(tc, reads_every_byte_and_adds_a_nul_after_them);
	tcase_add_test(tc, file_over_max_is_refused_before_it_is_read);
	tcase_add_test(tc, missing_file_is_enoent_with_errno_text);
	tcase_add_test(tc, directory_is_not_a_regular_file);
	tcase_add_test(tc, fifo_without_writer_is_refused_without_waiting);
	suite_add_tcase(s, tc);
	return s;
}
