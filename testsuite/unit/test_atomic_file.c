/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic_file: a replace leaves the old or the new copy, never a torn
 * one, keeps the previous copy when asked, and on every failure (full
 * disk, failed rename, unwritable directory, a previous copy that cannot
 * be replaced) leaves the current file as it was and no temporary copy.
 *
 * The failures are real ones, not simulated: a temporary name that is a
 * symbolic link to /dev/full makes write(2) fail with ENOSPC exactly as a
 * full file system does; a directory standing at PATH makes rename(2)
 * fail; an unprivileged child process meets a directory it cannot write.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_file.h"

/* The unprivileged user of the unwritable-directory test (nobody). */
#define NOBODY 65534

static const struct ts_atomic_file plain = { .tmp_suffix = ".new" };
static const struct ts_atomic_file with_prev = { .tmp_suffix = ".new",
						 .prev_suffix = ".prev" };

struct dir {
	char path[64];
	char file[96], prev[96], tmp[96];
};

static void dir_make(struct dir *d)
{
	strcpy(d->path, "/tmp/ts_atomic_file_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d->path));
	snprintf(d->file, sizeof(d->file), "%s/state", d->path);
	snprintf(d->prev, sizeof(d->prev), "%s/state.prev", d->path);
	snprintf(d->tmp, sizeof(d->tmp), "%s/state.new", d->path);
}

static void dir_remove(struct dir *d)
{
	unlink(d->file);
	unlink(d->prev);
	unlink(d->tmp);
	ck_assert_int_eq(rmdir(d->path), 0);
}

/* The whole content of path, as a string; "(missing)" if there is none. */
static const char *content(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return "(missing)";
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	ck_assert_int_ge(n, 0);
	buf[n] = '\0';
	return buf;
}

static int exists(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0;
}

/* Plain write(2), as a crashed writer left it. */
static void raw_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void put(const char *path, const char *text,
		const struct ts_atomic_file *how)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(
		ts_atomic_file_write(path, text, strlen(text), how, &err),
		TS_OK);
	ck_assert_str_eq(err.msg, "");
}

/* A write of "C" to path fails with TS_EIO and the message want. */
static void write_fails(const char *path, const struct ts_atomic_file *how,
			const char *want)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_atomic_file_write(path, "C", 1, how, &err), TS_EIO);
	ck_assert_str_eq(err.msg, want);
}

START_TEST(sibling_is_the_path_followed_by_the_suffix)
{
	char *s = ts_atomic_file_sibling("/var/lib/slurm/state", ".lock");

	ck_assert_str_eq(s, "/var/lib/slurm/state.lock");
	free(s);
	s = ts_atomic_file_sibling("state", "");
	ck_assert_str_eq(s, "state");
	free(s);
}
END_TEST

START_TEST(write_replaces_the_file_mode_0600_and_leaves_no_temporary)
{
	struct stat sb;
	struct dir d;

	dir_make(&d);
	put(d.file, "first\n", &plain);
	ck_assert_str_eq(content(d.file), "first\n");
	put(d.file, "second\n", &plain);
	ck_assert_str_eq(content(d.file), "second\n");
	ck_assert_int_eq(stat(d.file, &sb), 0);
	ck_assert_uint_eq(sb.st_mode & 07777, 0600);
	ck_assert(!exists(d.tmp));
	ck_assert(!exists(d.prev)); /* none asked for */
	dir_remove(&d);
}
END_TEST

/* A crash between write and rename left a longer temporary copy. */
START_TEST(stray_temporary_of_a_crash_is_overwritten_not_appended_to)
{
	struct dir d;

	dir_make(&d);
	raw_write(d.tmp, "a much longer half-written copy of a crash");
	put(d.file, "new\n", &plain);
	ck_assert_str_eq(content(d.file), "new\n");
	ck_assert(!exists(d.tmp));
	dir_remove(&d);
}
END_TEST

