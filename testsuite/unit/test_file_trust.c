/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_trust: a file named in the configuration is read only if root or
 * SlurmUser owns it and neither group nor others may write it; a
 * symbolic link on the way must itself be owned by root or SlurmUser, so
 * a link someone else placed (to /etc/shadow, say) is refused before its
 * target is opened (issue 31).  The open tests chown to nobody when run
 * as root; run as another user (the package stage runs check-unit as
 * nobody) the files are already that user's: trusted as SlurmUser where
 * a test needs a trusted file, another's where it needs a refusal.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_trust.h"

#define NOBODY 65534u
#define SLURM  64030u

static const struct ts_trust trust = { SLURM, "slurm" };

static int check(unsigned uid, unsigned mode, enum ts_trust_kind kind,
		 struct ts_error *err)
{
	ts_error_clear(err);
	return ts_trust_check("fs_targets", "/etc/t", uid,
			      uid == 0	     ? "root"
			      : uid == SLURM ? "slurm"
					     : "nobody",
			      mode, kind, &trust, err);
}

START_TEST(root_or_slurmuser_with_no_write_for_others_is_trusted)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(check(0, S_IFREG | 0644, TS_TRUST_FILE, &err), TS_OK);
	ck_assert_int_eq(check(SLURM, S_IFREG | 0644, TS_TRUST_FILE, &err),
			 TS_OK);
	ck_assert_int_eq(check(0, S_IFREG | 0600, TS_TRUST_FILE, &err), TS_OK);
	ck_assert_int_eq(check(SLURM, S_IFREG | 0400, TS_TRUST_FILE, &err),
			 TS_OK);
}
END_TEST

START_TEST(other_owner_is_refused_naming_owner_and_mode)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(check(NOBODY, S_IFREG | 0644, TS_TRUST_FILE, &err),
			 TS_EINVAL);
	ck_assert_str_eq(
		err.msg,
		"fs_targets: /etc/t is owned by nobody (uid 65534), not by root or SlurmUser slurm (uid 64030); mode 0644");
	ck_assert_int_eq(check(NOBODY, S_IFREG | 0600, TS_TRUST_FILE, &err),
			 TS_EINVAL);
}
END_TEST

START_TEST(group_or_other_write_is_refused_naming_mode_and_owner)
{
	static const unsigned modes[] = { 0664, 0666, 0646, 0620, 0602 };
	struct ts_error err = TS_ERROR_INIT;
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		ck_assert_int_eq(
			check(0, S_IFREG | modes[i], TS_TRUST_FILE, &err),
			TS_EINVAL);
		ck_assert_int_eq(
			check(SLURM, S_IFREG | modes[i], TS_TRUST_FILE, &err),
			TS_EINVAL);
	}
	check(0, S_IFREG | 0666, TS_TRUST_FILE, &err);
	ck_assert_str_eq(
		err.msg,
		"fs_targets: /etc/t has mode 0666: writable by group or others (chmod go-w /etc/t); owner root (uid 0)");
	check(SLURM, S_IFREG | 0646, TS_TRUST_FILE, &err);
	ck_assert_str_eq(
		err.msg,
		"fs_targets: /etc/t has mode 0646: writable by group or others (chmod go-w /etc/t); owner slurm (uid 64030)");
}
END_TEST

/* A link's mode is always 0777 and means nothing: its owner does. */
START_TEST(symbolic_link_is_judged_by_its_owner_alone)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(check(0, S_IFLNK | 0777, TS_TRUST_LINK, &err), TS_OK);
	ck_assert_int_eq(check(SLURM, S_IFLNK | 0777, TS_TRUST_LINK, &err),
			 TS_OK);
	ck_assert_int_eq(check(NOBODY, S_IFLNK | 0777, TS_TRUST_LINK, &err),
			 TS_EINVAL);
	ck_assert_str_eq(
		err.msg,
		"fs_targets: symbolic link /etc/t is owned by nobody (uid 65534), not by root or SlurmUser slurm (uid 64030); mode 0777");
}
END_TEST

START_TEST(sticky_directory_is_trusted_only_when_root_owns_it)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(check(0, S_IFDIR | 01777, TS_TRUST_DIR, &err), TS_OK);
	ck_assert_int_eq(check(SLURM, S_IFDIR | 01777, TS_TRUST_DIR, &err),
			 TS_EINVAL);
	ck_assert_int_eq(check(0, S_IFDIR | 0777, TS_TRUST_DIR, &err),
			 TS_EINVAL);
	ck_assert_int_eq(check(0, S_IFREG | 01777, TS_TRUST_FILE, &err),
			 TS_EINVAL);
}
END_TEST

