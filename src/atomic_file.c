/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic_file.c - replace a file by write, fsync, rename, fsync of the
 * directory (steps and guarantees in atomic_file.h).
 *
 * Edge cases: a short write is continued and EINTR retried; close() is
 * checked too (NFS reports a failed write there); the previous copy is
 * kept before the rename, so a failure there leaves PATH untouched, and
 * an old PATH<prev> is only removed once the new temporary copy is safely
 * on disk.  A path without a '/' is in the current directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"

char *ts_atomic_file_sibling(const char *path, const char *suffix)
{
	size_t a = strlen(path), b = strlen(suffix);
	char *s = malloc(a + b + 1);

	if (s) {
		memcpy(s, path, a);
		memcpy(s + a, suffix, b + 1);
	}
	return s;
}

/* write(2) all of buf; RET 0 or -1 with errno set. */
static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t r = write(fd, buf, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		buf += r;
		len -= (size_t)r;
	}
	return 0;
}

/* Step 1: tmp holds buf, on disk; on error tmp is gone. */
static int write_tmp(const char *tmp, const void *buf, size_t len,
		     struct ts_error *err)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc;

	if (fd < 0)
		return ts_error_set(err, TS_EIO, -1, "cannot create %s: %s",
				    tmp, strerror(errno));
	if (write_all(fd, buf, len)) {
		rc = ts_error_set(err, TS_EIO, -1, "cannot write %s: %s", tmp,
				  strerror(errno));
		close(fd);
		unlink(tmp);
		return rc;
	}
	if (fsync(fd)) {
		rc = ts_error_set(err, TS_EIO, -1, "cannot fsync %s: %s", tmp,
				  strerror(errno));
		close(fd);
		unlink(tmp);
		return rc;
	}
	if (close(fd)) {
		rc = ts_error_set(err, TS_EIO, -1, "cannot write %s: %s", tmp,
				  strerror(errno));
		unlink(tmp);
		return rc;
	}
	return TS_OK;
}

/* Step 2: path as prev; a hard link, so path never goes missing. */
static int keep_previous(const char *path, const char *prev,
			 struct ts_error *err)
{
	if (unlink(prev) && errno != ENOENT)
		return ts_error_set(err, TS_EIO, -1, "cannot remove %s: %s",
				    prev, strerror(errno));
	if (!link(path, prev))
		return TS_OK;
	/* No hard links here: a rename leaves prev for a reader to use. */
	if (!rename(path, prev))
		return TS_OK;
	return ts_error_set(err, TS_EIO, -1, "cannot keep %s as %s: %s", path,
			    prev, strerror(errno));
}

/* Step 4: best effort, the rename itself is already atomic. */
static void sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

static int worth_keeping(const char *path, const struct ts_atomic_file *how)
{
	if (access(path, F_OK))
		return 0; /* a first write: nothing to keep */
	return !how->worth_keeping || how->worth_keeping(path, how->arg);
}

int ts_atomic_file_write(const char *path, const void *buf, size_t len,
			 const struct ts_atomic_file *how, struct ts_error *err)
{
	char *tmp = ts_atomic_file_sibling(path, how->tmp_suffix), *prev = NULL;
	int rc;

	if (how->prev_suffix)
		prev = ts_atomic_file_sibling(path, how->prev_suffix);
	if (!tmp || (how->prev_suffix && !prev)) {
		rc = ts_error_set(err, TS_ENOMEM, -1, "cannot save %s: %s",
				  path, strerror(ENOMEM));
		goto out;
	}
	rc = write_tmp(tmp, buf, len, err);
	if (rc)
		goto out;
	if (prev && worth_keeping(path, how)) {
		rc = keep_previous(path, prev, err);
		if (rc) {
			unlink(tmp);
			goto out;
		}
	}
	if (rename(tmp, path)) {
		rc = ts_error_set(err, TS_EIO, -1, "cannot rename %s to %s: %s",
				  tmp, path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	sync_dir(path);
out:
	free(tmp);
	free(prev);
	return rc;
}