START_TEST(each_write_keeps_the_replaced_copy_as_previous)
{
	struct stat a, b;
	struct dir d;

	dir_make(&d);
	put(d.file, "A", &with_prev);
	ck_assert(!exists(d.prev)); /* nothing to keep on a first write */
	ck_assert_int_eq(stat(d.file, &a), 0);
	put(d.file, "B", &with_prev);
	ck_assert_str_eq(content(d.file), "B");
	ck_assert_str_eq(content(d.prev), "A");
	/* kept by a hard link: the same inode, PATH never went missing */
	ck_assert_int_eq(stat(d.prev, &b), 0);
	ck_assert_uint_eq(a.st_ino, b.st_ino);
	put(d.file, "C", &with_prev);
	ck_assert_str_eq(content(d.file), "C");
	ck_assert_str_eq(content(d.prev), "B");
	dir_remove(&d);
}
END_TEST

static int only_good(const char *path, const void *arg)
{
	(void)arg;
	return strcmp(content(path), "corrupt") != 0;
}

/* A copy the caller finds corrupt never pushes out the good one. */
START_TEST(copy_not_worth_keeping_leaves_the_older_previous_copy)
{
	const struct ts_atomic_file how = { .tmp_suffix = ".new",
					    .prev_suffix = ".prev",
					    .worth_keeping = only_good };
	struct dir d;

	dir_make(&d);
	put(d.file, "good", &how);
	put(d.file, "corrupt", &how);
	ck_assert_str_eq(content(d.prev), "good");
	put(d.file, "newer", &how);
	ck_assert_str_eq(content(d.file), "newer");
	ck_assert_str_eq(content(d.prev), "good");
	dir_remove(&d);
}
END_TEST

/*
 * The temporary copy is a symlink to target, where call (write, fsync)
 * fails with errnum: the message names the call and the temporary copy,
 * and nothing changes.
 */
static void fails_through(const char *target, const char *call, int errnum)
{
	char want[160];
	struct dir d;

	dir_make(&d);
	put(d.file, "A", &with_prev);
	put(d.file, "B", &with_prev);
	ck_assert_int_eq(symlink(target, d.tmp), 0);
	snprintf(want, sizeof(want), "cannot %s %s: %s", call, d.tmp,
		 strerror(errnum));
	write_fails(d.file, &with_prev, want);
	ck_assert_str_eq(content(d.file), "B");
	ck_assert_str_eq(content(d.prev), "A");
	ck_assert(!exists(d.tmp));
	dir_remove(&d);
}

/* write(2) to /dev/full fails with ENOSPC, as on a full file system. */
START_TEST(full_disk_fails_naming_the_file_and_changes_nothing)
{
	fails_through("/dev/full", "write", ENOSPC);
}
END_TEST

/*
 * fsync(2) of /dev/null fails (EINVAL) after a write that succeeded: the
 * message names fsync, not the write, so that an I/O error found only at
 * fsync (EIO) is reported as what it is (issue 22).
 */
START_TEST(failed_fsync_is_named_as_fsync_and_changes_nothing)
{
	fails_through("/dev/null", "fsync", EINVAL);
}
END_TEST

/* A non-empty directory at path: neither rename(2) nor unlink(2) can
 * replace it. */
static void occupy(const char *path)
{
	char inside[128];

	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(inside, sizeof(inside), "%s/keep", path);
	raw_write(inside, "kept");
}

/* Remove occupy()'s directory; RET whether its file was intact. */
static int vacate(const char *path)
{
	char inside[128];
	int intact;

	snprintf(inside, sizeof(inside), "%s/keep", path);
	intact = !strcmp(content(inside), "kept");
	unlink(inside);
	ck_assert_int_eq(rmdir(path), 0);
	return intact;
}

START_TEST(failed_rename_fails_naming_both_and_removes_the_temporary)
{
	char want[256];
	struct dir d;

	dir_make(&d);
	occupy(d.file);
	snprintf(want, sizeof(want), "cannot rename %s to %s: %s", d.tmp,
		 d.file, strerror(EISDIR));
	write_fails(d.file, &plain, want);
	ck_assert(!exists(d.tmp));
	ck_assert(vacate(d.file));
	dir_remove(&d);
}
END_TEST