/* ------------------------------------------------- the walk, on disk */

struct dir {
	char path[64];
};

static void dir_make(struct dir *d)
{
	strcpy(d->path, "/tmp/ts_file_trust_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d->path));
	ck_assert_int_eq(chmod(d->path, 0755), 0);
}

/* "DIR/name" in a static ring of buffers. */
static const char *at(const struct dir *d, const char *name)
{
	static char buf[8][128];
	static int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", d->path, name);
	return buf[i];
}

static void put(const char *path, const char *text, unsigned mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ck_assert_int_eq(chmod(path, mode), 0);
}

static int is_root(void)
{
	return geteuid() == 0;
}

/* Whom a file this test made is trusted by: root, else its owner. */
static struct ts_trust mine(void)
{
	struct ts_trust t = { SLURM, "slurm" };

	if (!is_root()) {
		t.slurm_uid = (unsigned)geteuid();
		t.slurm_user = "me";
	}
	return t;
}

/* As root: give path to uid.  Else it stays ours (another's to trust). */
static void give(const char *path, unsigned uid)
{
	if (!is_root())
		return;
	ck_assert_msg(lchown(path, uid, uid) == 0,
		      "lchown %s to %u (the unit tests run as root)", path,
		      uid);
}

static void dir_remove(struct dir *d)
{
	static const char *const names[] = { "f", "g",	   "l",	 "m",
					     "n", "sub/f", "sub" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (unlink(at(d, names[i])))
			rmdir(at(d, names[i]));
	ck_assert_int_eq(rmdir(d->path), 0);
}

/* Read path under tr: RET the code; *text the bytes or NULL. */
static int rd_as(const struct ts_trust *tr, const char *path, char **text,
		 struct ts_error *err)
{
	size_t len;

	ts_error_clear(err);
	return ts_trust_read("fs_targets", path, tr, 4096, text, &len, err);
}

/* Read path trusting what this test made (mine()). */
static int rd(const char *path, char **text, struct ts_error *err)
{
	struct ts_trust t = mine();

	return rd_as(&t, path, text, err);
}

/* Read path trusting root and SlurmUser 64030 only: nobody's refused. */
static int rd_strict(const char *path, char **text, struct ts_error *err)
{
	return rd_as(&trust, path, text, err);
}

/* err.msg is want as root; run as another user, it holds part. */
static void msg_is(const struct ts_error *err, const char *want,
		   const char *part)
{
	if (is_root())
		ck_assert_str_eq(err->msg, want);
	else
		ck_assert_msg(strstr(err->msg, part), "\"%s\" lacks \"%s\"",
			      err->msg, part);
}

START_TEST(trusted_file_and_trusted_links_are_read)
{
	struct ts_error err = TS_ERROR_INIT;
	struct dir d;
	char *text;

	dir_make(&d);
	put(at(&d, "f"), "user bob 20\n", 0644);
	ck_assert_int_eq(rd(at(&d, "f"), &text, &err), TS_OK);
	ck_assert_str_eq(text, "user bob 20\n");
	free(text);
	/* l -> m -> f (relative), m -> sub/.. path: every link root's */
	ck_assert_int_eq(mkdir(at(&d, "sub"), 0755), 0);
	ck_assert_int_eq(symlink("sub/../f", at(&d, "m")), 0);
	ck_assert_int_eq(symlink(at(&d, "m"), at(&d, "l")), 0);
	ck_assert_int_eq(rd(at(&d, "l"), &text, &err), TS_OK);
	ck_assert_str_eq(text, "user bob 20\n");
	free(text);
	/* SlurmUser's file: trusted as root's */
	give(at(&d, "f"), SLURM);
	ck_assert_int_eq(rd(at(&d, "l"), &text, &err), TS_OK);
	free(text);
	dir_remove(&d);
}
END_TEST

START_TEST(file_of_another_owner_or_writable_by_others_is_not_read)
{
	struct ts_error err = TS_ERROR_INIT;
	struct dir d;
	char *text;
	char want[256];

	dir_make(&d);
	put(at(&d, "f"), "user bob 100\n", 0644);
	give(at(&d, "f"), NOBODY);
	ck_assert_int_eq(rd_strict(at(&d, "f"), &text, &err), TS_EINVAL);
	ck_assert_ptr_null(text);
	snprintf(
		want, sizeof(want),
		"fs_targets: %s is owned by nobody (uid 65534), not by root or SlurmUser slurm (uid 64030); mode 0644",
		at(&d, "f"));
	msg_is(&err, want, "is owned by");
	give(at(&d, "f"), 0);
	ck_assert_int_eq(chmod(at(&d, "f"), 0666), 0);
	ck_assert_int_eq(rd(at(&d, "f"), &text, &err), TS_EINVAL);
	snprintf(
		want, sizeof(want),
		"fs_targets: %s has mode 0666: writable by group or others (chmod go-w %s); owner root (uid 0)",
		at(&d, "f"), at(&d, "f"));
	msg_is(&err, want, "has mode 0666: writable by group or others");
	/* a root link to it: the final file still decides */
	ck_assert_int_eq(symlink(at(&d, "f"), at(&d, "l")), 0);
	ck_assert_int_eq(rd(at(&d, "l"), &text, &err), TS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "has mode 0666"));
	dir_remove(&d);
}
END_TEST

/*
 * nobody's link to a root-only file: refused on the link, whose target
 * is never opened; the message names the link, not a byte of the file.
 */
START_TEST(link_placed_by_another_user_is_refused_before_its_target)
{
	struct ts_error err = TS_ERROR_INIT;
	struct dir d;
	char *text;
	char want[256];

	dir_make(&d);
	put(at(&d, "g"), "root:*:20228:0:99999:7:::\n", 0600);
	ck_assert_int_eq(symlink(at(&d, "g"), at(&d, "l")), 0);
	give(at(&d, "l"), NOBODY);
	ck_assert_int_eq(rd_strict(at(&d, "l"), &text, &err), TS_EINVAL);
	ck_assert_ptr_null(text);
	snprintf(
		want, sizeof(want),
		"fs_targets: symbolic link %s is owned by nobody (uid 65534), not by root or SlurmUser slurm (uid 64030); mode 0777",
		at(&d, "l"));
	msg_is(&err, want, "symbolic link");
	/* root's link -> nobody's link -> root's file: refused too */
	ck_assert_int_eq(symlink(at(&d, "l"), at(&d, "m")), 0);
	ck_assert_int_eq(rd_strict(at(&d, "m"), &text, &err), TS_EINVAL);
	msg_is(&err, want, "symbolic link");
	/* nobody's link as a directory on the way: refused too */
	ck_assert_int_eq(mkdir(at(&d, "sub"), 0755), 0);
	put(at(&d, "sub/f"), "user bob 1\n", 0644);
	ck_assert_int_eq(symlink(at(&d, "sub"), at(&d, "n")), 0);
	give(at(&d, "n"), NOBODY);
	ck_assert_int_eq(rd_strict(at(&d, "n/f"), &text, &err), TS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "symbolic link"));
	ck_assert_ptr_nonnull(strstr(err.msg, at(&d, "n")));
	dir_remove(&d);
}
END_TEST

