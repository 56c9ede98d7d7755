/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_trust.c - root or SlurmUser, and no one else may write
 * (file_trust.h).
 *
 * ts_trust_open() resolves the path one component at a time from "/",
 * each opened with O_PATH | O_NOFOLLOW relative to the directory before
 * it, so a rename or a new link between two steps changes nothing that
 * was already checked: a link is checked on its own descriptor and read
 * from it (readlinkat(fd, "")); the final file is checked on the
 * O_PATH descriptor, opened for reading relative to the same directory
 * descriptor, and that descriptor must be the same file (device and
 * inode), else it was swapped in between and is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_trust.h"
#include "whole_file.h"

#define MAX_LINKS 40 /* as the kernel's own limit */

int ts_trust_check(const char *what, const char *path, unsigned uid,
		   const char *owner_name, unsigned mode,
		   enum ts_trust_kind kind, const struct ts_trust *trust,
		   struct ts_error *err)
{
	const char *k = kind == TS_TRUST_DIR	? "directory "
			: kind == TS_TRUST_LINK ? "symbolic link "
						: "";
	const char *sep = what && *what ? ": " : "";

	what = what ? what : "";
	if (uid != 0 && uid != trust->slurm_uid)
		return ts_error_set(
			err, TS_EINVAL, -1,
			"%s%s%s%s is owned by %s (uid %u), not by root or SlurmUser %s (uid %u); mode %04o",
			what, sep, k, path, owner_name, uid, trust->slurm_user,
			trust->slurm_uid, mode & 07777);
	if (kind == TS_TRUST_LINK)
		return TS_OK;
	if ((mode & 022) &&
	    !(kind == TS_TRUST_DIR && uid == 0 && (mode & 01000)))
		return ts_error_set(
			err, TS_EINVAL, -1,
			"%s%s%s%s has mode %04o: writable by group or others (chmod go-w %s); owner %s (uid %u)",
			what, sep, k, path, mode & 07777, path, owner_name,
			uid);
	return TS_OK;
}

/* The owner's name for a message: "nobody", else "no user". */
static void owner_name(unsigned uid, char *name, size_t size)
{
	struct passwd pw, *found = NULL;
	char buf[1024];

	if (getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &found) || !found)
		snprintf(name, size, "no user");
	else
		snprintf(name, size, "%s", found->pw_name);
}

static int check_stat(const char *what, const char *shown,
		      const struct stat *st, enum ts_trust_kind kind,
		      const struct ts_trust *trust, struct ts_error *err)
{
	char name[64];

	owner_name((unsigned)st->st_uid, name, sizeof(name));
	return ts_trust_check(what, shown, (unsigned)st->st_uid, name,
			      (unsigned)st->st_mode, kind, trust, err);
}

static int sys_error(const char *what, const char *path, int e,
		     struct ts_error *err)
{
	return ts_error_set(err, e == ENOENT ? TS_ENOENT : TS_EIO, -1,
			    "%s%s%s: %s", what, *what ? ": " : "", path,
			    strerror(e));
}

/* The walk's state: the directory reached, its path, what is left. */
struct walk {
	int dir;		 /* O_PATH descriptor of the directory */
	char at[PATH_MAX];	 /* its path as resolved, "" for "/" */
	char rest[2 * PATH_MAX]; /* components still to walk */
	int links;
};

static int walk_root(struct walk *w)
{
	if (w->dir >= 0)
		close(w->dir);
	w->at[0] = '\0';
	w->dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return w->dir < 0 ? -1 : 0;
}

/* A link at w->at/comp (descriptor fd): checked, its text spliced in. */
static int follow(struct walk *w, int fd, const struct stat *st,
		  const char *shown, const char *what,
		  const struct ts_trust *trust, struct ts_error *err)
{
	char target[PATH_MAX + 1], tail[2 * PATH_MAX];
	ssize_t n;

	if (check_stat(what, shown, st, TS_TRUST_LINK, trust, err))
		return -1;
	if (++w->links > MAX_LINKS) {
		sys_error(what, shown, ELOOP, err);
		return -1;
	}
	n = readlinkat(fd, "", target, sizeof(target) - 1);
	if (n < 0 || (size_t)n >= sizeof(target) - 1) {
		sys_error(what, shown, n < 0 ? errno : ENAMETOOLONG, err);
		return -1;
	}
	target[n] = '\0';
	snprintf(tail, sizeof(tail), "%s", w->rest);
	if ((size_t)snprintf(w->rest, sizeof(w->rest), "%s/%s", target, tail) >=
	    sizeof(w->rest)) {
		sys_error(what, shown, ENAMETOOLONG, err);
		return -1;
	}
	if (target[0] == '/' && walk_root(w)) {
		sys_error(what, "/", errno, err);
		return -1;
	}
	return 0;
}