START_TEST(previous_copy_that_cannot_be_replaced_stops_before_the_rename)
{
	char want[256];
	struct dir d;

	dir_make(&d);
	put(d.file, "A", &with_prev);
	occupy(d.prev);
	snprintf(want, sizeof(want), "cannot remove %s: %s", d.prev,
		 strerror(EISDIR));
	write_fails(d.file, &with_prev, want);
	ck_assert_str_eq(content(d.file), "A");
	ck_assert(!exists(d.tmp));
	ck_assert(vacate(d.prev));
	dir_remove(&d);
}
END_TEST

/* What a child's write returned. */
struct outcome {
	int rc;
	char msg[TS_ERROR_MSG_MAX];
};

/*
 * Run one write as an unprivileged user (root writes anywhere) in a
 * child process.  OUT *out.
 */
static void write_as_nobody(const char *path, struct outcome *out)
{
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct ts_error err = TS_ERROR_INIT;
		struct outcome o;

		memset(&o, 0, sizeof(o));
		close(fds[0]);
		if (geteuid() == 0 && (setgid(NOBODY) || setuid(NOBODY)))
			_exit(3);
		o.rc = ts_atomic_file_write(path, "X", 1, &plain, &err);
		snprintf(o.msg, sizeof(o.msg), "%s", err.msg);
		if (write(fds[1], &o, sizeof(o)) != (ssize_t)sizeof(o))
			_exit(4);
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], out, sizeof(*out));
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(n == (ssize_t)sizeof(*out) && WIFEXITED(status) &&
			      WEXITSTATUS(status) == 0,
		      "child: %zd bytes, exit status %d", n, status);
}

START_TEST(unwritable_directory_fails_naming_the_file_and_changes_nothing)
{
	struct outcome got;
	char want[256];
	struct dir d;

	dir_make(&d);
	put(d.file, "A", &plain);
	ck_assert_int_eq(chmod(d.path, 0555), 0);
	write_as_nobody(d.file, &got);
	ck_assert_int_eq(got.rc, TS_EIO);
	snprintf(want, sizeof(want), "cannot create %s: %s", d.tmp,
		 strerror(EACCES));
	ck_assert_str_eq(got.msg, want);
	ck_assert_str_eq(content(d.file), "A");
	ck_assert(!exists(d.tmp));
	ck_assert_int_eq(chmod(d.path, 0700), 0);
	dir_remove(&d);
}
END_TEST

/* A bare name is in the current directory (its fsync opens "."). */
START_TEST(path_without_a_directory_is_written_in_the_current_one)
{
	int here = open(".", O_RDONLY | O_DIRECTORY);
	struct dir d;

	ck_assert_int_ge(here, 0);
	dir_make(&d);
	ck_assert_int_eq(chdir(d.path), 0);
	put("state", "A", &with_prev);
	put("state", "B", &with_prev);
	ck_assert_int_eq(fchdir(here), 0);
	close(here);
	ck_assert_str_eq(content(d.file), "B");
	ck_assert_str_eq(content(d.prev), "A");
	dir_remove(&d);
}
END_TEST

Suite *suite_atomic_file(void)
{
	Suite *s = suite_create("atomic_file");
	TCase *tc = tcase_create("atomic_file");

	tcase_add_test(tc, sibling_is_the_path_followed_by_the_suffix);
	tcase_add_test(
		tc, write_replaces_the_file_mode_0600_and_leaves_no_temporary);
	tcase_add_test(
		tc, stray_temporary_of_a_crash_is_overwritten_not_appended_to);
	tcase_add_test(tc, each_write_keeps_the_replaced_copy_as_previous);
	tcase_add_test(tc,
		       copy_not_worth_keeping_leaves_the_older_previous_copy);
	tcase_add_test(tc, full_disk_fails_naming_the_file_and_changes_nothing);
	tcase_add_test(tc, failed_fsync_is_named_as_fsync_and_changes_nothing);
	tcase_add_test(
		tc, failed_rename_fails_naming_both_and_removes_the_temporary);
	tcase_add_test(
		tc,
		previous_copy_that_cannot_be_replaced_stops_before_the_rename);
	tcase_add_test(
		tc,
		unwritable_directory_fails_naming_the_file_and_changes_nothing);
	tcase_add_test(tc,
		       path_without_a_directory_is_written_in_the_current_one);
	suite_add_tcase(s, tc);
	return s;
}