START_TEST(missing_file_directory_and_relative_path_are_named)
{
	struct ts_error err = TS_ERROR_INIT;
	struct dir d;
	char *text;
	char want[256];

	dir_make(&d);
	ck_assert_int_eq(rd(at(&d, "f"), &text, &err), TS_ENOENT);
	snprintf(want, sizeof(want),
		 "fs_targets: %s: No such file or directory", at(&d, "f"));
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(symlink("f", at(&d, "l")), 0);
	ck_assert_int_eq(rd(at(&d, "l"), &text, &err), TS_ENOENT);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(rd(d.path, &text, &err), TS_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "not a regular file"));
	ck_assert_int_eq(rd("etc/t", &text, &err), TS_EINVAL);
	ck_assert_str_eq(err.msg, "fs_targets: etc/t: not an absolute path");
	dir_remove(&d);
}
END_TEST

Suite *suite_file_trust(void)
{
	Suite *s = suite_create("file_trust");
	TCase *tc = tcase_create("file_trust");

	tcase_add_test(tc,
		       root_or_slurmuser_with_no_write_for_others_is_trusted);
	tcase_add_test(tc, other_owner_is_refused_naming_owner_and_mode);
	tcase_add_test(tc,
		       group_or_other_write_is_refused_naming_mode_and_owner);
	tcase_add_test(tc, symbolic_link_is_judged_by_its_owner_alone);
	tcase_add_test(tc, sticky_directory_is_trusted_only_when_root_owns_it);
	tcase_add_test(tc, trusted_file_and_trusted_links_are_read);
	tcase_add_test(tc,
		       file_of_another_owner_or_writable_by_others_is_not_read);
	tcase_add_test(
		tc, link_placed_by_another_user_is_refused_before_its_target);
	tcase_add_test(tc, missing_file_directory_and_relative_path_are_named);
	suite_add_tcase(s, tc);
	return s;
}