/* Take the next component of w->rest into comp; RET 0 when none is left. */
static int next_comp(struct walk *w, char *comp, size_t size)
{
	char *s = w->rest, *end;
	size_t n;

	s += strspn(s, "/");
	end = s + strcspn(s, "/");
	n = (size_t)(end - s);
	if (!n)
		return 0;
	snprintf(comp, size, "%.*s", (int)(n < size ? n : size - 1), s);
	memmove(w->rest, end, strlen(end) + 1);
	return 1;
}

static int last_comp(const struct walk *w)
{
	return w->rest[strspn(w->rest, "/")] == '\0';
}

/* The final file: checked on its O_PATH fd, read from the same file. */
static int open_final(struct walk *w, const struct stat *st, const char *comp,
		      const char *shown, const char *what,
		      const struct ts_trust *trust, int *out,
		      struct ts_error *err)
{
	struct stat rs;
	int fd;

	if (!S_ISREG(st->st_mode))
		return ts_error_set(err, TS_EIO, -1,
				    "%s%s%s: not a regular file", what,
				    *what ? ": " : "", shown);
	if (check_stat(what, shown, st, TS_TRUST_FILE, trust, err))
		return TS_EINVAL;
	/* O_NONBLOCK: a FIFO swapped in would block the open. */
	fd = openat(w->dir, comp,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return sys_error(what, shown, errno, err);
	if (fstat(fd, &rs) || rs.st_dev != st->st_dev ||
	    rs.st_ino != st->st_ino) {
		close(fd);
		return ts_error_set(err, TS_EIO, -1,
				    "%s%s%s: replaced while opened", what,
				    *what ? ": " : "", shown);
	}
	*out = fd;
	return TS_OK;
}

int ts_trust_open(const char *what, const char *path,
		  const struct ts_trust *trust, int *out, struct ts_error *err)
{
	struct walk *w;
	char comp[NAME_MAX + 1], shown[PATH_MAX + NAME_MAX + 2];
	int rc = TS_OK;

	*out = -1;
	what = what ? what : "";
	if (!path || path[0] != '/')
		return ts_error_set(err, TS_EINVAL, -1,
				    "%s%s%s: not an absolute path", what,
				    *what ? ": " : "", path ? path : "");
	w = malloc(sizeof(*w));
	if (!w)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	w->dir = -1;
	w->links = 0;
	if (strlen(path) >= sizeof(w->rest)) {
		free(w);
		return sys_error(what, path, ENAMETOOLONG, err);
	}
	snprintf(w->rest, sizeof(w->rest), "%s", path);
	if (walk_root(w)) {
		rc = sys_error(what, "/", errno, err);
		goto out;
	}
	for (;;) {
		struct stat st;
		int fd;

		if (!next_comp(w, comp, sizeof(comp))) {
			rc = ts_error_set(err, TS_EIO, -1,
					  "%s%s%s: not a regular file", what,
					  *what ? ": " : "", path);
			break;
		}
		snprintf(shown, sizeof(shown), "%s/%s", w->at, comp);
		fd = openat(w->dir, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st)) {
			rc = sys_error(what, shown, errno, err);
			if (fd >= 0)
				close(fd);
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			rc = follow(w, fd, &st, shown, what, trust, err);
			close(fd);
			if (rc) {
				rc = err && err->code ? err->code : TS_EIO;
				break;
			}
			continue;
		}
		if (last_comp(w)) {
			rc = open_final(w, &st, comp, shown, what, trust, out,
					err);
			close(fd);
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			close(fd);
			rc = sys_error(what, shown, ENOTDIR, err);
			break;
		}
		close(w->dir);
		w->dir = fd;
		if (!strcmp(comp, "..")) {
			char *slash = strrchr(w->at, '/');

			if (slash)
				*slash = '\0';
		} else if (strcmp(comp, ".")) {
			snprintf(w->at, sizeof(w->at), "%s", shown);
		}
	}
out:
	if (w->dir >= 0)
		close(w->dir);
	free(w);
	return rc;
}

int ts_trust_read(const char *what, const char *path,
		  const struct ts_trust *trust, size_t max, char **buf,
		  size_t *len, struct ts_error *err)
{
	struct ts_error why = TS_ERROR_INIT;
	int fd, rc;

	*buf = NULL;
	*len = 0;
	rc = ts_trust_open(what, path, trust, &fd, err);
	if (rc)
		return rc;
	rc = ts_whole_file_read_fd(fd, max, buf, len, &why);
	close(fd);
	if (rc)
		return ts_error_set(err, rc, -1, "%s%s%s: %s", what,
				    *what ? ": " : "", path, why.msg);
	return TS_OK;
}
